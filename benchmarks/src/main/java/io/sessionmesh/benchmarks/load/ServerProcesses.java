package io.sessionmesh.benchmarks.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masters and sidecars as processes from their jars, for the load generator: each started and waited for until it
 * prints where it listens; all stopped (SIGTERM, then SIGKILL) by {@link #close}.
 */
final class ServerProcesses implements AutoCloseable {
    static final long START_TIMEOUT_SECONDS = 60;
    private static final Pattern ADDRESS = Pattern.compile("SessionMesh (master listening|sidecar listening|sidecar admin) on [^:]+:(\\d+)");

    private final List<Process> processes = new ArrayList<>();

    /** A master; its port. */
    int master(Path jar) throws IOException {
        check(jar);
        return start(List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC", "-jar", jar.toString(), "--port", "0"), 1)[0];
    }

    /** A sidecar of the master at {@code masterPort}; its REST and admin ports. */
    int[] sidecar(Path jar, int masterPort) throws IOException {
        check(jar);
        return start(List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC", "-jar", jar.toString(), "--masters",
                "127.0.0.1:" + masterPort, "--port", "0", "--admin-port", "0", "--vnodes", "256"), 2);
    }

    private static void check(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException(jar + " is missing: build it first (mvn -B -ntp package -DskipTests)");
        }
    }

    /** Starts {@code java args} and reads its output until it has printed {@code ports} addresses (REST first). */
    private int[] start(List<String> args, int ports) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        int[] found = new int[ports];
        int seen = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        List<String> output = new ArrayList<>();
        for (String line; seen < ports && System.nanoTime() < deadline && (line = r.readLine()) != null; ) {
            output.add(line);
            Matcher m = ADDRESS.matcher(line);
            if (m.find()) {
                int port = Integer.parseInt(m.group(2));
                if (m.group(1).equals("sidecar admin")) {
                    found[ports - 1] = port;
                } else {
                    found[0] = port;
                }
                seen++;
            }
        }
        if (seen < ports) {
            throw new IllegalStateException("did not start: " + cmd + "\n" + String.join("\n", output));
        }
        Thread drain = new Thread(() -> {
            try {
                r.lines().forEach(l -> { });
            } catch (java.io.UncheckedIOException e) {
                // the process was stopped
            }
        }, "drain-" + p.pid());
        drain.setDaemon(true);
        drain.start();
        return found;
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
