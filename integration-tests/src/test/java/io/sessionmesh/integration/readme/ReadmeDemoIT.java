package io.sessionmesh.integration.readme;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Follows the README as a new user would: takes the two commands at its top, checks that the second is the one
 * .ci/run runs, copies the project's files as a clean clone has them (git's tracked and unignored files, none of
 * the build output) and runs the first command there, shortened by flags, on free ports. The demo must build
 * everything it needs itself, print its summary with no failed request, and stop what it started. A second run, on
 * a master group of three, leaves its stack running as the demo does by default, and {@code ./demo.sh stop} stops it.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class ReadmeDemoIT {
    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    /** The demo's flags for a short run on ports the machine has free. */
    /** The demo builds the project in the copy first: a few minutes at most, even on a cold machine. */
    static final long DEMO_TIMEOUT_MINUTES = 10;
    static final String SHORT_RUN = " --duration 8s --warmup 2s --sessions 200"
            + " --master-port 0 --sidecar-port 0 --sidecar-admin-port 0 --service-port 0";
    /** Where the demo keeps the ids of a stack left running (DemoPlan.PIDS under its default --state). */
    static final String PIDS = "target/demo/stack.pids";

    /** The lines of the first fenced block of the README: the demo command, then the test command. */
    static List<String> readmeCommands() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        Matcher block = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find(), "the README has no command block");
        assertTrue(readme.indexOf("```") < readme.indexOf("\n## "), "the commands are not at the README's top");
        return block.group(1).lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void readme_firstCommandIsTheDemo_secondIsWhatCiRuns() throws IOException {
        List<String> commands = readmeCommands();
        assertEquals(2, commands.size(), "the README's top block should hold exactly two commands: " + commands);
        String ci = Files.readString(ROOT.resolve(".ci/run"), StandardCharsets.UTF_8);
        assertTrue(ci.lines().anyMatch(l -> l.trim().equals(commands.get(1))),
                "the README's test command \"" + commands.get(1) + "\" is not a line of .ci/run");
    }

    @Test
    void demoCommand_inACleanCopy_buildsRunsAndPrintsItsSummary(@TempDir Path dir) throws Exception {
        Path clone = dir.resolve("sessionmesh");
        copyTrackedFiles(clone);
        assertFalse(Files.exists(clone.resolve("benchmarks/target")), "the copy holds build output");
        String text = runDemo(clone, readmeCommands().get(0) + SHORT_RUN + " --stop");
        assertSummary(text);
        assertTrue(text.contains("stack stopped (--stop)"), text);
        assertFalse(Files.exists(clone.resolve(PIDS)), "the stack's pid file is left: something runs");

        // The same demo with a master group of three replicas, on the jars the first run built, left running.
        try {
            String group = runDemo(clone, "./demo.sh --replicas 3" + SHORT_RUN);
            assertSummary(group);
            assertTrue(group.contains("starting a master group of 3 replicas"), group);
            assertTrue(Pattern.compile("master replicas on 127\\.0\\.0\\.1:\\d+, 127\\.0\\.0\\.1:\\d+, 127\\.0\\.0\\.1:\\d+")
                    .matcher(group).find(), group);
            assertTrue(group.contains("The stack keeps running:") && group.contains("Stop it with: ./demo.sh stop"), group);
            List<ProcessHandle> stack = stackOf(clone);
            assertEquals(5, stack.size(), "three masters, a sidecar, a service: " + stack);
            assertTrue(stack.stream().allMatch(ProcessHandle::isAlive), "the stack died with the demo");

            String stop = runDemo(clone, "./demo.sh stop");
            assertTrue(stop.contains("[demo] stopped the demo stack (5 processes)"), stop);
            assertTrue(stack.stream().noneMatch(ProcessHandle::isAlive), "./demo.sh stop left a process running");
            assertFalse(Files.exists(clone.resolve(PIDS)), "the pid file outlives the stack");
            assertTrue(runDemo(clone, "./demo.sh stop").contains("[demo] no demo stack is running"));
        } finally {
            stackOf(clone).forEach(ProcessHandle::destroyForcibly); // nothing outlives the test, whatever failed
        }
    }

    /** The live processes of the stack a demo left running in the copy, from its pid file (none without one). */
    private static List<ProcessHandle> stackOf(Path clone) throws IOException {
        Path pids = clone.resolve(PIDS);
        if (!Files.exists(pids)) {
            return List.of();
        }
        return Files.readAllLines(pids).stream().map(l -> ProcessHandle.of(Long.parseLong(l.split(" ")[1])))
                .flatMap(java.util.Optional::stream).toList();
    }

    /** Runs {@code command} in the copy, with a time limit; kills whatever it left behind; answers its output. */
    private static String runDemo(Path clone, String command) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", command).directory(clone.toFile()).redirectErrorStream(true).start();
        List<String> out = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (var r = p.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.add(line);
                }
            } catch (IOException e) {
                out.add("(output ended: " + e + ")");
            }
        }, "demo-output");
        reader.setDaemon(true);
        reader.start();
        boolean exited;
        try {
            exited = p.waitFor(DEMO_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } finally {
            // Whatever happened, nothing the demo started outlives the test (the copy is deleted after it).
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        reader.join(5_000);
        assertTrue(exited, "the demo did not exit in " + DEMO_TIMEOUT_MINUTES + " minutes:\n" + String.join("\n", out));
        String text = String.join("\n", out);
        assertEquals(0, p.exitValue(), text);
        return text;
    }

    /** The summary a short run prints: requests without errors, the cache serving. */
    private static void assertSummary(String text) {
        assertTrue(text.contains("SessionMesh demo summary"), text);
        Matcher requests = Pattern.compile("end-user requests +([0-9,]+) \\(.*\\), errors 0\\n").matcher(text);
        assertTrue(requests.find(), "no request count, or errors: " + text);
        assertTrue(Long.parseLong(requests.group(1).replace(",", "")) > 0, text);
        Matcher hit = Pattern.compile("sidecar hit ratio +([0-9.]+)% of reads").matcher(text);
        assertTrue(hit.find() && Double.parseDouble(hit.group(1)) > 50, "the cache did not serve most reads: " + text);
        assertTrue(Pattern.compile("master round trips +[0-9.]+ per request").matcher(text).find(), text);
        assertTrue(Pattern.compile("bytes saved by deltas .*: [0-9.]+% saved").matcher(text).find(), text);
    }

    /** What a clone holds: the files git tracks, plus new ones it does not ignore, as they are in the work tree. */
    static void copyTrackedFiles(Path to) throws Exception {
        Process git = new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
                .directory(ROOT.toFile()).start();
        byte[] listing = git.getInputStream().readAllBytes();
        assertEquals(0, git.waitFor(), new String(git.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        for (String name : new String(listing, StandardCharsets.UTF_8).split("\0")) {
            Path from = ROOT.resolve(name);
            if (name.isEmpty() || !Files.isRegularFile(from)) {
                continue; // deleted in the work tree, not yet committed
            }
            Path target = to.resolve(name);
            Files.createDirectories(target.getParent());
            Files.copy(from, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
    }
}
