package io.sessionmesh.master.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A server started as a real process from its executable jar (a master or a sidecar), on a free loopback port:
 * the test waits for the line that gives its address. Its output is kept; Netty's leak detector runs paranoid
 * and {@link #leaks()} returns what it reported.
 */
public final class ServerProcess implements AutoCloseable {
    public final Process process;
    public final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final String listening;
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final Thread reader;

    private ServerProcess(List<String> command, String listening) throws IOException {
        this.listening = listening;
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        reader = new Thread(this::pump, "server-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The jar a system property names (set by the build), checked to exist. */
    public static Path jar(String property, String fallback) {
        Path jar = Path.of(System.getProperty(property, fallback));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the integration tests with mvn verify");
        }
        return jar;
    }

    /** The command line for {@code java -jar jar flags...} on this test's JDK. */
    public static List<String> command(Path jar, String... flags) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-jar", jar.toString()));
        cmd.addAll(List.of(flags));
        return cmd;
    }

    /** Starts {@code command} and waits (30 s at most) for the line that starts with {@code listening}. */
    public static ServerProcess start(List<String> command, String listening) throws IOException {
        ServerProcess p = new ServerProcess(command, listening);
        try {
            p.port.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.process.destroyForcibly();
            throw new IllegalStateException("server did not start: " + p.output, e);
        }
        return p;
    }

    /** The port from the address line. */
    public int port() {
        return port.join();
    }

    /** The port from another line of the output, "prefix host:port". */
    public int port(String prefix) {
        synchronized (output) {
            for (String line : output) {
                if (line.startsWith(prefix)) {
                    return Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
                }
            }
        }
        throw new IllegalStateException("no line starts with " + prefix + ": " + output);
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                output.add(line);
                if (line.startsWith(listening)) {
                    port.complete(Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("server exited before listening"));
    }

    /** SIGTERM, then waits for the exit; returns the exit code. */
    public int stop() throws InterruptedException {
        // Not Process.destroy(): it closes our end of the output pipe, and the server's last words are lost.
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server did not stop on SIGTERM within 30 s: " + output);
        }
        reader.join(10_000);
        return process.exitValue();
    }

    /** SIGKILL: the server dies at once, as in a crash. */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Lines where Netty reported a leaked buffer. */
    public List<String> leaks() {
        synchronized (output) {
            return output.stream().filter(l -> l.contains("LEAK:")).toList();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
