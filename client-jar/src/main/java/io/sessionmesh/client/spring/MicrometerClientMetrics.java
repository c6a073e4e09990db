package io.sessionmesh.client.spring;

import io.sessionmesh.client.ClientMetrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The client's figures in Micrometer: {@code sessionmesh.client.calls} (timer, by operation and HTTP status),
 * {@code sessionmesh.client.bytes} (distribution, by direction), {@code sessionmesh.client.save.bytes} (counter of value
 * bytes saved, by kind: {@code delta} sent, {@code whole-sections} what whole-section saves would have sent) and
 * {@code sessionmesh.client.decode.failures}.
 */
public final class MicrometerClientMetrics implements ClientMetrics {
    /** HTTP statuses 100-599 have a timer kept at hand; 0 (no answer) and any other is looked up in the registry. */
    private static final int FIRST_STATUS = 100;
    private static final int STATUSES = 500;

    private final MeterRegistry registry;
    /**
     * The call timers by operation, then status, made once each: building a timer's id and finding it in the registry
     * cost about 1% of a service's CPU on every call. Bounded: the operations are the client's fixed set.
     */
    private final ConcurrentMap<String, AtomicReferenceArray<Timer>> calls = new ConcurrentHashMap<>();
    private final DistributionSummary sent;
    private final DistributionSummary received;
    private final Counter decodeFailures;
    private final Counter deltaBytes;
    private final Counter wholeSectionBytes;

    public MicrometerClientMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.sent = DistributionSummary.builder("sessionmesh.client.bytes").tag("direction", "sent").baseUnit("bytes")
                .register(registry);
        this.received = DistributionSummary.builder("sessionmesh.client.bytes").tag("direction", "received")
                .baseUnit("bytes").register(registry);
        this.decodeFailures = Counter.builder("sessionmesh.client.decode.failures")
                .description("attribute values that could not be decoded").register(registry);
        this.deltaBytes = Counter.builder("sessionmesh.client.save.bytes").tag("kind", "delta").baseUnit("bytes")
                .description("value bytes sent by saves (changed attributes only)").register(registry);
        this.wholeSectionBytes = Counter.builder("sessionmesh.client.save.bytes").tag("kind", "whole-sections")
                .baseUnit("bytes").description("value bytes the same saves would have sent as whole sections")
                .register(registry);
    }

    @Override
    public void saved(int sections, long delta, long wholeSections) {
        deltaBytes.increment(delta);
        wholeSectionBytes.increment(wholeSections);
    }

    @Override
    public void call(String operation, int httpStatus, long nanos, long bytesSent, long bytesReceived) {
        timer(operation, httpStatus).record(nanos, TimeUnit.NANOSECONDS);
        sent.record(bytesSent);
        received.record(bytesReceived);
    }

    private Timer timer(String operation, int httpStatus) {
        int i = httpStatus - FIRST_STATUS;
        if (i < 0 || i >= STATUSES) {
            return register(operation, httpStatus);
        }
        AtomicReferenceArray<Timer> byStatus = calls.computeIfAbsent(operation, k -> new AtomicReferenceArray<>(STATUSES));
        Timer t = byStatus.get(i);
        if (t == null) {
            t = register(operation, httpStatus); // the registry returns the same timer to a racing second caller
            byStatus.set(i, t);
        }
        return t;
    }

    private Timer register(String operation, int httpStatus) {
        return Timer.builder("sessionmesh.client.calls").tag("operation", operation).tag("status", String.valueOf(httpStatus))
                .register(registry);
    }

    @Override
    public void decodeFailure(String section, String attribute, RuntimeException error) {
        decodeFailures.increment();
    }
}
