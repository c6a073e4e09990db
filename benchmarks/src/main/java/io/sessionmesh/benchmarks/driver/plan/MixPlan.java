package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.load.SessionSet;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.driver.measure.StackCounters;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.driver.stack.SystemSpec;
import io.sessionmesh.workload.Scale;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plan mix: docs/WORKLOAD.md over HTTP through the example apps' pages ({@link MixRun}), on every system in turn with
 * all stacks up: Zipf 0.99 over {@code --sessions} sessions, four reads to one write, new sessions logged in at the
 * workload's rate, in a closed loop ({@code --users}) or an open loop ({@code --rate}); {@code --hosts} hosts, each a
 * sidecar and an app node, a session's requests routed to a host by hash of its id or at random. Sessions idle out
 * after the workload's 5 minutes; a request that finds its session gone logs it in again (counted, not an error).
 * With a Spring Session app among the systems every system gets the deposit pages alone (the only ones it has). What
 * each system did, in mix.json and mix.md: throughput, latency by request kind, the sidecars' hit ratio, round trips to
 * the masters per request, what the masters' invalidations cost writes, the bytes deltas saved, CPU by process.
 */
public final class MixPlan {
    /** How often the progress line is printed. */
    static final Duration PROGRESS = Duration.ofSeconds(5);

    private MixPlan() {
    }

    /** Runs the plan; answers each system's result, in the systems' order. */
    public static Map<String, MixRun.Result> run(DriverOptions.Mix o) throws Exception {
        Report report = RunStacks.report("Plan mix: the standard workload over HTTP", o.describe(), o.stacks(), o.systems());
        List<String> appFlags = new ArrayList<>(o.stacks().apps());
        appFlags.add("--sessionmesh.example.seed=standard"); // the cards pages need the standard seed
        Map<String, MixRun.Result> results = new LinkedHashMap<>();
        List<MixRun> runs = new ArrayList<>();
        try (RunStacks stacks = new RunStacks(o.stacks())) {
            for (SystemSpec spec : o.systems()) {
                String system = spec.name();
                Stack stack = stacks.start(spec, o.hosts(), o.stacks().masterFlags(), appFlags);
                MixRun run = new MixRun(stack, new SessionSet(o.sessions(), o.hosts(), o.sticky(), o.depositsOnly(), true),
                        o.sessions(), true);
                runs.add(run);
                long t0 = System.nanoTime();
                if (!run.fill(RunStacks.LOGIN_USERS)) {
                    throw new IllegalStateException(system + ": logging the sessions in failed: " + run.load.firstError());
                }
                System.out.printf("%s: logged %,d sessions in (%.1f s)%n", system, o.sessions(), (System.nanoTime() - t0) / 1e9);
            }
            for (MixRun run : runs) {
                String system = run.stack.name;
                run.start(o.users(), o.rate(), o.maxConnections());
                System.out.printf("%s: %s, Zipf 0.99 over %,d sessions, %s, %,.1f new sessions/s; warm-up %d s, then %d s%n",
                        system, o.rate() == 0 ? o.users() + " users" : "open loop at " + o.rate() + " requests/s",
                        o.sessions(), o.depositsOnly() ? "the deposit pages" : "the deposit and cards pages",
                        Scale.newSessionsPerSecond(o.sessions()), o.warmup().toSeconds(), o.duration().toSeconds());
                MixRun.Result r = run.measure(o.warmup(), o.duration(), PROGRESS, p -> System.out.println(system + " "
                        + DemoPlan.progressLine(p)));
                results.put(system, r);
            }
        } finally {
            runs.forEach(MixRun::close);
        }
        write(report, o, results);
        System.out.println();
        System.out.print(report.markdown());
        System.out.println("written: " + report.write(o.stacks().out(), "mix") + " and mix.md");
        return results;
    }

    /** Whether a request of any system failed. */
    public static boolean failed(Map<String, MixRun.Result> results) {
        return results.values().stream().anyMatch(r -> !r.errors().isEmpty());
    }

    /** Every system's figures into the report: the JSON, and three tables. */
    static void write(Report report, DriverOptions.Mix o, Map<String, MixRun.Result> results) {
        List<List<String>> main = new ArrayList<>();
        List<List<String>> store = new ArrayList<>();
        List<List<String>> cpu = new ArrayList<>();
        List<List<String>> kinds = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        results.forEach((system, r) -> {
            json.put(system, describe(r));
            Histogram h = r.all();
            StackCounters.Snapshot c = r.counters();
            main.add(List.of(system, Report.f(r.requests() / r.seconds(), 0), Report.f(Report.ms(h, 50), 2),
                    Report.f(Report.ms(h, 99), 2), Report.f(Report.ms(h, 99.9), 2), Report.f(h.getMaxValue() / 1e3, 2),
                    String.valueOf(r.errorCount()), String.valueOf(r.expired()), String.valueOf(r.dropped())));
            long writes = c.master().getOrDefault("writes", 0L);
            boolean sm = Stack.onSessionMesh(o.systemOf(system));
            store.add(List.of(system, Report.f(r.perRequest(c.sidecarCalls()), 2),
                    Report.f(r.perRequest(c.linkBytesSent()), 0) + " / " + Report.f(r.perRequest(c.linkBytesReceived()), 0),
                    sm ? Report.f(100 * c.hitRatio(), 1) + "%" : "", sm ? Report.f(100 * c.sectionHitRatio(), 1) + "%" : "",
                    sm ? Report.f(r.perRequest(c.masterCalls()), 3) : "",
                    sm ? Report.f(r.perRequest(c.masterBytesSent()), 0) + " / " + Report.f(r.perRequest(c.masterBytesReceived()), 0) : "",
                    writes == 0 ? "" : Report.f(100.0 * c.master().getOrDefault("fenced_writes", 0L) / writes, 0) + "%",
                    writes == 0 ? "" : Report.f((double) c.master().getOrDefault("invalidations_sent", 0L) / writes, 2),
                    c.masterGauges().isEmpty() ? "" : c.masterGauges().values().stream().map(String::valueOf)
                            .collect(java.util.stream.Collectors.joining(" / ")),
                    c.wholeSectionBytes() == 0 ? "" : Report.f(100 * c.deltaSavedShare(), 1) + "%"));
            List<String> row = new ArrayList<>(List.of(system));
            Map<String, Double> perRequest = cpuMsPerRequest(r);
            for (String role : List.of("service", "app", "sidecar", "master", "redis", "stack", "driver")) {
                row.add(perRequest.containsKey(role) ? Report.f(perRequest.get(role), 3) : "");
            }
            cpu.add(row);
            r.byKind().forEach((kind, k) -> kinds.add(List.of(system, kind, String.valueOf(k.getTotalCount()),
                    Report.f(Report.ms(k, 50), 2), Report.f(Report.ms(k, 99), 2), Report.f(Report.ms(k, 99.9), 2),
                    Report.f(k.getMaxValue() / 1e3, 2))));
        });
        report.put("results", json);
        report.text(String.format("%,d sessions, %s, %d host(s), %s routing, %s; %d s measured after %d s of warm-up",
                o.sessions(), o.rate() == 0 ? o.users() + " closed-loop users" : "open loop at " + o.rate() + " requests/s",
                o.hosts(), o.sticky() ? "sticky" : "random", o.depositsOnly() ? "deposit pages" : "deposit and cards pages",
                o.duration().toSeconds(), o.warmup().toSeconds()));
        report.heading("End-user requests (logins included)")
                .table(List.of("system", "req/s", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors", "sessions gone", "dropped"), main);
        report.heading("By request kind")
                .table(List.of("system", "kind", "requests", "p50 ms", "p99 ms", "p99.9 ms", "max ms"), kinds);
        report.heading("The apps' link to their store (the sidecar, or Redis) and the sidecars' to the masters")
                .text("Per request. Round trips to the store: calls to the sidecar, or the commands Redis processed (and "
                        + "its bytes: the whole server's). The fence wait is the master's since it started.")
                .table(List.of("system", "store round trips", "bytes to / from the store", "hit ratio (reads)",
                        "sections from cache", "master round trips", "bytes to / from masters", "writes that waited",
                        "invalidations a write", "fence wait p50 / p99 / max us", "bytes saved by deltas"), store);
        report.heading("CPU ms per request, by process (the driver is not part of the stack)")
                .table(List.of("system", "service", "app", "sidecar", "master", "redis", "whole stack", "driver"), cpu);
    }

    /** CPU ms per request of each role, of the whole stack ({@code stack}) and of the driver. */
    static Map<String, Double> cpuMsPerRequest(MixRun.Result r) {
        Map<String, Double> m = new LinkedHashMap<>();
        double n = Math.max(1, r.requests());
        long stack = 0;
        for (Map.Entry<String, Long> e : r.cpu().ticks().entrySet()) {
            m.put(e.getKey(), ProcessCpu.micros(e.getValue()) / 1e3 / n);
            stack += e.getValue();
        }
        m.put("stack", ProcessCpu.micros(stack) / 1e3 / n);
        m.put("driver", ProcessCpu.micros(r.cpu().driverTicks()) / 1e3 / n);
        return m;
    }

    /** One system's result for the JSON. */
    static Map<String, Object> describe(MixRun.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        StackCounters.Snapshot c = r.counters();
        m.put("seconds", r.seconds());
        m.put("requests", r.requests());
        m.put("requests_per_s", r.requests() / r.seconds());
        m.put("errors", r.errors());
        m.put("sessions_gone", r.expired());
        m.put("dropped", r.dropped());
        m.put("reconnects", r.reconnects());
        m.put("latency_ms", Report.latencyMs(r.all()));
        Map<String, Object> kinds = new LinkedHashMap<>();
        r.byKind().forEach((kind, h) -> kinds.put(kind, Report.latencyMs(h)));
        m.put("latency_ms_by_kind", kinds);
        m.put("hit_ratio", c.hitRatio());
        m.put("section_hit_ratio", c.sectionHitRatio());
        m.put("reads", Map.of("hits", c.hits(), "partial_hits", c.partialHits(), "misses", c.misses()));
        m.put("master_round_trips_per_request", r.perRequest(c.masterCalls()));
        m.put("master_bytes_per_request", Map.of("sent", r.perRequest(c.masterBytesSent()),
                "received", r.perRequest(c.masterBytesReceived())));
        m.put("store_round_trips_per_request", r.perRequest(c.sidecarCalls()));
        m.put("store_bytes_per_request", Map.of("sent", r.perRequest(c.linkBytesSent()),
                "received", r.perRequest(c.linkBytesReceived())));
        m.put("master", c.master());
        m.put("master_fence_wait_us_since_start", c.masterGauges());
        m.put("delta_bytes", c.deltaBytes());
        m.put("whole_section_bytes", c.wholeSectionBytes());
        m.put("cpu_ms_per_request", cpuMsPerRequest(r));
        m.put("cpu_ticks", r.cpu().ticks());
        m.put("jvm_thread_ticks", r.cpu().threadTicks());
        return m;
    }
}
