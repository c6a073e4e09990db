package io.sessionmesh.benchmarks.workload;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.ValueSizes;
import io.sessionmesh.workload.Zipf;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The standard workload of shared/WORKLOAD.md, end to end, through real sidecars and a real master (processes on
 * loopback): 4 services x 3 nodes, each node with its own sidecar; every end-user request passes through 2 of the
 * services in turn, each reading 1 to 3 sections (one of its endpoints' declared sets, in one batch) and, one time
 * in four, writing 1 or 2 attributes of one of them. Sessions by Zipf (s = 0.99) over the active set, which is
 * renewed at the workload's rate (a fifth of it a minute). A node is chosen by hash of the session id (sticky) or
 * at random; each mode runs on a fresh master and fresh sidecars, one after the other, in one run.
 *
 * <p>Reports, per mode: end-user requests a second, latency of reads, writes and requests (HdrHistogram), the
 * sidecars' hit ratio over the measured period, and what the master's invalidations cost writes: the share of
 * writes that waited and the wait (the master's fence_wait figures).
 *
 * <p>Values are opaque bytes of the workload's log-normal sizes: the sidecar and the master never decode them, and
 * the cost of serializing the workload's objects is measured apart (RESULTS.md 1).
 *
 * <p>Flags: {@code --sessions 5500} (1/100 of full scale), {@code --users 16} (closed-loop end users),
 * {@code --warmup 20s}, {@code --duration 60s}, {@code --modes sticky,random}, {@code --master-jar},
 * {@code --sidecar-jar}, {@code --out results.json}.
 */
public final class WorkloadDriver {
    static final int SERVICES = 4;
    static final int NODES = 3;
    static final int SECTIONS_PER_SESSION = 12;
    static final int ATTRIBUTES_PER_SECTION = 5;
    static final int ENDPOINTS_PER_SERVICE = 3;
    static final String[] SECTION_NAMES = {"clientInfo", "defaultCurrency", "interestRates", "cards", "deposits", "limits",
        "offers", "documents", "accounts", "notifications", "preferences", "riskScore"};
    static final Pattern NUMBER = Pattern.compile("\"([a-z_0-9]+)\":(-?\\d+(?:\\.\\d+)?)");
    static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final int sessions;
    private final int users;
    private final Duration warmup;
    private final Duration duration;
    private final List<String> modes;
    private final Path out;
    private final String masterJar;
    private final String sidecarJar;
    private final List<List<String>>[] endpoints;

    @SuppressWarnings("unchecked")
    private WorkloadDriver(Settings flags) {
        sessions = flags.integer("sessions", 5500, 1, 1_000_000);
        users = flags.integer("users", 16, 1, 1024);
        warmup = flags.duration("warmup", Duration.ofSeconds(20), Duration.ZERO, Duration.ofHours(1));
        duration = flags.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24));
        modes = flags.list("modes", List.of("sticky", "random"), List.of("sticky", "random"));
        out = flags.path("out", null);
        masterJar = flags.string("master-jar", "master-store/target/sessionmesh-master.jar");
        sidecarJar = flags.string("sidecar-jar", "slave-sidecar/target/sessionmesh-sidecar.jar");
        flags.checkAllUsed();
        // Each service's endpoints declare 1..3 sections from its own window of 6 names; neighbouring services'
        // windows overlap by 3, so what one service writes, the next one reads.
        SplittableRandom r = new SplittableRandom(42);
        endpoints = new List[SERVICES];
        for (int s = 0; s < SERVICES; s++) {
            endpoints[s] = new ArrayList<>();
            for (int e = 0; e < ENDPOINTS_PER_SERVICE; e++) {
                int n = 1 + r.nextInt(3);
                List<String> names = new ArrayList<>();
                while (names.size() < n) {
                    String name = SECTION_NAMES[(3 * s + r.nextInt(6)) % SECTION_NAMES.length];
                    if (!names.contains(name)) {
                        names.add(name);
                    }
                }
                endpoints[s].add(List.copyOf(names));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        WorkloadDriver driver = new WorkloadDriver(Settings.fromArgs(args));
        StringBuilder json = new StringBuilder("{\n  \"machine\": \"").append(Runtime.getRuntime().availableProcessors())
                .append(" cores, java ").append(System.getProperty("java.version")).append("\",\n  \"sessions\": ")
                .append(driver.sessions).append(",\n  \"users\": ").append(driver.users).append(",\n  \"warmup_s\": ")
                .append(driver.warmup.toSeconds()).append(",\n  \"duration_s\": ").append(driver.duration.toSeconds())
                .append(",\n  \"endpoints\": \"").append(List.of(driver.endpoints)).append("\",\n  \"modes\": {");
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
        try (Cluster cluster = new Cluster(masterJar, sidecarJar)) {
            SessionSet set = new SessionSet(cluster, sessions);
            set.fill();
            Recorder reads = new Recorder(3);
            Recorder writes = new Recorder(3);
            Recorder requests = new Recorder(3);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong requestCount = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int u = 0; u < users; u++) {
                User user = new User(u, sticky, cluster, set, reads, writes, requests, stop, requestCount, errors);
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
                t.join(10_000);
            }
            churn.join(10_000);

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

    /**
     * The active sessions: slot i holds the session of Zipf rank i. New sessions replace slots round-robin (so they
     * land on random ranks), a fifth of the set a minute, each written whole first (as a login would).
     */
    static final class SessionSet {
        final Cluster cluster;
        final AtomicReferenceArray<String> slots;
        final Zipf zipf;
        final byte[][] values;
        final AtomicInteger created = new AtomicInteger();

        SessionSet(Cluster cluster, int n) {
            this.cluster = cluster;
            this.slots = new AtomicReferenceArray<>(n);
            this.zipf = new Zipf(n, 0.99);
            ValueSizes sizes = new ValueSizes(7);
            values = new byte[4096][];
            SplittableRandom r = new SplittableRandom(11);
            for (int i = 0; i < values.length; i++) {
                values[i] = new byte[sizes.next()];
                for (int j = 0; j < values[i].length; j++) {
                    values[i][j] = (byte) ('a' + r.nextInt(26));
                }
            }
        }

        void fill() throws Exception {
            List<CompletableFuture<Void>> pending = new ArrayList<>();
            for (int i = 0; i < slots.length(); i++) {
                pending.add(create(i));
                if (pending.size() >= 64) {
                    CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                    pending.clear();
                }
            }
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }

        private CompletableFuture<Void> create(int slot) {
            MasterConnection m = cluster.loader;
            int seed = created.incrementAndGet();
            return m.create(Duration.ofMinutes(5)).thenCompose(c -> {
                List<SectionDelta> deltas = new ArrayList<>();
                for (int s = 0; s < SECTIONS_PER_SESSION; s++) {
                    Map<String, byte[]> set = new LinkedHashMap<>();
                    for (int a = 0; a < ATTRIBUTES_PER_SECTION; a++) {
                        set.put("a" + a, values[Math.floorMod(seed * 131 + s * 7 + a, values.length)]);
                    }
                    deltas.add(new SectionDelta(SECTION_NAMES[s], set, List.of()));
                }
                return m.write(new WriteRequest(c.id(), deltas)).thenAccept(w -> slots.set(slot, c.id()));
            });
        }

        /** Renews the set at the workload's rate until stopped. */
        void churn(AtomicBoolean stop) {
            long intervalNanos = 60_000_000_000L / Math.max(1, slots.length() / 5);
            int next = 0;
            long due = System.nanoTime();
            while (!stop.get()) {
                due += intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    try {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                try {
                    create(next).get(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // counted by the users' errors if the master is gone
                }
                next = (next + 1) % slots.length();
            }
        }

        String pick(SplittableRandom r) {
            return slots.get(zipf.next(r));
        }
    }

    /** One end user, in a closed loop: request after request, each through 2 of the 4 services. */
    final class User implements Runnable {
        final SplittableRandom random;
        final boolean sticky;
        final Cluster cluster;
        final SessionSet set;
        final Recorder reads;
        final Recorder writes;
        final Recorder requests;
        final AtomicBoolean stop;
        final AtomicLong count;
        final AtomicLong errors;

        User(int id, boolean sticky, Cluster cluster, SessionSet set, Recorder reads, Recorder writes, Recorder requests,
             AtomicBoolean stop, AtomicLong count, AtomicLong errors) {
            this.random = new SplittableRandom(1000 + id);
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
                int first = random.nextInt(SERVICES);
                int second = (first + 1 + random.nextInt(SERVICES - 1)) % SERVICES;
                long start = System.nanoTime();
                try {
                    step(session, first);
                    step(session, second);
                    requests.recordValue((System.nanoTime() - start) / 1000);
                    count.incrementAndGet();
                } catch (SessionMeshException e) {
                    errors.incrementAndGet();
                }
            }
        }

        private void step(String session, int service) {
            int node = sticky ? Math.floorMod(session.hashCode(), NODES) : random.nextInt(NODES);
            SidecarApi api = cluster.api(service * NODES + node);
            List<String> sections = endpoints[service].get(random.nextInt(ENDPOINTS_PER_SERVICE));
            long t = System.nanoTime();
            api.read(session, sections);
            reads.recordValue((System.nanoTime() - t) / 1000);
            if (random.nextInt(4) == 0) {
                Map<String, byte[]> changed = new LinkedHashMap<>();
                int n = 1 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    changed.put("a" + random.nextInt(ATTRIBUTES_PER_SECTION), set.values[random.nextInt(set.values.length)]);
                }
                String section = sections.get(random.nextInt(sections.size()));
                t = System.nanoTime();
                api.write(new WriteRequest(session, List.of(new SectionDelta(section, changed, List.of()))));
                writes.recordValue((System.nanoTime() - t) / 1000);
            }
        }
    }

    /** A master and SERVICES x NODES sidecars, as processes from their jars, on free loopback ports. */
    static final class Cluster implements AutoCloseable {
        final List<Process> processes = new ArrayList<>();
        final List<SidecarHttp> https = new ArrayList<>();
        final List<SidecarApi> apis = new ArrayList<>();
        final List<Integer> adminPorts = new ArrayList<>();
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final MasterConnection loader;

        Cluster(String masterJar, String sidecarJar) throws Exception {
            int masterPort = start(List.of("-Xms1g", "-Xmx1g", "-jar", masterJar, "--port", "0", "--io-threads", "1"),
                    "SessionMesh master listening on ", null);
            loader = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", masterPort),
                    MasterConnection.Options.DEFAULT, null).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < SERVICES * NODES; i++) {
                int[] admin = new int[1];
                int port = start(List.of("-Xms256m", "-Xmx256m", "-jar", sidecarJar, "--masters", "127.0.0.1:" + masterPort,
                        "--port", "0", "--admin-port", "0", "--io-threads", "1", "--vnodes", "256"),
                        "SessionMesh sidecar listening on ", admin);
                adminPorts.add(admin[0]);
                SidecarHttp http = new SidecarHttp(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(1),
                        Duration.ofSeconds(10), 16, 64 << 20);
                https.add(http);
                apis.add(new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE));
            }
        }

        SidecarApi api(int i) {
            return apis.get(i);
        }

        /** Starts {@code java args}, waits for the line starting with {@code listening}; its port. */
        private int start(List<String> args, String listening, int[] adminPort) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            processes.add(p);
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + 30_000_000_000L;
            for (String line; System.nanoTime() < deadline && (line = r.readLine()) != null; ) {
                if (adminPort != null && line.startsWith("SessionMesh sidecar admin on ")) {
                    adminPort[0] = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
                }
                if (line.startsWith(listening)) {
                    int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
                    Thread drain = new Thread(() -> r.lines().forEach(l -> { }), "drain");
                    drain.setDaemon(true);
                    drain.start();
                    return port;
                }
            }
            throw new IllegalStateException("did not start: " + cmd);
        }

        List<Map<String, Double>> sidecarStats() throws Exception {
            List<Map<String, Double>> out = new ArrayList<>();
            for (int port : adminPorts) {
                HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/admin/stats")).build(), HttpResponse.BodyHandlers.ofString());
                out.add(numbers(r.body()));
            }
            return out;
        }

        Map<String, Double> masterStats() throws Exception {
            return numbers(loader.stats().get(5, TimeUnit.SECONDS));
        }

        @Override
        public void close() throws Exception {
            https.forEach(SidecarHttp::close);
            loader.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            for (Process p : processes) {
                p.destroy();
            }
            for (Process p : processes) {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    static Map<String, Double> numbers(String json) {
        Map<String, Double> m = new HashMap<>();
        Matcher matcher = NUMBER.matcher(json);
        while (matcher.find()) {
            m.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
        }
        return m;
    }
}
