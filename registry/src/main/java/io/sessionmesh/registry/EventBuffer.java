package io.sessionmesh.registry;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The events waiting for the writer: many producers (the store's threads), one consumer (the writer thread),
 * lock-free, at most {@code bound} events. An event that would exceed the bound starts a new, empty generation
 * instead: the events of the old one are covered by the full re-sync that the overflow asks for, and are counted
 * ({@link #covered()}). Clearing is O(1): the old generation is simply abandoned to the garbage collector.
 *
 * <p>The covered count is exact but for producers racing an overflow (one may land in the abandoned generation just
 * after it was counted); those events are covered by the re-sync all the same.
 */
final class EventBuffer {
    /** An event and when it was recorded ({@link System#nanoTime()}), for its lag. */
    record Entry(LifecycleEvent event, long recordedNanos) {
    }

    private static final class Generation {
        final ConcurrentLinkedQueue<Entry> queue = new ConcurrentLinkedQueue<>();
        final AtomicInteger size = new AtomicInteger();
    }

    private final int bound;
    private final AtomicReference<Generation> current = new AtomicReference<>(new Generation());
    private final AtomicLong covered = new AtomicLong();
    private final AtomicLong overflows = new AtomicLong();
    /** The generation the consumer reads; only the consumer touches it. */
    private Generation reading = current.get();

    EventBuffer(int bound) {
        this.bound = bound;
    }

    /**
     * Adds an event; O(1), never blocks. Returns false when the buffer was full: it has been cleared (its events are
     * counted as covered) and this event starts the new one; the caller must see to a re-sync.
     */
    boolean offer(Entry entry) {
        boolean overflowed = false;
        while (true) {
            Generation g = current.get();
            if (g.size.incrementAndGet() <= bound) {
                g.queue.offer(entry);
                return !overflowed;
            }
            g.size.decrementAndGet();
            if (current.compareAndSet(g, new Generation())) {
                covered.addAndGet(g.size.get());
                overflows.incrementAndGet();
                overflowed = true;
            }
        }
    }

    /** Consumer only: moves up to {@code max} events into {@code into}; returns how many. */
    int drainTo(List<Entry> into, int max) {
        Generation g = current.get();
        if (g != reading) {
            reading = g; // the old one is covered by the re-sync its overflow asked for
        }
        int n = 0;
        Entry e;
        while (n < max && (e = g.queue.poll()) != null) {
            g.size.decrementAndGet();
            into.add(e);
            n++;
        }
        return n;
    }

    /** Whether there is nothing to take (a hint: producers may add at any time). */
    boolean isEmpty() {
        return current.get().queue.isEmpty();
    }

    /** Events waiting. */
    int size() {
        return Math.max(0, current.get().size.get());
    }

    int bound() {
        return bound;
    }

    /** Counts events a re-sync covers instead: cleared from the buffer, or a batch given up for a re-sync. */
    void cover(long events) {
        covered.addAndGet(events);
    }

    /** Events cleared by overflows, or given up for a re-sync, since start. */
    long covered() {
        return covered.get();
    }

    /** How many times the buffer overflowed since start. */
    long overflows() {
        return overflows.get();
    }
}
