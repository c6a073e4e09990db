package io.sessionmesh.benchmarks.load;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one system did in one mode's measured period: latency by operation, counters, and per-second series. */
final class PhaseResult {
    final String system;
    final String mode;
    /** The offered rate in the open loop, 0 in the closed loop. */
    final int offeredRate;
    final Map<String, Histogram> latency = new TreeMap<>();
    final List<Double> throughputPerSecond = new ArrayList<>();
    final List<Double> hitRatioPerSecond = new ArrayList<>();
    double seconds;
    long requests;
    long errors;
    long dropped;
    long expired;
    String lastError;
    StoreUnderTest.Counters counters;
    /** CPU nanoseconds the phase cost, by process kind ({@link StoreUnderTest#cpuNanos()}). */
    Map<String, Long> cpuNanos = Map.of();
    /** The sidecars' cache figures over the measured period (misses by cause...), empty for other stores. */
    java.util.Map<String, Long> cacheFigures = java.util.Map.of();

    PhaseResult(String system, String mode, int offeredRate) {
        this.system = system;
        this.mode = mode;
        this.offeredRate = offeredRate;
        for (String op : LoadPhase.OPERATIONS) {
            latency.put(op, new Histogram(LoadPhase.MAX_NANOS, 3));
        }
    }

    void add(Map<String, Histogram> interval) {
        interval.forEach((op, h) -> latency.get(op).add(h));
    }

    double throughput() {
        return seconds == 0 ? 0 : requests / seconds;
    }

    Histogram requestLatency() {
        return latency.get("request");
    }

    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : Math.round(h.getValueAtPercentile(percentile) / 1e3) / 1e3;
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("system", system);
        m.put("mode", mode);
        if (offeredRate > 0) {
            m.put("offered_requests_per_s", offeredRate);
        }
        m.put("seconds", Math.round(seconds * 10) / 10.0);
        m.put("requests", requests);
        m.put("requests_per_s", Math.round(throughput() * 10) / 10.0);
        m.put("errors", errors);
        m.put("dropped", dropped);
        m.put("expired_sessions_met", expired);
        if (lastError != null) {
            m.put("last_error", lastError);
        }
        Map<String, Object> ops = new LinkedHashMap<>();
        latency.forEach((op, h) -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("count", h.getTotalCount());
            o.put("per_s", Math.round(h.getTotalCount() / Math.max(seconds, 1e-9) * 10) / 10.0);
            for (double p : new double[] {50, 90, 99, 99.9}) {
                o.put("p" + (p == 99.9 ? "999" : String.valueOf((int) p)) + "_ms", ms(h, p));
            }
            o.put("max_ms", h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1e6);
            ops.put(op, o);
        });
        m.put("latency", ops);
        m.put("per_request", counters.perRequest(requests));
        m.put("cpu_ms_per_request", ProcessCpu.perRequest(cpuNanos, requests));
        double hit = counters.hitRatio();
        if (!Double.isNaN(hit)) {
            m.put("hit_ratio", Math.round(hit * 10_000) / 10_000.0);
        }
        if (!cacheFigures.isEmpty()) {
            m.put("cache_figures", cacheFigures);
        }
        m.put("throughput_per_second", throughputPerSecond);
        if (!hitRatioPerSecond.isEmpty()) {
            m.put("hit_ratio_per_second", hitRatioPerSecond);
        }
        return m;
    }
}
