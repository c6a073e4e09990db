package io.sessionmesh.benchmarks.client;

import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The client jar's figures, against a running sidecar, in one run:
 * <ol>
 *   <li>which HTTP client: the client jar's socket pool against the JDK's HttpClient, the same 3-section binary read,
 *   1 and 8 threads;</li>
 *   <li>the deposit flow's three sections read as one batch ({@code getSession(id, a, b, c)}) against three single
 *   reads (one section at a time, as without {@code @SessionSections});</li>
 *   <li>the bytes a one-attribute change of a 5-attribute section sends, against resending the section.</li>
 * </ol>
 *
 * <pre>java -cp benchmarks.jar io.sessionmesh.benchmarks.client.ClientBenchmark --sidecar http://127.0.0.1:7510 [--seconds 10]</pre>
 */
public final class ClientBenchmark {
    static final String[] DEPOSIT_SECTIONS = {"clientInfo", "defaultCurrency", "interestRates"};

    private ClientBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            flags.put(args[i].substring(2), args[i + 1]);
        }
        URI sidecar = URI.create(flags.getOrDefault("sidecar", "http://127.0.0.1:7510"));
        int seconds = Integer.parseInt(flags.getOrDefault("seconds", "10"));
        StringBuilder json = new StringBuilder("{");
        try (SessionMeshClient client = SessionMeshClient.builder().sidecar(sidecar).build()) {
            List<String> ids = preload(client, 200);
            // Warm-up of everything measured below (JIT, and the sidecar's cache).
            for (int i = 0; i < 3; i++) {
                batch(client, ids, 2);
                singles(client, ids, 2);
            }

            System.out.println("== HTTP client: the same 3-section binary read (cache hit), " + seconds + " s each");
            json.append("\"httpClient\":[");
            List<String> rows = new ArrayList<>();
            for (int threads : new int[] {1, 8}) {
                Result ours = httpLoad(new OursTransport(sidecar), ids, threads, seconds);
                Result jdk = httpLoad(new JdkTransport(sidecar), ids, threads, seconds);
                print("socket pool (client jar), " + threads + " thread(s)", ours);
                print("JDK HttpClient, " + threads + " thread(s)", jdk);
                rows.add(String.format(Locale.ROOT, "{\"threads\":%d,\"ours\":%s,\"jdk\":%s}", threads, ours.json(), jdk.json()));
            }
            json.append(String.join(",", rows)).append("],");

            System.out.println("== the deposit flow's three sections: one batch read against three single reads");
            Result batch = timed(id -> client.getSession(id, DEPOSIT_SECTIONS), ids, seconds);
            Result singles = timed(id -> {
                Session s = client.openSession(id);
                for (String section : DEPOSIT_SECTIONS) {
                    s.section(section);
                }
            }, ids, seconds);
            print("one batch of 3 sections", batch);
            print("3 single reads", singles);
            System.out.printf(Locale.ROOT, "per section: batch %.1f us, single reads %.1f us; three single reads take %.2fx the batch%n",
                    batch.p50 / 3, singles.p50 / 3, singles.p50 / batch.p50);
            json.append(String.format(Locale.ROOT, "\"depositRead\":{\"batch\":%s,\"singles\":%s},", batch.json(), singles.json()));

            System.out.println("== bytes of a one-attribute change of a 5-attribute section");
            long[] bytes = deltaBytes(client);
            System.out.printf(Locale.ROOT, "delta save: %d bytes; resending the section: %d bytes; ratio %.3f%n", bytes[0], bytes[1],
                    (double) bytes[0] / bytes[1]);
            json.append(String.format(Locale.ROOT, "\"deltaBytes\":{\"delta\":%d,\"wholeSection\":%d,\"ratio\":%.4f}}", bytes[0],
                    bytes[1], (double) bytes[0] / bytes[1]));
        }
        String out = flags.get("out");
        if (out != null) {
            java.nio.file.Files.writeString(java.nio.file.Path.of(out), json + "\n");
            System.out.println("results: " + out);
        }
    }

    /** Sessions with the deposit flow's three sections, values as the workload has them. */
    static List<String> preload(SessionMeshClient client, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Session s = client.createSession();
            s.section("clientInfo").setAttribute("client", OneNioValues.VALUES.clientOfSize(600));
            s.section("defaultCurrency").setAttribute("currency", "RUB");
            Map<String, BigDecimal> rates = new LinkedHashMap<>();
            for (int m : new int[] {3, 6, 12, 24}) {
                rates.put("RUB/" + m, BigDecimal.valueOf(1400 + m * 10, 2));
            }
            s.section("interestRates").setAttribute("rates", rates);
            s.save();
            ids.add(s.id());
        }
        return ids;
    }

    static void batch(SessionMeshClient client, List<String> ids, int times) {
        for (int i = 0; i < times; i++) {
            for (String id : ids) {
                client.getSession(id, DEPOSIT_SECTIONS);
            }
        }
    }

    static void singles(SessionMeshClient client, List<String> ids, int times) {
        for (int i = 0; i < times; i++) {
            for (String id : ids) {
                Session s = client.openSession(id);
                for (String section : DEPOSIT_SECTIONS) {
                    s.section(section);
                }
            }
        }
    }

    /** The bytes sent to change one attribute of five, and to send all five again (the section as a whole). */
    static long[] deltaBytes(SessionMeshClient client) {
        Session s = client.createSession();
        Object[] values = new Object[5];
        for (int i = 0; i < 5; i++) {
            values[i] = OneNioValues.VALUES.clientOfSize(200 + 150 * i); // workload-sized values: 200 B .. 800 B
            s.section("cards").setAttribute("a" + i, values[i]);
        }
        s.save();
        Session view = client.getSession(s.id(), "cards");
        view.section("cards").setAttribute("a2", OneNioValues.VALUES.clientOfSize(500));
        long before = client.bytesSent();
        view.save();
        long delta = client.bytesSent() - before;
        // The same change sent as the whole section (what a save of whole sections would send).
        AttributeCodec codec = AttributeCodec.builder().build();
        Map<String, byte[]> all = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            all.put("a" + i, codec.encode(i == 2 ? OneNioValues.VALUES.clientOfSize(500) : values[i]));
        }
        long whole = new BinaryTransportCodec().encode(new WriteRequest(s.id(), List.of(new SectionDelta("cards", all, List.of())))).length;
        return new long[] {delta, whole};
    }

    /** What one measurement gave: operations a second and latency per operation in microseconds. */
    record Result(double perSecond, double p50, double p99, double p999) {
        String json() {
            return String.format(Locale.ROOT, "{\"perSecond\":%.0f,\"p50us\":%.1f,\"p99us\":%.1f,\"p999us\":%.1f}", perSecond, p50, p99, p999);
        }
    }

    static void print(String what, Result r) {
        System.out.printf(Locale.ROOT, "%-44s %,9.0f /s  p50 %7.1f us  p99 %7.1f us  p99.9 %7.1f us%n", what, r.perSecond, r.p50,
                r.p99, r.p999);
    }

    /** Runs {@code op} on one session after another for the time given; each run is one measurement. */
    static Result timed(java.util.function.Consumer<String> op, List<String> ids, int seconds) {
        Histogram h = new Histogram(60_000_000_000L, 3);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long start = System.nanoTime();
        for (int i = 0; System.nanoTime() < end; i++) {
            String id = ids.get(i % ids.size());
            long t0 = System.nanoTime();
            op.accept(id);
            h.recordValue(System.nanoTime() - t0);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new Result(h.getTotalCount() / elapsed, h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                h.getValueAtPercentile(99.9) / 1000.0);
    }

    /** One read over HTTP. */
    interface Transport {
        int read(String path) throws Exception;
    }

    /** The client jar's socket pool. */
    static final class OursTransport implements Transport {
        final SidecarHttp http;

        OursTransport(URI sidecar) {
            http = new SidecarHttp(sidecar, Duration.ofSeconds(1), Duration.ofSeconds(3), 64, 64 << 20);
        }

        @Override
        public int read(String path) {
            return http.exchange("GET", path, null, null, "application/x-sessionmesh").body().length;
        }
    }

    /** The JDK's HttpClient, HTTP/1.1, synchronous send. */
    static final class JdkTransport implements Transport {
        final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        final URI base;

        JdkTransport(URI base) {
            this.base = base;
        }

        @Override
        public int read(String path) throws Exception {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(3))
                    .header("Accept", "application/x-sessionmesh").build(), HttpResponse.BodyHandlers.ofByteArray());
            return r.body().length;
        }
    }

    static Result httpLoad(Transport t, List<String> ids, int threads, int seconds) throws Exception {
        List<String> paths = ids.stream().map(id -> "/v1/sessions/" + id + "?sections=" + String.join(",", DEPOSIT_SECTIONS)).toList();
        for (int i = 0; i < 2000; i++) {
            t.read(paths.get(i % paths.size())); // warm-up
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Histogram total = new Histogram(60_000_000_000L, 3);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long start = System.nanoTime();
        List<Future<Histogram>> parts = new ArrayList<>();
        for (int n = 0; n < threads; n++) {
            parts.add(pool.submit(() -> {
                Histogram h = new Histogram(60_000_000_000L, 3);
                while (System.nanoTime() < end) {
                    String p = paths.get(ThreadLocalRandom.current().nextInt(paths.size()));
                    long t0 = System.nanoTime();
                    t.read(p);
                    h.recordValue(System.nanoTime() - t0);
                }
                return h;
            }));
        }
        for (Future<Histogram> f : parts) {
            total.add(f.get());
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        return new Result(total.getTotalCount() / elapsed, total.getValueAtPercentile(50) / 1000.0,
                total.getValueAtPercentile(99) / 1000.0, total.getValueAtPercentile(99.9) / 1000.0);
    }
}
