package io.sessionmesh.master.coherence;

import io.sessionmesh.wire.protocol.Invalidation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The caches registered with this master, each with a bit in the sessions' holder masks: 63 get a bit of their own;
 * from the 64th on they share the last bit, so a write held there tells every cache of the shared group (more
 * messages, never a missed one). Memory for tracking is thus one {@code long} per section, whatever the number of
 * caches.
 *
 * <p>A holder keeps its slot while it has a connection or a lease; a slot is given again only once its holder has
 * neither. Bits a former holder left in sessions then reach the new one as invalidations it does not need: harmless.
 */
public final class HolderRegistry {
    /** Slots with a bit of their own. */
    public static final int OWN_SLOTS = 63;
    /** The slot shared by holders beyond {@link #OWN_SLOTS}. */
    public static final int SHARED_SLOT = 63;
    public static final long SHARED_BIT = 1L << SHARED_SLOT;

    private final long leaseNanos;
    private final int maxHoldersPerPeer;
    private final ScheduledExecutorService timer;
    private final CoherenceCounters counters = new CoherenceCounters();
    private final Map<UUID, Holder> byId = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Holder> slots = new AtomicReferenceArray<>(OWN_SLOTS);
    private final List<Holder> shared = new CopyOnWriteArrayList<>();

    /**
     * @param timer settles invalidations sent to holders that have no control connection, at the end of their lease
     */
    public HolderRegistry(long leaseMillis, ScheduledExecutorService timer) {
        this(leaseMillis, 8, timer);
    }

    /**
     * @param maxHoldersPerPeer holders one peer may have registered at once (PROTOCOL.md 3.7, "Who registers")
     * @param timer settles invalidations sent to holders that have no control connection, at the end of their lease
     */
    public HolderRegistry(long leaseMillis, int maxHoldersPerPeer, ScheduledExecutorService timer) {
        if (maxHoldersPerPeer < 1) {
            throw new IllegalArgumentException("maxHoldersPerPeer " + maxHoldersPerPeer + " is under 1");
        }
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.maxHoldersPerPeer = maxHoldersPerPeer;
        this.timer = timer;
    }

    /** A REGISTER the registry refuses: the status and the message of the answer. */
    public static final class Refused extends Exception {
        private final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    public long leaseMillis() {
        return TimeUnit.NANOSECONDS.toMillis(leaseNanos);
    }

    public long leaseNanos() {
        return leaseNanos;
    }

    public CoherenceCounters counters() {
        return counters;
    }

    /**
     * The holder of that id, made (and given a slot) if new; counts one more connection of it. A holder is bound to
     * the peer that registered it first: another peer's REGISTER for it is refused (FORBIDDEN), and so is a new
     * holder of a peer that already has {@code maxHoldersPerPeer} registered (UNAVAILABLE: one ends when it has no
     * connection left and its lease ran out).
     *
     * @param peer who is registering ({@code PeerIdentity}): a certificate subject with TLS, an IP address without
     */
    public synchronized Holder connect(UUID id, String peer) throws Refused {
        Holder h = byId.get(id);
        long now = System.nanoTime();
        if (h != null && !h.peer().equals(peer)) {
            counters.registrationsRefused.increment();
            throw new Refused(io.sessionmesh.wire.transport.Status.FORBIDDEN, "holder " + id
                    + " is registered by another peer; a holder id belongs to the peer that registered it first");
        }
        if (h == null) {
            int registered = 0;
            for (Holder other : byId.values()) {
                if (other.peer().equals(peer) && !isGone(other, now)) {
                    registered++;
                }
            }
            if (registered >= maxHoldersPerPeer) {
                counters.registrationsRefused.increment();
                throw new Refused(io.sessionmesh.wire.transport.Status.UNAVAILABLE, "peer " + peer + " already has "
                        + registered + " holders registered, the most max-holders-per-peer allows; a holder ends when it"
                        + " has no connection left and its lease ran out");
            }
            h = new Holder(id, peer, freeSlot());
            byId.put(id, h);
            if (h.slot() == SHARED_SLOT) {
                shared.add(h);
            } else {
                slots.set(h.slot(), h);
            }
        }
        h.connected();
        counters.registrations.increment();
        return h;
    }

    /** A connection of {@code h} closed. */
    public void disconnect(Holder h) {
        h.disconnected();
    }

    private int freeSlot() {
        long now = System.nanoTime();
        for (int i = 0; i < OWN_SLOTS; i++) {
            Holder h = slots.get(i);
            if (h == null || isGone(h, now)) {
                if (h != null) {
                    byId.remove(h.id());
                }
                return i;
            }
        }
        shared.removeIf(h -> {
            boolean gone = isGone(h, now);
            if (gone) {
                byId.remove(h.id());
            }
            return gone;
        });
        return SHARED_SLOT;
    }

    private static boolean isGone(Holder h, long now) {
        return h.connections() == 0 && now - h.grantedUntil() > 0;
    }

    /**
     * Tells the holders in {@code mask}, except {@code writer} (null: none), that sections changed; the fence counts
     * one wait per holder told.
     */
    public void invalidate(long mask, Holder writer, Invalidation invalidation, Fence fence) {
        long own = mask & ~SHARED_BIT;
        while (own != 0) {
            int slot = Long.numberOfTrailingZeros(own);
            own &= own - 1;
            Holder h = slots.get(slot);
            if (h != null && h != writer) {
                push(h, invalidation, fence);
            }
        }
        if ((mask & SHARED_BIT) != 0) {
            for (Holder h : shared) {
                if (h != writer) {
                    push(h, invalidation, fence);
                }
            }
        }
    }

    private void push(Holder h, Invalidation invalidation, Fence fence) {
        fence.expect();
        PushTable control = h.control();
        if (control == null || !control.offer(invalidation, fence)) {
            settleAtLease(h, fence, counters, timer);
        }
    }

    /** A holder that cannot be told: the fence stops waiting for it when its latest lease grant runs out. */
    static void settleAtLease(Holder h, Fence fence, CoherenceCounters counters, ScheduledExecutorService timer) {
        long wait = h.grantedUntil() - System.nanoTime();
        counters.leaseExpiries.increment();
        if (wait <= 0) {
            fence.leaseRanOut();
        } else {
            try {
                timer.schedule(fence::leaseRanOut, wait, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                fence.leaseRanOut(); // shutting down
            }
        }
    }

    /**
     * The {@link Invalidator} of writes made by {@code writer} (null: a client that caches nothing): each write that
     * must wait gets a fence that waits for the other holders and the session's previous fenced write.
     */
    public Invalidator invalidatorFor(Holder writer) {
        return (sessionId, holders, sections, versions, previous) -> {
            Fence fence = new Fence();
            if (previous != null) {
                fence.after(previous);
            }
            if (holders != 0) {
                invalidate(holders, writer, new Invalidation(sessionId, nowMicros(), Arrays.asList(sections), versions), fence);
            }
            fence.arm();
            return fence;
        };
    }

    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Registered holders: slots in use and the shared group. */
    public synchronized List<Holder> holders() {
        List<Holder> all = new ArrayList<>();
        for (int i = 0; i < OWN_SLOTS; i++) {
            Holder h = slots.get(i);
            if (h != null) {
                all.add(h);
            }
        }
        all.addAll(shared);
        return all;
    }

    public void putInto(Map<String, Long> stats) {
        List<Holder> all = holders();
        stats.put("holders", (long) all.size());
        stats.put("holders_connected", all.stream().filter(h -> h.connections() > 0).count());
        stats.put("lease_ms", leaseMillis());
        counters.putInto(stats);
    }
}
