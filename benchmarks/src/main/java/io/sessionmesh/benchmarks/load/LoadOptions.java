package io.sessionmesh.benchmarks.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load generator's flags, validated once; a bad one is an error naming it. Durations take units (500ms, 30s,
 * 2m).
 *
 * <table>
 *   <caption>Flags and defaults</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--systems</td><td>sessionmesh-binary,sessionmesh-json,spring-session-redis</td><td>what to load, in this order</td></tr>
 *   <tr><td>--modes</td><td>closed,open</td><td>closed loop (users wait for answers: the most a system does) and open
 *       loop (a fixed arrival rate: latency without coordinated omission)</td></tr>
 *   <tr><td>--sessions</td><td>{@value #DEFAULT_SESSIONS}</td><td>active sessions (WORKLOAD.md's 550,000 at 1/100)</td></tr>
 *   <tr><td>--hosts</td><td>{@value #DEFAULT_HOSTS}</td><td>hosts, each a sidecar serving one node of every service</td></tr>
 *   <tr><td>--routing</td><td>sticky</td><td>sticky (a session keeps its node in each service) or random</td></tr>
 *   <tr><td>--users</td><td>{@value #DEFAULT_USERS}</td><td>closed-loop users</td></tr>
 *   <tr><td>--rate</td><td>0</td><td>open-loop end-user requests a second; 0: {@value #AUTO_RATE_SHARE} of the lowest
 *       closed-loop throughput of this run, the same for every system</td></tr>
 *   <tr><td>--workers</td><td>{@value #DEFAULT_WORKERS}</td><td>open-loop threads (requests beyond them queue, and
 *       their wait counts in their latency)</td></tr>
 *   <tr><td>--warmup, --duration</td><td>30s, 60s</td><td>per system and mode; the warm-up is not counted</td></tr>
 *   <tr><td>--redis</td><td>127.0.0.1:6379</td><td>the Redis server for Spring Session</td></tr>
 *   <tr><td>--master-jar, --sidecar-jar</td><td>master-store/target/..., slave-sidecar/target/...</td><td>the servers</td></tr>
 *   <tr><td>--out</td><td>benchmarks/results/load</td><td>where the JSON result and the PNG charts go</td></tr>
 *   <tr><td>--short</td><td>off</td><td>a smoke run: 100 sessions, 2 hosts, 4 users, rate 50, 1 s warm-up, 3 s runs</td></tr>
 * </table>
 */
record LoadOptions(List<String> systems, List<String> modes, int sessions, int hosts, boolean sticky, int users, int rate,
                   int workers, Duration warmup, Duration duration, String redisHost, int redisPort, Path masterJar,
                   Path sidecarJar, Path out) {
    static final List<String> ALL_SYSTEMS = List.of("sessionmesh-binary", "sessionmesh-json", "spring-session-redis");
    static final int DEFAULT_SESSIONS = 5_500;
    static final int DEFAULT_HOSTS = 3;
    static final int DEFAULT_USERS = 16;
    static final int DEFAULT_WORKERS = 64;
    static final double AUTO_RATE_SHARE = 0.6;
    /** More sessions than this take too long to fill at the start. */
    static final int MAX_SESSIONS = 1_000_000;

    static String usage() {
        return """
                usage: java -jar benchmarks/target/sessionmesh-load.jar [flags]     (or benchmarks/run-load-benchmark.sh [flags])
                  --systems sessionmesh-binary,sessionmesh-json,spring-session-redis   what to load, in this order
                  --modes closed,open     closed loop, then open loop at one rate for every system
                  --sessions 5500         active sessions (WORKLOAD.md's 550,000 at 1/100)
                  --hosts 3               hosts: a sidecar each, serving one node of each of the 4 services
                  --routing sticky        or random
                  --users 16              closed-loop users
                  --rate 0                open-loop requests/s; 0: 60% of the lowest closed-loop throughput of the run
                  --workers 64            open-loop threads
                  --warmup 30s --duration 60s   per system and mode
                  --redis 127.0.0.1:6379  Redis for Spring Session
                  --master-jar master-store/target/sessionmesh-master.jar --sidecar-jar slave-sidecar/target/sessionmesh-sidecar.jar
                  --out benchmarks/results/load   load.json and the PNG charts
                  --short                 a smoke run: 100 sessions, 2 hosts, 4 users, rate 50, 1 s warm-up, 3 s runs
                """;
    }

    static LoadOptions parse(String... args) {
        Map<String, String> f = new LinkedHashMap<>();
        boolean shortRun = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--short")) {
                shortRun = true;
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                if (f.put(args[i].substring(2), args[++i]) != null) {
                    throw new IllegalArgumentException("flag " + args[i - 1] + " is given twice");
                }
            } else {
                throw new IllegalArgumentException("unknown argument \"" + args[i] + "\" (flags are --name value)");
            }
        }
        if (shortRun) {
            f.putIfAbsent("sessions", "100");
            f.putIfAbsent("hosts", "2");
            f.putIfAbsent("users", "4");
            f.putIfAbsent("rate", "50");
            f.putIfAbsent("warmup", "1s");
            f.putIfAbsent("duration", "3s");
        }
        List<String> systems = list(f.remove("systems"), ALL_SYSTEMS, ALL_SYSTEMS, "systems");
        List<String> modes = list(f.remove("modes"), List.of("closed", "open"), List.of("closed", "open"), "modes");
        String routing = f.getOrDefault("routing", "sticky");
        f.remove("routing");
        if (!routing.equals("sticky") && !routing.equals("random")) {
            throw new IllegalArgumentException("--routing " + routing + ": expected sticky or random");
        }
        String redis = f.getOrDefault("redis", "127.0.0.1:6379");
        f.remove("redis");
        int colon = redis.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--redis " + redis + ": expected host:port");
        }
        LoadOptions o = new LoadOptions(systems, modes,
                integer(f.remove("sessions"), DEFAULT_SESSIONS, 10, MAX_SESSIONS, "sessions"),
                integer(f.remove("hosts"), DEFAULT_HOSTS, 1, 16, "hosts"),
                routing.equals("sticky"),
                integer(f.remove("users"), DEFAULT_USERS, 1, 1024, "users"),
                integer(f.remove("rate"), 0, 0, 1_000_000, "rate"),
                integer(f.remove("workers"), DEFAULT_WORKERS, 1, 4096, "workers"),
                duration(f.remove("warmup"), "30s", "warmup"),
                duration(f.remove("duration"), "60s", "duration"),
                redis.substring(0, colon), integer(redis.substring(colon + 1), 6379, 1, 65535, "redis port"),
                Path.of(f.getOrDefault("master-jar", "master-store/target/sessionmesh-master.jar")),
                Path.of(f.getOrDefault("sidecar-jar", "slave-sidecar/target/sessionmesh-sidecar.jar")),
                Path.of(f.getOrDefault("out", "benchmarks/results/load")));
        f.remove("master-jar");
        f.remove("sidecar-jar");
        f.remove("out");
        if (!f.isEmpty()) {
            throw new IllegalArgumentException("unknown flag --" + f.keySet().iterator().next());
        }
        if (o.duration.isZero()) {
            throw new IllegalArgumentException("--duration must be above 0");
        }
        return o;
    }

    private static List<String> list(String text, List<String> fallback, List<String> allowed, String name) {
        if (text == null) {
            return fallback;
        }
        List<String> out = new ArrayList<>();
        for (String s : text.split(",")) {
            String t = s.trim();
            if (!allowed.contains(t)) {
                throw new IllegalArgumentException("--" + name + ": \"" + t + "\" is not one of " + allowed);
            }
            if (!out.contains(t)) {
                out.add(t);
            }
        }
        return List.copyOf(out);
    }

    static Duration duration(String text, String fallback, String name) {
        String t = (text == null ? fallback : text).trim().toLowerCase();
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--" + name + " \"" + text + "\" is not a duration such as 500ms, 30s or 2m");
    }

    private static int integer(String text, int fallback, int min, int max, String name) {
        if (text == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(text.trim());
            if (v < min || v > max) {
                throw new IllegalArgumentException("--" + name + " " + v + " is outside " + min + ".." + max);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " \"" + text + "\" is not a whole number");
        }
    }

    /** The flags as given, for the result file. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("systems", systems);
        m.put("modes", modes);
        m.put("sessions", sessions);
        m.put("hosts", hosts);
        m.put("routing", sticky ? "sticky" : "random");
        m.put("users", users);
        m.put("rate", rate);
        m.put("workers", workers);
        m.put("warmup_s", warmup.toSeconds());
        m.put("duration_s", duration.toSeconds());
        return m;
    }
}
