package io.sessionmesh.benchmarks.client;

import io.sessionmesh.benchmarks.load.ProcessCpu;
import io.sessionmesh.benchmarks.load.ServerProcesses;
import io.sessionmesh.client.internal.SidecarHttp;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service-to-sidecar hop over TCP against the sidecar's Unix domain socket ({@code unix-socket}): one master and
 * one sidecar process listening on both, and this process calling the sidecar through the client jar's
 * {@link SidecarHttp} from {@code threads} threads (a cached one-section read, {@code Accept: application/json}),
 * rounds alternating TCP and Unix so that drift on a shared machine falls on both, after one uncounted warm-up round
 * of each. Each round: 3 s unmeasured, then
 * {@code seconds} measured; CPU per call of this process (the client) and of the sidecar from their own counters.
 *
 * <pre>benchmarks/run-sidecar-transport-benchmark.sh [threads] [seconds] [rounds]</pre>
 */
public final class SidecarTransportBenchmark {
    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    /** Unmeasured time at the start of each round (connections opened, the loop hot). */
    private static final long SETTLE_MILLIS = 3_000;

    private SidecarTransportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: SidecarTransportBenchmark <master.jar> <sidecar.jar> [threads 8] [seconds 8] [rounds 6]");
            System.exit(2);
        }
        Path masterJar = Path.of(args[0]);
        Path sidecarJar = Path.of(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 6;
        Path socket = Files.createTempDirectory("sm-transport").resolve("sidecar.sock");
        try (ServerProcesses processes = new ServerProcesses()) {
            int master = processes.master(masterJar, ServerProcesses.MASTER_JVM, List.of("--io-threads", "1"));
            int[] sidecar = processes.sidecar(sidecarJar, master, ServerProcesses.SIDECAR_JVM,
                    List.of("--io-threads", "1", "--unix-socket", socket.toString()));
            long sidecarPid = processes.lastPid();
            ServerProcesses.awaitMaster(sidecar[1]);
            URI tcp = URI.create("http://127.0.0.1:" + sidecar[0]);
            URI unix = URI.create("unix:" + socket);
            String id = session(tcp);
            System.out.printf("machine: %d cores, %s; %d threads, %d s a round, load average %s%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), threads, seconds,
                    Files.readString(Path.of("/proc/loadavg")).trim());
            round(tcp, id, threads, seconds, sidecarPid); // warm-up of both, not counted: the JIT's work falls here
            round(unix, id, threads, seconds, sidecarPid);
            System.out.println("| round | transport | calls/s | client us/call | sidecar us/call | both us/call |");
            System.out.println("|---:|---|---:|---:|---:|---:|");
            List<double[]> sums = new ArrayList<>(List.of(new double[3], new double[3]));
            for (int round = 0; round < rounds; round++) {
                boolean overUnix = round % 2 == 1;
                double[] r = round(overUnix ? unix : tcp, id, threads, seconds, sidecarPid);
                System.out.printf(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %.2f |%n", round + 1, overUnix ? "unix" : "tcp",
                        r[0], r[1], r[2], r[1] + r[2]);
                double[] s = sums.get(overUnix ? 1 : 0);
                s[0] += r[1];
                s[1] += r[2];
                s[2]++;
            }
            double tcpBoth = (sums.get(0)[0] + sums.get(0)[1]) / sums.get(0)[2];
            double unixBoth = (sums.get(1)[0] + sums.get(1)[1]) / sums.get(1)[2];
            System.out.printf(Locale.ROOT, "mean CPU per call, client + sidecar: tcp %.2f us, unix %.2f us: unix / tcp %.2f%n",
                    tcpBoth, unixBoth, unixBoth / tcpBoth);
        }
    }

    /** A session with one small section, made over TCP; its id. */
    private static String session(URI sidecar) {
        try (SidecarHttp http = new SidecarHttp(sidecar, Duration.ofSeconds(2), Duration.ofSeconds(5), 2, 1 << 20)) {
            SidecarHttp.Response created = http.exchange("POST", "/v1/sessions", null, null, "application/json");
            Matcher m = ID.matcher(new String(created.body(), StandardCharsets.UTF_8));
            if (created.status() != 201 || !m.find()) {
                throw new IllegalStateException("create answered " + created.status());
            }
            byte[] patch = "{\"sections\":{\"clientInfo\":{\"set\":{\"name\":\"SXZhbg==\"}}}}".getBytes(StandardCharsets.UTF_8);
            int status = http.exchange("PATCH", "/v1/sessions/" + m.group(1), "application/json", patch, "application/json").status();
            if (status != 200) {
                throw new IllegalStateException("write answered " + status);
            }
            return m.group(1);
        }
    }

    /** One round on {@code sidecar}: calls a second, CPU microseconds per call of this process and of the sidecar. */
    private static double[] round(URI sidecar, String id, int threads, int seconds, long sidecarPid) throws InterruptedException {
        String target = "/v1/sessions/" + id + "?sections=clientInfo";
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder calls = new LongAdder();
        LongAdder failures = new LongAdder();
        long self = ProcessHandle.current().pid();
        try (SidecarHttp http = new SidecarHttp(sidecar, Duration.ofSeconds(2), Duration.ofSeconds(5), threads, 1 << 20)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    while (!stop.get()) {
                        if (http.exchange("GET", target, null, null, "application/json").status() == 200) {
                            calls.increment();
                        } else {
                            failures.increment();
                        }
                    }
                }, "transport-" + t);
                w.start();
                workers.add(w);
            }
            Thread.sleep(SETTLE_MILLIS);
            long c0 = calls.sum();
            long client0 = ProcessCpu.nanos(self);
            long sidecar0 = ProcessCpu.nanos(sidecarPid);
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long n = calls.sum() - c0;
            long client = ProcessCpu.nanos(self) - client0;
            long side = ProcessCpu.nanos(sidecarPid) - sidecar0;
            double wall = (System.nanoTime() - t0) / 1e9;
            stop.set(true);
            for (Thread w : workers) {
                w.join();
            }
            if (failures.sum() > 0) {
                throw new IllegalStateException(failures.sum() + " calls failed over " + sidecar);
            }
            return new double[] {n / wall, client / 1e3 / n, side / 1e3 / n};
        }
    }
}
