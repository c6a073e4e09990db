package io.sessionmesh.benchmarks.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator's short mode, as a smoke test: every system in both modes completes with no error, and the
 * counters agree with what the workload does (no timing is asserted). Needs Redis on 127.0.0.1:6379.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LoadGeneratorIT {
    static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    @Test
    void shortRun_everySystemAndMode_completesWithConsistentCounters(@TempDir Path out) throws Exception {
        LoadOptions o = LoadOptions.parse("--short", "--out", out.toString(),
                "--master-jar", System.getProperty("master.jar"), "--sidecar-jar", System.getProperty("sidecar.jar"));
        List<PhaseResult> results = LoadGenerator.run(o);

        assertEquals(6, results.size(), "three systems in two modes");
        for (PhaseResult r : results) {
            String what = r.system + " " + r.mode + ": ";
            assertEquals(0, r.errors, what + r.lastError);
            assertEquals(0, r.dropped, what + "requests dropped");
            assertTrue(r.requests > 0, what + "no request completed");
            assertEquals(r.requests, r.requestLatency().getTotalCount());
            // Every request is two service steps, each with one read, recorded in the same interval as the request.
            assertEquals(2 * r.requests, r.latency.get("read").getTotalCount(), what + "reads");
            assertEquals(2 * r.requests, r.latency.get("step").getTotalCount(), what + "steps");
            // Counters are read apart from the histograms: requests in flight at either end may fall on one side.
            long concurrency = r.mode.equals("closed") ? o.users() : o.workers();
            StoreUnderTest.Counters c = r.counters;
            assertTrue(c.clientRoundTrips() >= 2 * (r.requests - concurrency), what + "fewer round trips than reads: " + c);
            assertTrue(c.clientBytesSent() > 0 && c.clientBytesReceived() > 0, what + c);
            if (r.system.startsWith("sessionmesh")) {
                // One call per read, one per save that sent something, one per login (plus schema calls).
                long saves = r.latency.get("save").getTotalCount();
                long logins = r.latency.get("login").getTotalCount();
                assertTrue(c.clientRoundTrips() >= 2 * (r.requests - concurrency) + saves - concurrency, what + c);
                assertTrue(c.reads() >= 2 * (r.requests - concurrency) && c.hits() <= c.reads(), what + c);
                assertTrue(c.backendRoundTrips() >= saves + logins - concurrency, what + "every save and login goes to the master: " + c);
                assertTrue(c.backendBytesSent() > 0 && c.backendBytesReceived() > 0, what + c);
                assertTrue(r.hitRatioPerSecond.size() == r.throughputPerSecond.size(), what + "a hit ratio every second");
                // every process of the system worked during the phase, and its CPU was counted
                assertEquals(java.util.Set.of("generator", "master", "sidecars"), r.cpuNanos.keySet(), what + r.cpuNanos);
                r.cpuNanos.forEach((k, v) -> assertTrue(v > 0, what + k + " used no CPU: " + r.cpuNanos));
                // Every read the sidecars did not serve wholly from the cache is counted under one cause.
                long byCause = r.cacheFigures.entrySet().stream().filter(e -> e.getKey().startsWith("read_miss."))
                        .mapToLong(java.util.Map.Entry::getValue).sum();
                long missed = r.cacheFigures.get("reads") - r.cacheFigures.get("hits");
                assertTrue(Math.abs(byCause - missed) <= concurrency, what + "misses by cause do not add up: " + r.cacheFigures);
            } else {
                assertEquals(java.util.Set.of("generator", "redis"), r.cpuNanos.keySet(), what + r.cpuNanos);
                assertTrue(r.cpuNanos.get("generator") > 0, what + r.cpuNanos);
                assertEquals(0, c.backendRoundTrips(), what + "Redis has no second link");
                // findById and save at least, every step.
                assertTrue(c.clientRoundTrips() >= 4 * (r.requests - concurrency), what + c);
            }
        }
        for (String mode : List.of("closed", "open")) {
            PhaseResult binary = find(results, "sessionmesh-binary", mode);
            PhaseResult json = find(results, "sessionmesh-json", mode);
            PhaseResult redis = find(results, "spring-session-redis", mode);
            assertTrue(perRequest(json) > perRequest(binary), mode + ": JSON (base64) carried fewer bytes than binary");
            assertTrue(perRequest(redis) > perRequest(binary), mode + ": Redis (every attribute, every request) carried fewer bytes");
        }
        assertEquals(50, find(results, "spring-session-redis", "open").offeredRate);

        JsonNode doc = new ObjectMapper().readTree(out.resolve(LoadGenerator.RESULT_FILE).toFile());
        assertEquals(6, doc.path("results").size());
        for (JsonNode chart : doc.path("charts")) {
            byte[] png = Files.readAllBytes(out.resolve(chart.asText()));
            assertTrue(png.length > 1000, chart.asText());
            assertArrayEquals(PNG_MAGIC, java.util.Arrays.copyOf(png, 4), chart.asText() + " is not a PNG");
        }
        assertEquals(List.of("latency-closed.png", "latency-open.png", "throughput.png", "hit-ratio.png"),
                new ObjectMapper().convertValue(doc.path("charts"), List.class));
    }

    private static double perRequest(PhaseResult r) {
        return (double) (r.counters.clientBytesSent() + r.counters.clientBytesReceived()) / r.requests;
    }

    private static PhaseResult find(List<PhaseResult> results, String system, String mode) {
        return results.stream().filter(r -> r.system.equals(system) && r.mode.equals(mode)).findFirst().orElseThrow();
    }
}
