package io.sessionmesh.benchmarks.load;

import io.sessionmesh.settings.Settings;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load generator's flags, validated once ({@link Settings}); a bad one is an error naming it. Durations take units (500ms, 30s,
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
 *   <tr><td>--login</td><td>random</td><td>random: a login goes to any node of service 0 (the balancer's pick: a
 *       login has no session id to hash yet), later requests by hash of the session id (docs/WORKLOAD.md); sticky:
 *       service 0 keeps a session on the node that served its login (a balancer's cookie-insert stickiness)</td></tr>
 *   <tr><td>--users</td><td>{@value #DEFAULT_USERS}</td><td>closed-loop users</td></tr>
 *   <tr><td>--rate</td><td>0</td><td>open-loop end-user requests a second; 0: {@value #AUTO_RATE_SHARE} of the lowest
 *       closed-loop throughput of this run, the same for every system</td></tr>
 *   <tr><td>--workers</td><td>{@value #DEFAULT_WORKERS}</td><td>open-loop threads (requests beyond them queue, and
 *       their wait counts in their latency)</td></tr>
 *   <tr><td>--warmup, --duration</td><td>30s, 60s</td><td>per system and mode; the warm-up is not counted</td></tr>
 *   <tr><td>--redis</td><td>127.0.0.1:6379</td><td>the Redis server for Spring Session</td></tr>
 *   <tr><td>--master-jar, --sidecar-jar</td><td>master-store/target/..., slave-sidecar/target/...</td><td>the servers</td></tr>
 *   <tr><td>--sidecar-flags</td><td>none</td><td>more flags for every SessionMesh sidecar, in one argument
 *       ("--read-ahead 12")</td></tr>
 *   <tr><td>--out</td><td>benchmarks/results/load</td><td>where the JSON result and the PNG charts go</td></tr>
 *   <tr><td>--short</td><td>off</td><td>a smoke run: 100 sessions, 2 hosts, 4 users, rate 50, 1 s warm-up, 3 s runs</td></tr>
 * </table>
 */
record LoadOptions(List<String> systems, List<String> modes, int sessions, int hosts, boolean sticky, boolean loginSticky,
                   int users, int rate,
                   int workers, Duration warmup, Duration duration, String redisHost, int redisPort, Path masterJar,
                   Path sidecarJar, List<String> sidecarFlags, Path out) {
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
                  --login random          random: logins on any node of service 0, later requests by hash of the id;
                                          sticky: service 0 keeps a session on its login node (cookie-insert stickiness)
                  --users 16              closed-loop users
                  --rate 0                open-loop requests/s; 0: 60% of the lowest closed-loop throughput of the run
                  --workers 64            open-loop threads
                  --warmup 30s --duration 60s   per system and mode
                  --redis 127.0.0.1:6379  Redis for Spring Session
                  --master-jar master-store/target/sessionmesh-master.jar --sidecar-jar slave-sidecar/target/sessionmesh-sidecar.jar
                  --sidecar-flags ""      more flags for every sidecar, in one argument, e.g. "--read-ahead 12"
                  --out benchmarks/results/load   load.json and the PNG charts
                  --short                 a smoke run: 100 sessions, 2 hosts, 4 users, rate 50, 1 s warm-up, 3 s runs
                """;
    }

    /** Reads the load generator's flags from {@code settings}; {@code --short} changes the defaults. */
    static LoadOptions read(Settings s) {
        boolean shortRun = s.bool("short", false);
        List<String> systems = s.list("systems", ALL_SYSTEMS, ALL_SYSTEMS);
        List<String> modes = s.list("modes", List.of("closed", "open"), List.of("closed", "open"));
        int sessions = s.integer("sessions", shortRun ? 100 : DEFAULT_SESSIONS, 10, MAX_SESSIONS);
        int hosts = s.integer("hosts", shortRun ? 2 : DEFAULT_HOSTS, 1, 16);
        boolean sticky = s.choice("routing", "sticky", List.of("sticky", "random")).equals("sticky");
        boolean loginSticky = s.choice("login", "random", List.of("random", "sticky")).equals("sticky");
        int users = s.integer("users", shortRun ? 4 : DEFAULT_USERS, 1, 1024);
        int rate = s.integer("rate", shortRun ? 50 : 0, 0, 1_000_000);
        int workers = s.integer("workers", DEFAULT_WORKERS, 1, 4096);
        Duration warmup = s.duration("warmup", Duration.ofSeconds(shortRun ? 1 : 30), Duration.ZERO, Duration.ofHours(1));
        Duration duration = s.duration("duration", Duration.ofSeconds(shortRun ? 3 : 60), Duration.ofSeconds(1),
                Duration.ofHours(24));
        InetSocketAddress redis = s.hostPort("redis", "127.0.0.1:6379");
        return new LoadOptions(systems, modes, sessions, hosts, sticky, loginSticky, users, rate, workers, warmup, duration,
                redis.getHostString(), redis.getPort(),
                s.path("master-jar", "master-store/target/sessionmesh-master.jar"),
                s.path("sidecar-jar", "slave-sidecar/target/sessionmesh-sidecar.jar"),
                flags(s.string("sidecar-flags", "")),
                s.path("out", "benchmarks/results/load"));
    }

    private static List<String> flags(String text) {
        return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
    }

    /** The flags from the command line (for tests; {@link LoadGenerator} exits on a bad one instead). */
    static LoadOptions parse(String... args) {
        Settings s = Settings.fromArgs(args);
        LoadOptions o = read(s);
        s.checkAllUsed();
        return o;
    }

    /** The flags as given, for the result file. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("systems", systems);
        m.put("modes", modes);
        m.put("sessions", sessions);
        m.put("hosts", hosts);
        m.put("routing", sticky ? "sticky" : "random");
        m.put("login", loginSticky ? "sticky" : "random");
        m.put("users", users);
        m.put("rate", rate);
        m.put("workers", workers);
        m.put("warmup_s", warmup.toSeconds());
        m.put("duration_s", duration.toSeconds());
        m.put("sidecar_flags", sidecarFlags);
        return m;
    }
}
