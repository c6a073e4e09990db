package io.sessionmesh.integration.scripts;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The project's shell scripts never pipe into a reader that stops early while {@code pipefail} is on. {@code head}
 * and {@code grep -q}/{@code -m} exit at their first line or match; a writer that still has output then dies of
 * SIGPIPE and the pipeline fails with status 141. That once broke .ci/run on every new machine
 * ({@code docker run ... java -version | head -n 1} in docker/build-base-image.sh), hidden for days because the base
 * image was already built on the machines that ran it. Read with {@code sed -n 1p} or match with a here-string.
 */
class ScriptPipefailTest {
    /** A pipe into head, or into grep with -q, -m or -l (every flag cluster that holds one of them). */
    static final Pattern EARLY_READER = Pattern.compile("\\|\\s*(head\\b|grep\\s+-[A-Za-z]*[qml])");

    @Test
    void scriptsUnderPipefail_neverPipeIntoHeadOrGrepQ() throws IOException {
        Path root = Path.of(System.getProperty("project.root", ".."));
        List<Path> scripts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .filter(p -> p.toString().endsWith(".sh") || p.endsWith(Path.of(".ci", "run")))
                    .forEach(scripts::add);
        }
        assertFalse(scripts.isEmpty(), "no scripts found under " + root.toAbsolutePath());
        List<String> offenders = new ArrayList<>();
        for (Path script : scripts) {
            List<String> lines = Files.readAllLines(script, StandardCharsets.UTF_8);
            if (lines.stream().noneMatch(l -> l.contains("pipefail"))) {
                continue;
            }
            for (int i = 0; i < lines.size(); i++) {
                String code = lines.get(i).replaceFirst("(^|\\s)#.*$", "");
                if (EARLY_READER.matcher(code).find()) {
                    offenders.add(root.relativize(script) + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertEquals(List.of(), offenders, "pipes into an early-exiting reader under pipefail (SIGPIPE, status 141)");
    }

    @Test
    void pattern_findsTheCasesItIsFor() {
        assertTrue("x=$(java -version 2>&1 | head -n 1)");
        assertTrue("printf '%s' \"$a\" | grep -q ok");
        assertTrue("ls | grep -qE 'a|b'");
        assertTrue("cat f | grep -m1 x");
        assertFalse(EARLY_READER.matcher("java -version 2>&1 | sed -n 1p").find());
        assertFalse(EARLY_READER.matcher("grep -q ok <<<\"$a\"").find());
        assertFalse(EARLY_READER.matcher("ps | grep -v grep").find());
    }

    private static void assertTrue(String line) {
        org.junit.jupiter.api.Assertions.assertTrue(EARLY_READER.matcher(line).find(), line);
    }
}
