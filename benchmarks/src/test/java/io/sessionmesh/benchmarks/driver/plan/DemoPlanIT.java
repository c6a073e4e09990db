package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverRun;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plan demo, short: the summary with no failed request, the stack left running after the driver exits (its pid file),
 * then {@code demo stop} stopping it. (The README test runs {@code ./demo.sh --stop} in a clean copy.)
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DemoPlanIT {
    @Test
    void shortRun_summary_stackOutlivesTheDriver_thenStopStopsIt(@TempDir Path state) throws Exception {
        List<String> flags = List.of("--duration", "3s", "--warmup", "1s", "--sessions", "50", "--master-port", "0",
                "--sidecar-port", "0", "--sidecar-admin-port", "0", "--service-port", "0", "--state", state.toString());
        DriverRun.Result r = DriverRun.run("demo", flags);
        try {
            assertEquals(0, r.status(), r.output());
            String text = r.output();
            assertTrue(Pattern.compile("end-user requests +[0-9,]+ \\(.*\\), errors 0\\n").matcher(text).find(), text);
            assertTrue(Pattern.compile("sidecar hit ratio +[0-9.]+% of reads").matcher(text).find(), text);
            assertTrue(Pattern.compile("bytes saved by deltas .*: [0-9.]+% saved").matcher(text).find(), text);
            assertTrue(text.contains("The stack keeps running:") && text.contains("Stop it with: ./demo.sh stop"), text);
            assertTrue(Files.exists(state.resolve("summary.json")), "no summary.json");
            List<ProcessHandle> stack = Files.readAllLines(state.resolve(DemoPlan.PIDS)).stream()
                    .map(l -> ProcessHandle.of(Long.parseLong(l.split(" ")[1])).orElseThrow()).toList();
            assertEquals(3, stack.size(), "master, sidecar, service");
            assertTrue(stack.stream().allMatch(ProcessHandle::isAlive), "the stack died with the driver");
        } finally {
            DriverRun.Result stop = DriverRun.run("demo", List.of("stop", "--state", state.toString()));
            assertTrue(stop.output().contains("[demo] stopped the demo stack (3 processes)"), stop.output());
        }
        assertFalse(Files.exists(state.resolve(DemoPlan.PIDS)));
        assertTrue(DriverRun.run("demo", List.of("stop", "--state", state.toString())).output()
                .contains("[demo] no demo stack is running"));
    }
}
