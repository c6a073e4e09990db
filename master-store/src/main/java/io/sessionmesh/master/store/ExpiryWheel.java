package io.sessionmesh.master.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * A hashed timer wheel of sessions by deadline, so that expiry costs work for the sessions that come due,
 * never a scan of the store. A ring of {@code slots} buckets, each {@code resolution} ms wide; a session sits
 * in the bucket of the deadline it had when it was (re)scheduled.
 *
 * <p>Reads and writes move a session's deadline later without touching the wheel (a volatile store of the
 * access time is all they pay). When the bucket comes due, the sweeper looks at each session in it: expired
 * ones go to the callback, the others are put in the bucket of their current deadline. So a session that
 * stays in use is looked at about once per idle timeout (or once per turn of the ring for deadlines further
 * out than {@code slots x resolution}), and a session that expires is looked at once more. A deleted
 * session stays in its bucket, marked removed, until the bucket comes due or {@link #purgeRemoved} takes it out: the
 * store purges once the removed entries outnumber the live sessions (and {@code SessionStore.PURGE_MIN_ENTRIES}), so
 * a loop of creates and deletes cannot fill the wheel for a whole idle timeout (up to 24 hours).
 *
 * <p>Thread-safety: {@link #schedule} from any thread; {@link #advance} from one thread at a time.
 */
final class ExpiryWheel {
    private final long resolution;
    private final int mask;
    private final ConcurrentLinkedQueue<Session>[] buckets;
    /** The last tick advanced through (volatile: {@link #scheduleAgain} reads it from any thread). */
    private volatile long tick;
    /** Entries of removed sessions still in a bucket (an estimate: a removal counts once, whether or not it was in). */
    private final java.util.concurrent.atomic.AtomicLong removedEntries = new java.util.concurrent.atomic.AtomicLong();

    @SuppressWarnings("unchecked")
    ExpiryWheel(long resolutionMillis, int slots, long now) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots = " + slots + ": must be a power of two");
        }
        this.resolution = resolutionMillis;
        this.mask = slots - 1;
        this.buckets = new ConcurrentLinkedQueue[slots];
        for (int i = 0; i < slots; i++) {
            buckets[i] = new ConcurrentLinkedQueue<>();
        }
        this.tick = Math.floorDiv(now, resolutionMillis);
    }

    /** Puts the session in the bucket of its current deadline. */
    void schedule(Session session) {
        long due = Math.floorDiv(session.deadline() + resolution - 1, resolution);
        buckets[(int) (due & mask)].add(session);
    }

    /**
     * Puts the session back in the bucket of its deadline, or of the next tick to sweep when that has passed (a
     * session taken off for an expiry that was not applied): the next {@link #advance} looks at it again, not a turn
     * of the ring later.
     */
    void scheduleAgain(Session session) {
        long due = Math.max(Math.floorDiv(session.deadline() + resolution - 1, resolution), tick + 1);
        buckets[(int) (due & mask)].add(session);
    }

    /**
     * Sweeps every bucket due by {@code now}: expired sessions go to {@code expire}, the others are
     * rescheduled. At most one turn of the ring per call, which covers every bucket.
     *
     * @return how many sessions were looked at
     */
    int advance(long now, Consumer<Session> expire) {
        long target = Math.floorDiv(now, resolution);
        if (target <= tick) {
            return 0;
        }
        long from = Math.max(tick + 1, target - mask);
        int looked = 0;
        List<Session> due = new ArrayList<>();
        for (long t = from; t <= target; t++) {
            ConcurrentLinkedQueue<Session> bucket = buckets[(int) (t & mask)];
            for (Session s; (s = bucket.poll()) != null; ) {
                due.add(s);
            }
            for (Session s : due) {
                looked++;
                if (s.removed) {
                    removedEntries.decrementAndGet();
                    continue;
                }
                if (s.isExpired(now)) {
                    expire.accept(s);
                } else {
                    schedule(s);
                }
            }
            due.clear();
        }
        tick = target;
        return looked;
    }

    /** A session was removed from the store: its entry, if it has one here, is now dead weight. */
    void removed() {
        removedEntries.incrementAndGet();
    }

    /** How many removed sessions the buckets may still hold. */
    long removedEntries() {
        return removedEntries.get();
    }

    /** Takes every removed session out of the buckets (a walk of the whole wheel); returns how many went. */
    int purgeRemoved() {
        int purged = 0;
        for (ConcurrentLinkedQueue<Session> b : buckets) {
            int before = b.size();
            if (b.removeIf(s -> s.removed)) {
                purged += before - b.size();
            }
        }
        removedEntries.set(0);
        return purged;
    }

    /** Empties every bucket and starts again at {@code now} (a replica that becomes its group's leader). */
    void reset(long now) {
        for (ConcurrentLinkedQueue<Session> b : buckets) {
            b.clear();
        }
        removedEntries.set(0);
        tick = Math.floorDiv(now, resolution);
    }

    /** Entries in the wheel, live or removed (for tests and stats; walks every bucket). */
    int size() {
        int n = 0;
        for (ConcurrentLinkedQueue<Session> b : buckets) {
            n += b.size();
        }
        return n;
    }
}
