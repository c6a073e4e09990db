package io.sessionmesh.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.util.Map;

/** The demo's figures, as text for the terminal and as JSON for tools. */
final class DemoSummary {
    private final DemoOptions options;
    private final double seconds;
    private final Histogram total;
    private final Map<DemoRequest, Histogram> byKind;
    private final DemoFigures.Snapshot counters;
    private final Map<String, Long> errors;

    DemoSummary(DemoOptions options, double seconds, Histogram total, Map<DemoRequest, Histogram> byKind,
                DemoFigures.Snapshot counters, Map<String, Long> errors) {
        this.options = options;
        this.seconds = seconds;
        this.total = total;
        this.byKind = byKind;
        this.counters = counters;
        this.errors = errors;
    }

    long requests() {
        return total.getTotalCount();
    }

    String text() {
        StringBuilder b = new StringBuilder();
        b.append(DemoMain.SUMMARY).append(String.format(" (%.0f s measured, %,d sessions, %d users, after %d s of warm-up)%n",
                seconds, options.sessions(), options.users(), options.warmup().toSeconds()));
        long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
        b.append(String.format("  end-user requests   %,d (%,.0f/s), errors %,d%s%n", requests(), requests() / seconds,
                errorCount, errors.isEmpty() ? "" : " " + errors));
        b.append(String.format("  latency             p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms%n", ms(total, 50),
                ms(total, 99), ms(total, 99.9), total.getMaxValue() / 1e6));
        for (Map.Entry<DemoRequest, Histogram> e : byKind.entrySet()) {
            Histogram h = e.getValue();
            if (h.getTotalCount() == 0) {
                continue;
            }
            DemoRequest r = e.getKey();
            b.append(String.format("    %-9s %-22s %,8d  p50 %6.2f ms  p99 %7.2f ms%n", r.name().toLowerCase(),
                    r.method + " " + r.path, h.getTotalCount(), ms(h, 50), ms(h, 99)));
        }
        b.append(String.format("  sidecar hit ratio   %.1f%% of reads wholly from the cache (%.1f%% of sections); "
                        + "%,d misses, %,d partial%n", 100 * counters.hitRatio(), 100 * counters.sectionHitRatio(),
                counters.misses(), counters.partialHits()));
        b.append(String.format("  master round trips  %.3f per request (%,d in all: writes, logins, misses, touches)%n",
                perRequest(counters.masterCalls()), counters.masterCalls()));
        b.append(String.format("  sidecar calls       %.2f per request (the sections a request declares come in one call)%n",
                perRequest(counters.sidecarCalls())));
        long saved = counters.wholeSectionBytes() - counters.deltaBytes();
        b.append(String.format("  bytes saved by deltas  %s sent where whole sections would be %s: %.1f%% saved (%s)%n",
                bytes(counters.deltaBytes()), bytes(counters.wholeSectionBytes()),
                counters.wholeSectionBytes() == 0 ? 0 : 100.0 * saved / counters.wholeSectionBytes(), bytes(saved)));
        return b.toString();
    }

    ObjectNode json(ObjectMapper mapper) {
        ObjectNode doc = mapper.createObjectNode();
        doc.put("seconds", Math.round(seconds * 10) / 10.0);
        doc.put("sessions", options.sessions());
        doc.put("users", options.users());
        doc.put("requests", requests());
        doc.put("requests_per_second", Math.round(requests() / seconds));
        doc.put("p50_ms", ms(total, 50));
        doc.put("p99_ms", ms(total, 99));
        doc.put("p999_ms", ms(total, 99.9));
        doc.put("max_ms", total.getMaxValue() / 1e6);
        ObjectNode kinds = doc.putObject("by_request");
        byKind.forEach((k, h) -> kinds.putObject(k.name().toLowerCase()).put("count", h.getTotalCount())
                .put("p50_ms", ms(h, 50)).put("p99_ms", ms(h, 99)));
        doc.put("hit_ratio", counters.hitRatio());
        doc.put("section_hit_ratio", counters.sectionHitRatio());
        doc.put("master_calls", counters.masterCalls());
        doc.put("master_round_trips_per_request", perRequest(counters.masterCalls()));
        doc.put("sidecar_calls_per_request", perRequest(counters.sidecarCalls()));
        doc.put("delta_bytes", counters.deltaBytes());
        doc.put("whole_section_bytes", counters.wholeSectionBytes());
        ObjectNode err = doc.putObject("errors");
        errors.forEach(err::put);
        return doc;
    }

    private double perRequest(long n) {
        return requests() == 0 ? 0 : (double) n / requests();
    }

    private static double ms(Histogram h, double percentile) {
        return Math.round(h.getValueAtPercentile(percentile) / 1e4) / 100.0;
    }

    private static String bytes(long n) {
        if (Math.abs(n) >= 1L << 20) {
            return String.format("%.1f MB", n / 1048576.0);
        }
        if (Math.abs(n) >= 1L << 10) {
            return String.format("%.1f KB", n / 1024.0);
        }
        return n + " B";
    }
}
