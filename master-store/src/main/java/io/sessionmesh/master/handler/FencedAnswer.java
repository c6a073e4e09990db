package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.wire.protocol.MasterAnswer;

/**
 * An answer that may leave only once {@code fence} is done (a write or delete other caches must hear of first,
 * PROTOCOL.md 3.7). {@link FlowControlHandler} counts it in flight from the moment it is made; {@link PushHandler}
 * holds it back until the fence is done.
 */
public record FencedAnswer(MasterAnswer answer, Fence fence) {
}
