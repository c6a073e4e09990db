package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.load.HttpLoad;
import io.sessionmesh.benchmarks.driver.load.Page;
import io.sessionmesh.benchmarks.driver.measure.StackCounters;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/** The demo's figures, as text for the terminal (the lines the README test reads) and as JSON for tools. */
final class DemoSummary {
    /** The summary's first line, which the README test looks for. */
    static final String SUMMARY = "SessionMesh demo summary";

    private final DriverOptions.Demo options;
    private final MixRun.Result r;
    private final StackCounters.Snapshot counters;

    DemoSummary(DriverOptions.Demo options, MixRun.Result result) {
        this.options = options;
        this.r = result;
        this.counters = result.counters();
    }

    long requests() {
        return r.requests();
    }

    String text() {
        StringBuilder b = new StringBuilder();
        Histogram total = r.all();
        b.append(SUMMARY).append(String.format(" (%.0f s measured, %,d sessions, %d users, after %d s of warm-up)%n",
                r.seconds(), options.sessions(), options.users(), options.warmup().toSeconds()));
        b.append(String.format("  end-user requests   %,d (%,.0f/s), errors %,d%s%n", requests(), requests() / r.seconds(),
                r.errorCount(), r.errors().isEmpty() ? "" : " " + r.errors()));
        b.append(String.format("  latency             p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms%n", ms(total, 50),
                ms(total, 99), ms(total, 99.9), total.getMaxValue() / 1e3));
        for (Page p : Page.values()) {
            Histogram h = byKind(p);
            if (h.getTotalCount() == 0) {
                continue;
            }
            b.append(String.format("    %-9s %-22s %,8d  p50 %6.2f ms  p99 %7.2f ms%n", p.kind(),
                    p.method.name() + " " + p.path, h.getTotalCount(), ms(h, 50), ms(h, 99)));
        }
        b.append(String.format("  sidecar hit ratio   %.1f%% of reads wholly from the cache (%.1f%% of sections); "
                        + "%,d misses, %,d partial%n", 100 * counters.hitRatio(), 100 * counters.sectionHitRatio(),
                counters.misses(), counters.partialHits()));
        b.append(String.format("  master round trips  %.3f per request (%,d in all: writes, logins, misses, touches)%n",
                r.perRequest(counters.masterCalls()), counters.masterCalls()));
        b.append(String.format("  sidecar calls       %.2f per request (the sections a request declares come in one call)%n",
                r.perRequest(counters.sidecarCalls())));
        long saved = counters.wholeSectionBytes() - counters.deltaBytes();
        b.append(String.format("  bytes saved by deltas  %s sent where whole sections would be %s: %.1f%% saved (%s)%n",
                bytes(counters.deltaBytes()), bytes(counters.wholeSectionBytes()), 100 * counters.deltaSavedShare(),
                bytes(saved)));
        return b.toString();
    }

    /** summary.json's figures, by name. */
    Map<String, Object> json() {
        Histogram total = r.all();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("seconds", Math.round(r.seconds() * 10) / 10.0);
        doc.put("sessions", options.sessions());
        doc.put("users", options.users());
        doc.put("requests", requests());
        doc.put("requests_per_second", Math.round(requests() / r.seconds()));
        doc.put("p50_ms", ms(total, 50));
        doc.put("p99_ms", ms(total, 99));
        doc.put("p999_ms", ms(total, 99.9));
        doc.put("max_ms", total.getMaxValue() / 1e3);
        Map<String, Object> kinds = new LinkedHashMap<>();
        for (Page p : Page.values()) {
            Histogram h = byKind(p);
            kinds.put(p.kind(), Map.of("count", h.getTotalCount(), "p50_ms", ms(h, 50), "p99_ms", ms(h, 99)));
        }
        doc.put("by_request", kinds);
        doc.put("hit_ratio", counters.hitRatio());
        doc.put("section_hit_ratio", counters.sectionHitRatio());
        doc.put("master_calls", counters.masterCalls());
        doc.put("master_round_trips_per_request", r.perRequest(counters.masterCalls()));
        doc.put("sidecar_calls_per_request", r.perRequest(counters.sidecarCalls()));
        doc.put("delta_bytes", counters.deltaBytes());
        doc.put("whole_section_bytes", counters.wholeSectionBytes());
        doc.put("errors", r.errors());
        return doc;
    }

    private Histogram byKind(Page p) {
        Histogram h = r.byKind().get(p.kind());
        return h == null ? new Histogram(HttpLoad.MAX_MICROS, 3) : h;
    }

    /** A percentile of a histogram of microseconds, in milliseconds to two decimals. */
    private static double ms(Histogram micros, double percentile) {
        return Math.round(micros.getValueAtPercentile(percentile) / 10.0) / 100.0;
    }

    static String bytes(long n) {
        if (Math.abs(n) >= 1L << 20) {
            return String.format("%.1f MB", n / 1048576.0);
        }
        if (Math.abs(n) >= 1L << 10) {
            return String.format("%.1f KB", n / 1024.0);
        }
        return n + " B";
    }
}
