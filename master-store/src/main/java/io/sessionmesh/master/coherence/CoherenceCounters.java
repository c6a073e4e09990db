package io.sessionmesh.master.coherence;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/** The figures of cache coherence on a master, for STATS. */
public final class CoherenceCounters {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(1);

    final LongAdder registrations = new LongAdder();
    /** REGISTERs refused: another peer's holder id, or a peer over max-holders-per-peer. */
    final LongAdder registrationsRefused = new LongAdder();
    final LongAdder pushesSent = new LongAdder();
    final LongAdder pushesConfirmed = new LongAdder();
    /** Pushes given up on because the holder's lease ran out first (the holder was cut off or stalled). */
    final LongAdder leaseExpiries = new LongAdder();
    /** Writes and deletes whose acknowledgement waited for invalidations. */
    final LongAdder fencedWrites = new LongAdder();
    /** How long those waited, in microseconds. */
    private final Histogram fenceWaits = new ConcurrentHistogram(MAX_MICROS, 2);
    /** Also told of every fence wait, in nanoseconds (the admin endpoint's histogram). */
    private volatile LongConsumer fenceWaitListener = nanos -> { };

    /** A fenced write is acknowledged after {@code nanos} of waiting. */
    public void fenceDone(long nanos) {
        fencedWrites.increment();
        fenceWaits.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1000)));
        fenceWaitListener.accept(nanos);
    }

    /** Tells {@code listener} of every fence wait from now on, in nanoseconds. */
    public void onFenceWait(LongConsumer listener) {
        this.fenceWaitListener = listener;
    }

    /** Writes and deletes whose acknowledgement waited for invalidations. */
    public long fencedWrites() {
        return fencedWrites.sum();
    }

    public void putInto(Map<String, Long> stats) {
        stats.put("holder_registrations", registrations.sum());
        stats.put("holder_registrations_refused", registrationsRefused.sum());
        stats.put("invalidations_sent", pushesSent.sum());
        stats.put("invalidations_confirmed", pushesConfirmed.sum());
        stats.put("invalidation_lease_expiries", leaseExpiries.sum());
        stats.put("fenced_writes", fencedWrites.sum());
        Histogram h = fenceWaits.copy();
        stats.put("fence_wait_p50_us", h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50));
        stats.put("fence_wait_p99_us", h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99));
        stats.put("fence_wait_max_us", h.getTotalCount() == 0 ? 0 : h.getMaxValue());
    }
}
