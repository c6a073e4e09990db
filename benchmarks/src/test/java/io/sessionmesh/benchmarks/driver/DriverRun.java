package io.sessionmesh.benchmarks.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver's jar run as a process, as a user runs it, on the jars of this tree ({@code --jars}): for the plans' smoke
 * tests. Small heaps for every process, so that a stack fits beside the build on a CI machine.
 */
public final class DriverRun {
    /** Heaps small enough for CI, large enough for a short run. */
    public static final List<String> SMALL_JVMS = List.of("--master-jvm=-Xmx256m -XX:+UseSerialGC",
            "--sidecar-jvm=-Xmx128m -XX:+UseSerialGC", "--app-jvm=-Xmx256m -XX:+UseSerialGC");
    static final long TIMEOUT_SECONDS = 150;

    /** The exit status and everything the driver printed. */
    public record Result(int status, String output) {
    }

    private DriverRun() {
    }

    /** Runs {@code java -jar sessionmesh-driver.jar plan flags... --jars <tree>}; waits at most {@value #TIMEOUT_SECONDS} s. */
    public static Result run(String plan, List<String> flags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", System.getProperty("driver.jar", "target/sessionmesh-driver.jar"), plan));
        cmd.addAll(flags); // first: "demo stop" is a plan and a word
        cmd.addAll(List.of("--jars", System.getProperty("project.root", "..")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.append("(output ended: ").append(e).append(')');
            }
        }, "driver-output");
        reader.start();
        boolean exited = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!exited) {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        reader.join(10_000);
        assertTrue(exited, "the driver did not finish in " + TIMEOUT_SECONDS + " s:\n" + out);
        return new Result(p.exitValue(), out.toString());
    }

    /** A report's JSON. */
    public static JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }
}
