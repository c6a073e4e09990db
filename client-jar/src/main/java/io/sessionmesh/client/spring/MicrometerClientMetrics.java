package io.sessionmesh.client.spring;

import io.sessionmesh.client.ClientMetrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;

/**
 * The client's figures in Micrometer: {@code sessionmesh.client.calls} (timer, by operation and HTTP status),
 * {@code sessionmesh.client.bytes} (distribution, by direction), {@code sessionmesh.client.save.bytes} (counter of value
 * bytes saved, by kind: {@code delta} sent, {@code whole-sections} what whole-section saves would have sent) and
 * {@code sessionmesh.client.decode.failures}.
 */
public final class MicrometerClientMetrics implements ClientMetrics {
    private final MeterRegistry registry;
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
        Timer.builder("sessionmesh.client.calls").tag("operation", operation).tag("status", String.valueOf(httpStatus))
                .register(registry).record(nanos, TimeUnit.NANOSECONDS);
        sent.record(bytesSent);
        received.record(bytesReceived);
    }

    @Override
    public void decodeFailure(String section, String attribute, RuntimeException error) {
        decodeFailures.increment();
    }
}
