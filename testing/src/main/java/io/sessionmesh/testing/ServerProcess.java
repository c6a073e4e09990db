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
import java.util.function.Consumer;

/**
 * A master or a sidecar started as a real process from its executable jar, on free loopback ports: it is up once it
 * has written its ready file ({@code --ready-file}, which this class adds), and that file says where it listens, so
 * nothing here parses the server's output. The output is still kept: Netty's leak detector runs paranoid and
 * {@link #leaks()} returns what it reported; tests read log lines from {@link #output}.
 *
 * <p>{@link #builder} starts any server jar with the caller's JVM flags: its output to a log file instead (the process
 * then depends on nothing of this JVM's, and outlives it if left running, as the demo's stack does), and a Spring Boot
 * application, which writes no ready file, counted up once Spring Boot's own {@code WebServerPortFileWriter} has
 * written the port its web server listens on (added to the application as a source by {@code spring.main.sources},
 * the file named by the {@code portfile} system property: nothing of the application's changes).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>start, until the ready file is written</td><td>{@link #START_TIMEOUT} (the builder's
 *       {@link Builder#startTimeout})</td></tr>
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
    /** The endpoint name of a Spring Boot application's web server, for {@link #port(String)}. */
    public static final String HTTP = "http";
    /** Spring Boot's listener that writes the web server's port to a file, made a bean of the application. */
    static final String PORT_FILE_WRITER = "org.springframework.boot.web.context.WebServerPortFileWriter";
    /** Lines of a log file quoted when a server does not come up. */
    static final int LOG_TAIL_LINES = 30;
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
    /** A Spring Boot application's web server port; 0 for a server with a ready file. */
    private final int httpPort;
    /** Where the output goes, or null when it is kept in {@link #output}. */
    private final Path log;

    private ServerProcess(List<String> command) throws IOException {
        this(List.of(), command, null, false, START_TIMEOUT, p -> { });
    }

    /**
     * @param prefix what runs the command elsewhere (a test host's {@code ip netns exec NS}), before everything else
     * @param command the java command line, {@code java} first
     */
    private ServerProcess(List<String> prefix, List<String> command, Path log, boolean springBoot, Duration timeout,
            Consumer<Process> launched) throws IOException {
        this.log = log;
        Path readyFile = Files.createTempFile("sessionmesh-ready", ".properties");
        Files.delete(readyFile);
        List<String> cmd = new ArrayList<>(command);
        if (springBoot) {
            cmd.add(1, "-Dportfile=" + readyFile); // a system property: before -jar
            cmd.add("--spring.main.sources=" + PORT_FILE_WRITER);
        } else {
            cmd.add("--" + ReadyFile.SETTING);
            cmd.add(readyFile.toString());
        }
        cmd.addAll(0, prefix);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (log != null) {
            Files.createDirectories(log.toAbsolutePath().getParent());
            pb.redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        process = pb.start();
        launched.accept(process);
        reader = new Thread(this::pump, "server-output");
        reader.setDaemon(true);
        if (log == null) {
            reader.start();
        }
        try {
            if (springBoot) {
                httpPort = awaitPortFile(readyFile, timeout, String.join(" ", command));
                ready = null;
            } else {
                ready = ReadyFile.await(readyFile, timeout, String.join(" ", command), process::isAlive);
                httpPort = 0;
            }
        } catch (RuntimeException | AssertionError e) { // AssertionError: Await's, when the wait runs out
            process.destroyForcibly();
            throw new IllegalStateException(e.getMessage() + "; its output: " + outputText(), e);
        } finally {
            Files.deleteIfExists(readyFile);
        }
    }

    /** Waits for a port file: one number, written once the web server listens. */
    private int awaitPortFile(Path file, Duration timeout, String what) {
        int[] port = new int[1];
        Await.until(what + " to write its port to " + file, timeout, () -> {
            String text = Files.exists(file) ? Files.readString(file, StandardCharsets.US_ASCII).strip() : "";
            if (text.matches("\\d{1,5}")) { // else not yet, or not yet all of it
                port[0] = Integer.parseInt(text);
            }
            return port[0] > 0 || !process.isAlive();
        });
        if (port[0] == 0) {
            throw new IllegalStateException(what + " exited with status " + process.exitValue() + " before listening");
        }
        return port[0];
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

    /**
     * Starts {@code command} (a server's {@code java -jar} line, or any command that takes {@code --ready-file}; with a
     * test host's {@code ip netns exec} prefix it runs in that host) and waits until it is up.
     */
    public static ServerProcess start(List<String> command) throws IOException {
        return new ServerProcess(command);
    }

    /** A server from {@code jar}, started by {@link Builder#start}: on this JVM's java, no JVM flags, its output kept. */
    public static Builder builder(Path jar) {
        return new Builder(jar);
    }

    /**
     * How a server is started: the java that runs it, its JVM flags, its own flags, where its output goes, how it
     * says it is up, how long that may take.
     */
    public static final class Builder {
        private final Path jar;
        private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        private final List<String> jvm = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private Path log;
        private boolean springBoot;
        private Duration startTimeout = START_TIMEOUT;
        private Consumer<Process> launched = p -> { };
        private final List<String> prefix = new ArrayList<>();

        private Builder(Path jar) {
            this.jar = jar;
        }

        /** The java binary (another JDK's, say); this JVM's by default. */
        public Builder java(Path java) {
            this.java = java;
            return this;
        }

        /** JVM flags, before {@code -jar}. */
        public Builder jvm(List<String> flags) {
            jvm.addAll(flags);
            return this;
        }

        /** The server's own flags, after the jar. */
        public Builder args(List<String> flags) {
            args.addAll(flags);
            return this;
        }

        /** {@link #args(List)} of these. */
        public Builder args(String... flags) {
            return args(List.of(flags));
        }

        /**
         * The output (standard output and error) to this file, emptied first, and standard input from /dev/null: the
         * process holds no pipe of this JVM's, so it runs on after this JVM exits. {@link #output} stays empty.
         */
        public Builder log(Path file) {
            this.log = file;
            return this;
        }

        /** A Spring Boot application: up once its web server listens ({@link ServerProcess}), its port {@link #HTTP}. */
        public Builder springBoot() {
            this.springBoot = true;
            return this;
        }

        /** The longest wait for the server to come up ({@link #START_TIMEOUT} by default). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Told of the process as soon as it exists, before it is up (to record its pid, say). */
        public Builder launched(Consumer<Process> hook) {
            this.launched = hook;
            return this;
        }

        /**
         * What runs the java command elsewhere, before it on the command line: a test host's {@code ip netns exec NS}
         * ({@code io.sessionmesh.testing.hosts.Host#commandPrefix}), so that the server runs in that host's network
         * namespace. It must exec the command, so that {@link #pid()} and the signals reach the server itself. A
         * server there that listens on 127.0.0.1 listens on that host's loopback, which the test JVM cannot reach
         * (nor {@link #awaitHealthy}): give it the host's address to listen on.
         */
        public Builder commandPrefix(List<String> prefix) {
            this.prefix.clear();
            this.prefix.addAll(prefix);
            return this;
        }

        /** The command line, without what {@link #start} adds to learn that the server is up. */
        public List<String> command() {
            List<String> cmd = new ArrayList<>(prefix);
            cmd.add(java.toString());
            cmd.addAll(jvm);
            cmd.add("-jar");
            cmd.add(jar.toString());
            cmd.addAll(args);
            return cmd;
        }

        /**
         * Starts the server and waits until it is up.
         *
         * @throws IllegalArgumentException when the jar is missing
         * @throws IllegalStateException when it exits or does not come up in time (the process is killed), with the
         *     end of its output
         */
        public ServerProcess start() throws IOException {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(jar + " is missing: build it first (mvn -B -ntp package -DskipTests)");
            }
            List<String> cmd = command();
            return new ServerProcess(prefix, cmd.subList(prefix.size(), cmd.size()), log, springBoot, startTimeout,
                    launched);
        }
    }

    /**
     * The port of an endpoint its ready file names: {@code master} for a master; {@code api}, {@code admin} and, in
     * local mode, {@code embedded-master} for a sidecar; {@link #HTTP} for a Spring Boot application.
     */
    public int port(String endpoint) {
        if (ready == null) {
            if (!endpoint.equals(HTTP)) {
                throw new IllegalArgumentException("a Spring Boot application has one endpoint, " + HTTP + ", not " + endpoint);
            }
            return httpPort;
        }
        return ready.port(endpoint);
    }

    /** The port clients use: a master's, a sidecar's REST API, or a Spring Boot application's web server. */
    public int port() {
        if (ready == null) {
            return httpPort;
        }
        return ready.has("master") ? ready.port("master") : ready.port("api");
    }

    /** The process id. */
    public long pid() {
        return process.pid();
    }

    /**
     * For a sidecar: waits until {@code GET /admin/health} answers 200 (it has reached its masters; 503 until then)
     * and the body contains {@code contains} (say, {@code "valid":true} for a lease); returns the body.
     */
    public String awaitHealthy(String contains) {
        return awaitHealthy(contains, HEALTHY_TIMEOUT);
    }

    /** {@link #awaitHealthy(String)}, waiting at most {@code timeout} (a master group electing its leader, say). */
    public String awaitHealthy(String contains, Duration timeout) {
        URI health = URI.create("http://127.0.0.1:" + port("admin") + "/admin/health");
        String[] body = new String[1];
        Await.until(health + " to answer 200" + (contains.isEmpty() ? "" : " with " + contains), timeout, () -> {
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

    /** The output so far: kept lines, or the end of the log file. */
    private String outputText() {
        if (log == null) {
            return String.join("\n", output);
        }
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return "the end of " + log + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES),
                    lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(" + log + " cannot be read: " + e.getMessage() + ")";
        }
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
        if (log == null) {
            reader.join(10_000);
        }
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
