package io.sessionmesh.benchmarks.http;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.sessionmesh.benchmarks.load.ProcessCpu;
import io.sessionmesh.benchmarks.load.ServerProcesses;
import io.sessionmesh.benchmarks.floor.LoopbackFloor;
import io.sessionmesh.settings.Settings;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 18's measurement: CPU per end-user request by process, with a real HTTP service on each side. It starts every
 * system's whole stack as processes on loopback (SessionMesh: a master, a sidecar and the example service; Spring
 * Session: the baseline app, example-spring-session, on the local Redis) and logs {@code --sessions} sessions in through
 * each app; then, for each flow, it runs the systems in turn, closed loop ({@link FlowClient}): a warm-up, then a
 * measured window in which latency is recorded per request and every process's CPU is read from its own counters at the
 * start and the end ({@link ProcessCpu}); all of that {@code --rounds} times. A system's windows and its rival's are
 * thus a minute apart, not a whole system's run apart, and with rounds the machine's drift shows as the spread of each
 * ratio across them. Both apps run with the same JVM flags ({@link #APP_JVM}) and the same Tomcat settings. Writes
 * http-flow.json and http-flow.md ({@link HttpFlowReport}) to {@code --out}, and prints the tables.
 *
 * <p>Started by benchmarks/run-http-flow-benchmark.sh, which builds the jars and measures the loopback floor first.
 */
public final class HttpFlowBenchmark {
    /** Both apps' JVM: a fixed heap, the parallel collector (the master's and the sidecar's are ServerProcesses'). */
    static final List<String> APP_JVM = List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC");
    /** Spring Boot's configuration of the HTTP request observation filter (spring-boot-actuator-autoconfigure). */
    static final String WEB_MVC_OBSERVATION =
            "org.springframework.boot.actuate.autoconfigure.observation.web.servlet.WebMvcObservationAutoConfiguration";
    /**
     * Both apps' settings beyond port and seed: loopback only; keep-alive connections never closed by a request count
     * (Tomcat's default closes one every 100 requests; the driver would reconnect, but then the comparison would
     * include connection set-up); and without Spring Boot's observation of every HTTP request (its filter, which the
     * actuator brings). The example service has the actuator (its health and metrics endpoints), the baseline app has
     * not: with that filter the service spent some 6% of its CPU (async-profiler, RESULTS.md 12.25) on something that
     * is neither side's session store, and 2.6% with the observation only turned off, so the filter's configuration is
     * left out (the baseline, without the class, ignores that). SessionMesh's own meters stay on.
     * {@code --app-flags} replaces any of these by name.
     */
    static final List<String> APP_FLAGS = List.of("--server.address=127.0.0.1", "--server.tomcat.max-keep-alive-requests=-1",
            "--spring.autoconfigure.exclude=" + WEB_MVC_OBSERVATION);
    /**
     * The least session idle timeout of a run, on both sides ({@link #sessionIdleTimeout}): the apps' own 5 minutes (the
     * master's default, the Spring apps' {@code spring.session.timeout}) is shorter than a system waits between its read
     * windows with every stack up, and the two differ in what extends it (Spring Session's filter touches the session
     * on the floor-session flow, the example service does not), so the sessions of one side could expire mid-run and
     * not the other's.
     */
    static final Duration MIN_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);
    /** The Spring Session app's key namespace in Redis, deleted at the end. */
    static final String NAMESPACE = "sessionmesh-bench:spring-session";
    /** Threads logging sessions in. */
    static final int LOGIN_THREADS = 8;
    private static final Pattern SESSION_ID = Pattern.compile("\"sessionId\"\\s*:\\s*\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private HttpFlowBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        HttpFlowOptions o = Settings.read("http-flow", args, HttpFlowOptions.usage(), HttpFlowOptions::read);
        Files.createDirectories(o.out());
        Map<String, Object> machine = machine(o);
        machine.put("loopback_floor_us", LoopbackFloor.measure(o.redis().getHostString(), o.redis().getPort()));
        System.out.println("machine: " + machine);
        System.out.println("options: " + o.describe());
        System.out.printf("CPU from /proc/<pid>/stat utime+stime, %d ticks a second: a process at 0.1 core for %d s gives "
                + "%d ticks, so per-request figures are good to about 1%% at that load and better above.%n",
                ProcessCpu.TICKS_PER_SECOND, o.duration().toSeconds(), o.duration().toSeconds() * ProcessCpu.TICKS_PER_SECOND / 10);
        List<List<FlowResult>> rounds = new ArrayList<>();
        List<Stack> stacks = new ArrayList<>();
        // every stack's processes from the moment they exist (a stack still starting included): the hook stops them
        List<ServerProcesses> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread hook = new Thread(() -> stop(o, started), "stop-stacks");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            // every stack up and warm first, so that the systems are measured in turn, flow by flow, round after round:
            // the machine's drift then falls on both sides of each ratio alike
            for (String system : o.systems()) {
                stacks.add(Stack.start(o, system, started));
            }
            if (o.prewarm()) {
                for (Stack stack : stacks) {
                    prewarm(o, stack);
                }
            }
            for (int round = 1; round <= o.rounds(); round++) {
                List<FlowResult> results = new ArrayList<>();
                for (Flow flow : o.flows()) {
                    // each round starts the turn one system later, so that no system is always measured first
                    for (int i = 0; i < stacks.size(); i++) {
                        Stack stack = stacks.get((i + round - 1) % stacks.size());
                        FlowResult r = measure(o, stack.system(), flow, stack.port(), stack.sessions(), stack.pids());
                        System.out.printf("%s%s %s: %.0f req/s, p50 %.2f ms, p99 %.2f ms, errors %d, CPU ms/req %s, stack %.3f, driver %.3f%n",
                                o.rounds() > 1 ? "round " + round + ": " : "", stack.system(), flow.label(),
                                r.requestsPerSecond(), r.p50Ms(), r.p99Ms(), r.errors(), r.cpuMsPerRequest(),
                                r.stackMsPerRequest(), r.msPerRequest(r.driverTicks()));
                        if (r.firstError() != null) {
                            System.out.println("  first error: " + r.firstError());
                        }
                        results.add(r);
                    }
                }
                rounds.add(results);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is stopping them already; stopping twice is harmless
            }
            stop(o, started);
        }
        HttpFlowReport.write(o.out(), o.describe(), machine, rounds);
        System.out.println();
        System.out.print(HttpFlowReport.markdown(rounds));
        System.out.println("\nwritten: " + o.out().resolve("http-flow.json") + ", " + o.out().resolve("http-flow.md"));
    }

    /**
     * Stops every stack's processes, each whatever became of the others, then empties Redis of the benchmark's keys
     * when Spring Session ran (a failure to is printed: the next run's start deletes them too).
     */
    static void stop(HttpFlowOptions o, List<ServerProcesses> started) {
        for (ServerProcesses processes : started) {
            try {
                processes.close();
            } catch (RuntimeException e) {
                System.err.println("could not stop every process of a stack: " + e);
            }
        }
        if (o.systems().contains(HttpFlowOptions.SPRING_SESSION)) {
            try {
                deleteKeys(o);
            } catch (RuntimeException e) {
                System.err.println("could not delete the benchmark's keys in Redis: " + e);
            }
        }
    }

    /**
     * The session idle timeout of both sides during a run: at least {@link #MIN_SESSION_IDLE_TIMEOUT}, and twice the
     * longest a system can go between two windows that use its sessions (the pre-warm and one round of every system's
     * flows), so that no session expires mid-run whatever --warmup, --duration and the lists are.
     */
    static Duration sessionIdleTimeout(HttpFlowOptions o) {
        Duration window = o.warmup().plus(o.duration());
        long windows = (long) o.systems().size() * o.flows().size();
        Duration longestGap = window.multipliedBy(windows).plus(o.warmup().multipliedBy(windows));
        Duration twice = longestGap.multipliedBy(2);
        return twice.compareTo(MIN_SESSION_IDLE_TIMEOUT) > 0 ? twice : MIN_SESSION_IDLE_TIMEOUT;
    }

    /** One system's stack, up with its sessions logged in (its processes are stopped by {@link #stop}). */
    record Stack(String system, int port, Map<String, Long> pids, List<String> sessions) {

        /**
         * The system's processes started (and added to {@code started} at once, for the hook), its sessions logged in
         * and every flow checked once; its processes stopped on failure.
         */
        static Stack start(HttpFlowOptions o, String system, List<ServerProcesses> started) throws Exception {
            ServerProcesses processes = new ServerProcesses();
            started.add(processes);
            String idleTimeout = sessionIdleTimeout(o).toSeconds() + "s";
            try {
                Map<String, Long> pids = new LinkedHashMap<>();
                int port = freePort();
                List<String> args = appFlags(o.appFlags());
                // every app, the drop-in's included (its sessions get their timeout from it, whatever the master's)
                args.addAll(List.of("--server.port=" + port, "--sessionmesh.example.seed=" + o.profile(),
                        "--spring.session.timeout=" + idleTimeout));
                Path log = o.out().resolve(system + "-app.log");
                System.out.println("starting " + system + " (" + o.profile() + " sessions)");
                if (!system.equals(HttpFlowOptions.SPRING_SESSION)) {
                    List<String> masterFlags = new ArrayList<>(o.masterFlags());
                    // a flag may be given once (--name value or --name=value): the user's wins
                    if (masterFlags.stream().noneMatch(f -> f.equals("--idle-timeout") || f.startsWith("--idle-timeout="))) {
                        masterFlags.addAll(List.of("--idle-timeout", idleTimeout));
                    }
                    int master = processes.master(o.masterJar(), jvm(o, ServerProcesses.MASTER_JVM, system + "-master"),
                            masterFlags);
                    long masterPid = processes.lastPid();
                    // a short path of its own (a socket's path is at most 107 bytes), removed by the sidecar when it stops
                    Path socket = system.equals(HttpFlowOptions.SESSIONMESH_UNIX)
                            ? Files.createTempDirectory("sm-http-flow").resolve("sidecar.sock") : null;
                    List<String> sidecarFlags = new ArrayList<>(o.sidecarFlags());
                    if (socket != null) {
                        sidecarFlags.addAll(List.of("--unix-socket", socket.toString()));
                    }
                    int[] sidecar = processes.sidecar(o.sidecarJar(), master,
                            jvm(o, ServerProcesses.SIDECAR_JVM, system + "-sidecar"), sidecarFlags);
                    long sidecarPid = processes.lastPid();
                    ServerProcesses.awaitMaster(sidecar[1]);
                    args.add("--sessionmesh.sidecar-uri=" + (socket == null ? "http://127.0.0.1:" + sidecar[0] : "unix:" + socket));
                    Path serviceJar = system.equals(HttpFlowOptions.SPRING_SESSION_ON_SESSIONMESH) ? o.dropInJar() : o.serviceJar();
                    pids.put("service", processes.app(serviceJar, jvm(o, APP_JVM, system + "-service"), args, port,
                            "/deposits/floor", log));
                    pids.put("sidecar", sidecarPid);
                    pids.put("master", masterPid);
                } else {
                    args.addAll(List.of("--spring.data.redis.host=" + o.redis().getHostString(),
                            "--spring.data.redis.port=" + o.redis().getPort(), "--spring.data.redis.database=" + o.redisDatabase(),
                            "--spring.session.redis.namespace=" + NAMESPACE));
                    deleteKeys(o);
                    pids.put("app", processes.app(o.baselineJar(), jvm(o, APP_JVM, system + "-app"), args, port,
                            "/deposits/floor", log));
                    pids.put("redis", redisPid(o));
                }
                System.out.println(system + " processes: " + pids);
                List<String> sessions = login(port, o.sessions());
                for (Flow flow : o.flows()) {
                    check(port, flow, sessions.get(0));
                }
                return new Stack(system, port, pids, sessions);
            } catch (Exception | Error e) {
                processes.close();
                throw e;
            }
        }
    }

    /**
     * Every flow once for --warmup before any is measured: the code they share (Tomcat, MVC, Jackson, the store's
     * client) is compiled by then, so the first flow measured does not pay for the JIT of the others.
     */
    static void prewarm(HttpFlowOptions o, Stack stack) throws Exception {
        for (Flow flow : o.flows()) {
            try (FlowClient client = new FlowClient(stack.port(), flow, stack.sessions())) {
                client.start(o.connections());
                Thread.sleep(o.warmup().toMillis());
                client.stop();
            }
        }
        System.out.println(stack.system() + ": pre-warmed every flow for " + o.warmup().toSeconds() + " s");
    }

    /** A warm-up, then the measured window: latency, answers, errors and each process's CPU in it. */
    static FlowResult measure(HttpFlowOptions o, String system, Flow flow, int port, List<String> sessions,
                              Map<String, Long> pids) throws Exception {
        long driver = ProcessHandle.current().pid();
        try (FlowClient client = new FlowClient(port, flow, sessions)) {
            client.start(o.connections());
            Thread.sleep(o.warmup().toMillis());
            client.interval();
            long answers = client.answers();
            long errors = client.errors();
            long reconnects = client.reconnects();
            Map<String, Map<String, Long>> threadsBefore = threadTicks(pids);
            Map<String, Long> before = ticks(pids);
            long driverBefore = ProcessCpu.ticks(driver);
            double loadStart = ProcessCpu.loadAverage();
            long start = System.nanoTime();
            Thread.sleep(o.duration().toMillis());
            Map<String, Long> after = ticks(pids);
            Map<String, Map<String, Long>> threadsAfter = threadTicks(pids);
            long driverAfter = ProcessCpu.ticks(driver);
            long answersAfter = client.answers();
            Histogram h = client.interval();
            double seconds = (System.nanoTime() - start) / 1e9;
            long errorsAfter = client.errors();
            long reconnectsAfter = client.reconnects();
            double loadEnd = ProcessCpu.loadAverage();
            client.stop();
            Map<String, Long> spent = new LinkedHashMap<>();
            before.forEach((name, t) -> spent.put(name, after.get(name) - t));
            Map<String, Map<String, Long>> threadsSpent = new LinkedHashMap<>();
            threadsBefore.forEach((name, kinds) -> {
                Map<String, Long> m = new LinkedHashMap<>();
                kinds.forEach((kind, t) -> m.put(kind, Math.max(0, threadsAfter.get(name).get(kind) - t)));
                threadsSpent.put(name, m);
            });
            return FlowResult.of(system, flow.label(), seconds, answersAfter - answers, errorsAfter - errors,
                    reconnectsAfter - reconnects, client.firstError(), h, spent, threadsSpent, driverAfter - driverBefore,
                    loadStart, loadEnd);
        }
    }

    /** The JIT and GC threads' ticks of each JVM of the stack (every process but Redis). */
    private static Map<String, Map<String, Long>> threadTicks(Map<String, Long> pids) {
        Map<String, Map<String, Long>> m = new LinkedHashMap<>();
        pids.forEach((name, pid) -> {
            if (!name.equals("redis")) {
                m.put(name, ProcessCpu.jvmThreadTicks(pid));
            }
        });
        return m;
    }

    private static Map<String, Long> ticks(Map<String, Long> pids) {
        Map<String, Long> m = new LinkedHashMap<>();
        pids.forEach((name, pid) -> m.put(name, ProcessCpu.ticks(pid)));
        return m;
    }

    /**
     * {@link #APP_FLAGS} with the user's {@code --app-flags} after them, a default the user names ({@code --name=value},
     * the same name) left out: Spring reads a setting given twice as a list, not as the last one.
     */
    static List<String> appFlags(List<String> user) {
        List<String> flags = new ArrayList<>();
        for (String flag : APP_FLAGS) {
            String name = HttpFlowOptions.settingName(flag);
            if (user.stream().noneMatch(u -> HttpFlowOptions.settingName(u).equals(name))) {
                flags.add(flag);
            }
        }
        flags.addAll(user);
        return flags;
    }

    /** The JVM flags of a server process, with a flight recording to {@code out/name.jfr} under --jfr, and --agent. */
    static List<String> jvm(HttpFlowOptions o, List<String> base, String name) {
        List<String> jvm = new ArrayList<>(base);
        if (o.jfr()) {
            jvm.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                    + o.out().resolve(name + ".jfr").toAbsolutePath());
        }
        if (o.agent() != null) {
            jvm.add("-agentpath:" + o.agent().toAbsolutePath());
        }
        return jvm;
    }

    /** Logs {@code n} clients in (C1..Cn) through the app; their session ids. */
    static List<String> login(int port, int n) throws Exception {
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(LOGIN_THREADS);
        try {
            List<Future<String>> ids = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                String client = "C" + i;
                ids.add(pool.submit(() -> {
                    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/deposits/login/" + client)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                            HttpResponse.BodyHandlers.ofString());
                    Matcher m = SESSION_ID.matcher(r.body());
                    if (r.statusCode() != 201 || !m.find()) {
                        throw new IllegalStateException("login of " + client + " answered " + r.statusCode() + ": " + r.body());
                    }
                    return m.group(1);
                }));
            }
            List<String> sessions = new ArrayList<>(n);
            for (Future<String> f : ids) {
                sessions.add(f.get());
            }
            System.out.printf("logged in %d sessions in %.1f s%n", n, (System.nanoTime() - start) / 1e9);
            return List.copyOf(sessions);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One request of the flow before the load: a 2xx, or the benchmark stops with the app's answer. */
    static void check(int port, Flow flow, String session) throws Exception {
        byte[] body = flow.body(new java.util.SplittableRandom(1));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + flow.path()));
        if (flow.sendsSession()) {
            b.header(FlowClient.SESSION_HEADER, session);
        }
        b = body == null ? b.method(flow.method().name(), HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(flow.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(flow.method() + " " + flow.path() + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** The machine's facts for the result: cores, the JVM, Redis's version, the load average. */
    static Map<String, Object> machine(HttpFlowOptions o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        if (o.systems().contains(HttpFlowOptions.SPRING_SESSION)) {
            m.put("redis", redisInfo(o).getOrDefault("redis_version", "?"));
        }
        m.put("load_average_1m", ProcessCpu.loadAverage());
        m.put("app_jvm", APP_JVM);
        m.put("app_flags", appFlags(o.appFlags()));
        m.put("master_jvm", ServerProcesses.MASTER_JVM);
        m.put("sidecar_jvm", ServerProcesses.SIDECAR_JVM);
        return m;
    }

    private static Map<String, String> redisInfo(HttpFlowOptions o) {
        RedisClient client = RedisClient.create(redisUri(o));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            Map<String, String> info = new LinkedHashMap<>();
            for (String line : c.sync().info("server").split("\r?\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    info.put(line.substring(0, colon), line.substring(colon + 1).strip());
                }
            }
            return info;
        } finally {
            client.shutdown();
        }
    }

    /** Redis's pid: from INFO, if that process is a redis-server here; else the one process of that name. */
    static long redisPid(HttpFlowOptions o) throws IOException {
        String reported = redisInfo(o).get("process_id");
        if (reported != null) {
            try {
                if (Files.readString(Path.of("/proc", reported, "comm")).strip().equals("redis-server")) {
                    return Long.parseLong(reported);
                }
            } catch (IOException e) {
                // not a process of this machine's namespace: look by name
            }
        }
        List<Long> named = ProcessCpu.pidsNamed("redis-server");
        if (named.size() != 1) {
            throw new IllegalStateException("cannot tell which process is Redis: INFO says pid " + reported
                    + ", processes named redis-server: " + named);
        }
        return named.get(0);
    }

    /** Deletes the benchmark's keys (its namespace, its database) from Redis. */
    static void deleteKeys(HttpFlowOptions o) {
        RedisClient client = RedisClient.create(redisUri(o));
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            RedisCommands<String, String> redis = c.sync();
            ScanCursor cursor = ScanCursor.INITIAL;
            long deleted = 0;
            do {
                KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(NAMESPACE + ":*").limit(1000));
                if (!page.getKeys().isEmpty()) {
                    deleted += redis.unlink(page.getKeys().toArray(String[]::new));
                }
                cursor = page;
            } while (!cursor.isFinished());
            if (deleted > 0) {
                System.out.println("deleted " + deleted + " keys of " + NAMESPACE + " in Redis database " + o.redisDatabase());
            }
        } finally {
            client.shutdown();
        }
    }

    private static RedisURI redisUri(HttpFlowOptions o) {
        return RedisURI.builder().withHost(o.redis().getHostString()).withPort(o.redis().getPort())
                .withDatabase(o.redisDatabase()).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
