package io.sessionmesh.sidecar.master;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * This sidecar's right to serve cached sections of one master's sessions.
 *
 * <p>It is granted by the master's answers to REGISTER and PING on the control connection. The master counts the
 * lease from when it handled the request; here it counts from when the request was sent, minus a margin for the two
 * clocks' drift, so it always ends here first. While the lease is valid, every invalidation the master sent before
 * its latest grant has been acted on here (they come first on the same connection), so what is cached is current.
 *
 * <p>Epochs: each REGISTER on a new control connection, and each loss of one, starts a new epoch. A section is
 * served only if it was cached in the current epoch: invalidations sent while no control connection was open are
 * never received, so what was cached before is never trusted again.
 *
 * <p>The state is one immutable {@link State} behind a volatile field, so a reader sees epoch and validity together.
 */
public final class Lease {
    /** Epoch, whether a control connection holds the lease, and until when it is valid ({@link System#nanoTime()}). */
    public record State(int epoch, boolean held, long validUntil) {
        /** Whether what was cached in {@link #epoch} may be served at {@code now}. */
        public boolean isValid(long now) {
            return held && now - validUntil < 0;
        }
    }

    /**
     * Epoch numbers, unique across every lease of this process: a section cached under one master group's lease is
     * never served under another's (a session that moved between groups, PROTOCOL.md 3.9).
     */
    private static final java.util.concurrent.atomic.AtomicInteger EPOCHS = new java.util.concurrent.atomic.AtomicInteger();

    private final long marginNanos;
    private volatile State state = new State(0, false, System.nanoTime());
    private long leaseNanos;
    /** When the lease last stopped being valid, for the stale-read window. */
    private volatile long lapsedAt = System.nanoTime();
    /** Whether the running-out of the current validity has been counted; guarded by this. */
    private boolean counted = true;
    private final LongAdder renewals = new LongAdder();
    private final LongAdder expiries = new LongAdder();
    private final LongAdder losses = new LongAdder();

    public Lease(long marginMillis) {
        this.marginNanos = TimeUnit.MILLISECONDS.toNanos(marginMillis);
    }

    /** Epoch and validity, read together. */
    public State state() {
        return state;
    }

    /** The master answered REGISTER on a new control connection; {@code sentNanos} is when it was sent. */
    public synchronized void registered(long sentNanos, long leaseMillis) {
        leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        state = new State(EPOCHS.incrementAndGet(), true, sentNanos + leaseNanos - marginNanos);
        counted = false;
        renewals.increment();
    }

    /** The master answered a PING sent at {@code sentNanos} on the control connection of epoch {@code epochSent}. */
    public synchronized void renewed(long sentNanos, int epochSent) {
        State s = state;
        if (!s.held || epochSent != s.epoch) {
            return;
        }
        // If it had run out (the answers were late), it is valid again: every push before this answer was applied.
        check(System.nanoTime());
        long until = sentNanos + leaseNanos - marginNanos;
        if (until - s.validUntil > 0) {
            state = new State(s.epoch, true, until);
            counted = false;
        }
        renewals.increment();
    }

    /** The control connection is gone: nothing cached so far is served again. */
    public synchronized void lost() {
        State s = state;
        if (s.held) {
            long now = System.nanoTime();
            long end = s.isValid(now) ? now : s.validUntil;
            if (!counted) {
                counted = true;
                lapsedAt = end;
                expiries.increment();
            }
            state = new State(EPOCHS.incrementAndGet(), false, end);
            losses.increment();
        }
    }

    /** Counts the lease's running out, if it has by {@code now} and that was not counted yet. */
    public synchronized void check(long now) {
        State s = state;
        if (s.held && !counted && now - s.validUntil >= 0) {
            counted = true;
            lapsedAt = s.validUntil;
            expiries.increment();
        }
    }

    /** Whether the lease is valid at {@code now}. */
    public boolean isValid(long now) {
        return state.isValid(now);
    }

    public int epoch() {
        return state.epoch;
    }

    /** How long the lease has not been valid, at {@code now}; 0 while it is. */
    public long invalidForNanos(long now) {
        State s = state;
        if (s.isValid(now)) {
            return 0;
        }
        return Math.max(0, now - (s.held ? s.validUntil : lapsedAt));
    }

    /** Nanoseconds of validity left at {@code now} (0 when invalid). */
    public long remainingNanos(long now) {
        State s = state;
        return s.isValid(now) ? s.validUntil - now : 0;
    }

    public synchronized long leaseMillis() {
        return TimeUnit.NANOSECONDS.toMillis(leaseNanos);
    }

    public long renewals() {
        return renewals.sum();
    }

    /** Times the lease ran out or was lost (a connection closed, or answers came too late). */
    public long expiries() {
        return expiries.sum();
    }

    /** Times the control connection was lost. */
    public long losses() {
        return losses.sum();
    }
}
