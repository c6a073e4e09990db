package io.sessionmesh.sidecar.metrics;

import io.sessionmesh.wire.client.LinkTraffic;
import io.sessionmesh.wire.io.ServerMeters;
import io.sessionmesh.wire.transport.Status;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The sidecar's figures: requests per operation, cache hits and misses, master calls, their bytes and their latency
 * (HdrHistogram, microseconds, since start), and errors by status code. Cheap to update from any thread
 * (LongAdder, a concurrent histogram); read by the admin endpoint as JSON ({@link #snapshot}) and, through a
 * Micrometer Prometheus registry, as Prometheus text ({@link #prometheusText}): counters over the same adders, the two
 * latencies also as histograms with buckets, the JVM's memory, threads and CPU, every series with its HELP and TYPE.
 */
public final class SidecarMetrics {

    /** Operations counted. */
    public enum Op { CREATE, READ, WRITE, TOUCH, DELETE, SCHEMA_PUBLISH, SCHEMA_FETCH, PRINCIPAL, RENAME, PRINCIPAL_SESSIONS }

    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final LongAdder[] requests = new LongAdder[Op.values().length];
    private final LongAdder[] errors = new LongAdder[Status.MAX_CODE + 1];
    public final LongAdder hits = new LongAdder();
    public final LongAdder partialHits = new LongAdder();
    public final LongAdder misses = new LongAdder();
    public final LongAdder sectionsFromCache = new LongAdder();
    public final LongAdder sectionsFromMaster = new LongAdder();
    /** Sections a miss fetched beyond those asked for ({@code read-ahead}). */
    public final LongAdder sectionsReadAhead = new LongAdder();
    public final LongAdder masterCalls = new LongAdder();
    /** Bytes of frames to and from the masters, over every master connection. */
    public final LinkTraffic masterTraffic = new LinkTraffic();
    public final LongAdder touchesForwarded = new LongAdder();
    private final Histogram masterLatency = new ConcurrentHistogram(MAX_MICROS, 2);
    /** Reads that could not be served from the cache because the lease with their master was not valid. */
    public final LongAdder leaseInvalidReads = new LongAdder();
    /** Reads served from the cache, marked stale, while no master could be reached. */
    public final LongAdder staleReads = new LongAdder();
    public final LongAdder invalidationsReceived = new LongAdder();
    /** Cached sections dropped by invalidations. */
    public final LongAdder sectionsInvalidated = new LongAdder();
    public final LongAdder badInvalidations = new LongAdder();
    /** REST connections closed because their client did not read answers past max-outbound. */
    public final LongAdder httpSlowConsumersClosed = new LongAdder();
    /** Requests answered 503 because their body did not fit the body budget. */
    public final LongAdder bodiesOverBudget = new LongAdder();
    /** Bytes of request bodies reserved in the body budget now (the budget keeps this counter). */
    public final AtomicLong bodyBytesReserved = new AtomicLong();
    /** Bytes of answers written to REST connections and not yet taken by their sockets, over every connection. */
    public final AtomicLong outboundBytesQueued = new AtomicLong();
    /** From a write on the master to its invalidation here, by the two wall clocks, in microseconds. */
    private final Histogram invalidationDelay = new ConcurrentHistogram(MAX_MICROS, 2);

    private final PrometheusMeterRegistry registry = ServerMeters.newRegistry();
    private final Timer masterCallTimer;
    private final Timer invalidationDelayTimer;

    public SidecarMetrics() {
        for (int i = 0; i < requests.length; i++) {
            requests[i] = new LongAdder();
        }
        for (int i = 0; i < errors.length; i++) {
            errors[i] = new LongAdder();
        }
        for (Op op : Op.values()) {
            counter("sessionmesh.sidecar.requests", "REST API requests, by operation", requests[op.ordinal()],
                    "operation", op.name().toLowerCase(Locale.ROOT));
        }
        counter("sessionmesh.sidecar.reads", "reads, by how the cache served them", hits, "result", "hit");
        counter("sessionmesh.sidecar.reads", "reads, by how the cache served them", partialHits, "result", "partial");
        counter("sessionmesh.sidecar.reads", "reads, by how the cache served them", misses, "result", "miss");
        counter("sessionmesh.sidecar.sections", "sections served, by where from", sectionsFromCache, "source", "cache");
        counter("sessionmesh.sidecar.sections", "sections served, by where from", sectionsFromMaster, "source", "master");
        counter("sessionmesh.sidecar.sections.read.ahead", "sections a miss fetched beyond those asked for (read-ahead)",
                sectionsReadAhead);
        FunctionCounter.builder("sessionmesh.sidecar.master.bytes", masterTraffic, LinkTraffic::sent)
                .description("bytes of frames to and from the masters").baseUnit("bytes").tag("direction", "sent")
                .register(registry);
        FunctionCounter.builder("sessionmesh.sidecar.master.bytes", masterTraffic, LinkTraffic::received)
                .description("bytes of frames to and from the masters").baseUnit("bytes").tag("direction", "received")
                .register(registry);
        counter("sessionmesh.sidecar.touches.forwarded", "idle-time extensions sent to the masters", touchesForwarded);
        counter("sessionmesh.sidecar.reads.refused.by.lease", "reads not served from the cache: the lease was not valid",
                leaseInvalidReads);
        counter("sessionmesh.sidecar.reads.stale", "reads served from the cache, marked stale, while no master answered",
                staleReads);
        counter("sessionmesh.sidecar.invalidations", "invalidations received from the masters", invalidationsReceived);
        counter("sessionmesh.sidecar.invalidations.sections.dropped", "cached sections dropped by invalidations",
                sectionsInvalidated);
        counter("sessionmesh.sidecar.invalidations.bad", "invalidations that could not be decoded", badInvalidations);
        counter("sessionmesh.sidecar.http.slow.consumers.closed",
                "REST connections closed: their client did not read answers past max-outbound or outbound-budget",
                httpSlowConsumersClosed);
        counter("sessionmesh.sidecar.bodies.over.budget", "requests answered 503: their body did not fit body-budget",
                bodiesOverBudget);
        gauge("sessionmesh.sidecar.body.budget.reserved.bytes", "bytes of request bodies reserved in body-budget now",
                bodyBytesReserved::get);
        gauge("sessionmesh.sidecar.outbound.queued.bytes", "bytes of answers queued for REST sockets now, over every "
                + "connection (outbound-budget bounds them)", outboundBytesQueued::get);
        for (int code = 1; code <= Status.MAX_CODE; code++) {
            if (Status.isKnown(code)) {
                counter("sessionmesh.sidecar.errors", "requests answered with an error, by status", errors[code],
                        "status", Status.name(code));
            }
        }
        masterCallTimer = Timer.builder("sessionmesh.sidecar.master.calls")
                .description("calls to the masters (reads that missed, writes, touches, deletes), from send to answer")
                .serviceLevelObjectives(ServerMeters.latencyBuckets()).register(registry);
        invalidationDelayTimer = Timer.builder("sessionmesh.sidecar.invalidation.delay")
                .description("from a write on a master to its invalidation here, by the two hosts' wall clocks")
                .serviceLevelObjectives(ServerMeters.latencyBuckets()).register(registry);
    }

    private void counter(String name, String help, LongAdder adder, String... tags) {
        FunctionCounter.builder(name, adder, LongAdder::sum).description(help).tags(tags).register(registry);
    }

    /** A counter of the figures' Prometheus text over a source this class does not own (the cache's, say). */
    public <T> void counter(String name, String help, T source, ToDoubleFunction<T> value, String... tags) {
        FunctionCounter.builder(name, source, value).description(help).tags(tags).register(registry);
    }

    /** A gauge of the figures' Prometheus text, read when scraped. */
    public void gauge(String name, String help, Supplier<Number> value, String... tags) {
        Gauge.builder(name, value).description(help).tags(tags).strongReference(true).register(registry);
    }

    /** Every figure in Prometheus's text format 0.0.4 ({@link ServerMeters#PROMETHEUS_CONTENT_TYPE}). */
    public String prometheusText() {
        return registry.scrape();
    }

    public void request(Op op) {
        requests[op.ordinal()].increment();
    }

    public long requests(Op op) {
        return requests[op.ordinal()].sum();
    }

    public void error(int status) {
        errors[status & Status.MAX_CODE].increment();
    }

    /** One master call took {@code nanos}. */
    public void masterCall(long nanos) {
        masterCalls.increment();
        masterLatency.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1000)));
        masterCallTimer.record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /** An invalidation dropped {@code dropped} sections here, {@code delayMicros} after the write on the master. */
    public void invalidation(int dropped, long delayMicros) {
        invalidationsReceived.increment();
        sectionsInvalidated.add(dropped);
        invalidationDelay.recordValue(Math.min(MAX_MICROS, Math.max(0, delayMicros)));
        invalidationDelayTimer.record(Math.max(0, delayMicros), TimeUnit.MICROSECONDS);
    }

    /** Reads answered wholly from the cache over all reads, or 0 before the first. */
    public double hitRatio() {
        long h = hits.sum();
        long all = h + partialHits.sum() + misses.sum();
        return all == 0 ? 0 : (double) h / all;
    }

    /** Every figure by name (cache figures are added by the caller, who owns the cache). */
    public Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Long> byOp = new LinkedHashMap<>();
        for (Op op : Op.values()) {
            byOp.put(op.name().toLowerCase(java.util.Locale.ROOT), requests(op));
        }
        m.put("requests", byOp);
        m.put("hits", hits.sum());
        m.put("partial_hits", partialHits.sum());
        m.put("misses", misses.sum());
        m.put("hit_ratio", Math.round(hitRatio() * 10_000) / 10_000.0);
        m.put("sections_from_cache", sectionsFromCache.sum());
        m.put("sections_from_master", sectionsFromMaster.sum());
        m.put("sections_read_ahead", sectionsReadAhead.sum());
        m.put("master_calls", masterCalls.sum());
        m.put("master_bytes_sent", masterTraffic.sent());
        m.put("master_bytes_received", masterTraffic.received());
        Map<String, Object> latency = new LinkedHashMap<>();
        Histogram h = masterLatency.copy();
        latency.put("count", h.getTotalCount());
        latency.put("p50_us", h.getValueAtPercentile(50));
        latency.put("p99_us", h.getValueAtPercentile(99));
        latency.put("p999_us", h.getValueAtPercentile(99.9));
        latency.put("max_us", h.getMaxValue());
        m.put("master_latency", latency);
        m.put("touches_forwarded", touchesForwarded.sum());
        m.put("reads_from_cache", hits.sum());
        m.put("reads_from_master", misses.sum() + partialHits.sum());
        m.put("reads_refused_by_lease", leaseInvalidReads.sum());
        m.put("stale_reads", staleReads.sum());
        Map<String, Object> inv = new LinkedHashMap<>();
        Histogram d = invalidationDelay.copy();
        inv.put("received", invalidationsReceived.sum());
        inv.put("sections_dropped", sectionsInvalidated.sum());
        inv.put("bad", badInvalidations.sum());
        inv.put("delay_p50_us", d.getValueAtPercentile(50));
        inv.put("delay_p99_us", d.getValueAtPercentile(99));
        inv.put("delay_max_us", d.getMaxValue());
        m.put("invalidations", inv);
        m.put("http_slow_consumers_closed", httpSlowConsumersClosed.sum());
        m.put("bodies_over_budget", bodiesOverBudget.sum());
        m.put("body_bytes_reserved", bodyBytesReserved.get());
        m.put("outbound_bytes_queued", outboundBytesQueued.get());
        Map<String, Long> byCode = new LinkedHashMap<>();
        for (int i = 1; i < errors.length; i++) {
            long n = errors[i].sum();
            if (n > 0) {
                byCode.put(Status.name(i), n);
            }
        }
        m.put("errors", byCode);
        return m;
    }
}
