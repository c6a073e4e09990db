package io.sessionmesh.benchmarks.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The loopback floor of a run: the round trip of the smallest request a well-known server answers, {@code
 * redis-benchmark -t ping_inline -c 1} against the Redis the run compares with. The floor differs between machines
 * (TCP round trip p50 17-130 us), so every end-to-end benchmark measures it in the same run and reports its figures
 * beside it, never against a figure from another machine.
 */
public final class LoopbackFloor {
    /** Round trips a measurement makes: a few seconds at any floor. */
    public static final int ROUND_TRIPS = 20_000;

    private LoopbackFloor() {
    }

    /**
     * One PING at a time to Redis on {@code host:port}: its p50 and p99 in microseconds ({@code "p50"}, {@code "p99"}),
     * and the round trips made ({@code "n"}).
     *
     * @throws IllegalStateException when redis-benchmark is missing, fails, or prints no figures
     */
    public static Map<String, Object> measure(String host, int port) throws IOException, InterruptedException {
        List<String> cmd = List.of("redis-benchmark", "-h", host, "-p", String.valueOf(port), "-t", "ping_inline", "-c", "1",
                "-n", String.valueOf(ROUND_TRIPS), "--csv");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-benchmark is not on the PATH (apt-get install redis-tools): " + e.getMessage(), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + out);
        }
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        for (String line : out.lines().toList()) {
            if (line.startsWith("\"PING_INLINE\"")) {
                String[] f = line.replace("\"", "").split(",");
                Map<String, Object> floor = new LinkedHashMap<>();
                floor.put("p50", Math.round(Double.parseDouble(f[4]) * 1000));
                floor.put("p99", Math.round(Double.parseDouble(f[6]) * 1000));
                floor.put("n", ROUND_TRIPS);
                return floor;
            }
        }
        throw new IllegalStateException(String.join(" ", cmd) + " printed no PING_INLINE line: " + out);
    }

    /** Prints the floor against Redis at {@code host:port} (default 127.0.0.1:6379), for scripts. */
    public static void main(String[] args) throws Exception {
        String[] hp = (args.length > 0 ? args[0] : "127.0.0.1:6379").split(":");
        System.out.println("loopback floor: " + describe(measure(hp[0], Integer.parseInt(hp[1]))));
    }

    /** "p50 23 us, p99 47 us (redis-benchmark PING, 1 connection)". */
    public static String describe(Map<String, Object> floor) {
        return String.format(Locale.ROOT, "p50 %s us, p99 %s us (redis-benchmark PING, 1 connection, %s round trips)",
                floor.get("p50"), floor.get("p99"), floor.get("n"));
    }
}
