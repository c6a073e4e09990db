package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverRun;
import io.sessionmesh.benchmarks.driver.stack.Redis;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plan flows, short: SessionMesh and Spring Session (on the local Redis) as processes, the floor and the write flow,
 * every figure there and Redis left without the run's keys. Needs Redis on 127.0.0.1:6379 and redis-benchmark.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FlowsPlanIT {
    @Test
    void shortRun_bothSystems_answersCpuByProcessHitRatioAndRatios(@TempDir Path out) throws Exception {
        List<String> flags = new ArrayList<>(List.of("--systems", "sessionmesh,spring-session", "--flows", "floor,write",
                "--sessions", "20", "--connections", "4", "--warmup", "1s", "--duration", "2s", "--prewarm", "false",
                "--out", out.toString()));
        flags.addAll(DriverRun.SMALL_JVMS);
        DriverRun.Result r = DriverRun.run("flows", flags);
        assertEquals(0, r.status(), r.output());

        JsonNode doc = DriverRun.json(out.resolve("flows.json"));
        assertTrue(doc.path("machine").path("loopback_floor_us").path("p50").asDouble() > 0, doc.path("machine").toString());
        assertTrue(doc.path("machine").path("redis").asText().matches("\\d+\\..*"), doc.path("machine").toString());
        assertEquals(4, doc.path("results").size(), r.output());
        for (JsonNode result : doc.path("results")) {
            String what = result.path("system").asText() + " " + result.path("flow").asText() + ": ";
            assertTrue(result.path("answers").asLong() > 0, what + result);
            assertEquals(0, result.path("errors").asLong(), what + result.path("first_error"));
            JsonNode cpu = result.path("cpu_ms_per_request");
            boolean sm = result.path("system").asText().equals("sessionmesh");
            for (String role : sm ? List.of("service", "sidecar", "master") : List.of("app", "redis")) {
                assertTrue(cpu.has(role), what + "no CPU figure of the " + role + ": " + cpu);
            }
            assertTrue(cpu.path(sm ? "service" : "app").asDouble() > 0, what + cpu);
            assertTrue(result.path("cpu_ms_per_request_jvm_threads").has(sm ? "service" : "app"), what + result);
            if (sm && result.path("flow").asText().equals("write")) {
                assertTrue(result.path("hit_ratio").asDouble() > 0.5, what + "the sidecar served few reads: " + result);
            }
        }
        assertTrue(doc.path("derived").has("write_cpu_ratio"), doc.path("derived").toString());
        assertTrue(Files.readString(out.resolve("flows.md")).contains("| sessionmesh | write |"));
        assertTrue(Files.exists(out.resolve("sessionmesh/service.log")) && Files.exists(out.resolve("spring-session/app.log")));
        assertEquals(0, new Redis(new InetSocketAddress("127.0.0.1", 6379), 12, Redis.NAMESPACE).deleteKeys(),
                "the run left keys in Redis");
    }
}
