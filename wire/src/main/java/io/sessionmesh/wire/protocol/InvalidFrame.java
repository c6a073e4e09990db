package io.sessionmesh.wire.protocol;

/**
 * What {@link FrameDecoder} passes on instead of a {@link Frame} when a header is wrong: the request id (0 when
 * unknown), the status to answer with and a message naming the field. When {@code fatal}, the stream cannot be
 * framed any more (wrong magic or version) and the connection must close once the answer is sent; otherwise
 * the decoder has skipped the frame's body and goes on with the next frame.
 */
public record InvalidFrame(int requestId, int opcode, int status, String message, boolean fatal) {
}
