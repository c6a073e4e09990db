package io.sessionmesh.demo;

import io.sessionmesh.settings.Settings;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The demo's flags, validated once ({@link Settings}). Durations take units (90s, 2m); ports 0 mean any free port.
 *
 * <table>
 *   <caption>Flags and defaults</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>--duration</td><td>60s</td><td>how long the workload runs after the warm-up</td></tr>
 *   <tr><td>--warmup</td><td>5s</td><td>traffic before the figures start counting</td></tr>
 *   <tr><td>--sessions</td><td>{@value #DEFAULT_SESSIONS}</td><td>active sessions: the workload's 550,000 at 1/1000</td></tr>
 *   <tr><td>--users</td><td>{@value #DEFAULT_USERS}</td><td>concurrent end users, each sending its next request when
 *       the last one is answered</td></tr>
 *   <tr><td>--stop</td><td>off</td><td>stop the stack after the summary (by default it keeps running)</td></tr>
 *   <tr><td>--replicas</td><td>1</td><td>1: one master; 3 or 5: a master group of that many replicas
 *       (docs/operations.md, "Master groups"), on master-port and the ports after it</td></tr>
 *   <tr><td>--master-port, --sidecar-port, --sidecar-admin-port, --service-port</td><td>7400, 7500, 7501, 8080</td>
 *       <td>where the stack listens</td></tr>
 *   <tr><td>--jars</td><td>.</td><td>the project directory the three jars are built in</td></tr>
 *   <tr><td>--state</td><td>target/demo</td><td>logs and the process ids of the running stack</td></tr>
 * </table>
 */
record DemoOptions(Duration duration, Duration warmup, int sessions, int users, boolean stopAtEnd, int replicas,
                   int masterPort, int sidecarPort, int sidecarAdminPort, int servicePort, Path jars, Path state) {
    /** Replica counts a demo group may have: one master, or a group that survives one or two losses. */
    static final java.util.List<String> REPLICA_COUNTS = java.util.List.of("1", "3", "5");
    static final int DEFAULT_SESSIONS = 550;
    static final int DEFAULT_USERS = 4;
    /** More sessions than this would take minutes to log in at the start. */
    static final int MAX_SESSIONS = 100_000;
    /** More users than this only queue on two cores. */
    static final int MAX_USERS = 256;

    /** Reads the demo's flags from {@code settings}. */
    static DemoOptions read(Settings s) {
        return new DemoOptions(
                s.duration("duration", Duration.ofSeconds(60), Duration.ofSeconds(1), Duration.ofHours(24)),
                s.duration("warmup", Duration.ofSeconds(5), Duration.ZERO, Duration.ofHours(24)),
                s.integer("sessions", DEFAULT_SESSIONS, 1, MAX_SESSIONS),
                s.integer("users", DEFAULT_USERS, 1, MAX_USERS),
                s.bool("stop", false),
                Integer.parseInt(s.choice("replicas", "1", REPLICA_COUNTS)),
                s.port("master-port", 7400),
                s.port("sidecar-port", 7500),
                s.port("sidecar-admin-port", 7501),
                s.port("service-port", 8080),
                s.path("jars", ".").toAbsolutePath().normalize(),
                s.path("state", "target/demo").toAbsolutePath().normalize());
    }

    /** The demo's flags from the command line (for tests; {@link DemoMain} exits on a bad one instead). */
    static DemoOptions parse(String... args) {
        Settings s = Settings.fromArgs(args);
        DemoOptions o = read(s);
        s.checkAllUsed();
        return o;
    }

    static String usage() {
        return """
                usage: ./demo.sh [flags]     builds, runs the stack and the workload, prints a summary
                       ./demo.sh stop        stops a stack the demo left running
                       (or java -jar demo/target/sessionmesh-demo.jar, without the build)
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
