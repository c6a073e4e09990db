package io.sessionmesh.demo;

import io.sessionmesh.settings.ReadyFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's stack: a master (or a master group's replicas), a sidecar and the example service, each a process
 * started from its jar, detached
 * from the demo (its output goes to a log file in the state directory, so it keeps running after the demo exits).
 * The process ids go to {@value #PIDS}, which {@link #stopRunning} reads to stop a stack left running.
 */
final class DemoStack {
    /** The file of "name pid" lines of a running stack, in the state directory. */
    static final String PIDS = "stack.pids";
    /** How long one process may take to say it is listening. */
    static final long START_TIMEOUT_SECONDS = 90;
    /** Heap of each process: the demo's data is a few tens of megabytes. */
    static final String HEAP = "-Xmx384m";

    /** The example service is Spring Boot's: it announces its port in its log, not in a ready file. */
    private static final Pattern SERVICE = Pattern.compile("Tomcat started on port (\\d+)");

    /** The master's address, or each replica's of the group ({@code 127.0.0.1:port}). */
    final List<String> masters;
    final int sidecarPort;
    final int sidecarAdminPort;
    final int servicePort;
    private final List<Process> processes;
    private final Path state;

    private DemoStack(Path state, List<Process> processes, List<String> masters, int sidecarPort, int sidecarAdminPort,
                      int servicePort) {
        this.state = state;
        this.processes = processes;
        this.masters = List.copyOf(masters);
        this.sidecarPort = sidecarPort;
        this.sidecarAdminPort = sidecarAdminPort;
        this.servicePort = servicePort;
    }

    /**
     * Starts the processes in order, each once the one before listens: the master (or each replica of the group, and
     * then waits until the sidecar holds a lease with its leader), the sidecar, the example service.
     */
    static DemoStack start(DemoOptions o) throws IOException, InterruptedException {
        Path master = jar(o.jars(), "master-store/target/sessionmesh-master.jar");
        Path sidecar = jar(o.jars(), "slave-sidecar/target/sessionmesh-sidecar.jar");
        Path service = jar(o.jars(), "example-service/target/sessionmesh-example-service-exec.jar");
        int[] dataPorts = new int[o.replicas()];
        int[] raftPorts = new int[o.replicas()];
        for (int i = 0; i < o.replicas(); i++) {
            dataPorts[i] = o.replicas() == 1 || o.masterPort() == 0 ? (i == 0 ? o.masterPort() : freePort()) : o.masterPort() + i;
            raftPorts[i] = o.replicas() == 1 ? 0 : freePort();
        }
        if (o.replicas() > 1 && o.masterPort() == 0) {
            dataPorts[0] = freePort();
        }
        for (int port : dataPorts) {
            checkFree(port);
        }
        for (int port : new int[] {o.sidecarPort(), o.sidecarAdminPort(), o.servicePort()}) {
            checkFree(port);
        }
        Files.createDirectories(o.state());
        List<Process> started = new ArrayList<>();
        try {
            List<String> masters = new ArrayList<>();
            if (o.replicas() == 1) {
                Process m = launch(o.state(), "master", started, "-jar", master.toString(), "--port", String.valueOf(dataPorts[0]),
                        "--ready-file", readyFile(o.state(), "master").toString());
                masters.add("127.0.0.1:" + awaitReady(m, o.state(), "master").port("master"));
            } else {
                List<String> spec = new ArrayList<>();
                for (int i = 0; i < o.replicas(); i++) {
                    spec.add("m" + (i + 1) + "=127.0.0.1:" + dataPorts[i] + "/" + raftPorts[i]);
                }
                Path raft = o.state().resolve("raft");
                deleteTree(raft); // each demo starts a new group: an old log names other ports
                List<Process> replicas = new ArrayList<>();
                for (int i = 0; i < o.replicas(); i++) {
                    String name = "master-" + (i + 1);
                    replicas.add(launch(o.state(), name, started, "-jar", master.toString(), "--port", String.valueOf(dataPorts[i]),
                            "--replicas", String.join(",", spec), "--replica-id", "m" + (i + 1),
                            "--raft-dir", raft.resolve("m" + (i + 1)).toString(), "--ready-file", readyFile(o.state(), name).toString()));
                }
                for (int i = 0; i < o.replicas(); i++) {
                    masters.add("127.0.0.1:" + awaitReady(replicas.get(i), o.state(), "master-" + (i + 1)).port("master"));
                }
            }
            Process s = launch(o.state(), "sidecar", started, "-jar", sidecar.toString(), "--masters", String.join("|", masters),
                    "--port", String.valueOf(o.sidecarPort()), "--admin-port", String.valueOf(o.sidecarAdminPort()),
                    "--ready-file", readyFile(o.state(), "sidecar").toString());
            ReadyFile sidecarReady = awaitReady(s, o.state(), "sidecar");
            int sidecarPort = sidecarReady.port("api");
            int adminPort = sidecarReady.port("admin");
            if (o.replicas() > 1) {
                awaitLease(s, adminPort);
            }
            Process e = launch(o.state(), "service", started, "-jar", service.toString(), "--server.port=" + o.servicePort(), "--server.address=127.0.0.1",
                    "--sessionmesh.sidecar-uri=http://127.0.0.1:" + sidecarPort);
            int servicePort = await(e, o.state(), "service", SERVICE);
            return new DemoStack(o.state(), started, masters, sidecarPort, adminPort, servicePort);
        } catch (IOException | InterruptedException | RuntimeException ex) {
            started.forEach(DemoStack::stop);
            Files.deleteIfExists(o.state().resolve(PIDS));
            throw ex;
        }
    }

    /** Waits until the sidecar's admin health shows a valid lease: the group has elected a leader and it serves. */
    private static void awaitLease(Process sidecar, int adminPort) throws IOException, InterruptedException {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest health = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + adminPort + "/admin/health")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        String last = "";
        while (System.nanoTime() < deadline && sidecar.isAlive()) {
            try {
                last = http.send(health, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                if (last.contains("\"valid\":true")) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the sidecar holds no lease with a leader of the master group after "
                + START_TIMEOUT_SECONDS + " s (is a majority of the replicas up? see the master-N logs): " + last);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static Path jar(Path root, String relative) {
        Path p = root.resolve(relative);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " is missing: build it first (./demo.sh builds all three jars)");
        }
        return p;
    }

    private static void checkFree(int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use: stop what holds it (a demo left "
                    + "running stops with ./demo.sh stop) or choose other ports (--service-port 0 and so on)");
        }
    }

    private static Process launch(Path state, String name, List<Process> started, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(HEAP);
        command.add("-XX:+UseSerialGC");
        command.addAll(List.of(args));
        Path log = state.resolve(name + ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(nullDevice())).start();
        started.add(p);
        Files.writeString(state.resolve(PIDS), name + " " + p.pid() + "\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return p;
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static Path readyFile(Path state, String name) throws IOException {
        Path file = state.resolve(name + ".ready");
        Files.deleteIfExists(file); // from a run before: the new process writes its own
        return file;
    }

    /** Waits for the process's ready file (its ports); on failure, says so with the end of its log. */
    private static ReadyFile awaitReady(Process p, Path state, String name) throws IOException {
        try {
            return ReadyFile.await(state.resolve(name + ".ready"), Duration.ofSeconds(START_TIMEOUT_SECONDS), "the " + name,
                    p::isAlive);
        } catch (IllegalStateException e) {
            Path log = state.resolve(name + ".log");
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            throw new IllegalStateException(e.getMessage() + "; the end of " + log + ":\n" + tail(text, 20), e);
        }
    }

    /** Waits for a line of the process's log and answers the port in it. */
    private static int await(Process p, Path state, String name, Pattern line) throws IOException, InterruptedException {
        Path log = state.resolve(name + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            Matcher m = line.matcher(text);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("the " + name + " exited with status " + p.exitValue() + " before listening; "
                        + "the end of " + log + ":\n" + tail(text, 20));
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the " + name + " did not say it was listening within " + START_TIMEOUT_SECONDS
                + " s; see " + log);
    }

    private static String tail(String text, int lines) {
        String[] all = text.split("\n");
        return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
    }

    /** Stops the processes (SIGTERM, then SIGKILL after 10 s) and forgets them. */
    void stop() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            stop(processes.get(i));
        }
        try {
            Files.deleteIfExists(state.resolve(PIDS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stop(Process p) {
        stop(p.toHandle());
    }

    private static void stop(ProcessHandle h) {
        h.destroy();
        try {
            h.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            h.destroyForcibly();
        }
    }

    /**
     * Stops a stack an earlier demo left running, from its pid file; answers how many processes were stopped. Only
     * processes that are still java processes are stopped (a pid may have been reused since).
     */
    static int stopRunning(Path state) throws IOException {
        Path pids = state.resolve(PIDS);
        if (!Files.exists(pids)) {
            return 0;
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(pids, StandardCharsets.UTF_8));
        int stopped = 0;
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] parts = lines.get(i).trim().split("\\s+");
            if (parts.length != 2) {
                continue;
            }
            Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(parts[1]));
            if (h.isPresent() && h.get().isAlive()
                    && h.get().info().command().map(c -> c.endsWith("java")).orElse(false)) {
                stop(h.get());
                stopped++;
            }
        }
        Files.deleteIfExists(pids);
        return stopped;
    }
}
