package io.sessionmesh.demo;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.workload.Scale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.net.URI;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar sessionmesh-demo.jar [flags]} ({@code ./demo.sh}): starts a master, a sidecar and the example
 * service ({@link DemoStack}), logs the sessions in, drives the workload through the service ({@link DemoWorkload})
 * with a progress line, prints a summary of what the cache, the batching and the deltas did, and leaves the stack
 * running with its URLs printed (or stops it with {@code --stop}). {@code stop} stops a stack left running. A bad
 * flag exits with status 2; a run with failed requests exits with status 1.
 */
public final class DemoMain {
    /** The summary's first line, which the README test looks for. */
    static final String SUMMARY = "SessionMesh demo summary";
    /** How often the progress line is rewritten. */
    static final long PROGRESS_SECONDS = 5;

    private DemoMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("stop")) {
            DemoOptions o = Settings.read("demo", Arrays.copyOfRange(args, 1, args.length), DemoOptions.usage(),
                    DemoOptions::read);
            int n = DemoStack.stopRunning(o.state());
            System.out.println(n == 0 ? "[demo] no demo stack is running" : "[demo] stopped the demo stack (" + n + " processes)");
            return;
        }
        DemoOptions o = Settings.read("demo", args, DemoOptions.usage(), DemoOptions::read);
        int stale = DemoStack.stopRunning(o.state());
        if (stale > 0) {
            say("stopped the stack an earlier demo left running (" + stale + " processes)");
        }
        say("starting " + (o.replicas() == 1 ? "a master" : "a master group of " + o.replicas() + " replicas")
                + ", a sidecar and the example service (logs in " + o.state() + ")");
        DemoStack stack;
        try {
            stack = DemoStack.start(o);
        } catch (IllegalStateException e) {
            System.err.println("demo: " + e.getMessage());
            System.exit(1);
            return;
        }
        boolean ok = false;
        try {
            say((stack.masters.size() == 1 ? "master on " : "master replicas on ") + String.join(", ", stack.masters)
                    + ", sidecar on 127.0.0.1:" + stack.sidecarPort
                    + ", example service on 127.0.0.1:" + stack.servicePort);
            ok = run(o, stack);
        } finally {
            if (o.stopAtEnd() || !ok) {
                stack.stop();
                say(ok ? "stack stopped (--stop)" : "stack stopped after a failure; logs in " + o.state());
            }
        }
        if (!o.stopAtEnd()) {
            printUrls(stack, o);
        }
        System.out.flush();
        System.exit(ok ? 0 : 1);
    }

    private static boolean run(DemoOptions o, DemoStack stack) throws Exception {
        URI service = URI.create("http://127.0.0.1:" + stack.servicePort + "/");
        DemoWorkload workload = new DemoWorkload(service, o.sessions());
        long t0 = System.nanoTime();
        workload.loginAll(Math.max(2, o.users()));
        say(String.format("logged %,d sessions in (12 sections x 5 attributes each) in %.1f s", o.sessions(),
                (System.nanoTime() - t0) / 1e9));
        DemoFigures figures = new DemoFigures(workload, stack);
        List<Thread> threads = workload.start(o.users());
        say(String.format("workload: %d users, Zipf 0.99 over %,d sessions, 4 reads : 1 write, %,.1f new sessions/s; "
                        + "warm-up %d s, then %d s measured", o.users(), o.sessions(),
                Scale.newSessionsPerSecond(o.sessions()), o.warmup().toSeconds(),
                o.duration().toSeconds()));
        Thread.sleep(o.warmup().toMillis());
        workload.interval(null);
        DemoFigures.Snapshot before = figures.snapshot();
        long start = System.nanoTime();
        long end = start + o.duration().toNanos();
        long requestsAtStart = workload.requests();
        Histogram total = new Histogram(DemoWorkload.MAX_LATENCY_NANOS, 3);
        Map<DemoRequest, Histogram> byKind = new EnumMap<>(DemoRequest.class);
        while (System.nanoTime() < end) {
            long left = end - System.nanoTime();
            Thread.sleep(Math.max(1, Math.min(TimeUnit.SECONDS.toMillis(PROGRESS_SECONDS), TimeUnit.NANOSECONDS.toMillis(left))));
            Histogram h = workload.interval(byKind);
            total.add(h);
            double seconds = (System.nanoTime() - start) / 1e9;
            DemoFigures.Snapshot now = figures.snapshot();
            say(String.format("%3.0f s  %,9d requests  %,7.0f/s  p50 %6.2f ms  p99 %7.2f ms  hit ratio %5.1f%%  errors %d",
                    seconds, workload.requests() - requestsAtStart, (workload.requests() - requestsAtStart) / seconds,
                    h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                    100 * now.minus(before).hitRatio(), workload.errors().values().stream().mapToLong(Long::longValue).sum()));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        DemoFigures.Snapshot after = figures.snapshot();
        workload.stop(threads);
        total.add(workload.interval(byKind));
        DemoSummary summary = new DemoSummary(o, seconds, total, byKind, after.minus(before), workload.errors());
        System.out.println();
        System.out.print(summary.text());
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode doc = summary.json(json);
        Files.writeString(o.state().resolve("summary.json"), json.writeValueAsString(doc));
        say("summary also in " + o.state().resolve("summary.json"));
        if (!workload.errors().isEmpty()) {
            say("last error: " + workload.lastError());
        }
        return workload.errors().isEmpty() && total.getTotalCount() > 0;
    }

    private static void printUrls(DemoStack s, DemoOptions o) {
        System.out.println();
        System.out.println("The stack keeps running:");
        System.out.println("  example service  http://127.0.0.1:" + s.servicePort + "   try:");
        System.out.println("      id=$(curl -s -X POST http://127.0.0.1:" + s.servicePort
                + "/deposits/login/C42 | sed 's/.*\"sessionId\":\"\\([^\"]*\\)\".*/\\1/')");
        System.out.println("      curl -s -H \"X-Session-Id: $id\" http://127.0.0.1:" + s.servicePort + "/deposits/offer");
        System.out.println("  sidecar REST     http://127.0.0.1:" + s.sidecarPort + "/v1/sessions/$id?sections=clientInfo,cards");
        System.out.println("  sidecar admin    http://127.0.0.1:" + s.sidecarAdminPort + "/admin/stats");
        System.out.println("  master           " + String.join(", ", s.masters) + " (binary protocol, PROTOCOL.md)");
        System.out.println("  logs             " + o.state() + "/{" + (s.masters.size() == 1 ? "master" : "master-N")
                + ",sidecar,service}.log");
        System.out.println("Stop it with: ./demo.sh stop");
    }

    static void say(String line) {
        System.out.println("[demo] " + line);
        System.out.flush();
    }
}
