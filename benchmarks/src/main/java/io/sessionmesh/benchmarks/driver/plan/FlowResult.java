package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured window of one flow on one system: the answers, their latency, the sidecars' hit ratio, and the CPU each
 * process of the stack spent meanwhile by its own counters (ticks of {@link ProcessCpu#TICKS_PER_SECOND} a second, read
 * at the window's start and end). CPU per request is a process's CPU over every answer of the window, errors included
 * (they were served too, and are reported beside).
 *
 * @param processTicks the stack's processes by role in the order shown (service or app first), CPU in the window
 * @param threadTicks of those, the JVMs': CPU in the window of their JIT compiler threads ({@code jit}) and of their
 *                    collector and VM threads ({@code gc}), part of the process's figure (a floor: see
 *                    {@link ProcessCpu#jvmThreadTicks})
 * @param driverTicks the load generator's own CPU in the window (not part of the stack)
 * @param hitRatio    reads the sidecars answered wholly from their caches, of all their reads (NaN without sidecars or
 *                    reads)
 */
record FlowResult(String system, String flow, double seconds, long answers, long errors, long reconnects, String firstError,
                  double p50Ms, double p90Ms, double p99Ms, double p999Ms, double maxMs, Map<String, Long> processTicks,
                  Map<String, Map<String, Long>> threadTicks, long driverTicks, double loadAverageStart,
                  double loadAverageEnd, double hitRatio) {

    /** A result from a window's histogram (microseconds), its CPU and its counters. */
    static FlowResult of(String system, String flow, double seconds, long answers, long errors, long reconnects,
                         String firstError, Histogram micros, ProcessCpu.Snapshot cpu, double loadStart, double loadEnd,
                         double hitRatio) {
        return new FlowResult(system, flow, seconds, answers, errors, reconnects, firstError,
                micros.getValueAtPercentile(50) / 1e3, micros.getValueAtPercentile(90) / 1e3,
                micros.getValueAtPercentile(99) / 1e3, micros.getValueAtPercentile(99.9) / 1e3, micros.getMaxValue() / 1e3,
                cpu.ticks(), cpu.threadTicks(), cpu.driverTicks(), loadStart, loadEnd, hitRatio);
    }

    /** Answers a second. */
    double requestsPerSecond() {
        return answers / seconds;
    }

    /** Milliseconds of CPU per answer of {@code ticks}; NaN with no answer. */
    double msPerRequest(long ticks) {
        return answers == 0 ? Double.NaN : ProcessCpu.micros(ticks) / 1e3 / answers;
    }

    /** CPU ms per request of each process of the stack. */
    Map<String, Double> cpuMsPerRequest() {
        Map<String, Double> m = new LinkedHashMap<>();
        processTicks.forEach((process, ticks) -> m.put(process, msPerRequest(ticks)));
        return m;
    }

    /** CPU ms per request of one process; NaN when the stack has no process of that name. */
    double cpuMsPerRequest(String process) {
        Long ticks = processTicks.get(process);
        return ticks == null ? Double.NaN : msPerRequest(ticks);
    }

    /** CPU ms per request of the whole stack (every process but the driver). */
    double stackMsPerRequest() {
        return msPerRequest(processTicks.values().stream().mapToLong(Long::longValue).sum());
    }

    /** CPU ms per request of one kind of JVM thread ({@code jit} or {@code gc}) over the stack's JVMs. */
    double jvmThreadMsPerRequest(String kind) {
        return msPerRequest(threadTicks.values().stream().mapToLong(k -> k.getOrDefault(kind, 0L)).sum());
    }

    /** Cores the process kept busy in the window, on average. */
    double cores(long ticks) {
        return ticks / (double) ProcessCpu.TICKS_PER_SECOND / seconds;
    }

    /** Everything, for the JSON file. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("system", system);
        m.put("flow", flow);
        m.put("seconds", seconds);
        m.put("answers", answers);
        m.put("requests_per_s", requestsPerSecond());
        m.put("errors", errors);
        m.put("reconnects", reconnects);
        if (firstError != null) {
            m.put("first_error", firstError);
        }
        Map<String, Double> latency = new LinkedHashMap<>();
        latency.put("p50", p50Ms);
        latency.put("p90", p90Ms);
        latency.put("p99", p99Ms);
        latency.put("p99.9", p999Ms);
        latency.put("max", maxMs);
        m.put("latency_ms", latency);
        if (!Double.isNaN(hitRatio)) {
            m.put("hit_ratio", hitRatio);
        }
        m.put("cpu_ms_per_request", cpuMsPerRequest());
        m.put("cpu_ms_per_request_stack", stackMsPerRequest());
        m.put("cpu_ms_per_request_driver", msPerRequest(driverTicks));
        Map<String, Object> threads = new LinkedHashMap<>();
        threadTicks.forEach((process, kinds) -> {
            Map<String, Double> perKind = new LinkedHashMap<>();
            kinds.forEach((kind, ticks) -> perKind.put(kind, msPerRequest(ticks)));
            threads.put(process, perKind);
        });
        m.put("cpu_ms_per_request_jvm_threads", threads);
        Map<String, Object> cores = new LinkedHashMap<>();
        processTicks.forEach((process, ticks) -> cores.put(process, cores(ticks)));
        cores.put("driver", cores(driverTicks));
        m.put("cores_busy", cores);
        m.put("cpu_ticks", processTicks);
        m.put("jvm_thread_ticks", threadTicks);
        m.put("driver_ticks", driverTicks);
        Map<String, Double> load = new LinkedHashMap<>();
        load.put("start", loadAverageStart);
        load.put("end", loadAverageEnd);
        m.put("load_average_1m", load);
        return m;
    }
}
