package io.sessionmesh.benchmarks.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {
    @Test
    void write_jsonAndMarkdownSideBySide(@TempDir Path dir) throws Exception {
        Report r = Report.stamped("Plan x").put("options", Map.of("sessions", 10)).put("machine", Report.machine());
        r.heading("Results").table(List.of("system", "req/s", "p99 ms"),
                List.of(List.of("sessionmesh", Report.f(1234.5, 0), Report.f(1.234, 2)), List.of("spring-session", "", "9.00")));
        Path json = r.write(dir, "x");
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertEquals(10, doc.path("options").path("sessions").asInt());
        assertTrue(doc.path("machine").path("cores").asInt() > 0);
        assertTrue(doc.has("when"));
        String md = Files.readString(dir.resolve("x.md"));
        assertTrue(md.startsWith("# Plan x\n\n## Results\n\n| system | req/s | p99 ms |\n|---|---:|---:|\n"), md);
        assertTrue(md.contains("| sessionmesh | 1,235 | 1.23 |"), md);
    }

    @Test
    void latencyMs_percentilesOfMicroseconds_emptyIsNotANumber() {
        Histogram h = new Histogram(60_000_000, 3);
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 10L);
        }
        Map<String, Object> m = Report.latencyMs(h);
        assertEquals(1000L, m.get("count"));
        assertEquals(5.0, (Double) m.get("p50"), 0.01);
        assertEquals(10.0, (Double) m.get("max"), 0.01);
        assertTrue(Double.isNaN(Report.ms(new Histogram(3), 50)));
        assertEquals("", Report.f(Double.NaN, 2));
    }
}
