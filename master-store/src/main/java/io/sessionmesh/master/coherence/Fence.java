package io.sessionmesh.master.coherence;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a write's acknowledgement waits for: every other holder of the sections it changed has confirmed the
 * invalidation or lost its lease, and the session's previous write that had to wait is acknowledged too (so that
 * a later write is never acknowledged while an earlier one's old copies may still be served somewhere).
 *
 * <p>Counts down from one per thing awaited, plus one held by whoever builds it until {@link #arm()}; at zero it is
 * done, and its listeners run once, on the thread that counted it down. Thread-safe.
 */
public final class Fence {
    private final AtomicInteger waiting = new AtomicInteger(1);
    private final long startNanos = System.nanoTime();
    private List<Runnable> listeners;
    private volatile boolean done;
    /** Holders that confirmed, and holders whose lease ran out instead: for the figures. */
    private final AtomicInteger confirmed = new AtomicInteger();
    private final AtomicInteger leaseExpired = new AtomicInteger();

    /** One more thing to wait for; only before {@link #arm()}. */
    void expect() {
        waiting.incrementAndGet();
    }

    /** Waits also for {@code previous} (the session's last write that had to wait). */
    public void after(Fence previous) {
        expect();
        previous.whenDone(this::arrive);
    }

    /** Whoever built the fence has registered everything it waits for. */
    public void arm() {
        arrive();
    }

    /** A holder confirmed. */
    void confirmed() {
        confirmed.incrementAndGet();
        arrive();
    }

    /** A holder did not confirm in time, and its lease has now run out. */
    void leaseRanOut() {
        leaseExpired.incrementAndGet();
        arrive();
    }

    private void arrive() {
        if (waiting.decrementAndGet() == 0) {
            List<Runnable> run;
            synchronized (this) {
                done = true;
                run = listeners;
                listeners = null;
            }
            if (run != null) {
                run.forEach(Runnable::run);
            }
        }
    }

    public boolean isDone() {
        return done;
    }

    /** Runs {@code listener} once the fence is done: now, on this thread, if it already is. */
    public void whenDone(Runnable listener) {
        synchronized (this) {
            if (!done) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(listener);
                return;
            }
        }
        listener.run();
    }

    /** Nanoseconds since the fence was built. */
    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /** Holders that lost their lease instead of confirming. */
    public int leaseExpiries() {
        return leaseExpired.get();
    }

    public int confirmations() {
        return confirmed.get();
    }
}
