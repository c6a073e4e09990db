package io.sessionmesh.benchmarks.workload;

import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.RequestMix;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The standard workload of docs/WORKLOAD.md (io.sessionmesh.workload), end to end, through real sidecars and a real
 * master (processes on loopback, {@link DriverCluster}): 4 services x 3 nodes, each node with its own sidecar; every
 * end-user request passes through 2 of the services in turn, each reading 1 to 3 sections (one of its endpoints'
 * declared sets, in one batch) and, one time in four, writing 1 or 2 attributes of one of them ({@link RequestMix}).
 * Sessions by Zipf (s = 0.99) over the active set, which is renewed at the workload's rate ({@link DriverSessions}).
 * A node is chosen by hash of the session id (sticky) or at random; each mode runs on a fresh master and fresh
 * sidecars, one after the other, in one run. (The load generator, benchmarks/load, drives the same workload through
 * the client jar against Spring Session; this driver looks at one thing it does not: per-node sidecar caches and what
 * the master's invalidations cost.)
 *
 * <p>Reports, per mode: end-user requests a second, latency of reads, writes and requests (HdrHistogram), the
 * sidecars' hit ratio over the measured period, and what the master's invalidations cost writes: the share of
 * writes that waited and the wait (the master's fence_wait figures).
 *
 * <p>Flags: {@code --sessions 5500} (1/100 of full scale), {@code --users 16} (closed-loop end users),
 * {@code --warmup 20s}, {@code --duration 60s}, {@code --modes sticky,random}, {@code --master-jar},
 * {@code --sidecar-jar}, {@code --out results.json}.
 */
public final class WorkloadDriver {
    /** Seed of the endpoints: the ones the recorded results name. */
    static final long ENDPOINTS_SEED = 42;
    /** Seed of user u's generator: this plus u. */
    static final long USER_SEED = 1000;
    /** HdrHistogram precision. */
    static final int DIGITS = 3;
    /** How long a user thread is given to finish its request at the end. */
    static final long JOIN_MILLIS = 10_000;

    private final int sessions;
    private final int users;
    private final Duration warmup;
    private final Duration duration;
    private final List<String> modes;
    private final Path out;
    private final Path masterJar;
    private final Path sidecarJar;
    private final RequestMix mix = new RequestMix(new SplittableRandom(ENDPOINTS_SEED));

    private WorkloadDriver(Settings flags) {
        sessions = flags.integer("sessions", 5500, 1, 1_000_000);
        users = flags.integer("users", 16, 1, 1024);
        warmup = flags.duration("warmup", Duration.ofSeconds(20), Duration.ZERO, Duration.ofHours(1));
        duration = flags.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24));
        modes = flags.list("modes", List.of("sticky", "random"), List.of("sticky", "random"));
        out = flags.path("out", null);
        masterJar = flags.path("master-jar", "master-store/target/sessionmesh-master.jar");
        sidecarJar = flags.path("sidecar-jar", "slave-sidecar/target/sessionmesh-sidecar.jar");
        flags.checkAllUsed();
    }

    public static void main(String[] args) throws Exception {
        WorkloadDriver driver = new WorkloadDriver(Settings.fromArgs(args));
        StringBuilder json = new StringBuilder("{\n  \"machine\": \"").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, java ").append(System.getProperty("java.version")).append("\",\n  \"sessions\": ")
                .append(driver.sessions).append(",\n  \"users\": ").append(driver.users).append(",\n  \"warmup_s\": ")
                .append(driver.warmup.toSeconds()).append(",\n  \"duration_s\": ").append(driver.duration.toSeconds())
                .append(",\n  \"endpoints\": \"").append(driver.mix).append("\",\n  \"modes\": {");
        String sep = "\n";
        for (String mode : driver.modes) {
            String result = driver.run(mode.equals("sticky"));
            json.append(sep).append("    \"").append(mode).append("\": ").append(result);
            sep = ",\n";
            System.out.println(mode + ": " + result);
        }
        json.append("\n  }\n}\n");
        if (driver.out != null) {
            Files.writeString(driver.out, json);
        }
        System.out.print(json);
    }

    /** One mode on a fresh cluster; its figures as JSON. */
    private String run(boolean sticky) throws Exception {
        try (DriverCluster cluster = new DriverCluster(masterJar, sidecarJar)) {
            DriverSessions set = new DriverSessions(cluster.master, sessions);
            set.fill();
            Recorder reads = new Recorder(DIGITS);
            Recorder writes = new Recorder(DIGITS);
            Recorder requests = new Recorder(DIGITS);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong requestCount = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                User user = new User(new SplittableRandom(USER_SEED + u), sticky, cluster, set, reads, writes, requests, stop,
                        requestCount, errors);
                Thread t = new Thread(user, "user-" + u);
                t.start();
                threads.add(t);
            }
            Thread churn = new Thread(() -> set.churn(stop), "churn");
            churn.start();

            Thread.sleep(warmup.toMillis());
            reads.reset();
            writes.reset();
            requests.reset();
            List<Map<String, Double>> before = cluster.sidecarStats();
            Map<String, Double> masterBefore = cluster.masterStats();
            long requestsBefore = requestCount.get();
            long errorsBefore = errors.get();
            long start = System.nanoTime();
            Thread.sleep(duration.toMillis());
            Histogram readH = reads.getIntervalHistogram();
            Histogram writeH = writes.getIntervalHistogram();
            Histogram requestH = requests.getIntervalHistogram();
            long seconds = Math.max(1, (System.nanoTime() - start) / 1_000_000_000L);
            long done = requestCount.get() - requestsBefore;
            List<Map<String, Double>> after = cluster.sidecarStats();
            Map<String, Double> masterAfter = cluster.masterStats();
            stop.set(true);
            for (Thread t : threads) {
                t.join(JOIN_MILLIS);
            }
            churn.join(JOIN_MILLIS);

            double fromCache = 0;
            double fromMaster = 0;
            double sectionsFromCache = 0;
            double sectionsFromMaster = 0;
            for (int i = 0; i < after.size(); i++) {
                fromCache += delta(after.get(i), before.get(i), "reads_from_cache");
                fromMaster += delta(after.get(i), before.get(i), "reads_from_master");
                sectionsFromCache += delta(after.get(i), before.get(i), "sections_from_cache");
                sectionsFromMaster += delta(after.get(i), before.get(i), "sections_from_master");
            }
            double masterWrites = delta(masterAfter, masterBefore, "writes");
            double fenced = delta(masterAfter, masterBefore, "fenced_writes");
            return String.format("{\"requests_per_s\": %d, \"errors\": %d, \"hit_ratio\": %.4f, \"section_hit_ratio\": %.4f, "
                            + "\"read_us\": %s, \"write_us\": %s, \"request_us\": %s, \"master_writes\": %.0f, "
                            + "\"fenced_writes\": %.0f, \"fence_wait_us_since_start\": {\"p50\": %.0f, \"p99\": %.0f, \"max\": %.0f}, "
                            + "\"invalidations_sent\": %.0f, \"invalidation_lease_expiries\": %.0f}",
                    done / seconds, errors.get() - errorsBefore, fromCache / Math.max(1, fromCache + fromMaster),
                    sectionsFromCache / Math.max(1, sectionsFromCache + sectionsFromMaster),
                    percentiles(readH), percentiles(writeH), percentiles(requestH), masterWrites, fenced,
                    masterAfter.getOrDefault("fence_wait_p50_us", -1.0), masterAfter.getOrDefault("fence_wait_p99_us", -1.0),
                    masterAfter.getOrDefault("fence_wait_max_us", -1.0),
                    delta(masterAfter, masterBefore, "invalidations_sent"),
                    delta(masterAfter, masterBefore, "invalidation_lease_expiries"));
        }
    }

    private static double delta(Map<String, Double> after, Map<String, Double> before, String key) {
        return after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
    }

    private static String percentiles(Histogram h) {
        return String.format("{\"count\": %d, \"p50\": %d, \"p99\": %d, \"p999\": %d, \"max\": %d}", h.getTotalCount(),
                h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
    }

    /** One end user, in a closed loop: request after request of the workload's mix, in microseconds. */
    private final class User implements Runnable {
        final SplittableRandom random;
        final boolean sticky;
        final DriverCluster cluster;
        final DriverSessions set;
        final Recorder reads;
        final Recorder writes;
        final Recorder requests;
        final AtomicBoolean stop;
        final AtomicLong count;
        final AtomicLong errors;

        User(SplittableRandom random, boolean sticky, DriverCluster cluster, DriverSessions set, Recorder reads,
             Recorder writes, Recorder requests, AtomicBoolean stop, AtomicLong count, AtomicLong errors) {
            this.random = random;
            this.sticky = sticky;
            this.cluster = cluster;
            this.set = set;
            this.reads = reads;
            this.writes = writes;
            this.requests = requests;
            this.stop = stop;
            this.count = count;
            this.errors = errors;
        }

        @Override
        public void run() {
            while (!stop.get()) {
                String session = set.pick(random);
                List<RequestMix.Step<byte[]>> steps = mix.request(random, set::value);
                long start = System.nanoTime();
                try {
                    for (RequestMix.Step<byte[]> step : steps) {
                        step(session, step);
                    }
                    requests.recordValue((System.nanoTime() - start) / 1000);
                    count.incrementAndGet();
                } catch (SessionMeshException e) {
                    errors.incrementAndGet();
                }
            }
        }

        private void step(String session, RequestMix.Step<byte[]> step) {
            int node = sticky ? Math.floorMod(session.hashCode(), RequestMix.NODES_PER_SERVICE)
                    : random.nextInt(RequestMix.NODES_PER_SERVICE);
            SidecarApi api = cluster.api(step.service(), node);
            long t = System.nanoTime();
            api.read(session, step.reads());
            reads.recordValue((System.nanoTime() - t) / 1000);
            if (step.hasWrites()) {
                t = System.nanoTime();
                api.write(new WriteRequest(session, List.of(new SectionDelta(step.writeSection(), step.writes(), List.of()))));
                writes.recordValue((System.nanoTime() - t) / 1000);
            }
        }
    }
}
