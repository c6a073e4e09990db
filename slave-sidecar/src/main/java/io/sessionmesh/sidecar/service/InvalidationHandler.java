package io.sessionmesh.sidecar.service;

import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;

/**
 * Acts on the masters' INVALIDATE pushes, on the control connection's event loop: drops the cached copies older
 * than the versions announced, then confirms to the master, which may then acknowledge the write. The drop is
 * complete (an atomic update of the entry) before the confirmation leaves.
 *
 * <p>A push that cannot be read is not confirmed; the control connection is closed instead, which ends the lease
 * epoch: nothing cached from that master is served again, so nothing it meant to invalidate can be.
 */
public final class InvalidationHandler implements MasterConnection.PushHandler {
    private static final Logger log = LoggerFactory.getLogger(InvalidationHandler.class);

    private final SectionCache cache;
    private final SidecarMetrics metrics;

    public InvalidationHandler(SectionCache cache, SidecarMetrics metrics) {
        this.cache = cache;
        this.metrics = metrics;
    }

    @Override
    public void onPush(MasterConnection connection, Frame push) {
        if (push.opcode() != Opcodes.INVALIDATE) {
            log.warn("{} pushed {}, which this sidecar does not know; closing the connection", connection.peer(), push);
            connection.close();
            return;
        }
        Invalidation invalidation;
        try {
            invalidation = Invalidation.readFrom(push.body());
        } catch (MalformedMessageException e) {
            metrics.badInvalidations.increment();
            log.error("{} pushed a bad invalidation ({}); closing the connection, which ends the lease", connection.peer(),
                    e.getMessage());
            connection.close();
            return;
        }
        int dropped = cache.invalidate(invalidation.sessionId(), invalidation.sections(), invalidation.versions());
        connection.confirmPush(push);
        metrics.invalidation(dropped, nowMicros() - invalidation.writeTimeMicros());
    }

    private static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
