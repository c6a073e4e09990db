package io.sessionmesh.wire.io;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * What the sidecar's and the master's {@code /metrics} share: a Prometheus registry with the process's own figures
 * (JVM memory, threads, classes, uptime, CPU time, the host's load), the text format's content type, and the buckets
 * of their latency histograms.
 */
public final class ServerMeters {
    /** The content type of a scrape: Prometheus's text format 0.0.4. */
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /**
     * The upper bounds of the latency histograms' buckets, 50 us to 10 s in 1-2-5 steps (17 buckets and +Inf): fine
     * enough for a loopback call (tens of microseconds) and a timeout (seconds) in one histogram.
     */
    private static final long[] LATENCY_BUCKET_MICROS = {50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
            100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000};

    private ServerMeters() {
    }

    /** {@link #LATENCY_BUCKET_MICROS} as durations, for {@code Timer.Builder.serviceLevelObjectives}. */
    public static Duration[] latencyBuckets() {
        Duration[] d = new Duration[LATENCY_BUCKET_MICROS.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Duration.ofNanos(LATENCY_BUCKET_MICROS[i] * 1_000);
        }
        return d;
    }

    /**
     * A new registry with the process's figures bound. Micrometer's ProcessorMetrics is not used: it names its series
     * process_cpu_time_ns_total and system_cpu_count, which promtool's lint refuses (an abbreviated unit, a _count
     * suffix on a gauge), so the CPU figures are made here as process_cpu_seconds_total and system_load_average_1m.
     */
    public static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            FunctionCounter.builder("process.cpu", sun, b -> b.getProcessCpuTime() / 1e9).baseUnit("seconds")
                    .description("CPU time this process used, in all its threads").register(registry);
        }
        Gauge.builder("system.load.average.1m", os, OperatingSystemMXBean::getSystemLoadAverage)
                .description("the host's load average over the last minute").register(registry);
        return registry;
    }
}
