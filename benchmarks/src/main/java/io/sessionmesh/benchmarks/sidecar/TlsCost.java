package io.sessionmesh.benchmarks.sidecar;

import io.sessionmesh.benchmarks.master.MasterVsRedis;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What mutual TLS between sidecar and master costs (benchmarks/RESULTS.md 10 at 1f3fa7a): two sidecar + master pairs, one in
 * plain TCP and one with TLS, loaded alike in alternating rounds of one run. The hit path: a 3-section read served
 * from the sidecar's cache (no master call: only lease pings cross TLS). The write path: a one-attribute write, which
 * goes to the master and back. Per path and pair: latency at 1 connection (p50, p99), throughput at 16, and the CPU
 * the sidecar and the master spent per request (from /proc of their pids).
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.sidecar.TlsCost --plain 127.0.0.1:7530 --tls 127.0.0.1:7540 \
 *   --pids plainSidecar,plainMaster,tlsSidecar,tlsMaster --seconds 10 --rounds 2
 * </pre>
 */
public final class TlsCost {
    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private TlsCost() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        String plain = flags.string("plain", "127.0.0.1:7530");
        String tls = flags.string("tls", "127.0.0.1:7540");
        String[] pids = flags.string("pids", "0,0,0,0").split(",");
        int seconds = flags.integer("seconds", 10, 1, 600);
        int rounds = flags.integer("rounds", 2, 1, 10);
        int sessions = flags.integer("sessions", 500, 1, 100_000);
        Path out = flags.path("out", null);
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        List<String> plainIds = SidecarBenchmark.preload(plain, sessions, values);
        List<String> tlsIds = SidecarBenchmark.preload(tls, sessions, values);
        SidecarBenchmark.warm(plain, plainIds);
        SidecarBenchmark.warm(tls, tlsIds);
        // warm-up of both request paths in both pairs, not measured
        for (String[] pair : new String[][] {{plain, "p"}, {tls, "t"}}) {
            List<String> ids = pair[0].equals(plain) ? plainIds : tlsIds;
            run(pair[0], ids, "hit", 8, Math.max(2, seconds / 2), null, null);
            run(pair[0], ids, "write", 8, Math.max(2, seconds / 2), null, null);
        }
        List<String> rows = new ArrayList<>();
        System.out.println("round  pair   path   conns   req/s   p50 us   p99 us   sidecar us/req   master us/req");
        for (int round = 1; round <= rounds; round++) {
            for (String path : new String[] {"hit", "write"}) {
                for (int conns : new int[] {1, 16}) {
                    for (int p = 0; p < 2; p++) {
                        boolean isTls = (p == 1) ^ (round % 2 == 0); // alternate which pair goes first
                        String target = isTls ? tls : plain;
                        List<String> ids = isTls ? tlsIds : plainIds;
                        String sidecarPid = pids[isTls ? 2 : 0];
                        String masterPid = pids[isTls ? 3 : 1];
                        Result r = run(target, ids, path, conns, seconds, sidecarPid, masterPid);
                        String line = String.format(Locale.ROOT, "%5d  %-5s  %-5s  %5d  %7.0f  %7d  %7d  %15.1f  %14.1f",
                                round, isTls ? "tls" : "plain", path, conns, r.perSecond, r.p50, r.p99, r.sidecarUs, r.masterUs);
                        System.out.println(line);
                        rows.add(String.format(Locale.ROOT, "{\"round\":%d,\"pair\":\"%s\",\"path\":\"%s\",\"connections\":%d,"
                                        + "\"requestsPerSecond\":%.0f,\"p50us\":%d,\"p99us\":%d,\"sidecarCpuUsPerRequest\":%.1f,"
                                        + "\"masterCpuUsPerRequest\":%.1f}", round, isTls ? "tls" : "plain", path, conns,
                                r.perSecond, r.p50, r.p99, r.sidecarUs, r.masterUs));
                    }
                }
            }
        }
        if (out != null) {
            Files.writeString(out, "{\"seconds\":" + seconds + ",\"sessions\":" + sessions + ",\"runs\":[\n"
                    + String.join(",\n", rows) + "\n]}\n");
            System.out.println("results: " + out);
        }
    }

    record Result(double perSecond, long p50, long p99, double sidecarUs, double masterUs) {
    }

    /** {@code conns} threads, each with its own keep-alive connection, for {@code seconds}. */
    static Result run(String sidecar, List<String> ids, String path, int conns, int seconds, String sidecarPid,
                      String masterPid) throws Exception {
        Histogram latency = new Histogram(60_000_000L, 3);
        AtomicLong done = new AtomicLong();
        BinaryTransportCodec codec = new BinaryTransportCodec();
        String sections = String.join(",", SidecarBenchmark.SECTIONS);
        long sidecarBefore = cpuTicks(sidecarPid);
        long masterBefore = cpuTicks(masterPid);
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < conns; t++) {
            Thread thread = new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                Histogram mine = new Histogram(60_000_000L, 3);
                byte[] small = new byte[64];
                try {
                    while (System.nanoTime() - end < 0) {
                        String id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
                        HttpRequest request;
                        if (path.equals("hit")) {
                            request = HttpRequest.newBuilder(URI.create("http://" + sidecar + "/v1/sessions/" + id
                                    + "?sections=" + sections)).header("Accept", "application/x-sessionmesh").build();
                        } else {
                            ThreadLocalRandom.current().nextBytes(small);
                            request = HttpRequest.newBuilder(URI.create("http://" + sidecar + "/v1/sessions/" + id))
                                    .header("Content-Type", "application/x-sessionmesh")
                                    .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(codec.encode(new WriteRequest(id,
                                            List.of(new SectionDelta("draft", Map.of("amount", small), List.of()))))))
                                    .build();
                        }
                        long start = System.nanoTime();
                        HttpResponse<byte[]> answer = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (answer.statusCode() != 200) {
                            throw new IllegalStateException(path + " answered " + answer.statusCode() + ": "
                                    + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
                        }
                        mine.recordValue(Math.min((System.nanoTime() - start) / 1000, 60_000_000L));
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                synchronized (latency) {
                    latency.add(mine);
                }
            });
            threads.add(thread);
        }
        long started = System.nanoTime();
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        long n = Math.max(1, done.get());
        double sidecarUs = (cpuTicks(sidecarPid) - sidecarBefore) * 1e6 / TICKS_PER_SECOND / n;
        double masterUs = (cpuTicks(masterPid) - masterBefore) * 1e6 / TICKS_PER_SECOND / n;
        return new Result(n / elapsed, latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), sidecarUs, masterUs);
    }

    /** utime + stime of a process, in clock ticks; 0 for pid "0". */
    static long cpuTicks(String pid) throws java.io.IOException {
        if (pid == null || pid.equals("0")) {
            return 0;
        }
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
