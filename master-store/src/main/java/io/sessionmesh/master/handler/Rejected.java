package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;

/**
 * A frame that is answered without being handled: its header or body was wrong ({@link RequestDecoder}) or it came
 * where it has no meaning. It travels inbound to {@link DataHandler}, the pipeline's last handler, which answers it,
 * so that every answer passes {@link FlowControlHandler} on its way out. When {@code fatal}, the stream cannot be framed
 * any more: the connection stops reading and closes once the answer is sent.
 */
public record Rejected(MasterAnswer.Error answer, boolean fatal) {
}
