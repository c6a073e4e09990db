package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.load.SessionSet;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.workload.Scale;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Plan demo ({@code ./demo.sh}): the mix on one host, SessionMesh only. Starts a master (or a master group's replicas),
 * a sidecar and the example service, each a process detached from the driver (its output in a log file in the state
 * directory, so it keeps running after the driver exits), their ids in {@value #PIDS}; logs the sessions in, drives
 * the workload through the service ({@link MixRun}) with a progress line, prints a summary of what the cache, the
 * batching and the deltas did ({@link DemoSummary}, also summary.json), and leaves the stack running with its URLs
 * printed (or stops it with {@code --stop}, or after a failure). {@code demo stop} stops a stack left running. A run
 * with failed requests exits with status 1.
 */
public final class DemoPlan {
    /** The file of "name pid" lines of a running stack, in the state directory. */
    static final String PIDS = "stack.pids";
    /** Every process's JVM: the demo's data is a few tens of megabytes. */
    static final List<String> JVM = List.of("-Xmx384m", "-XX:+UseSerialGC");
    /** How often the progress line is printed. */
    static final Duration PROGRESS = Duration.ofSeconds(5);
    /** How long a process of a stack left running may take to stop after SIGTERM, before SIGKILL. */
    static final long STOP_SECONDS = 10;

    private DemoPlan() {
    }

    /** {@code demo stop}: stops a stack an earlier demo left running. */
    public static void stop(DriverOptions.Demo o, PrintStream out) throws IOException {
        int n = stopRunning(o.state());
        out.println(n == 0 ? "[demo] no demo stack is running" : "[demo] stopped the demo stack (" + n + " processes)");
    }

    /** Runs the demo; answers the exit status (0, or 1 after a failed request or a stack that did not start). */
    public static int run(DriverOptions.Demo o, PrintStream out) throws Exception {
        int stale = stopRunning(o.state());
        if (stale > 0) {
            say(out, "stopped the stack an earlier demo left running (" + stale + " processes)");
        }
        say(out, "starting " + (o.replicas() == 1 ? "a master" : "a master group of " + o.replicas() + " replicas")
                + ", a sidecar and the example service (logs in " + o.state() + ")");
        Stack stack;
        try {
            stack = start(o);
        } catch (IllegalStateException | IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            return 1;
        }
        boolean ok = false;
        try {
            say(out, (stack.masters.size() == 1 ? "master on " : "master replicas on ")
                    + String.join(", ", stack.masterAddresses()) + ", sidecar on 127.0.0.1:" + stack.sidecars.get(0).port("api")
                    + ", example service on 127.0.0.1:" + stack.apps.get(0).port());
            ok = workload(o, stack, out);
        } finally {
            if (o.stopAtEnd() || !ok) {
                stack.close();
                Files.deleteIfExists(o.state().resolve(PIDS));
                say(out, ok ? "stack stopped (--stop)" : "stack stopped after a failure; logs in " + o.state());
            }
        }
        if (!o.stopAtEnd()) {
            printUrls(stack, o, out);
        }
        out.flush();
        return ok ? 0 : 1;
    }

    /** The stack on the demo's ports, each process's id in the pid file as soon as it exists. */
    private static Stack start(DriverOptions.Demo o) throws IOException, InterruptedException {
        for (int i = 0; i < o.replicas(); i++) {
            checkFree(o.masterPort() == 0 ? 0 : o.masterPort() + i);
        }
        for (int port : new int[] {o.sidecarPort(), o.sidecarAdminPort(), o.servicePort()}) {
            checkFree(port);
        }
        Files.createDirectories(o.state());
        Files.deleteIfExists(o.state().resolve(PIDS));
        try {
            return Stack.builder(Stack.SESSIONMESH, o.jars()).replicas(o.replicas()).jvm(name -> JVM)
                    .appFlags(List.of("--server.address=127.0.0.1"))
                    .ports(o.masterPort(), o.sidecarPort(), o.sidecarAdminPort(), o.servicePort())
                    .logs(o.state()).launched((name, p) -> recordPid(o.state(), name, p)).start();
        } catch (IOException | InterruptedException | RuntimeException e) {
            Files.deleteIfExists(o.state().resolve(PIDS));
            throw e;
        }
    }

    private static void recordPid(Path state, String name, Process p) {
        try {
            Files.writeString(state.resolve(PIDS), name + " " + p.pid() + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean workload(DriverOptions.Demo o, Stack stack, PrintStream out) throws Exception {
        try (MixRun run = new MixRun(stack, new SessionSet(o.sessions(), 1, true, false, false), o.sessions(), false)) {
            long t0 = System.nanoTime();
            if (!run.fill(Math.max(2, o.users()))) {
                throw new IllegalStateException("logging the sessions in failed: " + run.load.lastError());
            }
            say(out, String.format("logged %,d sessions in (12 sections x 5 attributes each) in %.1f s", o.sessions(),
                    (System.nanoTime() - t0) / 1e9));
            run.start(o.users(), 0, 0);
            say(out, String.format("workload: %d users, Zipf 0.99 over %,d sessions, 4 reads : 1 write, %,.1f new sessions/s; "
                            + "warm-up %d s, then %d s measured", o.users(), o.sessions(),
                    Scale.newSessionsPerSecond(o.sessions()), o.warmup().toSeconds(), o.duration().toSeconds()));
            MixRun.Result r = run.measure(o.warmup(), o.duration(), PROGRESS, p -> say(out, progressLine(p)));
            DemoSummary summary = new DemoSummary(o, r);
            out.println();
            out.print(summary.text());
            Report report = new Report("SessionMesh demo summary");
            summary.json().forEach(report::put);
            report.code(summary.text());
            report.write(o.state(), "summary");
            say(out, "summary also in " + o.state().resolve("summary.json"));
            if (!r.errors().isEmpty()) {
                say(out, "last error: " + run.load.lastError());
            }
            return r.errors().isEmpty() && r.requests() > 0;
        }
    }

    /** The progress line of the demo and the mix. */
    static String progressLine(MixRun.Progress p) {
        return String.format("%3.0f s  %,9d requests  %,7.0f/s  p50 %6.2f ms  p99 %7.2f ms  hit ratio %5.1f%%  errors %d",
                p.seconds(), p.requests(), p.requests() / p.seconds(), p.interval().getValueAtPercentile(50) / 1e3,
                p.interval().getValueAtPercentile(99) / 1e3, 100 * p.counters().hitRatio(), p.errors());
    }

    private static void printUrls(Stack s, DriverOptions.Demo o, PrintStream out) {
        int service = s.apps.get(0).port();
        out.println();
        out.println("The stack keeps running:");
        out.println("  example service  http://127.0.0.1:" + service + "   try:");
        out.println("      id=$(curl -s -X POST http://127.0.0.1:" + service
                + "/deposits/login/C42 | sed 's/.*\"sessionId\":\"\\([^\"]*\\)\".*/\\1/')");
        out.println("      curl -s -H \"X-Session-Id: $id\" http://127.0.0.1:" + service + "/deposits/offer");
        out.println("  sidecar REST     http://127.0.0.1:" + s.sidecars.get(0).port("api") + "/v1/sessions/$id?sections=clientInfo,cards");
        out.println("  sidecar admin    http://127.0.0.1:" + s.sidecars.get(0).port("admin") + "/admin/stats");
        out.println("  master           " + String.join(", ", s.masterAddresses()) + " (binary protocol, PROTOCOL.md)");
        out.println("  logs             " + o.state() + "/{" + (s.masters.size() == 1 ? "master" : "master-N")
                + ",sidecar,service}.log");
        out.println("Stop it with: ./demo.sh stop");
    }

    private static void say(PrintStream out, String line) {
        out.println("[demo] " + line);
        out.flush();
    }

    private static void checkFree(int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use: stop what holds it (a demo left "
                    + "running stops with ./demo.sh stop) or choose other ports (--service-port 0 and so on)");
        }
    }

    /**
     * Stops a stack an earlier demo left running, from its pid file (SIGTERM to every process, then SIGKILL to any
     * still running {@value #STOP_SECONDS} s later); answers how many processes were stopped. Only processes that are
     * still java processes are stopped (a pid may have been reused since).
     */
    static int stopRunning(Path state) throws IOException {
        Path pids = state.resolve(PIDS);
        if (!Files.exists(pids)) {
            return 0;
        }
        List<ProcessHandle> running = new ArrayList<>();
        for (String line : Files.readAllLines(pids, StandardCharsets.UTF_8)) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length != 2) {
                continue;
            }
            ProcessHandle.of(Long.parseLong(parts[1]))
                    .filter(h -> h.isAlive() && h.info().command().map(c -> c.endsWith("java")).orElse(false))
                    .ifPresent(running::add);
        }
        // SIGTERM to all first, so that they stop side by side; SIGKILL to any still running at the one deadline
        running.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_SECONDS);
        for (ProcessHandle h : running) {
            try {
                h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        Files.deleteIfExists(pids);
        return running.size();
    }
}
