package io.sessionmesh.benchmarks.driver.stack;

import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One system's whole stack as processes on loopback, every one started through {@link ServerProcess} from the jars
 * built under a project directory ({@code --jars}): for the SessionMesh systems a master (or a master group of
 * replicas on Raft) and, on each host, a sidecar and one node of the app; for {@value #SPRING_SESSION} the baseline app
 * on each host, on the local Redis in a database and key namespace of its own. The processes of one tier start
 * together; each is up once it says so (ready file, port file), a sidecar once it reaches its masters (with a group:
 * holds a lease with the leader). Every process's output goes to {@code logs/<name>.log}.
 *
 * <table>
 *   <caption>Systems</caption>
 *   <tr><th>system</th><th>app on each host</th><th>how the app reaches its sidecar</th></tr>
 *   <tr><td>{@value #SESSIONMESH}</td><td>example-service (deposit and cards pages)</td><td>TCP</td></tr>
 *   <tr><td>{@value #SESSIONMESH_UNIX}</td><td>example-service</td><td>the sidecar's Unix domain socket</td></tr>
 *   <tr><td>{@value #DROP_IN}</td><td>example-spring-session-on-sessionmesh (the Spring Session app on the
 *       HttpSession drop-in)</td><td>TCP</td></tr>
 *   <tr><td>{@value #SPRING_SESSION}</td><td>example-spring-session on Redis (the baseline)</td><td>(none)</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>a server's start</td><td>{@link #SERVER_START}</td></tr>
 *   <tr><td>an app's start (Spring Boot on a busy machine)</td><td>{@link #APP_START}</td></tr>
 *   <tr><td>a sidecar's lease with a new group's leader</td><td>{@link #LEASE_TIMEOUT}</td></tr>
 * </table>
 */
public final class Stack implements AutoCloseable {
    public static final String SESSIONMESH = "sessionmesh";
    /** SessionMesh with the service on the sidecar's Unix domain socket ({@code unix-socket}) instead of TCP. */
    public static final String SESSIONMESH_UNIX = "sessionmesh-unix";
    /** The Spring Session app itself (HttpSession only) moved to SessionMesh by the drop-in: what the move alone buys. */
    public static final String DROP_IN = "drop-in";
    /** The baseline: the same deposit endpoints on Spring Session with Redis. */
    public static final String SPRING_SESSION = "spring-session";
    public static final List<String> SYSTEMS = List.of(SESSIONMESH, SESSIONMESH_UNIX, DROP_IN, SPRING_SESSION);
    /** Longest wait for a master or a sidecar to come up. */
    public static final Duration SERVER_START = Duration.ofSeconds(60);
    /** Longest wait for an app to come up. */
    public static final Duration APP_START = Duration.ofSeconds(120);
    /** Longest wait for a sidecar to hold a lease with a new master group's leader. */
    public static final Duration LEASE_TIMEOUT = Duration.ofSeconds(90);

    public final String system;
    /** What the run calls this stack: its system's name, or the name {@code --systems} gave it ({@link SystemSpec}). */
    public final String name;
    /** The master, or each replica of the group; none for Spring Session. */
    public final List<ServerProcess> masters;
    /** Each host's sidecar; none for Spring Session. */
    public final List<ServerProcess> sidecars;
    /** Each host's app node. */
    public final List<ServerProcess> apps;
    /** Spring Session's Redis; null for the SessionMesh systems. */
    public final Redis redis;
    private final long redisPid;

    private Stack(String system, String name, List<ServerProcess> masters, List<ServerProcess> sidecars,
                  List<ServerProcess> apps, Redis redis, long redisPid) {
        this.system = system;
        this.name = name;
        this.masters = List.copyOf(masters);
        this.sidecars = List.copyOf(sidecars);
        this.apps = List.copyOf(apps);
        this.redis = redis;
        this.redisPid = redisPid;
    }

    /** The stack of {@code system} from the jars built under {@code jars}: set it up, then {@link Builder#start}. */
    public static Builder builder(String system, Path jars) {
        if (!SYSTEMS.contains(system)) {
            throw new IllegalArgumentException("no system " + system + ": " + SYSTEMS);
        }
        return new Builder(system, jars);
    }

    /** Whether the system runs on SessionMesh (a master and sidecars). */
    public static boolean onSessionMesh(String system) {
        return !system.equals(SPRING_SESSION);
    }

    /** Whether the system's app has only the deposit pages (the Spring Session apps), not the cards pages too. */
    public static boolean depositsOnly(String system) {
        return system.equals(SPRING_SESSION) || system.equals(DROP_IN);
    }

    /** The role of the process that serves the end user: {@code service}, or {@code app} for Spring Session. */
    public static String front(String system) {
        return onSessionMesh(system) ? "service" : "app";
    }

    /** Where each host's app listens, host i at index i. */
    public List<InetSocketAddress> appAddresses() {
        return apps.stream().map(a -> new InetSocketAddress("127.0.0.1", a.port())).toList();
    }

    /** The stack's processes by role ({@link #front}, {@code sidecar}, {@code master}, {@code redis}), for their CPU. */
    public Map<String, List<Long>> pidsByRole() {
        Map<String, List<Long>> m = new LinkedHashMap<>();
        m.put(front(system), apps.stream().map(ServerProcess::pid).toList());
        if (onSessionMesh(system)) {
            m.put("sidecar", sidecars.stream().map(ServerProcess::pid).toList());
            m.put("master", masters.stream().map(ServerProcess::pid).toList());
        } else {
            m.put("redis", List.of(redisPid));
        }
        return m;
    }

    /** The masters' addresses ({@code 127.0.0.1:port}). */
    public List<String> masterAddresses() {
        return masters.stream().map(m -> "127.0.0.1:" + m.port()).toList();
    }

    /** Stops every process: SIGTERM to all at once, then each waited for (and killed if it does not stop). */
    @Override
    public void close() {
        List<ServerProcess> all = new ArrayList<>(apps);
        all.addAll(sidecars);
        all.addAll(masters);
        stopAll(all);
    }

    static void stopAll(List<ServerProcess> processes) {
        processes.forEach(p -> p.process.toHandle().destroy());
        for (ServerProcess p : processes) {
            try {
                p.close();
            } catch (InterruptedException e) {
                p.process.destroyForcibly();
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                System.err.println("stopping pid " + p.pid() + ": " + e.getMessage());
            }
        }
    }

    /** What a stack is made of, beyond its system: hosts, replicas, flags, ports, where the logs go. */
    public static final class Builder {
        private final String system;
        private final Path jars;
        private String name;
        private int hosts = 1;
        private int replicas = 1;
        private Function<String, List<String>> jvm = name -> List.of();
        private List<String> masterFlags = List.of();
        private List<String> sidecarFlags = List.of();
        private List<String> appFlags = List.of();
        private int masterPort;
        private int sidecarPort;
        private int sidecarAdminPort;
        private int appPort;
        private Redis redis;
        private Path logs;
        private BiConsumer<String, Process> launched = (name, p) -> { };

        private Builder(String system, Path jars) {
            this.system = system;
            this.jars = jars;
            this.name = system;
        }

        /** What the run calls the stack (default: its system's name). */
        public Builder name(String n) {
            this.name = n;
            return this;
        }

        /** Hosts: each a sidecar and an app node (default 1). */
        public Builder hosts(int n) {
            this.hosts = n;
            return this;
        }

        /** 1: one master; 3 or 5: a master group of that many replicas (default 1). */
        public Builder replicas(int n) {
            this.replicas = n;
            return this;
        }

        /** Each process's JVM flags, by its name ({@code master}, {@code master-2}, {@code sidecar}, {@code service}...). */
        public Builder jvm(Function<String, List<String>> flagsByName) {
            this.jvm = flagsByName;
            return this;
        }

        /** Flags of every master, beyond its port and group. */
        public Builder masterFlags(List<String> flags) {
            this.masterFlags = flags;
            return this;
        }

        /** Flags of every sidecar, beyond its masters and ports. */
        public Builder sidecarFlags(List<String> flags) {
            this.sidecarFlags = flags;
            return this;
        }

        /** Spring settings of every app node, beyond its port and its sidecar or Redis. */
        public Builder appFlags(List<String> flags) {
            this.appFlags = flags;
            return this;
        }

        /**
         * The first host's ports (0: any free one; the default): the master's (a group's replicas on it and the ports
         * after it), the sidecar's REST API and admin endpoint, the app's.
         */
        public Builder ports(int master, int sidecar, int sidecarAdmin, int app) {
            this.masterPort = master;
            this.sidecarPort = sidecar;
            this.sidecarAdminPort = sidecarAdmin;
            this.appPort = app;
            return this;
        }

        /** Spring Session's Redis, database and key namespace (required for {@value #SPRING_SESSION}). */
        public Builder redis(Redis r) {
            this.redis = r;
            return this;
        }

        /** The directory of every process's log (and a group's Raft logs under {@code raft/}). */
        public Builder logs(Path dir) {
            this.logs = dir;
            return this;
        }

        /** Told of each process by name as soon as it exists (to record its pid). */
        public Builder launched(BiConsumer<String, Process> hook) {
            this.launched = hook;
            return this;
        }

        /**
         * Starts the stack; on any failure stops what it started and rethrows.
         *
         * @throws IllegalArgumentException a jar is missing
         * @throws IllegalStateException a process did not come up (the message says which, with the end of its log)
         */
        public Stack start() throws IOException, InterruptedException {
            if (logs == null) {
                throw new IllegalStateException("no log directory");
            }
            Files.createDirectories(logs);
            List<ServerProcess> started = new java.util.concurrent.CopyOnWriteArrayList<>();
            ExecutorService pool = Executors.newCachedThreadPool();
            try {
                List<ServerProcess> masters = new ArrayList<>();
                List<ServerProcess> sidecars = new ArrayList<>();
                long redisPid = 0;
                List<String> appWiring = new ArrayList<>();
                List<Path> sockets = new ArrayList<>();
                if (onSessionMesh(system)) {
                    masters = startAll(pool, started, masters());
                    String spec = String.join(replicas == 1 ? "," : "|",
                            masters.stream().map(m -> "127.0.0.1:" + m.port()).toList());
                    List<Callable<ServerProcess>> s = new ArrayList<>();
                    for (int h = 0; h < hosts; h++) {
                        Path socket = system.equals(SESSIONMESH_UNIX)
                                // a short path of its own (a socket's is at most 107 bytes), removed by the sidecar
                                ? Files.createTempDirectory("sm-driver").resolve("sidecar.sock") : null;
                        sockets.add(socket);
                        s.add(sidecar(h, spec, socket));
                    }
                    sidecars = startAll(pool, started, s);
                    for (ServerProcess sidecar : sidecars) {
                        if (replicas == 1) {
                            sidecar.awaitHealthy("", LEASE_TIMEOUT);
                        } else {
                            sidecar.awaitHealthy("\"valid\":true", LEASE_TIMEOUT);
                        }
                    }
                } else {
                    if (redis == null) {
                        throw new IllegalStateException(system + " needs a Redis");
                    }
                    redis.deleteKeys();
                    redisPid = redis.pid();
                    appWiring.addAll(redis.springFlags());
                }
                List<Callable<ServerProcess>> a = new ArrayList<>();
                for (int h = 0; h < hosts; h++) {
                    List<String> wiring = new ArrayList<>(appWiring);
                    if (onSessionMesh(system)) {
                        Path socket = sockets.get(h);
                        wiring.add("--sessionmesh.sidecar-uri=" + (socket == null
                                ? "http://127.0.0.1:" + sidecars.get(h).port("api") : "unix:" + socket));
                    }
                    a.add(app(h, wiring));
                }
                List<ServerProcess> apps = startAll(pool, started, a);
                return new Stack(system, name, masters, sidecars, apps, onSessionMesh(system) ? null : redis, redisPid);
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                stopAll(started);
                throw e;
            } finally {
                pool.shutdownNow();
            }
        }

        private List<Callable<ServerProcess>> masters() throws IOException {
            Path jar = jar("master-store/target/sessionmesh-master.jar");
            List<Callable<ServerProcess>> starts = new ArrayList<>();
            if (replicas == 1) {
                starts.add(() -> server(jar, "master", List.of("--port", String.valueOf(masterPort)), masterFlags));
                return starts;
            }
            List<String> spec = new ArrayList<>();
            int[] ports = new int[replicas];
            for (int i = 0; i < replicas; i++) {
                ports[i] = masterPort == 0 ? FreePorts.next() : masterPort + i;
                spec.add("m" + (i + 1) + "=127.0.0.1:" + ports[i] + "/" + FreePorts.next());
            }
            Path raft = logs.resolve("raft");
            deleteTree(raft); // a new group each time: an old log names other ports
            for (int i = 0; i < replicas; i++) {
                String id = "m" + (i + 1);
                List<String> group = List.of("--port", String.valueOf(ports[i]), "--replicas", String.join(",", spec),
                        "--replica-id", id, "--raft-dir", raft.resolve(id).toString());
                String name = "master-" + (i + 1);
                starts.add(() -> server(jar, name, group, masterFlags));
            }
            return starts;
        }

        private Callable<ServerProcess> sidecar(int host, String masters, Path socket) {
            Path jar = jar("slave-sidecar/target/sessionmesh-sidecar.jar");
            List<String> wiring = new ArrayList<>(List.of("--masters", masters,
                    "--port", String.valueOf(host == 0 ? sidecarPort : 0),
                    "--admin-port", String.valueOf(host == 0 ? sidecarAdminPort : 0)));
            if (socket != null) {
                wiring.addAll(List.of("--unix-socket", socket.toString()));
            }
            return () -> server(jar, name("sidecar", host), wiring, sidecarFlags);
        }

        private Callable<ServerProcess> app(int host, List<String> wiring) {
            Path jar = jar(switch (system) {
                case SPRING_SESSION -> "example-spring-session/target/sessionmesh-example-spring-session-exec.jar";
                case DROP_IN -> "example-spring-session-on-sessionmesh/target/"
                        + "sessionmesh-example-spring-session-on-sessionmesh-exec.jar";
                default -> "example-service/target/sessionmesh-example-service-exec.jar";
            });
            String name = name(front(system), host);
            List<String> args = new ArrayList<>(appFlags);
            args.add("--server.port=" + (host == 0 ? appPort : 0));
            args.addAll(wiring);
            return () -> ServerProcess.builder(jar).jvm(jvm.apply(name)).args(args).springBoot().log(logs.resolve(name + ".log"))
                    .startTimeout(APP_START).launched(p -> launched.accept(name, p)).start();
        }

        private ServerProcess server(Path jar, String name, List<String> wiring, List<String> flags) throws IOException {
            List<String> args = new ArrayList<>(wiring);
            args.addAll(flags);
            return ServerProcess.builder(jar).jvm(jvm.apply(name)).args(args).log(logs.resolve(name + ".log"))
                    .startTimeout(SERVER_START).launched(p -> launched.accept(name, p)).start();
        }

        /** {@code role} on a stack of one host; {@code role-N} for host N (from 1) of several. */
        private String name(String role, int host) {
            return hosts == 1 ? role : role + "-" + (host + 1);
        }

        private Path jar(String relative) {
            Path p = jars.resolve(relative);
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException(p + " is missing: build it first (benchmarks/run-driver.sh builds every "
                        + "jar the driver starts; ./demo.sh the demo's)");
            }
            return p;
        }
    }

    /** Starts every one at once; answers them in order once all are up, or throws the first failure. */
    private static List<ServerProcess> startAll(ExecutorService pool, List<ServerProcess> started,
                                                List<Callable<ServerProcess>> starts) throws InterruptedException {
        List<Future<ServerProcess>> futures = new ArrayList<>();
        for (Callable<ServerProcess> s : starts) {
            futures.add(pool.submit(() -> {
                ServerProcess p = s.call();
                started.add(p);
                return p;
            }));
        }
        List<ServerProcess> up = new ArrayList<>();
        RuntimeException failure = null;
        for (Future<ServerProcess> f : futures) {
            try {
                up.add(f.get());
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r
                            : new IllegalStateException(e.getCause().getMessage(), e.getCause());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return up;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
