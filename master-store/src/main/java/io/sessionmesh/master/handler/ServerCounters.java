package io.sessionmesh.master.handler;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** The server's own figures (the store keeps its own), and its draining flag, shared by all connections. */
public final class ServerCounters {
    /** Set at shutdown: from then on no connection starts reading again. */
    private volatile boolean draining;
    final AtomicInteger connections = new AtomicInteger();
    final LongAdder connectionsAccepted = new LongAdder();
    final LongAdder connectionsRefused = new LongAdder();
    final LongAdder requests = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder invalidFrames = new LongAdder();
    final LongAdder inFlightRefused = new LongAdder();
    final LongAdder idleClosed = new LongAdder();
    final LongAdder slowConsumerClosed = new LongAdder();
    final LongAdder internalErrors = new LongAdder();
    /** Requests answered FORBIDDEN: the peer's certificate names no role that may send them ({@link RoleCheck}). */
    final LongAdder forbidden = new LongAdder();

    /** No connection starts reading again from now on (shutdown). */
    public void startDraining() {
        draining = true;
    }

    boolean draining() {
        return draining;
    }

    /** Whether the master is stopping (the admin endpoint's health says DRAINING). */
    public boolean isDraining() {
        return draining;
    }

    /** Requests answered UNAVAILABLE because their connection had too many in flight. */
    public long inFlightRefused() {
        return inFlightRefused.sum();
    }

    public void putInto(Map<String, Long> stats) {
        stats.put("connections", (long) connections.get());
        stats.put("connections_accepted", connectionsAccepted.sum());
        stats.put("connections_refused", connectionsRefused.sum());
        stats.put("requests", requests.sum());
        stats.put("errors", errors.sum());
        stats.put("invalid_frames", invalidFrames.sum());
        stats.put("in_flight_refused", inFlightRefused.sum());
        stats.put("idle_closed", idleClosed.sum());
        stats.put("slow_consumer_closed", slowConsumerClosed.sum());
        stats.put("internal_errors", internalErrors.sum());
        stats.put("forbidden", forbidden.sum());
    }
}
