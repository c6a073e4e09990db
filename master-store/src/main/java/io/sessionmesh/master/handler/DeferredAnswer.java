package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;

import java.util.concurrent.CompletableFuture;

/**
 * An answer made later, on another thread: a replicated change's, once its group applied it and its invalidations
 * are done, or a read's, once its read barrier passed. The future never completes exceptionally (a failure is an
 * {@link MasterAnswer.Error}). {@link FlowControlHandler} counts it in flight from the moment it is made;
 * {@link PushHandler} writes it on the connection's loop when it completes.
 */
public record DeferredAnswer(CompletableFuture<MasterAnswer> answer) {
}
