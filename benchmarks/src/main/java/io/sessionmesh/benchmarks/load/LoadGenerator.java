package io.sessionmesh.benchmarks.load;

import io.sessionmesh.client.TransportForm;
import io.sessionmesh.settings.Settings;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-to-end load generator of docs/WORKLOAD.md: {@code java -jar benchmarks/target/sessionmesh-load.jar
 * [flags]} ({@link LoadOptions}). For each mode (closed loop first), for each system in turn (SessionMesh binary,
 * SessionMesh JSON, Spring Session on Redis), it loads the system with the same workload through its real client,
 * skips the warm-up, measures, and prints a progress line every 5 s. The open loop offers every system the same
 * rate: the one given, or {@value LoadOptions#AUTO_RATE_SHARE} of the lowest closed-loop throughput of this run.
 * At the end: a summary table, {@code load.json} and PNG charts in {@code --out}. Exit status 1 when a phase had
 * errors, 2 for a bad flag.
 */
public final class LoadGenerator {
    static final String RESULT_FILE = "load.json";

    private LoadGenerator() {
    }

    public static void main(String[] args) throws Exception {
        LoadOptions o = Settings.read("load", args, LoadOptions.usage(), LoadOptions::read);
        List<PhaseResult> results = run(o);
        System.exit(results.stream().anyMatch(r -> r.errors > 0) ? 1 : 0);
    }

    /** Runs every phase, prints the summary, writes the result file and the charts; answers the results. */
    static List<PhaseResult> run(LoadOptions o) throws Exception {
        Files.createDirectories(o.out());
        say("workload: " + o.sessions() + " sessions, " + WorkloadModel.SERVICES + " services x " + o.hosts() + " nodes (one "
                + "per host), " + (o.sticky() ? "sticky" : "random") + " routing, logins " + (o.loginSticky() ? "sticky" : "random")
                + "; making the value pool");
        WorkloadModel model = new WorkloadModel(42);
        Map<String, LoadPhase> phases = new LinkedHashMap<>();
        List<PhaseResult> results = new ArrayList<>();
        int rate = o.rate();
        try {
            for (String mode : o.modes()) {
                if (mode.equals("open") && rate == 0) {
                    double lowest = results.stream().filter(r -> r.mode.equals("closed")).mapToDouble(PhaseResult::throughput)
                            .min().orElse(100);
                    rate = Math.max(1, (int) (lowest * LoadOptions.AUTO_RATE_SHARE));
                    say(String.format("open loop at %,d requests/s (%.0f%% of the lowest closed-loop throughput)", rate,
                            LoadOptions.AUTO_RATE_SHARE * 100));
                }
                for (String system : o.systems()) {
                    LoadPhase phase = phases.get(system);
                    if (phase == null) {
                        say(system + ": starting, filling " + o.sessions() + " sessions");
                        phase = new LoadPhase(open(system, o), model, o);
                        phases.put(system, phase);
                        phase.fill();
                    }
                    results.add(measure(phase, mode, mode.equals("open") ? rate : 0, o));
                }
            }
        } finally {
            for (LoadPhase p : phases.values()) {
                p.store.close();
            }
        }
        String summary = summary(results, o);
        System.out.println();
        System.out.print(summary);
        List<String> charts = LoadCharts.write(o.out(), results, o.modes());
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("when", Instant.now().toString());
        doc.put("machine", Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + ", java "
                + System.getProperty("java.version"));
        doc.put("options", o.describe());
        doc.put("endpoints", model.describeEndpoints());
        doc.put("results", results.stream().map(PhaseResult::json).toList());
        doc.put("charts", charts);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(o.out().resolve(RESULT_FILE).toFile(), doc);
        say("results in " + o.out().resolve(RESULT_FILE) + ", charts " + charts);
        return results;
    }

    private static StoreUnderTest open(String system, LoadOptions o) throws Exception {
        return switch (system) {
            case "sessionmesh-binary" -> new SessionMeshStore(TransportForm.BINARY, o.hosts(), o.masterJar(), o.sidecarJar(), o.sidecarFlags());
            case "sessionmesh-json" -> new SessionMeshStore(TransportForm.JSON, o.hosts(), o.masterJar(), o.sidecarJar(), o.sidecarFlags());
            case "spring-session-redis" -> new SpringSessionRedisStore(o.redisHost(), o.redisPort(), o.hosts());
            default -> throw new IllegalArgumentException("unknown system " + system);
        };
    }

    private static PhaseResult measure(LoadPhase phase, String mode, int rate, LoadOptions o) throws Exception {
        String name = phase.store.name();
        PhaseResult result = new PhaseResult(name, mode, rate);
        List<Thread> threads = mode.equals("closed") ? phase.startClosed(o.users()) : phase.startOpen(rate, o.workers());
        say(name + ", " + mode + " loop" + (rate > 0 ? " at " + rate + "/s" : ", " + o.users() + " users") + ": warm-up "
                + o.warmup().toSeconds() + " s");
        Thread.sleep(o.warmup().toMillis());
        // Counters before the histograms start and after they end: every call of a request counted is counted.
        StoreUnderTest.Counters before = phase.store.counters();
        Map<String, Long> cpuBefore = phase.store.cpuNanos();
        Map<String, Double> sampleBefore = phase.store.sample();
        Map<String, Long> cacheBefore = phase.store.cacheFigures();
        phase.interval();
        long errorsBefore = phase.errors();
        long droppedBefore = phase.dropped();
        long expiredBefore = phase.expired();
        long start = System.nanoTime();
        long end = start + o.duration().toNanos();
        Histogram window = new Histogram(LoadPhase.MAX_NANOS, 3);
        int second = 0;
        while (System.nanoTime() < end) {
            long nextTick = start + (second + 1) * 1_000_000_000L;
            Thread.sleep(Math.max(1, Math.min(nextTick, end) - System.nanoTime()) / 1_000_000);
            Map<String, Histogram> interval = phase.interval();
            result.add(interval);
            Histogram requests = interval.get("request");
            result.throughputPerSecond.add((double) requests.getTotalCount());
            window.add(requests);
            Map<String, Double> sample = phase.store.sample();
            if (!sample.isEmpty()) {
                double reads = sample.get("reads") - sampleBefore.get("reads");
                result.hitRatioPerSecond.add(reads == 0 ? Double.NaN : (sample.get("hits") - sampleBefore.get("hits")) / reads);
                sampleBefore = sample;
            }
            second++;
            if (second % 5 == 0 || System.nanoTime() >= end) {
                say(String.format("%s %s %3d/%d s  %,8.0f req/s  p50 %7.3f ms  p99 %8.3f ms  errors %d%s", name, mode, second,
                        o.duration().toSeconds(), window.getTotalCount() / 5.0, PhaseResult.ms(window, 50),
                        PhaseResult.ms(window, 99), phase.errors() - errorsBefore,
                        result.hitRatioPerSecond.isEmpty() ? "" : String.format("  hit ratio %.1f%%",
                                100 * result.hitRatioPerSecond.get(result.hitRatioPerSecond.size() - 1))));
                window.reset();
            }
        }
        result.seconds = (System.nanoTime() - start) / 1e9;
        result.counters = phase.store.counters().minus(before);
        result.cpuNanos = ProcessCpu.minus(phase.store.cpuNanos(), cpuBefore);
        Map<String, Long> cacheFigures = new java.util.TreeMap<>(phase.store.cacheFigures());
        cacheFigures.replaceAll((k, v) -> v - cacheBefore.getOrDefault(k, 0L));
        result.cacheFigures = cacheFigures;
        if (!cacheFigures.isEmpty()) {
            say(name + " " + mode + ": sidecar cache figures over the measured period " + cacheFigures);
        }
        result.requests = result.requestLatency().getTotalCount();
        result.errors = phase.errors() - errorsBefore;
        result.dropped = phase.dropped() - droppedBefore;
        result.expired = phase.expired() - expiredBefore;
        result.lastError = result.errors > 0 ? phase.lastError() : null;
        phase.stop(threads);
        return result;
    }

    static String summary(List<PhaseResult> results, LoadOptions o) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("End-user requests (%d sessions, %d hosts, %s routing, logins %s, %d s measured after %d s warm-up)%n",
                o.sessions(), o.hosts(), o.sticky() ? "sticky" : "random", o.loginSticky() ? "sticky" : "random",
                o.duration().toSeconds(), o.warmup().toSeconds()));
        b.append(String.format("%-22s %-6s %10s %9s %9s %9s %9s %7s %10s %7s %10s %6s %6s%n", "system", "mode", "req/s", "p50 ms",
                "p99 ms", "p99.9 ms", "max ms", "RT/req", "bytes/req", "RT2/req", "bytes2/req", "hit", "errors"));
        for (PhaseResult r : results) {
            Histogram h = r.requestLatency();
            StoreUnderTest.Counters c = r.counters;
            double n = Math.max(1, r.requests);
            b.append(String.format("%-22s %-6s %10.0f %9.3f %9.3f %9.3f %9.3f %7.2f %10.0f %7.2f %10.0f %6s %6d%n", r.system, r.mode,
                    r.throughput(), PhaseResult.ms(h, 50), PhaseResult.ms(h, 99), PhaseResult.ms(h, 99.9), h.getMaxValue() / 1e6,
                    c.clientRoundTrips() / n, (c.clientBytesSent() + c.clientBytesReceived()) / n, c.backendRoundTrips() / n,
                    (c.backendBytesSent() + c.backendBytesReceived()) / n,
                    Double.isNaN(c.hitRatio()) ? "-" : String.format("%.1f%%", 100 * c.hitRatio()), r.errors + r.dropped));
        }
        b.append("CPU ms per end-user request, by process (from each process's own counters; \"generator\" is the load\n"
                + "generator's JVM, which holds every service node's client):\n");
        for (PhaseResult r : results) {
            b.append(String.format("  %-22s %-6s %s%n", r.system, r.mode, ProcessCpu.perRequest(r.cpuNanos, r.requests)));
        }
        b.append("RT/req, bytes/req: the services' link (to the sidecar, or to Redis); RT2, bytes2: sidecars to masters;\n"
                + "errors include requests dropped by the open loop's backlog. Sessions met expired (users logged in again): ");
        b.append(String.join(", ", results.stream().map(r -> r.system + " " + r.mode + " " + r.expired).toList())).append('\n');
        for (String mode : o.modes()) {
            PhaseResult redis = find(results, "spring-session-redis", mode);
            if (redis == null) {
                continue;
            }
            for (PhaseResult r : results) {
                if (r.mode.equals(mode) && r != redis) {
                    b.append(String.format("%s vs spring-session-redis, %s loop: throughput %.2fx, p99 %.2fx%n", r.system, mode,
                            r.throughput() / Math.max(1e-9, redis.throughput()),
                            PhaseResult.ms(r.requestLatency(), 99) / PhaseResult.ms(redis.requestLatency(), 99)));
                }
            }
        }
        return b.toString();
    }

    private static PhaseResult find(List<PhaseResult> results, String system, String mode) {
        return results.stream().filter(r -> r.system.equals(system) && r.mode.equals(mode)).findFirst().orElse(null);
    }

    static void say(String line) {
        System.out.println("[load] " + line);
        System.out.flush();
    }
}
