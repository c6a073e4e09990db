package io.sessionmesh.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The demo's flags, validated once. Durations take units (90s, 2m); ports 0 mean any free port.
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
 *   <tr><td>--master-port, --sidecar-port, --sidecar-admin-port, --service-port</td><td>7400, 7500, 7501, 8080</td>
 *       <td>where the stack listens</td></tr>
 *   <tr><td>--jars</td><td>.</td><td>the project directory the three jars are built in</td></tr>
 *   <tr><td>--state</td><td>target/demo</td><td>logs and the process ids of the running stack</td></tr>
 * </table>
 */
record DemoOptions(Duration duration, Duration warmup, int sessions, int users, boolean stopAtEnd, int masterPort,
                   int sidecarPort, int sidecarAdminPort, int servicePort, Path jars, Path state) {
    static final int DEFAULT_SESSIONS = 550;
    static final int DEFAULT_USERS = 4;
    /** More sessions than this would take minutes to log in at the start. */
    static final int MAX_SESSIONS = 100_000;
    /** More users than this only queue on two cores. */
    static final int MAX_USERS = 256;

    static DemoOptions parse(String... args) {
        Map<String, String> flags = new LinkedHashMap<>();
        boolean stop = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--stop")) {
                stop = true;
            } else if (a.startsWith("--") && i + 1 < args.length) {
                flags.put(a.substring(2), args[++i]);
            } else if (a.startsWith("--")) {
                throw new IllegalArgumentException(a + " needs a value (see --help)");
            } else {
                throw new IllegalArgumentException("unknown argument \"" + a + "\" (flags are --name value; see --help)");
            }
        }
        DemoOptions o = new DemoOptions(
                atLeastOneSecond(duration(flags.remove("duration"), "60s", "duration")),
                duration(flags.remove("warmup"), "5s", "warmup"),
                integer(flags.remove("sessions"), DEFAULT_SESSIONS, 1, MAX_SESSIONS, "sessions"),
                integer(flags.remove("users"), DEFAULT_USERS, 1, MAX_USERS, "users"),
                stop,
                integer(flags.remove("master-port"), 7400, 0, 65535, "master-port"),
                integer(flags.remove("sidecar-port"), 7500, 0, 65535, "sidecar-port"),
                integer(flags.remove("sidecar-admin-port"), 7501, 0, 65535, "sidecar-admin-port"),
                integer(flags.remove("service-port"), 8080, 0, 65535, "service-port"),
                Path.of(flags.getOrDefault("jars", ".")).toAbsolutePath().normalize(),
                Path.of(flags.getOrDefault("state", "target/demo")).toAbsolutePath().normalize());
        flags.remove("jars");
        flags.remove("state");
        if (!flags.isEmpty()) {
            throw new IllegalArgumentException("unknown flag --" + flags.keySet().iterator().next() + " (see --help)");
        }
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
                  --master-port 7400 --sidecar-port 7500 --sidecar-admin-port 7501 --service-port 8080  (0: any free port)
                  --jars .                the project directory holding the built jars
                  --state target/demo     logs and process ids of the running stack
                """;
    }

    private static Duration atLeastOneSecond(Duration d) {
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--duration " + d.toMillis() + "ms is under 1s");
        }
        return d;
    }

    private static Duration duration(String text, String fallback, String name) {
        String t = (text == null ? fallback : text).trim().toLowerCase();
        try {
            Duration d;
            if (t.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            } else if (t.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            } else if (t.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            } else {
                throw new NumberFormatException();
            }
            if (d.isNegative() || d.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException("--" + name + " " + text + " is outside 0..24h");
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " \"" + text + "\" is not a duration such as 500ms, 30s or 2m");
        }
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
}
