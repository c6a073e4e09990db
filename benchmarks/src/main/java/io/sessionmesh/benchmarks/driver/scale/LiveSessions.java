package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.workload.Zipf;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.random.RandomGenerator;

/**
 * The sessions the read/write mix may use: a ring of the most recently created ones, creation n in slot
 * n mod capacity, each replaced by the creation {@code capacity} later. With capacity = rate x idle x share (share &lt; 1)
 * a slot's session is at most share x idle old when replaced, so every session the mix picks is alive (its idle time
 * runs from its creation at the latest); the oldest (1 - share) of the active set is left to idle out. Picks are Zipf
 * (docs/WORKLOAD.md, s = 0.99) over ranks, and rank r is slot r x stride mod capacity (stride coprime with it), so the
 * hot ranks fall on sessions of every age, as the mix plan's new sessions do. Written by one thread, read by any.
 */
final class LiveSessions {
    private final AtomicReferenceArray<String> slots;
    private final Zipf zipf;
    private final long stride;

    LiveSessions(int capacity) {
        if (capacity < 1 || capacity > Zipf.MAX_RANKS) {
            throw new IllegalArgumentException("capacity " + capacity + " is outside 1.." + Zipf.MAX_RANKS);
        }
        slots = new AtomicReferenceArray<>(capacity);
        zipf = Zipf.workload(capacity);
        stride = stride(capacity);
    }

    /** Slots for {@code rate} creations a second that idle out after {@code idle}, keeping {@code share} of them. */
    static int capacity(int rate, Duration idle, double share) {
        return (int) Math.max(1, Math.min(Zipf.MAX_RANKS, Math.floor(rate * (idle.toMillis() / 1000.0) * share)));
    }

    /** A stride near capacity x 0.618 with no factor in common with capacity: a permutation of the slots. */
    static long stride(int capacity) {
        long s = Math.max(1, (long) (capacity * 0.6180339887));
        while (gcd(s, capacity) != 1) {
            s++;
        }
        return s;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    int capacity() {
        return slots.length();
    }

    /** Session {@code id}, the {@code creation}-th created (from 0). */
    void put(long creation, String id) {
        slots.set((int) (creation % slots.length()), id);
    }

    /** The slot of Zipf rank {@code rank}. */
    int slot(int rank) {
        return (int) (rank * stride % slots.length());
    }

    /** A session by Zipf rank; null when its slot is not filled yet (early in the fill). */
    String pick(RandomGenerator random) {
        return slots.get(slot(zipf.next(random)));
    }
}
