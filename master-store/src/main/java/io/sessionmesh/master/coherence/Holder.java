package io.sessionmesh.master.coherence;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One cache in front of this master (a sidecar), known by the id it registered with: its bit in the sessions'
 * holder masks, its current control connection, and how long its lease runs.
 *
 * <p>The lease: every answer to its REGISTER or PING on the control connection grants it until the time the master
 * handled that request plus the lease length. The holder itself counts from when it sent the request, minus a margin
 * for clock drift, so its own view always ends first. The master keeps the latest grant; a holder that does not
 * confirm an invalidation has certainly stopped serving the old copies once the latest grant made before the
 * invalidation was sent has run out (grants made after it reach the holder after the invalidation, on the same
 * connection). A holder that lets one run out so and goes on pinging is given no more grant on that connection: it
 * would otherwise serve the old copy under a lease renewed after the write went on.
 */
public final class Holder {
    private final UUID id;
    /** The peer that registered it first ({@code PeerIdentity}); only that peer may register it again. */
    private final String peer;
    private final int slot;
    private final long bit;
    /** No grant yet: "until now". */
    private final AtomicLong grantedUntil = new AtomicLong(System.nanoTime());
    private final AtomicInteger connections = new AtomicInteger();
    private volatile PushTable control;
    /** The sequence of the latest control connection that registered; guarded by this. */
    private long controlSequence;

    Holder(UUID id, String peer, int slot) {
        this.id = id;
        this.peer = peer;
        this.slot = slot;
        this.bit = 1L << slot;
    }

    public UUID id() {
        return id;
    }

    /** The peer it is bound to: a certificate subject with TLS, an IP address without. */
    public String peer() {
        return peer;
    }

    /** Its slot: 0..62 of its own, or {@link HolderRegistry#SHARED_SLOT}. */
    public int slot() {
        return slot;
    }

    /** Its bit in the holder masks. */
    public long bit() {
        return bit;
    }

    /** The lease now runs at least until {@code untilNanos} ({@link System#nanoTime()}). */
    public void granted(long untilNanos) {
        grantedUntil.accumulateAndGet(untilNanos, Math::max);
    }

    /** The end of the latest grant ({@link System#nanoTime()}). */
    public long grantedUntil() {
        return grantedUntil.get();
    }

    /**
     * Makes {@code table} its control connection's from now on, if {@code sequence} is above that of every control
     * connection registered before; false (and nothing changes) if not: that connection was given up by the holder.
     */
    public synchronized boolean takeControl(PushTable table, long sequence) {
        if (sequence <= controlSequence) {
            return false;
        }
        controlSequence = sequence;
        control = table;
        return true;
    }

    /**
     * Whether {@code table} is its current control connection's and may still grant the lease: only that connection's
     * answers grant it, and none once it let an invalidation run out unconfirmed ({@link PushTable#lapsed()}).
     */
    public boolean isControl(PushTable table) {
        return control == table && !table.lapsed();
    }

    /** The connection whose table this was has closed. */
    public synchronized void controlClosed(PushTable table) {
        if (control == table) {
            control = null;
        }
    }

    PushTable control() {
        return control;
    }

    void connected() {
        connections.incrementAndGet();
    }

    void disconnected() {
        connections.decrementAndGet();
    }

    /** Connections registered as this holder and still open. */
    public int connections() {
        return connections.get();
    }

    @Override
    public String toString() {
        return "holder " + id + " (slot " + slot + ")";
    }
}
