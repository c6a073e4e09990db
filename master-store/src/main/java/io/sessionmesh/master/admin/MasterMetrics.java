package io.sessionmesh.master.admin;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sessionmesh.wire.io.ServerMeters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The master's figures in Prometheus's text format, through Micrometer's Prometheus registry: the figures of the
 * STATS operation ({@code MasterServer.stats()}) but for those {@link #LEFT_OUT} and the registry writer's, as
 * {@code sessionmesh_master_<name>}, a gauge for a level (sessions,
 * bytes, connections, holders, the replica's indexes, ...) and a counter ({@code _total}) for everything that only
 * grows; the fence wait as a histogram with buckets (its precomputed percentiles stay in STATS only); the process's figures
 * ({@link ServerMeters}). Each scrape reads the figures once.
 */
public final class MasterMetrics {
    /** STATS figures that are levels, not counts of events. */
    static final Set<String> GAUGES = Set.of("sessions", "store_bytes", "max_store_bytes", "budget_max_bytes",
            "budget_used_bytes", "budget_session_bytes", "budget_section_bytes", "budget_section_overhead_bytes",
            "budget_name_bytes", "budget_schema_bytes", "budget_principal_bytes", "budget_removed_bytes", "names_shared",
            "schemas", "connections", "holders", "holders_connected", "replica_leads", "replica_pending_proposals",
            "replica_applied_index", "replica_commit_index", "group_map_epoch", "group_map_moving",
            "group_outbox_sessions", "registry_enabled", "registry_degraded", "registry_backlog", "registry_bound",
            "write_ids", "write_id_bytes");
    /** STATS figures that count events: they only grow. */
    static final Set<String> COUNTERS = Set.of("creates", "reads", "sections_read", "writes", "deletes", "touches",
            "expiries", "conflicts", "not_found", "too_large", "expiry_wheel_purges", "logouts", "principal_changes", "renames",
            "principal_lists",
            "budget_refusals", "connections_accepted", "connections_refused", "requests", "errors", "invalid_frames",
            "in_flight_refused", "idle_closed", "slow_consumer_closed", "internal_errors", "forbidden", "holder_registrations",
            "holder_registrations_refused", "invalidations_sent", "invalidations_confirmed", "invalidation_lease_expiries",
            "fenced_writes", "replica_refused_entries", "replica_changes_proposed", "replica_entries_proposed",
            "group_sessions_handed_off", "write_id_duplicates", "write_ids_evicted_early");
    /**
     * STATS figures left out: percentiles computed in the process (a histogram stands for the fence wait) and the
     * lease, which is a setting (shown as seconds below). The registry writer's figures are not offered at all
     * ({@code registry_enabled} is): reading them ends the interval that STATS callers measure.
     */
    static final Set<String> LEFT_OUT = Set.of("fence_wait_p50_us", "fence_wait_p99_us", "fence_wait_max_us",
            "lease_ms");

    private static final Logger log = LoggerFactory.getLogger(MasterMetrics.class);

    private final PrometheusMeterRegistry registry = ServerMeters.newRegistry();
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
                .serviceLevelObjectives(ServerMeters.latencyBuckets()).register(registry);
    }

    private double figure(String name) {
        Long v = snapshot.get(name);
        return v == null ? Double.NaN : v;
    }

    /** A write waited {@code nanos} for its invalidations' confirmations. */
    public void fenceWait(long nanos) {
        fenceWait.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** Every figure in Prometheus's text format 0.0.4 ({@link ServerMeters#PROMETHEUS_CONTENT_TYPE}). */
    public synchronized String prometheusText() {
        snapshot = stats.get();
        return registry.scrape();
    }
}
