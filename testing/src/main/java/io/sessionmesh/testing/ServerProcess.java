package io.sessionmesh.testing;

import io.sessionmesh.settings.ReadyFile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A master or a sidecar started as a real process from its executable jar, on free loopback ports: it is up once it
 * has written its ready file ({@code --ready-file}, which this class adds), and that file says where it listens, so
 * nothing here parses the server's output. The output is still kept: Netty's leak detector runs paranoid and
 * {@link #leaks()} returns what it reported; tests read log lines from {@link #output}.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>start, until the ready file is written</td><td>{@link #START_TIMEOUT}</td></tr>
 *   <tr><td>stop, after SIGTERM, before it counts as a failure</td><td>{@link #STOP_TIMEOUT}</td></tr>
 *   <tr><td>a sidecar reaching its masters ({@link #awaitHealthy})</td><td>{@link #HEALTHY_TIMEOUT}</td></tr>
 * </table>
 */
public final class ServerProcess implements AutoCloseable {
    /** Longest wait for a server to write its ready file. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    /** Longest wait for a server to exit after SIGTERM. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** Longest wait for a sidecar to reach its masters ({@link #awaitHealthy}). */
    public static final Duration HEALTHY_TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final Process process;
    /**
     * The server's lines so far, appended by a reader thread while tests read them: a copy-on-write list, so that a
     * test may stream or join it while lines arrive (a synchronized list threw ConcurrentModificationException from
     * an unsynchronized stream). A server in a test writes at most a few thousand lines; each append copies them.
     */
    public final List<String> output = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private final ReadyFile ready;

    private ServerProcess(List<String> command) throws IOException {
        Path readyFile = Files.createTempFile("sessionmesh-ready", ".properties");
        Files.delete(readyFile);
        List<String> cmd = new ArrayList<>(command);
        cmd.add("--" + ReadyFile.SETTING);
        cmd.add(readyFile.toString());
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        reader = new Thread(this::pump, "server-output");
        reader.setDaemon(true);
        reader.start();
        try {
            ready = ReadyFile.await(readyFile, START_TIMEOUT, String.join(" ", command), process::isAlive);
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw new IllegalStateException(e.getMessage() + "; its output: " + outputText(), e);
        } finally {
            Files.deleteIfExists(readyFile);
        }
    }

    /** The jar a system property names (set by the build), checked to exist. */
    public static Path jar(String property, String fallback) {
        Path jar = Path.of(System.getProperty(property, fallback));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the integration tests with mvn verify");
        }
        return jar;
    }

    /** The command line for {@code java -jar jar flags...} on this test's JDK, with Netty's leak detector paranoid. */
    public static List<String> command(Path jar, String... flags) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-jar", jar.toString()));
        cmd.addAll(List.of(flags));
        return cmd;
    }

    /** Starts {@code command} (a server's {@code java -jar} line) and waits until it is up. */
    public static ServerProcess start(List<String> command) throws IOException {
        return new ServerProcess(command);
    }

    /**
     * The port of an endpoint its ready file names: {@code master} for a master; {@code api}, {@code admin} and, in
     * local mode, {@code embedded-master} for a sidecar.
     */
    public int port(String endpoint) {
        return ready.port(endpoint);
    }

    /** The port clients use: a master's, or a sidecar's REST API. */
    public int port() {
        return ready.has("master") ? ready.port("master") : ready.port("api");
    }

    /**
     * For a sidecar: waits until {@code GET /admin/health} answers 200 (it has reached its masters; 503 until then)
     * and the body contains {@code contains} (say, {@code "valid":true} for a lease); returns the body.
     */
    public String awaitHealthy(String contains) {
        URI health = URI.create("http://127.0.0.1:" + port("admin") + "/admin/health");
        String[] body = new String[1];
        Await.until(health + " to answer 200" + (contains.isEmpty() ? "" : " with " + contains), HEALTHY_TIMEOUT, () -> {
            HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            body[0] = r.body();
            return r.statusCode() == 200 && r.body().contains(contains);
        });
        return body[0];
    }

    /**
     * For a sidecar of {@code masters} masters: waits until {@code GET /admin/health} says every one of them is UP
     * (connected), not only the first: a request routed to a master it has not reached yet would answer 503.
     */
    public String awaitMastersUp(int masters) {
        URI health = URI.create("http://127.0.0.1:" + port("admin") + "/admin/health");
        java.util.regex.Pattern up = java.util.regex.Pattern.compile("\"status\"\\s*:\\s*\"UP\"");
        String[] body = new String[1];
        Await.until(health + " to show " + masters + " masters UP", HEALTHY_TIMEOUT, () -> {
            HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString());
            body[0] = r.body();
            return r.statusCode() == 200 && up.matcher(r.body()).results().count() == masters + 1; // the sidecar's own, then each master's
        });
        return body[0];
    }

    /** {@link #awaitHealthy(String)} with no condition on the body. */
    public String awaitHealthy() {
        return awaitHealthy("");
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                output.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String outputText() {
        return String.join("\n", output);
    }

    /** SIGTERM, then waits for the exit; returns the exit code. */
    public int stop() throws InterruptedException {
        // Not Process.destroy(): it closes our end of the output pipe, and the server's last words are lost.
        process.toHandle().destroy();
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server did not stop on SIGTERM within " + STOP_TIMEOUT.toSeconds() + " s: "
                    + outputText());
        }
        reader.join(10_000);
        return process.exitValue();
    }

    /** SIGKILL: the server dies at once, as in a crash. */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGSTOP: the server stops running (a long GC pause, a frozen VM) with its sockets open. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " exited with " + kill.exitValue());
        }
    }

    /** Lines where Netty reported a leaked buffer. */
    public List<String> leaks() {
        return output.stream().filter(l -> l.contains("LEAK:")).toList();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
