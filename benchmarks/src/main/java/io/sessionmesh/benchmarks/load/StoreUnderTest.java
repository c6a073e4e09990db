package io.sessionmesh.benchmarks.load;

import io.sessionmesh.workload.RequestMix;

import java.util.List;
import java.util.Map;

/**
 * A session store as the service nodes of the workload use it: each node (service {@code s}, node {@code n}, on host
 * {@code n}) keeps its own client, as its own JVM would. Implementations are thread-safe.
 */
interface StoreUnderTest extends AutoCloseable {
    /** The name in results and charts. */
    String name();

    /** Nodes per service (one per host). */
    int nodesPerService();

    /** Creates a session holding {@code sections} through node {@code node} of service 0 (a login); its id. */
    String create(int node, Map<String, Map<String, Object>> sections);

    /**
     * One service's part of a request, through node {@code node} of {@code step.service()}: reads the declared
     * sections in the store's way, decodes every attribute of them, sets the step's writes and saves, as the
     * service's request handling would. Answers the nanoseconds of the read and of the save (0 when none was sent).
     *
     * @throws SessionGone if the store has no such session
     */
    long[] step(int node, String sessionId, RequestMix.Step<Object> step);

    /** What the store and its links did since it started. */
    Counters counters();

    /**
     * CPU time used so far, in nanoseconds, by each kind of process of this system: "generator" (this JVM: the load
     * generator and every service node's client in it), and the store's own processes by role ("master", "sidecars",
     * "redis"), from the processes' own counters. A later snapshot minus an earlier one is what a phase cost.
     */
    default Map<String, Long> cpuNanos() {
        return Map.of("generator", ProcessCpu.nanos(ProcessHandle.current().pid()));
    }

    /** Figures sampled from the servers now (hit ratio for sidecars), for the time series; may be empty. */
    default Map<String, Double> sample() {
        return Map.of();
    }

    /**
     * The sidecars' cache figures summed (misses by cause, evictions, expirations, refused fills, sections
     * invalidated), cumulative; empty for a store without sidecars.
     */
    default Map<String, Long> cacheFigures() {
        return Map.of();
    }

    @Override
    void close();

    /** The session is not there any more (it expired while idle): the user would log in again. */
    final class SessionGone extends RuntimeException {
        SessionGone(String sessionId, Throwable cause) {
            super("session " + sessionId + " is gone (expired)", cause, false, false);
        }
    }

    /**
     * Cumulative counters; a later snapshot minus an earlier one is what a phase did.
     *
     * @param clientRoundTrips calls from the services' clients to what they talk to (sidecar or Redis)
     * @param clientBytesSent bytes the clients sent on that link
     * @param clientBytesReceived bytes they received on it
     * @param backendRoundTrips calls from sidecars to masters (0 for Redis: there is no second link)
     * @param backendBytesSent bytes sidecars sent to masters
     * @param backendBytesReceived bytes sidecars received from masters
     * @param hits reads answered wholly from a sidecar cache
     * @param reads reads a sidecar answered (hits, partial hits, misses)
     */
    record Counters(long clientRoundTrips, long clientBytesSent, long clientBytesReceived, long backendRoundTrips,
                    long backendBytesSent, long backendBytesReceived, long hits, long reads) {
        Counters minus(Counters o) {
            return new Counters(clientRoundTrips - o.clientRoundTrips, clientBytesSent - o.clientBytesSent,
                    clientBytesReceived - o.clientBytesReceived, backendRoundTrips - o.backendRoundTrips,
                    backendBytesSent - o.backendBytesSent, backendBytesReceived - o.backendBytesReceived,
                    hits - o.hits, reads - o.reads);
        }

        static Counters sum(List<Counters> all) {
            Counters c = new Counters(0, 0, 0, 0, 0, 0, 0, 0);
            for (Counters x : all) {
                c = new Counters(c.clientRoundTrips + x.clientRoundTrips, c.clientBytesSent + x.clientBytesSent,
                        c.clientBytesReceived + x.clientBytesReceived, c.backendRoundTrips + x.backendRoundTrips,
                        c.backendBytesSent + x.backendBytesSent, c.backendBytesReceived + x.backendBytesReceived,
                        c.hits + x.hits, c.reads + x.reads);
            }
            return c;
        }

        Map<String, Object> perRequest(long requests) {
            double n = Math.max(1, requests);
            return Map.of("client_round_trips", round(clientRoundTrips / n), "client_bytes_sent", round(clientBytesSent / n),
                    "client_bytes_received", round(clientBytesReceived / n), "backend_round_trips", round(backendRoundTrips / n),
                    "backend_bytes_sent", round(backendBytesSent / n), "backend_bytes_received", round(backendBytesReceived / n));
        }

        double hitRatio() {
            return reads == 0 ? Double.NaN : (double) hits / reads;
        }

        private static double round(double v) {
            return Math.round(v * 100) / 100.0;
        }
    }
}
