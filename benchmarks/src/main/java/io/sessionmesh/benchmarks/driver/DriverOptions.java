package io.sessionmesh.benchmarks.driver;

import io.sessionmesh.benchmarks.driver.load.Flow;
import io.sessionmesh.benchmarks.driver.stack.Flags;
import io.sessionmesh.benchmarks.driver.stack.Redis;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.driver.stack.SystemSpec;
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
 * The driver's flags, plan by plan, each read once through {@link Settings} (units: {@code 90s}, {@code 2m},
 * {@code 9g}; a bad or unknown flag is an error naming it, exit status 2). Flag lists ({@code --master-flags} and the
 * like) are one argument split at spaces: {@code --sidecar-flags="--io-transport nio"}.
 *
 * <table>
 *   <caption>Flags of the stacks (plans flows and mix; demo and scale take some of them, as said there)</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--jars</td><td>.</td><td>the project directory the jars are built in (an older build's tree, for a before
 *       and after)</td></tr>
 *   <tr><td>--replicas</td><td>1</td><td>1: one master; 3 or 5: a master group of that many replicas on Raft</td></tr>
 *   <tr><td>--master-jvm, --sidecar-jvm, --app-jvm</td><td>{@link #MASTER_JVM}, {@link #SIDECAR_JVM},
 *       {@link #APP_JVM}</td><td>each process's JVM flags, in place of the defaults</td></tr>
 *   <tr><td>--master-flags, --sidecar-flags</td><td>none</td><td>settings added to every master's or sidecar's command
 *       line (a sidecar's {@code --vnodes}: 256 unless given)</td></tr>
 *   <tr><td>--app-flags</td><td>none</td><td>Spring settings ({@code --name=value}) added to every app; one naming a
 *       default of {@link #APP_FLAGS} replaces it ({@code --app-flags=--spring.autoconfigure.exclude=}: Spring Boot's
 *       request observation back in); one naming a setting the driver gives each app ({@link #DRIVER_APP_SETTINGS}) is
 *       refused</td></tr>
 *   <tr><td>--redis, --redis-database</td><td>127.0.0.1:6379, {@value #DEFAULT_REDIS_DATABASE}</td><td>Spring Session's
 *       Redis, and the database index of the driver's own, emptied of its keys at the start and the end</td></tr>
 *   <tr><td>--jfr</td><td>off</td><td>a flight recording (settings=profile) of every server process, in --out</td></tr>
 *   <tr><td>--agent</td><td>none</td><td>a native agent every server JVM loads at start ({@code -agentpath:}), idle until
 *       told: async-profiler's library, started and stopped from outside once the load is warm</td></tr>
 *   <tr><td>--floor</td><td>true</td><td>measure the loopback floor first ({@code redis-benchmark} PING)</td></tr>
 *   <tr><td>--out</td><td>benchmarks/results/PLAN-DATE</td><td>the report (PLAN.json, PLAN.md) and every process's
 *       log</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Plan flows: CPU per request by process, HTTP flow by flow</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--systems</td><td>sessionmesh,spring-session</td><td>which stacks ({@link Stack#SYSTEMS}), in this order;
 *       a stack may be named, run another build's jars and flags of its own, {@code name=system@tree+sidecar:--f=v}
 *       ({@link SystemSpec}), so that a run measures two builds or two settings side by side</td></tr>
 *   <tr><td>--flows</td><td>floor,floor-session,read,write</td><td>which flows ({@link Flow}), in this order</td></tr>
 *   <tr><td>--profile</td><td>small</td><td>what a login puts in the session, in every app: small or standard</td></tr>
 *   <tr><td>--sessions</td><td>{@value #FLOW_SESSIONS}</td><td>sessions logged in before the flows</td></tr>
 *   <tr><td>--connections</td><td>{@value #FLOW_CONNECTIONS}</td><td>keep-alive connections, one request outstanding on
 *       each (closed loop)</td></tr>
 *   <tr><td>--warmup, --duration</td><td>15s, 15s</td><td>per system and flow; CPU and latency count in the second only</td></tr>
 *   <tr><td>--rounds</td><td>1</td><td>times every flow is measured on every system, the systems in turn within a flow
 *       (each round starts one system later); the ratios are derived for each round and given as their median (at most
 *       {@value #MAX_ROUNDS})</td></tr>
 *   <tr><td>--prewarm</td><td>true</td><td>every flow for --warmup once before the first measured</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Plan mix: the standard workload over HTTP</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--systems</td><td>sessionmesh,spring-session</td><td>which stacks, in this order, as for flows; with a
 *       Spring Session app among them every system gets the deposit pages alone</td></tr>
 *   <tr><td>--sessions</td><td>{@value #MIX_SESSIONS}</td><td>active sessions (the workload's 550,000 at 1/100)</td></tr>
 *   <tr><td>--users</td><td>{@value #MIX_USERS}</td><td>closed-loop users (with --rate 0)</td></tr>
 *   <tr><td>--rate</td><td>0</td><td>end-user requests a second of an open loop; 0: the closed loop</td></tr>
 *   <tr><td>--max-connections</td><td>{@value #MIX_MAX_CONNECTIONS}</td><td>the open loop's connections to a host, at
 *       most (requests beyond wait, and the wait counts in their latency)</td></tr>
 *   <tr><td>--hosts</td><td>{@value #MIX_HOSTS}</td><td>hosts, each a sidecar and one app node</td></tr>
 *   <tr><td>--routing</td><td>sticky</td><td>sticky: a session's requests go to the host of the hash of its id; random:
 *       to any host</td></tr>
 *   <tr><td>--warmup, --duration</td><td>30s, 60s</td><td>per system; the warm-up is not counted</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Plan demo: the mix on one host, SessionMesh only ({@code ./demo.sh}); also {@code demo stop}</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--duration</td><td>60s</td><td>how long the workload runs after the warm-up</td></tr>
 *   <tr><td>--warmup</td><td>5s</td><td>traffic before the figures start counting</td></tr>
 *   <tr><td>--sessions</td><td>{@value #DEMO_SESSIONS}</td><td>active sessions: the workload's 550,000 at 1/1000</td></tr>
 *   <tr><td>--users</td><td>{@value #DEMO_USERS}</td><td>concurrent end users, each sending its next request when the
 *       last one is answered</td></tr>
 *   <tr><td>--stop</td><td>off</td><td>stop the stack after the summary (by default it keeps running)</td></tr>
 *   <tr><td>--replicas</td><td>1</td><td>1, 3 or 5, as above, the group on master-port and the ports after it</td></tr>
 *   <tr><td>--master-port, --sidecar-port, --sidecar-admin-port, --service-port</td><td>7400, 7500, 7501, 8080</td>
 *       <td>where the stack listens (0: any free port)</td></tr>
 *   <tr><td>--jars</td><td>.</td><td>as above</td></tr>
 *   <tr><td>--state</td><td>target/demo</td><td>logs, summary.json and the process ids of the running stack</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Plan scale: the reference-scale run against one master, over its protocol</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--mode</td><td>steady</td><td>steady (a fill to the steady state, then a measured window) or fill (until the
 *       master refuses a session past its memory budget)</td></tr>
 *   <tr><td>--profile</td><td>compact</td><td>compact (every value 200 B) or standard (the workload's sizes)</td></tr>
 *   <tr><td>--rate</td><td>1833</td><td>sessions created a second, each followed by the WRITE of its whole data</td></tr>
 *   <tr><td>--idle</td><td>5m (steady), 24h (fill)</td><td>the sessions' idle timeout</td></tr>
 *   <tr><td>--fill</td><td>(1 + live-share) x idle + max(5s, idle / 10) (steady), 1h (fill: the longest it runs)</td>
 *       <td>the fill phase</td></tr>
 *   <tr><td>--window</td><td>5m</td><td>the measured window (steady)</td></tr>
 *   <tr><td>--mix-rate</td><td>2000</td><td>reads + writes a second of the workload's mix on live sessions (0: none)</td></tr>
 *   <tr><td>--live-share-percent</td><td>90</td><td>the newest share of the active set the mix draws from</td></tr>
 *   <tr><td>--max-sessions</td><td>0 (no bound)</td><td>fill: stop after this many logins</td></tr>
 *   <tr><td>--timeout</td><td>10s</td><td>a request not answered in this is an error (TIMEOUT)</td></tr>
 *   <tr><td>--sample</td><td>5s</td><td>how often STATS is asked for (active sessions over time)</td></tr>
 *   <tr><td>--seed</td><td>18</td><td>of the values and the mix</td></tr>
 *   <tr><td>--master-java</td><td>this JVM's</td><td>the master's java (a JDK 21+ for generational ZGC); its jcmd takes
 *       the heap after a full GC</td></tr>
 *   <tr><td>--master-jvm</td><td>{@link #SCALE_MASTER_JVM}</td><td>the master's JVM flags ({@code "-Xms14g -Xmx14g
 *       -XX:+UseZGC"}); the driver adds its GC log</td></tr>
 *   <tr><td>--master-flags</td><td>{@link #SCALE_MASTER_FLAGS}</td><td>the master's settings; the driver adds its port
 *       and a long connection idle timeout</td></tr>
 *   <tr><td>--jars, --out</td><td>., benchmarks/results/scale-DATE</td><td>as above; the master's GC log and log
 *       in --out</td></tr>
 * </table>
 */
public final class DriverOptions {
    /** The masters' JVM: a fixed heap, the parallel collector. */
    public static final List<String> MASTER_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
    /** The sidecars' JVM. */
    public static final List<String> SIDECAR_JVM = List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC");
    /** Every app's JVM, the baseline's as SessionMesh's. */
    public static final List<String> APP_JVM = List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC");
    /** Spring Boot's configuration of the HTTP request observation filter (spring-boot-actuator-autoconfigure). */
    public static final String WEB_MVC_OBSERVATION =
            "org.springframework.boot.actuate.autoconfigure.observation.web.servlet.WebMvcObservationAutoConfiguration";
    /**
     * Every app's settings beyond port and seed: loopback only; keep-alive connections never closed by a request count
     * (Tomcat's default closes one every 100 requests: the comparison would include connection set-up); and without
     * Spring Boot's observation of every HTTP request (the actuator's filter: some 6% of the example service's CPU,
     * RESULTS.md 12.25 at 1f3fa7a, on something that is neither side's session store; the baseline, without the class, ignores
     * the setting). SessionMesh's own meters stay on. {@code --app-flags} replaces any of these by name.
     */
    public static final List<String> APP_FLAGS = List.of("--server.address=127.0.0.1",
            "--server.tomcat.max-keep-alive-requests=-1", "--spring.autoconfigure.exclude=" + WEB_MVC_OBSERVATION);
    /**
     * Settings the driver gives each app itself (its port, seed, session timeout, sidecar, Redis, the port file's
     * writer), which {@code --app-flags} may not name: given twice, Spring would read them as a list.
     */
    public static final List<String> DRIVER_APP_SETTINGS = List.of("--server.port", "--sessionmesh.example.seed",
            "--spring.session.timeout", "--sessionmesh.sidecar-uri", "--spring.data.redis.host", "--spring.data.redis.port",
            "--spring.data.redis.database", "--spring.session.redis.namespace", "--spring.main.sources");
    /** A Redis database index of the driver's own, so that its keys disturb nothing else. */
    public static final int DEFAULT_REDIS_DATABASE = 12;
    /** Replica counts a stack may have: one master, or a group that survives one or two losses. */
    public static final List<String> REPLICA_COUNTS = List.of("1", "3", "5");
    static final int FLOW_SESSIONS = 1_000;
    static final int FLOW_CONNECTIONS = 50;
    /** The most --rounds: each round of the default flows and systems takes about 4 minutes. */
    static final int MAX_ROUNDS = 20;
    static final int MIX_SESSIONS = 5_500;
    static final int MIX_USERS = 16;
    static final int MIX_MAX_CONNECTIONS = 64;
    static final int MIX_HOSTS = 3;
    /** Hosts of a mix at most: each is two JVMs. */
    static final int MAX_HOSTS = 16;
    static final int DEMO_SESSIONS = 550;
    static final int DEMO_USERS = 4;
    /** More demo sessions than this would take minutes to log in at the start. */
    static final int DEMO_MAX_SESSIONS = 100_000;
    /** More demo users than this only queue on two cores. */
    static final int DEMO_MAX_USERS = 256;
    /** The reference-scale master's JVM: a heap for ~590,000 compact sessions with room for G1's garbage. */
    public static final List<String> SCALE_MASTER_JVM = List.of("-Xms14g", "-Xmx14g", "-XX:+UseG1GC");
    /**
     * The reference-scale master's settings: one I/O thread, and a memory budget ~15% over what ~590,000 compact
     * sessions take (9.7 GB of 8.2 GB; at most 70% of the heap).
     */
    public static final List<String> SCALE_MASTER_FLAGS = List.of("--io-threads", "1", "--max-store", "9g");

    private DriverOptions() {
    }

    /** A plan's results directory by default: benchmarks/results/PLAN-DATE. */
    static String defaultOut(String plan) {
        return "benchmarks/results/" + plan + "-" + LocalDate.now(ZoneOffset.UTC);
    }

    /** The flags of the stacks (plans flows and mix). */
    public record Stacks(Path jars, int replicas, List<String> masterJvm, List<String> sidecarJvm, List<String> appJvm,
                         List<String> masterFlags, List<String> sidecarFlags, List<String> appFlags, Redis redis,
                         boolean jfr, Path agent, boolean floor, Path out) {
        static Stacks read(Settings s, String plan) {
            InetSocketAddress redis = s.hostPort("redis", "127.0.0.1:6379");
            int database = s.integer("redis-database", DEFAULT_REDIS_DATABASE, 0, 15);
            return new Stacks(s.path("jars", ".").toAbsolutePath().normalize(),
                    Integer.parseInt(s.choice("replicas", "1", REPLICA_COUNTS)),
                    jvm(s, "master-jvm", MASTER_JVM), jvm(s, "sidecar-jvm", SIDECAR_JVM), jvm(s, "app-jvm", APP_JVM),
                    Flags.split(s.string("master-flags", "")), Flags.split(s.string("sidecar-flags", "")),
                    checkAppFlags(Flags.split(s.string("app-flags", ""))),
                    new Redis(redis, database, Redis.NAMESPACE), s.bool("jfr", false), s.path("agent", null),
                    s.bool("floor", true), s.path("out", defaultOut(plan)));
        }

        /** {@link #APP_FLAGS} with {@code --app-flags} over them. */
        public List<String> apps() {
            return Flags.over(APP_FLAGS, appFlags);
        }

        /** The flags as used, for the report. */
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("jars", jars.toString());
            m.put("replicas", replicas);
            m.put("master_jvm", masterJvm);
            m.put("sidecar_jvm", sidecarJvm);
            m.put("app_jvm", appJvm);
            m.put("master_flags", masterFlags);
            m.put("sidecar_flags", sidecarFlags);
            m.put("app_flags", apps());
            m.put("redis", redis.address().getHostString() + ":" + redis.address().getPort() + "/" + redis.database());
            m.put("jfr", jfr);
            m.put("agent", agent == null ? "none" : agent.toString());
            return m;
        }
    }

    /** Flags of a process (JVM flags or its own), one string split at spaces ({@code "-Xms1g -Xmx1g"}), {@code fallback} when not given. */
    private static List<String> jvm(Settings s, String name, List<String> fallback) {
        return Flags.split(s.string(name, String.join(" ", fallback)));
    }

    /**
     * @throws IllegalArgumentException naming a flag that is not {@code --name=value}, or that names a setting the
     *                                  driver gives each app
     */
    static List<String> checkAppFlags(List<String> flags) {
        for (String flag : flags) {
            if (!flag.startsWith("--") || flag.indexOf('=') < 3) {
                throw new IllegalArgumentException("--app-flags: " + flag + " is not a Spring setting of the form --name=value");
            }
            String name = Flags.name(flag);
            if (DRIVER_APP_SETTINGS.contains(name)) {
                throw new IllegalArgumentException("--app-flags: " + name
                        + " is set by the driver for each app (its port, seed, session timeout, sidecar and Redis)");
            }
        }
        return flags;
    }

    /** Plan flows. */
    public record Flows(List<SystemSpec> systems, List<Flow> flows, String profile, int sessions, int connections,
                        Duration warmup, Duration duration, int rounds, boolean prewarm, Stacks stacks) {
        public static Flows read(Settings s) {
            List<String> systems = s.list("systems", List.of(Stack.SESSIONMESH, Stack.SPRING_SESSION), null);
            List<Flow> flows = s.list("flows", Flow.LABELS, Flow.LABELS).stream().map(Flow::of).toList();
            return new Flows(null, flows,
                    s.choice("profile", "small", List.of("small", "standard")),
                    s.integer("sessions", FLOW_SESSIONS, 1, 1_000_000),
                    s.integer("connections", FLOW_CONNECTIONS, 1, 4096),
                    s.duration("warmup", Duration.ofSeconds(15), Duration.ZERO, Duration.ofHours(1)),
                    s.duration("duration", Duration.ofSeconds(15), Duration.ofSeconds(1), Duration.ofHours(1)),
                    s.integer("rounds", 1, 1, MAX_ROUNDS), s.bool("prewarm", true), Stacks.read(s, "flows"))
                    .withSystems(systems);
        }

        private Flows withSystems(List<String> tokens) {
            return new Flows(SystemSpec.parse(tokens, stacks.jars()), flows, profile, sessions, connections, warmup,
                    duration, rounds, prewarm, stacks);
        }

        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("systems", systems.stream().map(SystemSpec::name).toList());
            m.put("flows", flows.stream().map(Flow::label).toList());
            m.put("profile", profile);
            m.put("sessions", sessions);
            m.put("connections", connections);
            m.put("warmup_s", warmup.toMillis() / 1000.0);
            m.put("duration_s", duration.toMillis() / 1000.0);
            m.put("rounds", rounds);
            m.put("prewarm", prewarm);
            m.putAll(stacks.describe());
            return m;
        }
    }

    /** Plan mix. */
    public record Mix(List<SystemSpec> systems, int sessions, int users, int rate, int maxConnections, int hosts,
                      boolean sticky, Duration warmup, Duration duration, Stacks stacks) {
        public static Mix read(Settings s) {
            List<String> systems = s.list("systems", List.of(Stack.SESSIONMESH, Stack.SPRING_SESSION), null);
            Mix m = new Mix(null, s.integer("sessions", MIX_SESSIONS, 10, 1_000_000),
                    s.integer("users", MIX_USERS, 1, 4096),
                    s.integer("rate", 0, 0, 1_000_000),
                    s.integer("max-connections", MIX_MAX_CONNECTIONS, 1, 4096),
                    s.integer("hosts", MIX_HOSTS, 1, MAX_HOSTS),
                    s.choice("routing", "sticky", List.of("sticky", "random")).equals("sticky"),
                    s.duration("warmup", Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1)),
                    s.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24)),
                    Stacks.read(s, "mix"));
            return new Mix(SystemSpec.parse(systems, m.stacks.jars()), m.sessions, m.users, m.rate, m.maxConnections,
                    m.hosts, m.sticky, m.warmup, m.duration, m.stacks);
        }

        /** Whether every system gets the deposit pages alone: a Spring Session app is among them. */
        public boolean depositsOnly() {
            return systems.stream().map(SystemSpec::system).anyMatch(Stack::depositsOnly);
        }

        /** The system of the stack this run calls {@code name}. */
        public String systemOf(String name) {
            return systems.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().system();
        }

        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("systems", systems.stream().map(SystemSpec::name).toList());
            m.put("pages", depositsOnly() ? "deposit pages" : "deposit and cards pages");
            m.put("sessions", sessions);
            m.put("loop", rate == 0 ? "closed, " + users + " users" : "open, " + rate + " requests/s");
            m.put("max_connections", maxConnections);
            m.put("hosts", hosts);
            m.put("routing", sticky ? "sticky" : "random");
            m.put("warmup_s", warmup.toMillis() / 1000.0);
            m.put("duration_s", duration.toMillis() / 1000.0);
            m.putAll(stacks.describe());
            return m;
        }
    }

    /** Plan demo. */
    public record Demo(Duration duration, Duration warmup, int sessions, int users, boolean stopAtEnd, int replicas,
                       int masterPort, int sidecarPort, int sidecarAdminPort, int servicePort, Path jars, Path state) {
        public static Demo read(Settings s) {
            return new Demo(
                    s.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24)),
                    s.duration("warmup", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(24)),
                    s.integer("sessions", DEMO_SESSIONS, 1, DEMO_MAX_SESSIONS),
                    s.integer("users", DEMO_USERS, 1, DEMO_MAX_USERS),
                    s.bool("stop", false),
                    Integer.parseInt(s.choice("replicas", "1", REPLICA_COUNTS)),
                    s.port("master-port", 7400),
                    s.port("sidecar-port", 7500),
                    s.port("sidecar-admin-port", 7501),
                    s.port("service-port", 8080),
                    s.path("jars", ".").toAbsolutePath().normalize(),
                    s.path("state", "target/demo").toAbsolutePath().normalize());
        }

        static String usage() {
            return """
                    usage: ./demo.sh [flags]     builds, runs the stack and the workload, prints a summary
                           ./demo.sh stop        stops a stack the demo left running
                           (or java -jar benchmarks/target/sessionmesh-driver.jar demo, without the build)
                    flags (defaults shown):
                      --duration 60s          the measured run, after the warm-up
                      --warmup 5s             traffic not counted in the figures
                      --sessions 550          active sessions (the workload's 550,000 at 1/1000)
                      --users 4               concurrent end users (closed loop)
                      --stop                  stop the stack after the summary (default: leave it running)
                      --replicas 1            1: one master; 3 or 5: a master group of replicas (Raft), which survives
                                              the loss of any one (two) of them
                      --master-port 7400 --sidecar-port 7500 --sidecar-admin-port 7501 --service-port 8080  (0: any free port)
                      --jars .                the project directory holding the built jars
                      --state target/demo     logs and process ids of the running stack
                    """;
        }
    }

    /** Plan scale. */
    public record Scale(boolean steady, String profile, int rate, Duration idle, Duration fill, Duration window, int mixRate,
                        double liveShare, long maxSessions, Duration timeout, Duration sample, long seed, Path masterJava,
                        List<String> masterJvm, List<String> masterFlags, Path jars, Path out) {
        public static Scale read(Settings f) {
            boolean steady = f.choice("mode", "steady", List.of("steady", "fill")).equals("steady");
            String profile = f.choice("profile", "compact", List.of("compact", "standard"));
            int rate = f.integer("rate", 1833, 1, 100_000);
            Duration idle = f.duration("idle", steady ? Duration.ofMinutes(5) : Duration.ofHours(24), Duration.ofSeconds(1),
                    Duration.ofDays(1));
            int mixRate = f.integer("mix-rate", 2000, 0, 1_000_000);
            double liveShare = f.integer("live-share-percent", 90, 1, 99) / 100.0;
            Duration fill = f.duration("fill", steady ? steadyAfter(idle, mixRate == 0 ? 0 : liveShare) : Duration.ofHours(1),
                    Duration.ofSeconds(1), Duration.ofDays(1));
            Duration window = f.duration("window", Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofDays(1));
            long maxSessions = f.integer("max-sessions", 0, 0, Integer.MAX_VALUE);
            Duration timeout = f.duration("timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5));
            Duration sample = f.duration("sample", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofHours(1));
            long seed = f.integer("seed", 18, 0, Integer.MAX_VALUE);
            Path java = f.path("master-java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
            List<String> jvm = jvm(f, "master-jvm", SCALE_MASTER_JVM);
            List<String> flags = jvm(f, "master-flags", SCALE_MASTER_FLAGS);
            Path jars = f.path("jars", ".").toAbsolutePath().normalize();
            Path out = f.path("out", defaultOut("scale"));
            if (steady && fill.compareTo(idle) < 0) {
                throw new IllegalArgumentException("--fill " + fill + " is shorter than --idle " + idle
                        + ": the window would start before the active set reaches its steady state");
            }
            return new Scale(steady, profile, rate, idle, fill, window, mixRate, liveShare,
                    maxSessions == 0 ? Long.MAX_VALUE : maxSessions, timeout, sample, seed, java, jvm, flags, jars, out);
        }

        /**
         * When the active set stops growing. Reads and writes move a session's last access, so a session the mix uses
         * lives on after its creation's idle timeout: until idle after its last use, which is at most share x idle after
         * its creation (then its slot of live sessions goes to a newer one). From (1 + share) x idle on, as many
         * sessions end a second as are created; a tenth of the idle time (at least 5 s) more lets the expiry sweep catch
         * up.
         */
        static Duration steadyAfter(Duration idle, double liveShare) {
            long ms = idle.toMillis();
            return Duration.ofMillis((long) (ms * (1 + liveShare)) + Math.max(5_000, ms / 10));
        }

        /** Active sessions of the steady state without the mix: rate x idle (the mix keeps some alive longer). */
        public long steadySessions() {
            return (long) (rate * (idle.toMillis() / 1000.0));
        }
    }

    /** Reads a plan's flags from {@code args} (for tests; {@link Driver} exits on a bad one instead). */
    static <T> T parse(java.util.function.Function<Settings, T> reader, String... args) {
        Settings s = Settings.fromArgs(args);
        T o = reader.apply(s);
        s.checkAllUsed();
        return o;
    }
}
