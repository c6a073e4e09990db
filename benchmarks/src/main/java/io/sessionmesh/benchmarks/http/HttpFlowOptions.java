package io.sessionmesh.benchmarks.http;

import io.sessionmesh.settings.Settings;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP flow benchmark's flags, validated once ({@link Settings}); a bad one is an error naming it.
 *
 * <table>
 *   <caption>Flags and defaults</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--systems</td><td>sessionmesh,spring-session</td><td>which stacks, in this order; also
 *       sessionmesh-unix: the service on the sidecar's Unix domain socket; spring-session-on-sessionmesh: the Spring
 *       Session app moved to SessionMesh by the HttpSession drop-in</td></tr>
 *   <tr><td>--flows</td><td>floor,floor-session,read,write</td><td>which flows ({@link Flow}), in this order, each on the
 *       same processes</td></tr>
 *   <tr><td>--profile</td><td>small</td><td>the login's seed in both apps: small or standard</td></tr>
 *   <tr><td>--sessions</td><td>{@value #DEFAULT_SESSIONS}</td><td>sessions logged in before the flows</td></tr>
 *   <tr><td>--connections</td><td>{@value #DEFAULT_CONNECTIONS}</td><td>keep-alive connections, one request outstanding on each</td></tr>
 *   <tr><td>--warmup, --duration</td><td>15s, 15s</td><td>per system and flow; CPU and latency count in the second only</td></tr>
 *   <tr><td>--rounds</td><td>1</td><td>times every flow is measured on every system, the systems in turn within a
 *       flow (all stacks stay up); the figures are derived for each round and given as their median (at most
 *       {@value #MAX_ROUNDS})</td></tr>
 *   <tr><td>--prewarm</td><td>true</td><td>before the first measurement, every flow for --warmup once (the JIT of the
 *       code the flows share is then not in the first flow's figures)</td></tr>
 *   <tr><td>--redis</td><td>127.0.0.1:6379</td><td>Spring Session's Redis</td></tr>
 *   <tr><td>--redis-database</td><td>{@value #DEFAULT_REDIS_DATABASE}</td><td>its database index, emptied of the
 *       benchmark's keys at the end</td></tr>
 *   <tr><td>--jfr</td><td>off</td><td>a flight recording (settings=profile) of every server process, in --out</td></tr>
 *   <tr><td>--agent</td><td>none</td><td>a native agent every server JVM loads at start ({@code -agentpath:}), idle until
 *       told: async-profiler's library, started and stopped from outside once the flows are warm (RESULTS.md 12.2)</td></tr>
 *   <tr><td>--master-flags, --sidecar-flags</td><td>none</td><td>settings added to every SessionMesh master's or
 *       sidecar's command line, split at spaces: {@code --sidecar-flags="--io-transport nio"}</td></tr>
 *   <tr><td>--app-flags</td><td>none</td><td>Spring settings ({@code --name=value}) added to every app's command line
 *       (the example services and the baseline), split at spaces; one naming a default of the driver's
 *       ({@code HttpFlowBenchmark.APP_FLAGS}) replaces it: {@code --app-flags=--spring.autoconfigure.exclude=} (Spring
 *       Boot's request observation back in); one naming a setting the driver gives each app
 *       ({@link #DRIVER_APP_SETTINGS}) is refused</td></tr>
 *   <tr><td>--out</td><td>benchmarks/results/http-flow-DATE</td><td>http-flow.json, http-flow.md, the processes' logs</td></tr>
 * </table>
 */
record HttpFlowOptions(List<String> systems, List<Flow> flows, String profile, int sessions, int connections,
                       Duration warmup, Duration duration, int rounds, boolean prewarm, InetSocketAddress redis, int redisDatabase, boolean jfr, Path agent,
                       List<String> masterFlags, List<String> sidecarFlags, List<String> appFlags, Path masterJar, Path sidecarJar, Path serviceJar, Path baselineJar, Path dropInJar, Path out) {
    static final String SESSIONMESH = "sessionmesh";
    /** SessionMesh with the service on the sidecar's Unix domain socket ({@code unix-socket}) instead of TCP. */
    static final String SESSIONMESH_UNIX = "sessionmesh-unix";
    static final String SPRING_SESSION = "spring-session";
    /**
     * The Spring Session app itself (HttpSession only) moved to SessionMesh by the drop-in (module
     * example-spring-session-on-sessionmesh), on a sidecar and a master: what the move alone buys.
     */
    static final String SPRING_SESSION_ON_SESSIONMESH = "spring-session-on-sessionmesh";
    static final List<String> ALL_SYSTEMS = List.of(SESSIONMESH, SESSIONMESH_UNIX, SPRING_SESSION_ON_SESSIONMESH, SPRING_SESSION);
    static final List<String> DEFAULT_SYSTEMS = List.of(SESSIONMESH, SPRING_SESSION);
    static final int DEFAULT_SESSIONS = 1_000;
    static final int DEFAULT_CONNECTIONS = 50;
    /** A Redis database index of the benchmark's own, so that its keys disturb nothing else. */
    static final int DEFAULT_REDIS_DATABASE = 12;
    /** The most --rounds: each round of the default flows and systems takes about 4 minutes. */
    static final int MAX_ROUNDS = 20;

    static String usage() {
        return """
                usage: benchmarks/run-http-flow-benchmark.sh [flags]
                  --systems sessionmesh,spring-session   which stacks, in this order (also sessionmesh-unix:
                                          the service on the sidecar's Unix domain socket; spring-session-on-sessionmesh:
                                          the Spring Session app on SessionMesh through the HttpSession drop-in)
                  --flows floor,floor-session,read,write   GET /deposits/floor without and with a session id,
                                          GET /deposits/offer, PUT /deposits/draft
                  --profile small         the login's seed in both apps: small or standard
                  --sessions 1000         sessions logged in first
                  --connections 50        keep-alive connections, one request outstanding on each
                  --warmup 15s --duration 15s   per system and flow
                  --rounds 1              every flow on every system this many times, the systems in turn; the
                                          issue's figures for each round and their median
                  --prewarm true          every flow for --warmup once before the first measured
                  --redis 127.0.0.1:6379 --redis-database 12   Spring Session's Redis
                  --jfr                   flight recordings of the server processes, in --out
                  --agent <lib.so>        loaded by every server JVM at start (-agentpath), e.g. async-profiler's
                  --master-flags="..." --sidecar-flags="..."   settings added to SessionMesh's master and sidecar,
                                          e.g. --sidecar-flags="--io-transport nio"
                  --app-flags="..."       Spring settings (--name=value) added to every app (the services and the
                                          baseline); one of the driver's defaults by name replaces it
                  --out benchmarks/results/http-flow-DATE
                """;
    }

    static HttpFlowOptions read(Settings s) {
        List<String> systems = s.list("systems", DEFAULT_SYSTEMS, ALL_SYSTEMS);
        List<Flow> flows = s.list("flows", Flow.LABELS, Flow.LABELS).stream().map(Flow::of).toList();
        String profile = s.choice("profile", "small", List.of("small", "standard"));
        int sessions = s.integer("sessions", DEFAULT_SESSIONS, 1, 1_000_000);
        int connections = s.integer("connections", DEFAULT_CONNECTIONS, 1, 4096);
        Duration warmup = s.duration("warmup", Duration.ofSeconds(15), Duration.ZERO, Duration.ofHours(1));
        Duration duration = s.duration("duration", Duration.ofSeconds(15), Duration.ofSeconds(1), Duration.ofHours(1));
        int rounds = s.integer("rounds", 1, 1, MAX_ROUNDS);
        boolean prewarm = s.bool("prewarm", true);
        InetSocketAddress redis = s.hostPort("redis", "127.0.0.1:6379");
        int database = s.integer("redis-database", DEFAULT_REDIS_DATABASE, 0, 15);
        boolean jfr = s.bool("jfr", false);
        Path agent = s.path("agent", null);
        return new HttpFlowOptions(systems, flows, profile, sessions, connections, warmup, duration, rounds, prewarm, redis, database,
                jfr, agent, flags(s.string("master-flags", "")), flags(s.string("sidecar-flags", "")),
                checkAppFlags(flags(s.string("app-flags", ""))),
                s.path("master-jar", "master-store/target/sessionmesh-master.jar"),
                s.path("sidecar-jar", "slave-sidecar/target/sessionmesh-sidecar.jar"),
                s.path("service-jar", "example-service/target/sessionmesh-example-service-exec.jar"),
                s.path("baseline-jar", "example-spring-session/target/sessionmesh-example-spring-session-exec.jar"),
                s.path("drop-in-jar", "example-spring-session-on-sessionmesh/target/sessionmesh-example-spring-session-on-sessionmesh-exec.jar"),
                s.path("out", "benchmarks/results/http-flow-" + LocalDate.now(ZoneOffset.UTC)));
    }

    /**
     * Settings the driver gives each app itself (its port, seed, session timeout, sidecar, Redis), which
     * {@code --app-flags} may not name: given twice, Spring would read them as a list.
     */
    static final List<String> DRIVER_APP_SETTINGS = List.of("--server.port", "--sessionmesh.example.seed",
            "--spring.session.timeout", "--sessionmesh.sidecar-uri", "--spring.data.redis.host", "--spring.data.redis.port",
            "--spring.data.redis.database", "--spring.session.redis.namespace");

    /**
     * @throws IllegalArgumentException naming a flag that is not {@code --name=value}, or that names a setting the
     *                                  driver gives each app
     */
    private static List<String> checkAppFlags(List<String> flags) {
        for (String flag : flags) {
            if (!flag.startsWith("--") || flag.indexOf('=') < 3) {
                throw new IllegalArgumentException("--app-flags: " + flag + " is not a Spring setting of the form --name=value");
            }
            String name = settingName(flag);
            if (DRIVER_APP_SETTINGS.contains(name)) {
                throw new IllegalArgumentException("--app-flags: " + name
                        + " is set by the driver for each app (its port, seed, session timeout, sidecar and Redis)");
            }
        }
        return flags;
    }

    /** A Spring setting's name: {@code --name} of {@code --name=value}. */
    static String settingName(String flag) {
        int eq = flag.indexOf('=');
        return eq < 0 ? flag : flag.substring(0, eq);
    }

    private static List<String> flags(String line) {
        return line.isBlank() ? List.of() : List.of(line.trim().split("\\s+"));
    }

    /** The flags from the command line (for tests). */
    static HttpFlowOptions parse(String... args) {
        Settings s = Settings.fromArgs(args);
        HttpFlowOptions o = read(s);
        s.checkAllUsed();
        return o;
    }

    /** The flags as used, for the result file. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("systems", systems);
        m.put("flows", flows.stream().map(Flow::label).toList());
        m.put("profile", profile);
        m.put("sessions", sessions);
        m.put("connections", connections);
        m.put("warmup_s", warmup.toMillis() / 1000.0);
        m.put("duration_s", duration.toMillis() / 1000.0);
        m.put("rounds", rounds);
        m.put("prewarm", prewarm);
        m.put("redis", redis.getHostString() + ":" + redis.getPort() + "/" + redisDatabase);
        m.put("jfr", jfr);
        m.put("agent", agent == null ? "none" : agent.toString());
        m.put("master_flags", masterFlags);
        m.put("sidecar_flags", sidecarFlags);
        m.put("app_flags", appFlags);
        return m;
    }
}
