package io.sessionmesh.sidecar.service;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.wire.client.InvalidationListener;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.protocol.Invalidation;

import java.time.Instant;

/**
 * Acts on the masters' invalidations, on the control connection's event loop: drops the cached copies older than the
 * versions announced, then confirms to the master, which may then acknowledge the write. The drop is complete (an
 * atomic update of the entry) before the confirmation leaves.
 *
 * <p>A push that cannot be read is never confirmed: the connection closes instead ({@link MasterConnection} does that
 * and tells {@link #onBadPush}), which ends the lease epoch, so nothing cached from that master is served again and
 * nothing it meant to invalidate can be.
 */
public final class InvalidationHandler implements InvalidationListener {
    private final SectionCache cache;
    private final SidecarMetrics metrics;

    public InvalidationHandler(SectionCache cache, SidecarMetrics metrics) {
        this.cache = cache;
        this.metrics = metrics;
    }

    @Override
    public void onInvalidation(MasterConnection connection, int pushId, Invalidation invalidation) {
        int dropped = cache.invalidate(invalidation.sessionId(), invalidation.sections(), invalidation.versions());
        connection.confirmPush(pushId);
        metrics.invalidation(dropped, nowMicros() - invalidation.writeTimeMicros());
    }

    @Override
    public void onBadPush(MasterConnection connection, String problem) {
        metrics.badInvalidations.increment();
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
