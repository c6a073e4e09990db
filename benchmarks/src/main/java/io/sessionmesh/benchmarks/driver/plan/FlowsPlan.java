package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.load.Flow;
import io.sessionmesh.benchmarks.driver.load.HttpLoad;
import io.sessionmesh.benchmarks.driver.load.SessionSet;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.driver.measure.StackCounters;
import io.sessionmesh.benchmarks.driver.stack.Flags;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.driver.stack.SystemSpec;

import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Plan flows, issue 18's measurement: CPU per end-user request by process, with a real HTTP service on each side.
 * Every system's whole stack is started at once ({@link RunStacks}) and {@code --sessions} sessions logged in through
 * each app, every flow checked once; then, for each flow, the systems in turn, closed loop ({@link HttpLoad}): a
 * warm-up, then a measured window in which latency is recorded per request, every process's CPU read from its own
 * counters at the start and the end ({@link ProcessCpu}) and the sidecars' hit ratio from their stats; all of that
 * {@code --rounds} times, each round starting the turn one system later. A system's windows and its rival's are thus
 * a minute apart, not a whole system's run apart, and with rounds the machine's drift shows as the spread of each
 * ratio across them. Every app runs with the same JVM flags and the same Tomcat settings. The report
 * ({@link FlowsReport}): flows.json and flows.md in {@code --out}.
 */
public final class FlowsPlan {
    /**
     * The least session idle timeout of a run, on every side ({@link #sessionIdleTimeout}): the apps' own 5 minutes is
     * shorter than a system waits between its read windows with every stack up, and the systems differ in what extends
     * it (Spring Session's filter touches the session on the floor-session flow, the example service does not), so the
     * sessions of one side could expire mid-run and not the other's.
     */
    static final Duration MIN_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private FlowsPlan() {
    }

    /** Runs the plan; answers the rounds' results. */
    public static List<List<FlowResult>> run(DriverOptions.Flows o) throws Exception {
        Report report = RunStacks.report("Plan flows: CPU per request by process", o.describe(), o.stacks(), o.systems());
        System.out.printf("CPU from /proc/<pid>/stat utime+stime, %d ticks a second: a process at 0.1 core for %d s gives "
                        + "%d ticks, so per-request figures are good to about 1%% at that load and better above.%n",
                ProcessCpu.TICKS_PER_SECOND, o.duration().toSeconds(), o.duration().toSeconds() * ProcessCpu.TICKS_PER_SECOND / 10);
        String idle = sessionIdleTimeout(o).toSeconds() + "s";
        List<Stack> stacks = new ArrayList<>();
        List<List<String>> sessions = new ArrayList<>();
        List<List<FlowResult>> rounds = new ArrayList<>();
        try (RunStacks run = new RunStacks(o.stacks())) {
            // every stack up and warm first, so that the systems are measured in turn, flow by flow, round after round:
            // the machine's drift then falls on both sides of each ratio alike
            for (SystemSpec system : o.systems()) {
                Stack stack = run.start(system, 1, Flags.over(List.of("--idle-timeout", idle), o.stacks().masterFlags()),
                        appFlags(o, idle));
                stacks.add(stack);
                List<String> ids = RunStacks.login(stack, new SessionSet(o.sessions(), 1, true, true, false), o.sessions())
                        .ids();
                sessions.add(ids);
                for (Flow flow : o.flows()) {
                    check(stack, flow, ids.get(0));
                }
            }
            if (o.prewarm()) {
                for (int i = 0; i < stacks.size(); i++) {
                    prewarm(o, stacks.get(i), sessions.get(i));
                }
            }
            for (int round = 1; round <= o.rounds(); round++) {
                List<FlowResult> results = new ArrayList<>();
                for (Flow flow : o.flows()) {
                    for (int i = 0; i < stacks.size(); i++) {
                        int turn = (i + round - 1) % stacks.size(); // no system always measured first
                        FlowResult r = measure(o, stacks.get(turn), flow, sessions.get(turn));
                        System.out.printf("%s%s %s: %.0f req/s, p50 %.2f ms, p99 %.2f ms, errors %d, CPU ms/req %s, stack %.3f, driver %.3f%n",
                                o.rounds() > 1 ? "round " + round + ": " : "", r.system(), r.flow(), r.requestsPerSecond(),
                                r.p50Ms(), r.p99Ms(), r.errors(), r.cpuMsPerRequest(), r.stackMsPerRequest(),
                                r.msPerRequest(r.driverTicks()));
                        if (r.firstError() != null) {
                            System.out.println("  first error: " + r.firstError());
                        }
                        results.add(r);
                    }
                }
                rounds.add(results);
            }
        }
        List<String> names = o.systems().stream().map(SystemSpec::name).toList();
        FlowsReport.write(report, rounds, names);
        System.out.println();
        System.out.print(FlowsReport.markdown(rounds, names));
        System.out.println("\nwritten: " + report.write(o.stacks().out(), "flows") + " and flows.md");
        return rounds;
    }

    /** Every app's Spring settings: the driver's defaults under the user's, the login's seed, the session timeout. */
    static List<String> appFlags(DriverOptions.Flows o, String idle) {
        List<String> flags = new ArrayList<>(o.stacks().apps());
        flags.add("--sessionmesh.example.seed=" + o.profile());
        flags.add("--spring.session.timeout=" + idle); // the drop-in's sessions get theirs from it, whatever the master's
        return flags;
    }

    /**
     * The session idle timeout of every side during a run: at least {@link #MIN_SESSION_IDLE_TIMEOUT}, and twice the
     * longest a system can go between two windows that use its sessions (the pre-warm and one round of every system's
     * flows), so that no session expires mid-run whatever --warmup, --duration and the lists are.
     */
    static Duration sessionIdleTimeout(DriverOptions.Flows o) {
        Duration window = o.warmup().plus(o.duration());
        long windows = (long) o.systems().size() * o.flows().size();
        Duration longestGap = window.multipliedBy(windows).plus(o.warmup().multipliedBy(windows));
        Duration twice = longestGap.multipliedBy(2);
        return twice.compareTo(MIN_SESSION_IDLE_TIMEOUT) > 0 ? twice : MIN_SESSION_IDLE_TIMEOUT;
    }

    /**
     * Every flow once for --warmup before any is measured: the code they share (Tomcat, MVC, Jackson, the store's
     * client) is compiled by then, so the first flow measured does not pay for the JIT of the others.
     */
    static void prewarm(DriverOptions.Flows o, Stack stack, List<String> sessions) throws Exception {
        for (Flow flow : o.flows()) {
            try (HttpLoad load = new HttpLoad(stack.appAddresses())) {
                load.closedLoop(o.connections(), flow.traffic(sessions));
                Thread.sleep(o.warmup().toMillis());
                load.stop();
            }
        }
        System.out.println(stack.name + ": pre-warmed every flow for " + o.warmup().toSeconds() + " s");
    }

    /** A warm-up, then the measured window: latency, answers, errors, the hit ratio and each process's CPU in it. */
    static FlowResult measure(DriverOptions.Flows o, Stack stack, Flow flow, List<String> sessions) throws Exception {
        try (HttpLoad load = new HttpLoad(stack.appAddresses()); StackCounters counters = new StackCounters(stack, false)) {
            load.closedLoop(o.connections(), flow.traffic(sessions));
            Thread.sleep(o.warmup().toMillis());
            StackCounters.Snapshot countersBefore = counters.snapshot(); // before the CPU window: it costs the sidecar
            load.interval();
            long answers = load.answers();
            long errors = load.errorCount();
            long reconnects = load.reconnects();
            ProcessCpu.Snapshot before = ProcessCpu.Snapshot.take(stack.pidsByRole());
            double loadStart = ProcessCpu.loadAverage();
            long start = System.nanoTime();
            Thread.sleep(o.duration().toMillis());
            ProcessCpu.Snapshot spent = ProcessCpu.Snapshot.take(stack.pidsByRole()).minus(before);
            long answersAfter = load.answers();
            Histogram h = load.interval().get(HttpLoad.ALL);
            double seconds = (System.nanoTime() - start) / 1e9;
            long errorsAfter = load.errorCount();
            long reconnectsAfter = load.reconnects();
            double loadEnd = ProcessCpu.loadAverage();
            load.stop();
            StackCounters.Snapshot window = counters.snapshot().minus(countersBefore);
            double hitRatio = stack.sidecars.isEmpty() || window.reads() == 0 ? Double.NaN : window.hitRatio();
            return FlowResult.of(stack.name, flow.label(), seconds, answersAfter - answers, errorsAfter - errors,
                    reconnectsAfter - reconnects, load.firstError(), h, spent, loadStart, loadEnd, hitRatio);
        }
    }

    /** One request of the flow before the load: a 2xx, or the run stops with the app's answer. */
    static void check(Stack stack, Flow flow, String session) throws Exception {
        byte[] body = flow.body(new java.util.SplittableRandom(1));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.apps.get(0).port() + flow.path()));
        if (flow.sendsSession()) {
            b.header(HttpLoad.SESSION_HEADER, session);
        }
        b = body == null ? b.method(flow.method().name(), HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(flow.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(stack.name + ": " + flow.method() + " " + flow.path() + " answered "
                    + r.statusCode() + ": " + r.body());
        }
    }
}
