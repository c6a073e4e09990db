package io.sessionmesh.master.server;

import io.sessionmesh.master.MasterMain;

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

/** A master started as a real process from the executable jar, on a free loopback port. */
final class MasterProcess implements AutoCloseable {
    final Process process;
    final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Integer> listening = new CompletableFuture<>();
    private final Thread reader;

    private MasterProcess(List<String> command) throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        reader = new Thread(this::pump, "master-output");
        reader.setDaemon(true);
        reader.start();
    }

    static Path jar() {
        Path jar = Path.of(System.getProperty("master.jar", "target/sessionmesh-master.jar"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the integration tests with mvn verify");
        }
        return jar;
    }

    static List<String> command(String... flags) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-jar", jar().toString()));
        cmd.addAll(List.of(flags));
        return cmd;
    }

    /** Starts a master on a free port and waits until it listens. */
    static MasterProcess start(String... flags) throws IOException {
        List<String> cmd = command("--port", "0");
        cmd.addAll(List.of(flags));
        MasterProcess mp = new MasterProcess(cmd);
        try {
            mp.listening.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            mp.process.destroyForcibly();
            throw new IllegalStateException("master did not start: " + mp.output, e);
        }
        return mp;
    }

    int port() {
        return listening.join();
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                output.add(line);
                if (line.startsWith(MasterMain.LISTENING)) {
                    listening.complete(Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IllegalStateException("master exited before listening"));
    }

    /** SIGTERM, then waits for the exit; returns the exit code. */
    int stop() throws InterruptedException {
        // Not Process.destroy(): it closes our end of the output pipe, and the master's last words are lost.
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("master did not stop on SIGTERM within 30 s: " + output);
        }
        reader.join(10_000);
        return process.exitValue();
    }

    /** Lines where Netty reported a leaked buffer (paranoid leak detection is on). */
    List<String> leaks() {
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
