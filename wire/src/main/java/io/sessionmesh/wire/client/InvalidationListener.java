package io.sessionmesh.wire.client;

import io.sessionmesh.wire.protocol.Invalidation;

/**
 * Receives the invalidations a master pushes on a cache's control connection, decoded, on the connection's event
 * loop, in stream order. Once it no longer serves the old copies, the cache confirms with
 * {@link MasterConnection#confirmPush(int)}: the writer's acknowledgement waits for that (or for the lease to run out).
 */
@FunctionalInterface
public interface InvalidationListener {
    void onInvalidation(MasterConnection connection, int pushId, Invalidation invalidation);

    /**
     * The master pushed something this client cannot act on (an unknown opcode, a body that does not decode); the
     * connection is closing, which ends the lease, so the cache trusts nothing it held. For the cache's figures.
     */
    default void onBadPush(MasterConnection connection, String problem) {
    }
}
