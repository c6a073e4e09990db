package io.sessionmesh.benchmarks.sidecar;

import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.floor.LoopbackFloor;

import io.sessionmesh.benchmarks.master.MasterVsRedis;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.WriteRequest;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Batch reads of 3 sections through the sidecar, cache hit and cache miss, at 1..64 keep-alive connections, beside
 * the TCP round-trip floor and {@code redis-benchmark GET} (1 KB values) measured in the same run.
 *
 * <p>The load is wrk (C, one thread, keep-alive, a Lua script that reads a random session of 1,000 each request,
 * in each form {@code --forms} names: {@code binary}, {@code Accept: application/x-sessionmesh}, as the client jar
 * reads; {@code json}, {@code Accept: application/json}, as curl or a non-Java caller reads): as efficient a client
 * as redis-benchmark, so the throughput figures compare servers. The hit sidecar has every session cached (warmed
 * first); the miss sidecar caches nothing ({@code --cache-max-bytes 0}), so every read goes to the master. The floor
 * is {@link LoopbackFloor}: one Redis PING at a time, on the same Redis. With {@code --hit-pid}, the hit sidecar's CPU
 * per request (from /proc) too: the figure a shared machine disturbs least.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.sidecar.SidecarBenchmark --hit 127.0.0.1:7510 \
 *     --miss 127.0.0.1:7520 --redis 127.0.0.1:6390 [--connections 1,4,16,50,64] [--seconds 10] \
 *     [--warmup-seconds 10] [--forms binary,json] [--hit-pid N]
 * </pre>
 */
public final class SidecarBenchmark {
    static final String[] SECTIONS = {"clientInfo", "defaultCurrency", "interestRates"};

    private SidecarBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        String hit = flags.string("hit", "127.0.0.1:7510");
        String miss = flags.string("miss", "127.0.0.1:7520");
        String redis = flags.string("redis", "127.0.0.1:6390");
        List<Integer> connections = flags.integers("connections", List.of(1, 4, 16, 50, 64), 1, 10_000);
        int seconds = flags.integer("seconds", 10, 1, 3600);
        int sessions = flags.integer("sessions", 1000, 1, 1_000_000);
        Path out = flags.path("out", "benchmarks/results/sidecar.json");
        int warmup = flags.integer("warmup-seconds", 10, 0, 3600);
        List<String> forms = flags.list("forms", List.of("binary", "json"), List.of("binary", "json"));
        long hitPid = flags.integer("hit-pid", 0, 0, Integer.MAX_VALUE);
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        List<String> ids = preload(hit, sessions, values);
        Map<String, Path> scripts = new java.util.LinkedHashMap<>();
        for (String form : forms) {
            scripts.put(form, luaScript(ids, form.equals("json") ? "application/json" : "application/x-sessionmesh"));
        }
        warm(hit, ids);

        // Warm-up, not measured: the JIT compiles the request paths of both sidecars and of the master, in each form.
        for (Path script : scripts.values()) {
            wrk(hit, script, 16, warmup);
            wrk(miss, script, 16, warmup);
            wrk(hit, script, 1, Math.max(1, warmup / 2));
            wrk(miss, script, 1, Math.max(1, warmup / 2));
        }

        String[] r = redis.split(":");
        Map<String, Object> floor = LoopbackFloor.measure(r[0], Integer.parseInt(r[1]));
        long floorP50 = (Long) floor.get("p50");
        long floorP99 = (Long) floor.get("p99");
        System.out.println("loopback floor: " + LoopbackFloor.describe(floor));

        List<String> rows = new ArrayList<>();
        StringBuilder table = new StringBuilder("| form | connections | cache | req/s | p50 us | p99 us | p99.9 us | p50 / floor p50 | p99 / floor p99 |\n"
                + "|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Double> hitAt50 = new java.util.LinkedHashMap<>();
        for (int c : connections) {
            for (String form : forms) {
                for (String kind : List.of("hit", "miss")) {
                    long ticks = kind.equals("hit") && hitPid > 0 ? ProcessCpu.ticks(hitPid) : 0;
                    Wrk w = wrk(kind.equals("hit") ? hit : miss, scripts.get(form), c, seconds);
                    double cpuUs = ticks == 0 ? Double.NaN
                            : ProcessCpu.micros(ProcessCpu.ticks(hitPid) - ticks) / (w.rps * seconds);
                    double p50ratio = w.p50 / floorP50;
                    double p99ratio = w.p99 / floorP99;
                    System.out.printf(Locale.ROOT, "%-6s c=%-3d %-4s %,10.0f req/s p50 %6.0f p99 %6.0f p99.9 %6.0f us (x%.2f / x%.2f of the floor)%s%s%n",
                            form, c, kind, w.rps, w.p50, w.p99, w.p999, p50ratio, p99ratio,
                            Double.isNaN(cpuUs) ? "" : String.format(Locale.ROOT, ", sidecar CPU %.1f us/req", cpuUs),
                            w.errors > 0 ? " ERRORS " + w.errors : "");
                    table.append(String.format(Locale.ROOT, "| %s | %d | %s | %,.0f | %.0f | %.0f | %.0f | %.2f | %.2f |%n",
                            form, c, kind, w.rps, w.p50, w.p99, w.p999, p50ratio, p99ratio));
                    rows.add(String.format(Locale.ROOT, "{\"form\":\"%s\",\"connections\":%d,\"cache\":\"%s\",\"requestsPerSecond\":%.0f,\"p50us\":%.1f,"
                            + "\"p99us\":%.1f,\"p999us\":%.1f,\"maxUs\":%.1f,\"errors\":%d%s}", form, c, kind, w.rps, w.p50, w.p99, w.p999, w.max, w.errors,
                            Double.isNaN(cpuUs) ? "" : String.format(Locale.ROOT, ",\"sidecarCpuUsPerRequest\":%.2f", cpuUs)));
                    if (c == 50 && kind.equals("hit")) {
                        hitAt50.put(form, w.rps);
                    }
                }
            }
        }
        runRedis(r[0], r[1], "set", 50, 100_000);
        long n = Math.max(100_000, (long) (hitAt50.values().stream().mapToDouble(Double::doubleValue).max().orElse(0) * seconds));
        double[] get = runRedis(r[0], r[1], "get", 50, n);
        System.out.printf(Locale.ROOT, "redis-benchmark GET, 1 KB, 50 clients: %,.0f req/s, p50 %.0f us, p99 %.0f us%n",
                get[0], get[1], get[2]);
        hitAt50.forEach((form, rps) -> System.out.printf(Locale.ROOT,
                "sidecar cache hit, %s, at 50 connections / redis GET at 50 clients: %.2f%n", form, rps / get[0]));
        System.out.println();
        System.out.print(table);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, String.format(Locale.ROOT, "{\"seconds\":%d,\"sessions\":%d,\"sectionBytes\":[%d,%d,%d],"
                        + "\"loopbackFloor\":{\"p50us\":%d,\"p99us\":%d},\"redisGet50\":{\"requestsPerSecond\":%.0f,"
                        + "\"p50us\":%.1f,\"p99us\":%.1f},\"runs\":[%n%s%n]}%n", seconds, sessions, values[0].length, values[1].length,
                values[2].length, floorP50, floorP99,
                get[0], get[1], get[2], String.join(",\n", rows)));
        System.out.println("results: " + out);
    }

    /** Creates the sessions through the sidecar, each with 3 sections of one ~1 KB codec-encoded attribute. */
    static List<String> preload(String sidecar, int sessions, byte[][] values) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        BinaryTransportCodec codec = new BinaryTransportCodec();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            HttpResponse<byte[]> c = http.send(HttpRequest.newBuilder(URI.create("http://" + sidecar + "/v1/sessions"))
                    .header("Accept", "application/x-sessionmesh").POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            String id = codec.decode(c.body(), SessionCreated.class).sessionId();
            List<SectionDelta> deltas = new ArrayList<>();
            for (int s = 0; s < 3; s++) {
                deltas.add(new SectionDelta(SECTIONS[s], Map.of("value", values[s]), List.of()));
            }
            HttpResponse<byte[]> w = http.send(HttpRequest.newBuilder(URI.create("http://" + sidecar + "/v1/sessions/" + id))
                    .header("Content-Type", "application/x-sessionmesh")
                    .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(codec.encode(new WriteRequest(id, deltas)))).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (w.statusCode() != 200) {
                throw new IOException("preload write: " + w.statusCode());
            }
            ids.add(id);
        }
        return ids;
    }

    /** Reads every session once, so the hit sidecar has them all. */
    static void warm(String sidecar, List<String> ids) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String id : ids) {
            http.send(HttpRequest.newBuilder(URI.create("http://" + sidecar + "/v1/sessions/" + id + "?sections="
                    + String.join(",", SECTIONS))).header("Accept", "application/x-sessionmesh").build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    static Path luaScript(List<String> ids, String accept) throws IOException {
        StringBuilder lua = new StringBuilder("local paths = {\n");
        for (String id : ids) {
            lua.append("  \"/v1/sessions/").append(id).append("?sections=").append(String.join(",", SECTIONS)).append("\",\n");
        }
        lua.append("}\n")
                .append("local headers = { [\"Accept\"] = \"").append(accept).append("\" }\n")
                .append("request = function() return wrk.format(\"GET\", paths[math.random(#paths)], headers) end\n")
                .append("done = function(summary, latency, requests)\n")
                .append("  local e = summary.errors\n")
                .append("  io.write(string.format(\"RESULT %d %d %.1f %.1f %.1f %.1f %d\\n\", summary.requests, summary.duration,\n")
                .append("    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max,\n")
                .append("    e.connect + e.read + e.write + e.status + e.timeout))\n")
                .append("end\n");
        Path p = Files.createTempFile("sidecar-reads", ".lua");
        Files.writeString(p, lua);
        p.toFile().deleteOnExit();
        return p;
    }

    /** What one wrk run measured. */
    record Wrk(double rps, double p50, double p99, double p999, double max, long errors) {
    }

    static Wrk wrk(String sidecar, Path script, int connections, int seconds) throws IOException, InterruptedException {
        List<String> cmd = List.of("wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "5s", "-s",
                script.toString(), "http://" + sidecar + "/");
        for (String line : run(cmd)) {
            if (line.startsWith("RESULT ")) {
                String[] f = line.split(" ");
                double rps = Long.parseLong(f[1]) / (Long.parseLong(f[2]) / 1e6);
                return new Wrk(rps, Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
                        Double.parseDouble(f[6]), Long.parseLong(f[7]));
            }
        }
        throw new IOException("wrk printed no RESULT line");
    }

    /** redis-benchmark {@code -t test} with 1 KB values: requests a second, p50 and p99 in microseconds. */
    static double[] runRedis(String host, String port, String test, int clients, long requests) throws IOException, InterruptedException {
        List<String> lines = run(List.of("redis-benchmark", "-h", host, "-p", port, "-t", test, "-d", "1024", "-c",
                String.valueOf(clients), "-n", String.valueOf(requests), "-r", "1000", "--csv"));
        String[] f = lines.get(lines.size() - 1).replace("\"", "").split(",");
        return new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[4]) * 1000, Double.parseDouble(f[6]) * 1000};
    }

    private static List<String> run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                lines.add(line);
            }
        }
        if (p.waitFor() != 0) {
            throw new IOException(cmd.get(0) + " failed: " + lines);
        }
        return lines;
    }
}
