package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.transport.Status;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one phase of the run (the fill, the measured window) saw, by the intended send time of each request: latency
 * from that time to the answer per operation (HdrHistogram, so a stall shows as latency, not as fewer requests), how
 * late the driver sent each request behind its schedule, and every answer that was not OK, by operation and status
 * (timeouts included). Answers are recorded on the connections' event loop, sends on the scheduler's thread.
 */
final class Phase {
    /** Highest latency recorded; longer ones (there should be none: the request timeout is shorter) are clamped. */
    static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(5);

    final String name;
    final Recorder create = new Recorder(HIGHEST_MICROS, 3);
    /** A login: from the create's intended send to the answer of the WRITE of the session's whole data. */
    final Recorder login = new Recorder(HIGHEST_MICROS, 3);
    final Recorder read = new Recorder(HIGHEST_MICROS, 3);
    final Recorder write = new Recorder(HIGHEST_MICROS, 3);
    /** Send time minus intended time, on the scheduler's thread only. */
    final Histogram sendLag = new Histogram(HIGHEST_MICROS, 3);
    final LongAdder creates = new LongAdder();
    final LongAdder logins = new LongAdder();
    final LongAdder reads = new LongAdder();
    final LongAdder writes = new LongAdder();
    /** Mix requests not sent because the session they drew was not created yet (the fill's first seconds). */
    final LongAdder skipped = new LongAdder();
    final LongAdder valueBytesWritten = new LongAdder();
    final AtomicLong outstanding = new AtomicLong();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private Histogram[] taken;

    Phase(String name) {
        this.name = name;
    }

    static long micros(long intendedNanos) {
        return Math.min(HIGHEST_MICROS, Math.max(0, (System.nanoTime() - intendedNanos) / 1000));
    }

    void sent(long intendedNanos) {
        sendLag.recordValue(micros(intendedNanos));
        outstanding.incrementAndGet();
    }

    void answered(Recorder latency, long intendedNanos) {
        latency.recordValue(micros(intendedNanos));
        outstanding.decrementAndGet();
    }

    /** A failed request: counted under "OPERATION STATUS"; answers its status. */
    int failed(String operation, Throwable e) {
        outstanding.decrementAndGet();
        int status = MasterException.statusOf(e);
        String key = operation + " " + (status < 0 ? e.getClass().getSimpleName() : Status.name(status));
        errors.computeIfAbsent(key, k -> new LongAdder()).increment();
        return status;
    }

    /** Every failure by "OPERATION STATUS". */
    Map<String, Long> errors() {
        Map<String, Long> m = new TreeMap<>();
        errors.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** The latency histograms, create, login, read, write, taken once (call after the phase's answers are in). */
    Histogram[] latencies() {
        if (taken == null) {
            taken = new Histogram[] {create.getIntervalHistogram(), login.getIntervalHistogram(), read.getIntervalHistogram(),
                    write.getIntervalHistogram()};
        }
        return taken;
    }
}
