package io.sessionmesh.integration.consistency;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.integration.consistency.HistoryChecker.Verdict;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The consistency checker (issue 6): a master and three sidecars as real processes; clients on every sidecar read
 * and write the same few hot sessions while the test, in cycles, kills and restarts sidecar 2, pauses the
 * connection of sidecar 0 to its master for longer than a lease, and cuts it. Every operation is recorded and
 * {@link HistoryChecker} verifies that no read was older than a write acknowledged before it began and that no
 * acknowledged write was lost.
 *
 * <p>{@code -Dconsistency.operations=N} sets the number of operations recorded (0, the default: the short run of
 * {@code mvn verify}, {@value #SHORT_RUN_OPERATIONS}; the long run of benchmarks/RESULTS.md: 1,000,000);
 * {@code -Dconsistency.lease=1s} the masters' lease. The report goes to {@code target/consistency/}.
 */
class ConsistencyIT {
    static final int SIDECARS = 3;
    static final int CLIENTS_PER_SIDECAR = 4;
    static final int SESSIONS = 4;
    static final int WRITE_PERCENT = 30;
    /** Operations of the short run in {@code mvn verify}: a fault cycle or two. */
    static final long SHORT_RUN_OPERATIONS = 10_000;
    static final Pattern NUMBER = Pattern.compile("\"([a-z_0-9]+)\":(-?\\d+)");

    @Test
    void noStaleReadsAndNoLostWrites_underKillsPausesAndCuts() throws Exception {
        long target = operations(SHORT_RUN_OPERATIONS);
        Duration lease = lease();
        Path reportDir = reportDir();
        History history = new History();
        HotSessionClient.Tally tally = new HotSessionClient.Tally(SIDECARS);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> phases = new ArrayList<>();
        long started = System.nanoTime();

        try (ConsistencyCluster cluster = new ConsistencyCluster(SIDECARS, lease, sidecarFlags())) {
            List<String> sessions = createSessions(cluster);
            ExecutorService pool = Executors.newFixedThreadPool(SIDECARS * CLIENTS_PER_SIDECAR);
            List<Future<?>> clients = startClients(pool, IntStream.range(0, SIDECARS).mapToObj(cluster::api).toList(),
                    CLIENTS_PER_SIDECAR, sessions, history, tally, stop);
            int cycles = 0;
            try {
                while (cycles == 0 || history.size() < target) {
                    faultCycle(cluster, phases, tally);
                    cycles++;
                }
            } finally {
                stop.set(true);
                pool.shutdown();
            }
            for (Future<?> f : clients) {
                f.get(30, TimeUnit.SECONDS); // a client that threw fails the test here
            }
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            long runNanos = System.nanoTime() - started;

            for (int s = 0; s < SIDECARS; s++) {
                cluster.awaitLease(s);
            }
            List<History.Read> finals = finalReads(cluster, sessions);
            Verdict verdict = HistoryChecker.check(history.writes(), history.reads(), finals, HotSessionClient.SECTIONS,
                    HotSessionClient.ATTRIBUTES);
            Map<String, Long> master = numbers(stats(cluster));
            List<Map<String, Long>> sidecars = new ArrayList<>();
            Files.createDirectories(reportDir);
            for (int s = 0; s < SIDECARS; s++) {
                String json = cluster.admin(s, "/admin/stats").body();
                Files.writeString(reportDir.resolve("sidecar-" + s + "-stats-" + target + ".json"), json);
                sidecars.add(numbers(json));
            }
            String report = report(target, lease, cycles, runNanos, verdict, tally, master, sidecars, phases);
            Files.createDirectories(reportDir);
            Files.writeString(reportDir.resolve("report-" + target + ".json"), report);
            System.out.println(report);
            cluster.saveOutputs(reportDir.resolve("logs-" + target));

            assertTrue(verdict.passed(), "the checker found violations: " + verdict);
            assertTrue(verdict.reads() + verdict.writes() >= target, "ran " + verdict);
            assertTrue(verdict.acknowledgedWrites() > 0 && verdict.reads() > 0, "nothing to check: " + verdict);
            long fromCache = sidecars.stream().mapToLong(m -> m.getOrDefault("reads_from_cache", 0L)).sum();
            assertTrue(fromCache > 0, "no read was answered from a cache: the checker proved nothing about caches");
            assertTrue(master.getOrDefault("invalidations_confirmed", 0L) > 0, "no invalidation was confirmed: " + master);
            assertTrue(master.getOrDefault("invalidation_lease_expiries", 0L) > 0,
                    "the pause never made a write wait out a lease: " + master);
            assertTrue(tally.readsFailed[0].sum() + tally.writesFailed[0].sum() > 0, "the faults of sidecar 0 went unseen");
            assertTrue(tally.readsFailed[2].sum() + tally.writesFailed[2].sum() > 0, "the kill of sidecar 2 went unseen");
            assertTrue(cluster.proxy.refused() > 0, "no connection was refused while the proxy was cut");
            assertEquals(List.of(), cluster.troubles(), "a server reported leaks");
        }
    }

    /** The masters' lease for a checker run: {@code -Dconsistency.lease} (default 1s). */
    static Duration lease() {
        return Duration.parse("PT" + System.getProperty("consistency.lease", "1s").toUpperCase());
    }

    /** Extra flags for every sidecar: {@code -Dconsistency.sidecar-flags="--read-ahead 8"} (default none). */
    static List<String> sidecarFlags() {
        String flags = System.getProperty("consistency.sidecar-flags", "").trim();
        return flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
    }

    /**
     * The operations a checker records: {@code -Dconsistency.operations}, or, when it is 0 or not set (the short run of
     * {@code mvn verify}), the checker's own short run.
     */
    static long operations(long shortRun) {
        long requested = Long.getLong("consistency.operations", 0);
        if (requested < 0) {
            throw new IllegalArgumentException("-Dconsistency.operations=" + requested + ": a count of operations, or 0 "
                    + "for each checker's short run");
        }
        return requested == 0 ? shortRun : requested;
    }

    /** Where a checker run writes its report: {@code -Dconsistency.report} (default target/consistency). */
    static Path reportDir() {
        return Path.of(System.getProperty("consistency.report", "target/consistency"));
    }

    /** {@code perSidecar} hot-session clients on each sidecar, running on {@code pool} until {@code stop}. */
    static List<Future<?>> startClients(ExecutorService pool, List<java.net.URI> sidecars, int perSidecar, List<String> sessions,
                                        History history, HotSessionClient.Tally tally, AtomicBoolean stop) {
        List<Future<?>> clients = new ArrayList<>();
        for (int s = 0; s < sidecars.size(); s++) {
            for (int c = 0; c < perSidecar; c++) {
                clients.add(pool.submit(new HotSessionClient(s * perSidecar + c, s, sidecars.get(s), sessions, WRITE_PERCENT,
                        history, tally, stop)));
            }
        }
        return clients;
    }

    /** One round of faults, each followed by steady traffic. */
    static void faultCycle(ConsistencyCluster cluster, List<String> phases, HotSessionClient.Tally tally) throws Exception {
        long leaseMs = cluster.lease.toMillis();
        phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        phase(phases, tally, "kill sidecar 2, restart it", () -> {
            cluster.kill(2);
            Thread.sleep(500);
            cluster.restart(2);
        });
        phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        phase(phases, tally, "pause sidecar 0's master link for 2.5 leases", () -> {
            cluster.proxy.pause();
            Thread.sleep(leaseMs * 5 / 2);
            cluster.proxy.resume();
        });
        phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        phase(phases, tally, "cut sidecar 0's master link for 1.5 s", () -> {
            cluster.proxy.cut();
            Thread.sleep(1_500);
            cluster.proxy.heal();
            cluster.awaitLease(0);
        });
    }

    interface Step {
        void run() throws Exception;
    }

    static void phase(List<String> phases, HotSessionClient.Tally tally, String name, Step step) throws Exception {
        long ops = tally.operations.get();
        long t = System.nanoTime();
        step.run();
        phases.add(String.format("%s: %d ms, %d operations, from t=%d", name, (System.nanoTime() - t) / 1_000_000,
                tally.operations.get() - ops, t));
    }

    static List<String> createSessions(ConsistencyCluster cluster) {
        return createSessions(cluster.api(1));
    }

    /** The checker's hot sessions, created through the sidecar at {@code api}. */
    static List<String> createSessions(java.net.URI sidecar) {
        try (SidecarHttp http = new SidecarHttp(sidecar, Duration.ofSeconds(1), Duration.ofSeconds(5), 1, 1 << 20)) {
            SidecarApi api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
            return IntStream.range(0, SESSIONS).mapToObj(i -> api.create(3600).sessionId()).toList();
        }
    }

    /** After every client stopped: every session, whole, through every sidecar and from the master itself. */
    static List<History.Read> finalReads(ConsistencyCluster cluster, List<String> sessions) throws Exception {
        return finalReads(IntStream.range(0, cluster.sidecars()).mapToObj(cluster::api).toList(), cluster.masterPort(), sessions);
    }

    /** Every session, whole, through every sidecar of {@code sidecars} and from the master at {@code masterPort}. */
    static List<History.Read> finalReads(List<java.net.URI> sidecars, int masterPort, List<String> sessions) throws Exception {
        List<Integer> all = IntStream.range(0, HotSessionClient.SECTIONS).boxed().toList();
        List<String> names = List.of(HotSessionClient.SECTION_NAMES);
        List<History.Read> out = new ArrayList<>();
        for (int s = 0; s < sidecars.size(); s++) {
            try (SidecarHttp http = new SidecarHttp(sidecars.get(s), Duration.ofSeconds(1), Duration.ofSeconds(5), 1, 1 << 20)) {
                SidecarApi api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
                for (int i = 0; i < sessions.size(); i++) {
                    long invoked = System.nanoTime();
                    var result = api.read(sessions.get(i), names);
                    out.add(HotSessionClient.toRead(-1, s, i, all, result, invoked, System.nanoTime()));
                }
            }
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (MasterConnection master = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1",
                masterPort), MasterConnectionOptions.DEFAULT, null).get(5, TimeUnit.SECONDS)) {
            for (int i = 0; i < sessions.size(); i++) {
                long invoked = System.nanoTime();
                var result = master.read(new ReadRequest(sessions.get(i), names)).get(5, TimeUnit.SECONDS).result().toReadResult();
                out.add(HotSessionClient.toRead(-1, -1, i, all, result, invoked, System.nanoTime()));
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        return out;
    }

    static String stats(ConsistencyCluster cluster) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (MasterConnection master = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1",
                cluster.masterPort()), MasterConnectionOptions.DEFAULT, null).get(5, TimeUnit.SECONDS)) {
            return master.stats().get(5, TimeUnit.SECONDS);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** The integer fields of a JSON text, by name (nested names flattened; the last one of a name wins). */
    static Map<String, Long> numbers(String json) {
        Map<String, Long> m = new TreeMap<>();
        Matcher matcher = NUMBER.matcher(json);
        while (matcher.find()) {
            m.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return m;
    }

    static String report(long target, Duration lease, int cycles, long runNanos, Verdict v, HotSessionClient.Tally tally,
                         Map<String, Long> master, List<Map<String, Long>> sidecars, List<String> phases) {
        StringBuilder b = new StringBuilder();
        b.append("{\n  \"target_operations\": ").append(target)
                .append(",\n  \"lease_ms\": ").append(lease.toMillis())
                .append(",\n  \"fault_cycles\": ").append(cycles)
                .append(",\n  \"seconds\": ").append(runNanos / 1_000_000_000)
                .append(",\n  \"reads\": ").append(v.reads())
                .append(",\n  \"writes\": ").append(v.writes())
                .append(",\n  \"acknowledged_writes\": ").append(v.acknowledgedWrites())
                .append(",\n  \"unknown_writes\": ").append(v.unknownWrites())
                .append(",\n  \"final_reads\": ").append(v.finalReads())
                .append(",\n  \"stale_reads\": ").append(v.staleReads())
                .append(",\n  \"lost_writes\": ").append(v.lostWrites())
                .append(",\n  \"bad_values\": ").append(v.badValues())
                .append(",\n  \"violations\": ").append(quoted(v.examples()))
                .append(",\n  \"write_latency_us\": {\"p50\": ").append(tally.writeMicros.getValueAtPercentile(50))
                .append(", \"p99\": ").append(tally.writeMicros.getValueAtPercentile(99))
                .append(", \"p999\": ").append(tally.writeMicros.getValueAtPercentile(99.9))
                .append(", \"max\": ").append(tally.writeMicros.getMaxValue()).append('}');
        b.append(",\n  \"per_sidecar\": [");
        for (int s = 0; s < sidecars.size(); s++) {
            Map<String, Long> m = sidecars.get(s);
            b.append(s == 0 ? "\n" : ",\n").append(String.format("    {\"reads_ok\": %d, \"reads_failed\": %d, "
                            + "\"writes_ok\": %d, \"writes_failed\": %d, \"reads_from_cache\": %d, \"reads_from_master\": %d, "
                            + "\"invalidations_received\": %d}",
                    tally.readsOk[s].sum(), tally.readsFailed[s].sum(), tally.writesOk[s].sum(), tally.writesFailed[s].sum(),
                    m.getOrDefault("reads_from_cache", 0L), m.getOrDefault("reads_from_master", 0L),
                    m.getOrDefault("received", 0L)));
        }
        b.append("\n  ],\n  \"failures\": {");
        Map<String, Long> failures = new TreeMap<>();
        tally.failures.forEach((k, n) -> failures.put(k, n.sum()));
        b.append(String.join(", ", failures.entrySet().stream().map(e -> "\"" + e.getKey() + "\": " + e.getValue()).toList()));
        b.append("},\n  \"master\": {");
        b.append(String.join(", ", List.of("fenced_writes", "invalidations_sent", "invalidations_confirmed",
                        "invalidation_lease_expiries", "fence_wait_p50_us", "fence_wait_p99_us", "fence_wait_max_us").stream()
                .map(k -> "\"" + k + "\": " + master.getOrDefault(k, -1L)).toList()));
        b.append("},\n  \"phases\": ").append(quoted(phases)).append("\n}\n");
        return b.toString();
    }

    static String quoted(List<String> items) {
        return "[" + String.join(", ", items.stream().map(s -> "\"" + s.replace("\\", "\\\\").replace("\"", "'") + "\"")
                .toList()) + "]";
    }
}
