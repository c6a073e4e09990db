package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.load.HttpLoad;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.driver.measure.StackCounters;
import io.sessionmesh.settings.Settings;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's summary: the lines the README test reads, in the README's shape. */
class DemoSummaryTest {
    static MixRun.Result result(Map<String, Long> errors) {
        Map<String, Histogram> kinds = new TreeMap<>();
        Histogram all = new Histogram(HttpLoad.MAX_MICROS, 3);
        long[] counts = {5000, 4000, 2000, 1500, 1500, 10};
        String[] names = {"offer", "cards", "deposits", "draft", "limit", "login"};
        for (int i = 0; i < names.length; i++) {
            Histogram h = new Histogram(HttpLoad.MAX_MICROS, 3);
            for (int n = 0; n < counts[i]; n++) {
                h.recordValue(1000 + n % 500);
            }
            kinds.put(names[i], h);
            all.add(h);
        }
        StackCounters.Snapshot c = new StackCounters.Snapshot(12_000, 10, 5, 24_000, 30, 3_000, 0, 0, 14_000, 0, 0,
                5 << 20, 35 << 20, Map.of(), Map.of());
        ProcessCpu.Snapshot cpu = new ProcessCpu.Snapshot(Map.of(), Map.of(), 0);
        return new MixRun.Result(60.0, all, kinds, c, cpu, errors, 0, 0, 0);
    }

    static DriverOptions.Demo options() {
        Settings s = Settings.fromArgs();
        return DriverOptions.Demo.read(s);
    }

    @Test
    void text_theReadmeTestsLines_pagesInTheirOrder() {
        String text = new DemoSummary(options(), result(Map.of())).text();
        assertTrue(text.startsWith("SessionMesh demo summary (60 s measured, 550 sessions, 4 users, after 5 s of warm-up)\n"),
                text);
        assertTrue(Pattern.compile("end-user requests +14,010 \\(234/s\\), errors 0\\n").matcher(text).find(), text);
        assertTrue(Pattern.compile("sidecar hit ratio +99\\.9% of reads").matcher(text).find(), text);
        assertTrue(Pattern.compile("master round trips +0\\.214 per request").matcher(text).find(), text);
        assertTrue(text.contains("bytes saved by deltas  5.0 MB sent where whole sections would be 35.0 MB: 85.7% saved"),
                text);
        assertTrue(text.indexOf("    offer     GET /deposits/offer ") < text.indexOf("    cards     GET /cards ")
                && text.indexOf("    limit     PUT /cards/limit ") < text.indexOf("    login     POST /deposits/login/"), text);
        assertTrue(text.contains("p50   1.25 ms"), text);
    }

    @Test
    void text_errors_countedAndNamed() {
        String text = new DemoSummary(options(), result(Map.of("draft 500", 3L))).text();
        assertTrue(text.contains("errors 3 {draft 500=3}"), text);
    }

    @Test
    void json_theSummaryFilesFields() {
        Map<String, Object> doc = new DemoSummary(options(), result(Map.of())).json();
        assertEquals(List.of("seconds", "sessions", "users", "requests", "requests_per_second", "p50_ms", "p99_ms", "p999_ms",
                "max_ms", "by_request", "hit_ratio", "section_hit_ratio", "master_calls", "master_round_trips_per_request",
                "sidecar_calls_per_request", "delta_bytes", "whole_section_bytes", "errors"), List.copyOf(doc.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> kinds = (Map<String, Map<String, Object>>) doc.get("by_request");
        assertEquals(List.of("offer", "cards", "deposits", "draft", "limit", "login"), List.copyOf(kinds.keySet()));
        assertEquals(5000L, kinds.get("offer").get("count"));
    }
}
