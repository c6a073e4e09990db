package io.sessionmesh.benchmarks.load;

import io.sessionmesh.settings.ReadyFile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Masters, sidecars and HTTP applications as processes from their jars, on loopback, for the load generators and the
 * benchmarks' tests: each started and waited for until its ready file says where it listens (an application: until it
 * answers HTTP); all stopped (SIGTERM, then SIGKILL) by {@link #close}. JVM flags and server flags are the caller's; the defaults are the load generator's.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>a process's start, until it writes its ready file</td><td>{@value #START_TIMEOUT_SECONDS} s</td></tr>
 *   <tr><td>a sidecar's first master connection ({@link #awaitMaster})</td><td>{@value #MASTER_TIMEOUT_SECONDS} s</td></tr>
 *   <tr><td>a process's stop, after SIGTERM, before SIGKILL</td><td>{@value #STOP_TIMEOUT_SECONDS} s</td></tr>
 * </table>
 */
public final class ServerProcesses implements AutoCloseable {
    /** Longest wait for a process to write its ready file. */
    public static final long START_TIMEOUT_SECONDS = 60;
    /** Longest wait for a sidecar to reach its master. */
    public static final long MASTER_TIMEOUT_SECONDS = 30;
    /** Longest wait for a process to stop after SIGTERM. */
    public static final long STOP_TIMEOUT_SECONDS = 10;
    /** The load generator's master JVM: a fixed heap, the parallel collector. */
    public static final List<String> MASTER_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
    /** The load generator's sidecar JVM. */
    public static final List<String> SIDECAR_JVM = List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC");
    /** Virtual nodes of each master on a sidecar's ring: one master here, so few are enough. */
    public static final int SIDECAR_VNODES = 256;
    private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<Process> processes = new ArrayList<>();
    /** The role of each process started ("master", "sidecars"), for CPU by role. */
    private final Map<Process, String> roles = new java.util.concurrent.ConcurrentHashMap<>();

    /** A master with the load generator's JVM; its port. */
    public int master(Path jar) throws IOException {
        return master(jar, MASTER_JVM, List.of());
    }

    /** A master with JVM flags {@code jvm} and server flags {@code flags} beyond its port; its port. */
    public int master(Path jar, List<String> jvm, List<String> flags) throws IOException {
        check(jar);
        List<String> args = new ArrayList<>(jvm);
        args.addAll(List.of("-jar", jar.toString(), "--port", "0"));
        args.addAll(flags);
        return start(args, "master", "master")[0];
    }

    /** A sidecar of the master at {@code masterPort}, with the load generator's JVM; its REST and admin ports. */
    public int[] sidecar(Path jar, int masterPort) throws IOException {
        return sidecar(jar, masterPort, SIDECAR_JVM, List.of());
    }

    /**
     * A sidecar of the master at {@code masterPort} with JVM flags {@code jvm} and server flags {@code flags} beyond
     * its master, ports and virtual nodes; its REST and admin ports.
     */
    public int[] sidecar(Path jar, int masterPort, List<String> jvm, List<String> flags) throws IOException {
        check(jar);
        List<String> args = new ArrayList<>(jvm);
        args.addAll(List.of("-jar", jar.toString(), "--masters", "127.0.0.1:" + masterPort, "--port", "0",
                "--admin-port", "0", "--vnodes", String.valueOf(SIDECAR_VNODES)));
        args.addAll(flags);
        return start(args, "sidecars", "api", "admin");
    }

    /** CPU time so far, in nanoseconds, of the processes started here, summed by role ("master", "sidecars"). */
    public Map<String, Long> cpuNanosByRole() {
        Map<String, Long> out = new java.util.TreeMap<>();
        roles.forEach((p, role) -> out.merge(role, ProcessCpu.nanos(p.pid()), Long::sum));
        return out;
    }

    /** Waits until the sidecar whose admin port is {@code adminPort} reaches a master (it answers 503 until then). */
    public static void awaitMaster(int adminPort) {
        URI health = URI.create("http://127.0.0.1:" + adminPort + "/admin/health");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MASTER_TIMEOUT_SECONDS);
        while (true) {
            try {
                if (ADMIN.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("sidecar " + health + " never reached its master");
            }
            try {
                Thread.sleep(20); // not a spin: on two cores it would take the CPU from the servers it waits for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
    }

    /** The pid of the process started last (a master's, a sidecar's or an app's), for its CPU counters. */
    public long lastPid() {
        if (processes.isEmpty()) {
            throw new IllegalStateException("no process started yet");
        }
        return processes.get(processes.size() - 1).pid();
    }

    /**
     * An HTTP application from its jar (a Spring Boot service, which writes no ready file) on {@code port}: started with
     * JVM flags {@code jvm} and application arguments {@code args}, its output to {@code log}, and waited for until
     * {@code GET http://127.0.0.1:port + readyPath} answers 200. Stopped with the others by {@link #close}. Its pid.
     */
    public long app(Path jar, List<String> jvm, List<String> args, int port, String readyPath, Path log) throws IOException {
        check(jar);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvm);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        URI ready = URI.create("http://127.0.0.1:" + port + readyPath);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (true) {
            try {
                if (ADMIN.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return p.pid();
                }
            } catch (IOException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(String.join(" ", cmd) + (p.isAlive() ? " did not answer " + ready + " within "
                        + START_TIMEOUT_SECONDS + " s" : " ended with status " + p.exitValue()) + "; its output: " + log);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
    }

    private static void check(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " is missing: build it first (mvn -B -ntp package -DskipTests)");
        }
    }

    /**
     * Starts {@code java args} with a ready file and waits for it; answers the ports of {@code endpoints} it names.
     * The output is drained (and kept, for the message when the process does not come up).
     */
    private int[] start(List<String> args, String role, String... endpoints) throws IOException {
        Path readyFile = Files.createTempFile("sessionmesh-ready", ".properties");
        Files.delete(readyFile);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(args);
        cmd.addAll(List.of("--" + ReadyFile.SETTING, readyFile.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        roles.put(p, role);
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        Thread drain = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                r.lines().forEach(output::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                // the process was stopped
            }
        }, "drain-" + p.pid());
        drain.setDaemon(true);
        drain.start();
        ReadyFile ready;
        try {
            ready = ReadyFile.await(readyFile, Duration.ofSeconds(START_TIMEOUT_SECONDS), String.join(" ", cmd), p::isAlive);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\n" + String.join("\n", output), e);
        } finally {
            Files.deleteIfExists(readyFile);
        }
        int[] ports = new int[endpoints.length];
        for (int i = 0; i < endpoints.length; i++) {
            ports[i] = ready.port(endpoints[i]);
        }
        return ports;
    }

    /** Stops every process started here: SIGTERM, then SIGKILL for those still running after the stop timeout. */
    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
