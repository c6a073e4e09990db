package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverRun;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plan mix, short: SessionMesh on two hosts, an open loop with sticky routing, the workload's figures there. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MixPlanIT {
    @Test
    void shortOpenLoop_twoHosts_requestsHitRatioRoundTripsDeltasAndCpu(@TempDir Path out) throws Exception {
        List<String> flags = new ArrayList<>(List.of("--systems", "sessionmesh", "--hosts", "2", "--sessions", "100",
                "--rate", "150", "--max-connections", "8", "--warmup", "1s", "--duration", "3s", "--floor", "false",
                "--out", out.toString()));
        flags.addAll(DriverRun.SMALL_JVMS);
        DriverRun.Result r = DriverRun.run("mix", flags);
        assertEquals(0, r.status(), r.output());

        JsonNode s = DriverRun.json(out.resolve("mix.json")).path("results").path("sessionmesh");
        assertTrue(s.path("requests").asLong() > 100, s.toString());
        assertEquals(0, s.path("errors").size(), s.path("errors").toString());
        assertEquals(0, s.path("dropped").asLong());
        assertTrue(s.path("hit_ratio").asDouble() > 0.3, "sticky routing, the sidecars served few reads: " + s);
        assertTrue(s.path("master_round_trips_per_request").asDouble() > 0, s.toString());
        assertTrue(s.path("store_round_trips_per_request").asDouble() > 0.5, s.toString());
        assertTrue(s.path("store_bytes_per_request").path("received").asDouble() > 100, s.toString());
        assertTrue(s.path("master_fence_wait_us_since_start").has("fence_wait_p99_us"), s.toString());
        assertTrue(s.path("delta_bytes").asLong() > 0 && s.path("whole_section_bytes").asLong() > s.path("delta_bytes").asLong(),
                s.toString());
        assertTrue(s.path("master").path("writes").asLong() > 0, s.path("master").toString());
        for (String role : List.of("service", "sidecar", "master")) {
            assertTrue(s.path("cpu_ticks").path(role).asLong() > 0, role + ": " + s.path("cpu_ticks"));
        }
        for (String kind : List.of("offer", "cards", "draft")) {
            assertTrue(s.path("latency_ms_by_kind").path(kind).path("count").asLong() > 0, kind + ": " + s);
        }
        String md = Files.readString(out.resolve("mix.md"));
        assertTrue(md.contains("| sessionmesh |") && md.contains("hit ratio (reads)") && md.contains("store round trips"), md);
        assertTrue(Files.exists(out.resolve("sessionmesh/service-2.log")) && Files.exists(out.resolve("sessionmesh/sidecar-2.log")));
    }
}
