package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.benchmarks.driver.DriverRun;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plan scale, short: a master the plan starts, a steady state of a few hundred sessions, its memory and GC figures. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ScalePlanIT {
    @Test
    void shortSteadyRun_heapPerSessionGcPausesAndNoError(@TempDir Path out) throws Exception {
        DriverRun.Result r = DriverRun.run("scale", List.of("--rate", "200", "--idle", "2s", "--window", "3s",
                "--mix-rate", "200", "--sample", "1s", "--master-jvm=-Xms256m -Xmx256m -XX:+UseG1GC",
                "--master-flags=--max-store 64m", "--out", out.toString()));
        assertEquals(0, r.status(), r.output());

        JsonNode doc = DriverRun.json(out.resolve("scale.json"));
        JsonNode window = doc.path("window");
        assertTrue(window.path("creates").asLong() > 300, window.toString());
        assertEquals(0, window.path("errorCount").asLong(), window.path("errors").toString());
        assertTrue(window.path("latencyMicrosFromIntended").path("read").path("count").asLong() > 0, window.toString());
        JsonNode memory = doc.path("memory");
        assertTrue(memory.path("heapPerSession").asDouble() > 0 && memory.path("rssPerSession").asDouble() > 0,
                memory.toString());
        assertTrue(doc.path("gc").path("run").path("pauses").path("count").asLong() > 0, "no GC pause in the log: "
                + doc.path("gc"));
        String md = Files.readString(out.resolve("scale.md"));
        assertTrue(md.contains("HEAP / PAYLOAD"), md);
        assertTrue(Files.size(out.resolve("gc.log")) > 0 && Files.exists(out.resolve("master.log")));
    }
}
