package io.sessionmesh.master.admin;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The master's figures in Prometheus's text format, through Micrometer's Prometheus registry: the figures of the
 * STATS operation ({@code MasterServer.stats()}) but for those {@link #LEFT_OUT} and the registry writer's, as
 * {@code sessionmesh_master_<name>}, a gauge for a level (sessions,
 * bytes, connections, holders, the replica's indexes, ...) and a counter ({@code _total}) for everything that only
 * grows; the fence wait as a histogram with buckets (its precomputed percentiles stay in STATS only); the JVM's memory,
 * threads and CPU. Each scrape reads the figures once.
 */
public final class MasterMetrics {
    /** The content type of {@link #prometheusText}: Prometheus's text format 0.0.4. */
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** STATS figures that are levels, not counts of events. */
    static final Set<String> GAUGES = Set.of("sessions", "store_bytes", "max_store_bytes", "budget_max_bytes",
            "budget_used_bytes", "budget_session_bytes", "budget_section_bytes", "budget_section_overhead_bytes",
            "budget_name_bytes", "budget_schema_bytes", "budget_principal_bytes", "budget_removed_bytes", "names_shared",
            "schemas", "connections", "holders", "holders_connected", "replica_leads", "replica_pending_proposals",
            "replica_applied_index", "replica_commit_index", "group_map_epoch", "group_map_moving",
            "group_outbox_sessions", "registry_enabled", "registry_degraded", "registry_backlog", "registry_bound");
    /** STATS figures that count events: they only grow. */
    static final Set<String> COUNTERS = Set.of("creates", "reads", "sections_read", "writes", "deletes", "touches",
            "expiries", "conflicts", "not_found", "too_large", "expiry_wheel_purges", "logouts", "principal_changes",
            "budget_refusals", "connections_accepted", "connections_refused", "requests", "errors", "invalid_frames",
            "in_flight_refused", "idle_closed", "slow_consumer_closed", "internal_errors", "holder_registrations",
            "holder_registrations_refused", "invalidations_sent", "invalidations_confirmed", "invalidation_lease_expiries",
            "fenced_writes", "replica_changes_proposed", "replica_entries_proposed", "group_sessions_handed_off");
    /**
     * STATS figures left out: percentiles computed in the process (a histogram stands for the fence wait) and the
     * lease, which is a setting (shown as seconds below). The registry writer's figures are not offered at all
     * ({@code registry_enabled} is): reading them ends the interval that STATS callers measure.
     */
    static final Set<String> LEFT_OUT = Set.of("fence_wait_p50_us", "fence_wait_p99_us", "fence_wait_max_us",
            "lease_ms");
    /** Upper bounds of the fence wait's buckets: 100 us to 10 s in 1-2-5 steps, and +Inf. */
    static final Duration[] FENCE_WAIT_BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(200_000),
            Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private static final Logger log = LoggerFactory.getLogger(MasterMetrics.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Supplier<Map<String, Long>> stats;
    private final Timer fenceWait;
    /** The figures this scrape reads (one STATS snapshot a scrape, not one a series). */
    private volatile Map<String, Long> snapshot = Map.of();

    /**
     * @param stats the STATS figures; the names it gives at start are the series (a group's or the registry's
     *              figures are there from start when they are on)
     * @param leaseMillis the holders' lease, shown as {@code sessionmesh_master_lease_seconds}
     */
    public MasterMetrics(Supplier<Map<String, Long>> stats, long leaseMillis) {
        this.stats = stats;
        for (String name : stats.get().keySet()) {
            if (LEFT_OUT.contains(name)) {
                continue;
            }
            String meter = "sessionmesh.master." + name.replace('_', '.');
            String help = "the master's " + name.replace('_', ' ') + " (STATS " + name + ")";
            if (GAUGES.contains(name)) {
                Gauge.builder(meter, this, m -> m.figure(name)).description(help).register(registry);
            } else if (COUNTERS.contains(name)) {
                FunctionCounter.builder(meter, this, m -> m.figure(name)).description(help).register(registry);
            } else {
                log.warn("STATS figure {} is neither a gauge nor a counter here: left out of /metrics", name);
            }
        }
        Gauge.builder("sessionmesh.master.lease", () -> leaseMillis / 1000.0).baseUnit("seconds")
                .description("how long a cache may serve what it holds after this master last heard from it")
                .register(registry);
        fenceWait = Timer.builder("sessionmesh.master.fence.wait")
                .description("how long a write waited for the caches it invalidated to confirm")
                .serviceLevelObjectives(FENCE_WAIT_BUCKETS).register(registry);
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
    }

    private double figure(String name) {
        Long v = snapshot.get(name);
        return v == null ? Double.NaN : v;
    }

    /** A write waited {@code nanos} for its invalidations' confirmations. */
    public void fenceWait(long nanos) {
        fenceWait.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** Every figure in Prometheus's text format 0.0.4 ({@link #PROMETHEUS_CONTENT_TYPE}). */
    public synchronized String prometheusText() {
        snapshot = stats.get();
        return registry.scrape();
    }
}
