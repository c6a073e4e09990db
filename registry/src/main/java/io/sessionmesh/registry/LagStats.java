package io.sessionmesh.registry;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.TimeUnit;

/**
 * How long events wait: from {@link RegistryWriter#record} to the commit that made them visible, in nanoseconds.
 * The writer thread records; {@link #snapshot()} (any thread) reads the interval since the previous snapshot and
 * the total since start. HdrHistogram's {@link Recorder} lets the two run without a lock on the writer's side.
 * Values are auto-ranged at 3 significant digits, so the memory is bounded by the range (tens of KB), not the count.
 */
final class LagStats {
    /** Percentiles over an interval and since start, in microseconds. */
    record Snapshot(long p50Micros, long p99Micros, long maxMicros, long totalP50Micros, long totalP99Micros,
                    long totalMaxMicros) {
    }

    private static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);
    private Histogram interval;

    /** Writer thread: one event's lag. */
    void record(long lagNanos) {
        recorder.recordValue(Math.max(0, lagNanos));
    }

    /** The lag since the previous call (the interval) and since start. */
    synchronized Snapshot snapshot() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return new Snapshot(micros(interval.getValueAtPercentile(50)), micros(interval.getValueAtPercentile(99)),
                micros(interval.getMaxValue()), micros(total.getValueAtPercentile(50)),
                micros(total.getValueAtPercentile(99)), micros(total.getMaxValue()));
    }

    private static long micros(long nanos) {
        return TimeUnit.NANOSECONDS.toMicros(nanos);
    }
}
