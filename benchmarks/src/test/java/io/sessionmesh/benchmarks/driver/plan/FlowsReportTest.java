package io.sessionmesh.benchmarks.driver.plan;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowsReportTest {
    private static final List<String> STACKS = List.of("sessionmesh", "spring-session");

    /** A 10 s window of {@code answers} answers, p99 {@code p99} ms, with these processes' CPU ticks (10 ms each). */
    static FlowResult result(String system, String flow, long answers, double p99, Map<String, Long> ticks) {
        Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
        ticks.keySet().stream().filter(p -> !p.equals("redis")).forEach(p -> threads.put(p, Map.of("jit", 2L, "gc", 1L)));
        return new FlowResult(system, flow, 10.0, answers, 0, 0, null, 1, 2, p99, p99, p99, ticks, threads, 50, 0.5, 0.6,
                ticks.containsKey("sidecar") ? 0.9 : Double.NaN);
    }

    static Map<String, Long> ticks(Object... nameThenTicks) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenTicks.length; i += 2) {
            m.put((String) nameThenTicks[i], ((Number) nameThenTicks[i + 1]).longValue());
        }
        return m;
    }

    @Test
    void cpuMsPerRequest_ticksOverAnswers() {
        // 100 ticks = 1 s of CPU over 2,000 answers = 0.5 ms each
        FlowResult r = result("sessionmesh", "read", 2_000, 5, ticks("service", 100, "sidecar", 20, "master", 4));
        assertEquals(0.5, r.cpuMsPerRequest("service"), 1e-9);
        assertEquals(0.1, r.cpuMsPerRequest("sidecar"), 1e-9);
        assertEquals(0.62, r.stackMsPerRequest(), 1e-9);
        assertEquals(0.25, r.msPerRequest(r.driverTicks()), 1e-9, "the driver is not part of the stack");
        assertEquals(200, r.requestsPerSecond(), 1e-9);
        assertEquals(0.1, r.cores(100), 1e-9);
        assertTrue(Double.isNaN(r.cpuMsPerRequest("redis")));
        assertEquals(0.03, r.jvmThreadMsPerRequest("jit"), 1e-9, "2 ticks in each of 3 JVMs");
    }

    @Test
    void cpuMsPerRequest_noAnswers_notANumber() {
        assertTrue(Double.isNaN(result("sessionmesh", "read", 0, 5, ticks("service", 100)).stackMsPerRequest()));
    }

    @Test
    void derive_ratiosAndSessionCost() {
        List<FlowResult> results = List.of(
                result("sessionmesh", "floor", 10_000, 2, ticks("service", 50, "sidecar", 0, "master", 0)),
                result("sessionmesh", "read", 10_000, 4, ticks("service", 150, "sidecar", 40, "master", 10)),
                result("sessionmesh", "write", 5_000, 10, ticks("service", 100, "sidecar", 40, "master", 10)),
                result("spring-session", "floor", 10_000, 2, ticks("app", 50, "redis", 0)),
                result("spring-session", "read", 4_000, 20, ticks("app", 150, "redis", 10)),
                result("spring-session", "write", 2_000, 40, ticks("app", 150, "redis", 10)));
        Map<String, Object> d = FlowsReport.derive(results);
        // read: SessionMesh 2.0 s of CPU / 10,000 = 0.2 ms; Spring Session 1.6 s / 4,000 = 0.4 ms
        assertEquals(0.5, value(d, "read_cpu_ratio"), 1e-9);
        assertEquals(true, figure(d, "read_cpu_ratio").get("met"));
        assertEquals(2.5, value(d, "read_throughput_ratio"), 1e-9);
        assertEquals(0.2, value(d, "read_p99_ratio"), 1e-9);
        // write: 1.5 s / 5,000 = 0.3 ms against 1.6 s / 2,000 = 0.8 ms
        assertEquals(0.375, value(d, "write_cpu_ratio"), 1e-9);
        // service on read 0.15 ms, on the floor 0.05 ms
        assertEquals(0.1, value(d, "sessionmesh_read_session_cost_ms"), 1e-9);
        assertEquals(true, figure(d, "sessionmesh_read_session_cost_ms").get("met"));
        assertEquals(0.325, value(d, "spring-session_read_session_cost_ms"), 1e-9);
        String table = FlowsReport.markdown(results, d);
        assertTrue(table.contains("| sessionmesh | read | 1000 |"), table);
        assertTrue(table.contains("| read_cpu_ratio | 0.500 | <= 0.5 | true |"), table);
    }

    @Test
    void derive_oneSystemOnly_noRatios() {
        Map<String, Object> d = FlowsReport.derive(List.of(
                result("sessionmesh", "read", 10_000, 4, ticks("service", 150)),
                result("sessionmesh", "floor", 10_000, 4, ticks("service", 50))));
        assertFalse(d.containsKey("read_cpu_ratio"));
        assertEquals(0.1, value(d, "sessionmesh_read_session_cost_ms"), 1e-9);
    }

    @Test
    void derive_dropIn_prefixedWithItsName_andTheHitRatioInTheTable() {
        List<FlowResult> results = List.of(
                result("drop-in", "read", 8_000, 5, ticks("service", 100, "sidecar", 20, "master", 4)),
                result("spring-session", "read", 4_000, 20, ticks("app", 150, "redis", 10)));
        Map<String, Object> d = FlowsReport.derive(results);
        // the drop-in: 1.24 s of CPU / 8,000 = 0.155 ms; Spring Session 1.6 s / 4,000 = 0.4 ms
        assertEquals(0.3875, value(d, "drop-in_read_cpu_ratio"), 1e-9);
        assertFalse(d.containsKey("read_cpu_ratio"), "no sessionmesh system ran");
        String table = FlowsReport.markdown(results, d);
        assertTrue(table.contains("| 0 | 90.0% | 0.125 |"), table);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> figure(Map<String, Object> derived, String name) {
        return (Map<String, Object>) derived.get(name);
    }

    static double value(Map<String, Object> derived, String name) {
        return (Double) figure(derived, name).get("value");
    }

    /** One round of SessionMesh and Spring Session on the write flow: SessionMesh's stack spends {@code smTicks} ticks. */
    @Test
    void derive_namedStacks_eachOverTheRunsFirst_flowByFlow() {
        List<FlowResult> results = List.of(
                result("before", "write", 5_000, 10, ticks("service", 100, "sidecar", 40, "master", 10)),
                result("after", "write", 6_000, 8, ticks("service", 100, "sidecar", 40, "master", 4)),
                result("before", "read", 10_000, 4, ticks("service", 150, "sidecar", 40, "master", 0)));
        Map<String, Object> d = FlowsReport.derive(results);
        // write: before 1.5 s / 5,000 = 0.3 ms a request; after 1.44 s / 6,000 = 0.24 ms
        assertEquals(0.8, value(d, "after_over_before_write_cpu_ratio"), 1e-9);
        assertEquals(1.2, value(d, "after_over_before_write_throughput_ratio"), 1e-9);
        assertEquals(0.8, value(d, "after_over_before_write_p99_ratio"), 1e-9);
        assertFalse(d.containsKey("after_over_before_read_cpu_ratio"), "no read of after to compare");
        assertFalse(d.containsKey("write_cpu_ratio"), "no Spring Session in the run");
        // the turn rotates within a round: the base is the first of --systems, whichever was measured first
        List<FlowResult> rotated = List.of(results.get(1), results.get(0));
        assertEquals(0.8, value(FlowsReport.derive(rotated, List.of("before", "after")), "after_over_before_write_cpu_ratio"), 1e-9);
        assertFalse(FlowsReport.derive(rotated, List.of("before", "after")).containsKey("before_over_after_write_cpu_ratio"));
    }

    private static List<FlowResult> writeRound(long smTicks) {
        return List.of(result("sessionmesh", "write", 5_000, 10, ticks("service", smTicks, "sidecar", 0, "master", 0)),
                result("spring-session", "write", 2_000, 40, ticks("app", 160, "redis", 0)));
    }

    @Test
    void median_ofRounds_isTheMiddleValue_andJudgedByIt() {
        // write CPU ratios: 0.3 ms / 0.8 ms = 0.375; 0.46 / 0.8 = 0.575; 0.36 / 0.8 = 0.45
        List<Map<String, Object>> rounds = List.of(FlowsReport.derive(writeRound(150)),
                FlowsReport.derive(writeRound(230)), FlowsReport.derive(writeRound(180)));
        assertEquals(false, figure(rounds.get(1), "write_cpu_ratio").get("met"));
        Map<String, Object> m = FlowsReport.median(rounds);
        assertEquals(0.45, value(m, "write_cpu_ratio"), 1e-9);
        assertEquals(true, figure(m, "write_cpu_ratio").get("met"), "judged by the median, not by the worst round");
        @SuppressWarnings("unchecked")
        List<Double> each = (List<Double>) figure(m, "write_cpu_ratio").get("rounds");
        assertEquals(3, each.size());
        assertEquals(0.375, each.get(0), 1e-9, "every round's value, in the rounds' order");
        assertEquals(0.575, each.get(1), 1e-9);
        assertEquals(0.45, each.get(2), 1e-9);
        assertEquals("<= 0.5", figure(m, "write_cpu_ratio").get("target"));
    }

    @Test
    void median_ofAnEvenCount_isTheMeanOfTheMiddleTwo_andAFigureWithoutTargetStaysWithout() {
        List<Map<String, Object>> rounds = List.of(
                Map.of("write_cpu_ratio", Map.of("value", 0.4, "target", "<= 0.5", "met", true),
                        "spring-session_read_session_cost_ms", Map.of("value", 0.3)),
                Map.of("write_cpu_ratio", Map.of("value", 0.7, "target", "<= 0.5", "met", false),
                        "spring-session_read_session_cost_ms", Map.of("value", 0.2)));
        Map<String, Object> m = FlowsReport.median(rounds);
        assertEquals(0.55, value(m, "write_cpu_ratio"), 1e-9);
        assertEquals(false, figure(m, "write_cpu_ratio").get("met"));
        assertEquals(0.25, value(m, "spring-session_read_session_cost_ms"), 1e-9);
        assertFalse(figure(m, "spring-session_read_session_cost_ms").containsKey("met"));
    }

    @Test
    void markdown_ofRounds_headsEachRound_andListsTheMedianWithEveryRound() {
        String table = FlowsReport.markdown(List.of(writeRound(150), writeRound(230), writeRound(180)), STACKS);
        assertTrue(table.contains("### Round 1"), table);
        assertTrue(table.contains("### Round 3"), table);
        assertTrue(table.contains("| write_cpu_ratio | 0.450 | 0.375 / 0.575 / 0.450 | <= 0.5 | true |"), table);
        assertFalse(FlowsReport.markdown(List.of(writeRound(150)), STACKS).contains("### Round"), "one round: one table, as before");
    }
}
