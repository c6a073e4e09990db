package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.stack.Stack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The flows plan's results and the figures issue 18's "done when" is judged on, derived from them: for the write and
 * the read flow, each SessionMesh system over Spring Session for CPU per request (whole stack), throughput and p99 (the
 * TCP system's figures unprefixed, the others' prefixed with their name); and the service-side cost of sessions on
 * the read flow (the service's CPU per request on the read flow minus on the floor,
 * which does the same HTTP, MVC and JSON work with no session). With named stacks ({@code --systems name=...}), each
 * stack over the run's first too, flow by flow (CPU per request, throughput, p99): a before/after or an A/B in one run.
 * A figure whose inputs were not measured (a system or flow left out) is absent. With several rounds ({@code --rounds}) the figures are derived for each round and judged
 * by their median ({@link #median}).
 *
 * <table>
 *   <caption>Targets (issue 18)</caption>
 *   <tr><th>figure</th><th>target</th></tr>
 *   <tr><td>CPU per request, whole stack, SessionMesh / Spring Session</td><td>&lt;= {@value #CPU_RATIO_TARGET}</td></tr>
 *   <tr><td>service-side session cost, read</td><td>&lt;= {@value #SESSION_COST_TARGET_MS} ms</td></tr>
 *   <tr><td>throughput, SessionMesh / Spring Session</td><td>&gt;= {@value #THROUGHPUT_RATIO_TARGET}</td></tr>
 *   <tr><td>p99, SessionMesh / Spring Session</td><td>&lt;= {@value #P99_RATIO_TARGET}</td></tr>
 * </table>
 */
final class FlowsReport {
    /** The most SessionMesh's whole-stack CPU per request may be, as a share of Spring Session's. */
    static final double CPU_RATIO_TARGET = 0.5;
    /** The most sessions may cost the service per read request, in CPU ms over the floor. */
    static final double SESSION_COST_TARGET_MS = 0.15;
    /** The least SessionMesh's throughput may be, as a multiple of Spring Session's. */
    static final double THROUGHPUT_RATIO_TARGET = 2.0;
    /** The most SessionMesh's p99 may be, as a share of Spring Session's. */
    static final double P99_RATIO_TARGET = 0.5;
    private FlowsReport() {
    }

    /** As {@link #derive(List, List)}, the stacks in the order the results first name them. */
    static Map<String, Object> derive(List<FlowResult> results) {
        return derive(results, results.stream().map(FlowResult::system).distinct().toList());
    }

    /**
     * The derived figures, by name; each with its value, its target and whether it is met. {@code stacks}: the run's
     * stacks in {@code --systems} order (the turn rotates within a round, so the results' order is not theirs).
     */
    static Map<String, Object> derive(List<FlowResult> results, List<String> stacks) {
        Map<String, Object> d = new LinkedHashMap<>();
        for (String system : List.of(Stack.SESSIONMESH, Stack.SESSIONMESH_UNIX, Stack.DROP_IN)) {
            // the TCP system's keys as they always were; the others' prefixed with their name
            String prefix = system.equals(Stack.SESSIONMESH) ? "" : system + "_";
            for (String flow : List.of("write", "read")) {
                FlowResult sm = find(results, system, flow);
                FlowResult ss = find(results, Stack.SPRING_SESSION, flow);
                if (sm != null && ss != null) {
                    d.put(prefix + flow + "_cpu_ratio", figure(sm.stackMsPerRequest() / ss.stackMsPerRequest(), "<=",
                            CPU_RATIO_TARGET));
                    d.put(prefix + flow + "_throughput_ratio", figure(sm.requestsPerSecond() / ss.requestsPerSecond(), ">=",
                            THROUGHPUT_RATIO_TARGET));
                    d.put(prefix + flow + "_p99_ratio", figure(sm.p99Ms() / ss.p99Ms(), "<=", P99_RATIO_TARGET));
                }
            }
        }
        // named stacks (two builds or two settings side by side): each over the run's first stack, flow by flow
        if (!stacks.isEmpty() && stacks.stream().anyMatch(name -> !Stack.SYSTEMS.contains(name))) {
            String first = stacks.get(0);
            for (FlowResult r : results) {
                FlowResult base = find(results, first, r.flow());
                if (!r.system().equals(first) && base != null) {
                    String key = r.system() + "_over_" + first + "_" + r.flow();
                    d.put(key + "_cpu_ratio", Map.of("value", r.stackMsPerRequest() / base.stackMsPerRequest()));
                    d.put(key + "_throughput_ratio", Map.of("value", r.requestsPerSecond() / base.requestsPerSecond()));
                    d.put(key + "_p99_ratio", Map.of("value", r.p99Ms() / base.p99Ms()));
                }
            }
        }
        for (String system : Stack.SYSTEMS) {
            FlowResult read = find(results, system, "read");
            FlowResult floor = find(results, system, "floor");
            if (read != null && floor != null) {
                String front = Stack.front(system);
                double cost = read.cpuMsPerRequest(front) - floor.cpuMsPerRequest(front);
                d.put(system + "_read_session_cost_ms", Stack.onSessionMesh(system)
                        ? figure(cost, "<=", SESSION_COST_TARGET_MS) : Map.of("value", cost));
            }
        }
        return d;
    }

    private static Map<String, Object> figure(double value, String op, double target) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("value", value);
        m.put("target", op + " " + target);
        m.put("met", op.equals("<=") ? value <= target : value >= target);
        return m;
    }

    static FlowResult find(List<FlowResult> results, String system, String flow) {
        return results.stream().filter(r -> r.system().equals(system) && r.flow().equals(flow)).findFirst().orElse(null);
    }

    /** The results as a markdown table, then the derived figures. */
    static String markdown(List<FlowResult> results, Map<String, Object> derived) {
        StringBuilder b = new StringBuilder();
        b.append("| system | flow | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | errors | hit ratio | CPU ms/req: "
                + "service or app | sidecar | master | redis | whole stack | of which JIT | GC | driver | load avg |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (FlowResult r : results) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %d | %s | %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f-%.1f |%n",
                    r.system(), r.flow(), r.requestsPerSecond(), r.p50Ms(), r.p90Ms(), r.p99Ms(), r.p999Ms(), r.maxMs(),
                    r.errors(), Double.isNaN(r.hitRatio()) ? "" : Report.f(100 * r.hitRatio(), 1) + "%",
                    ms(r.cpuMsPerRequest(Stack.front(r.system()))), ms(r.cpuMsPerRequest("sidecar")),
                    ms(r.cpuMsPerRequest("master")), ms(r.cpuMsPerRequest("redis")), r.stackMsPerRequest(),
                    r.jvmThreadMsPerRequest("jit"), r.jvmThreadMsPerRequest("gc"), r.msPerRequest(r.driverTicks()), r.loadAverageStart(), r.loadAverageEnd()));
        }
        if (!derived.isEmpty()) {
            b.append("\n| derived (issue 18) | value | target | met |\n|---|---:|---|---|\n");
            derived.forEach((name, v) -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> f = (Map<String, Object>) v;
                b.append(String.format(Locale.ROOT, "| %s | %.3f | %s | %s |%n", name, (Double) f.get("value"),
                        f.getOrDefault("target", ""), f.getOrDefault("met", "")));
            });
        }
        return b.toString();
    }

    /**
     * The derived figures of several rounds as one: each figure's median over the rounds that have it (the middle
     * value; the mean of the two middle ones for an even count), judged against its target by that median, with every
     * round's value beside it.
     */
    static Map<String, Object> median(List<Map<String, Object>> rounds) {
        Map<String, List<Double>> values = new LinkedHashMap<>();
        Map<String, String> targets = new LinkedHashMap<>();
        for (Map<String, Object> round : rounds) {
            round.forEach((name, v) -> {
                Map<String, Object> f = figureOf(v);
                values.computeIfAbsent(name, k -> new ArrayList<>()).add((Double) f.get("value"));
                if (f.get("target") != null) {
                    targets.put(name, (String) f.get("target"));
                }
            });
        }
        Map<String, Object> d = new LinkedHashMap<>();
        values.forEach((name, list) -> {
            List<Double> sorted = list.stream().sorted().toList();
            int n = sorted.size();
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            String target = targets.get(name);
            Map<String, Object> f;
            if (target == null) {
                f = new LinkedHashMap<>(Map.of("value", median));
            } else {
                String[] opAndValue = target.split(" ");
                f = figure(median, opAndValue[0], Double.parseDouble(opAndValue[1]));
            }
            f.put("rounds", list);
            d.put(name, f);
        });
        return d;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> figureOf(Object v) {
        return (Map<String, Object>) v;
    }

    /** Every round's table and derived figures (headed by its number when there are several), then their medians. */
    static String markdown(List<List<FlowResult>> rounds, List<String> stacks) {
        return markdownOf(rounds, rounds.stream().map(r -> derive(r, stacks)).toList());
    }

    /** As {@link #markdown(List)}, with each round's figures already derived. */
    private static String markdownOf(List<List<FlowResult>> rounds, List<Map<String, Object>> derived) {
        if (rounds.size() == 1) {
            return markdown(rounds.get(0), derived.get(0));
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rounds.size(); i++) {
            b.append("### Round ").append(i + 1).append("\n\n").append(markdown(rounds.get(i), derived.get(i))).append('\n');
        }
        Map<String, Object> median = median(derived);
        if (!median.isEmpty()) {
            b.append("### Median of the ").append(rounds.size()).append(" rounds\n\n")
                    .append("| derived (issue 18) | median | each round | target | met |\n|---|---:|---|---|---|\n");
            median.forEach((name, v) -> {
                Map<String, Object> f = figureOf(v);
                @SuppressWarnings("unchecked")
                List<Double> each = (List<Double>) f.get("rounds");
                b.append(String.format(Locale.ROOT, "| %s | %.3f | %s | %s | %s |%n", name, (Double) f.get("value"),
                        String.join(" / ", each.stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).toList()),
                        f.getOrDefault("target", ""), f.getOrDefault("met", "")));
            });
        }
        return b.toString();
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    /**
     * Puts into {@code report} every result with its round, each round's derived figures (with several), the derived
     * figures (the one round's, or the rounds' medians), and the tables.
     */
    static void write(Report report, List<List<FlowResult>> rounds, List<String> stacks) {
        List<Object> results = new ArrayList<>();
        List<Map<String, Object>> derivedByRound = new ArrayList<>();
        for (int i = 0; i < rounds.size(); i++) {
            for (FlowResult r : rounds.get(i)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("round", i + 1);
                m.putAll(r.describe());
                results.add(m);
            }
            derivedByRound.add(derive(rounds.get(i), stacks));
        }
        report.put("results", results);
        if (rounds.size() > 1) {
            report.put("derived_by_round", derivedByRound);
        }
        report.put("derived", rounds.size() == 1 ? derivedByRound.get(0) : median(derivedByRound));
        report.text(markdownOf(rounds, derivedByRound));
    }
}
