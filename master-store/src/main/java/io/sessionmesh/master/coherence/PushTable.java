package io.sessionmesh.master.coherence;

import io.sessionmesh.wire.protocol.Invalidation;

import io.netty.channel.EventLoop;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The invalidations pushed on one control connection and not yet confirmed. Lives on the connection's event loop,
 * like the connection's answers, so a push and the lease grants around it leave in one order: the deadline of a
 * push is the holder's latest grant at the moment the push is written.
 *
 * <p>Deadlines never go down, so the unconfirmed pushes wait in a queue in deadline order, with one timer for the
 * head; a push confirmed meanwhile is skipped when it comes up. When the connection closes, what is unconfirmed
 * waits out its deadline all the same: the holder may still serve old copies until then. A push that runs out its
 * deadline unconfirmed ends the connection's lease for good ({@link #lapsed()}).
 */
public final class PushTable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PushTable.class);

    private final Holder holder;
    private final Sink sink;
    private final EventLoop loop;
    private final CoherenceCounters counters;
    private final IntObjectHashMap<Push> unconfirmed = new IntObjectHashMap<>();
    private final ArrayDeque<Push> byDeadline = new ArrayDeque<>();
    private ScheduledFuture<?> timer;
    private int nextId = 1;
    private volatile boolean open = true;
    /**
     * Set once a push ran past its deadline unconfirmed: the holder was told a copy is old and did not say it dropped
     * it. Its lease is not renewed on this connection from then on ({@link Holder#isControl}): a holder that pings but
     * ignores invalidations would otherwise go on serving the old copy under a lease renewed after the write went on.
     * Only a new control connection (a new lease epoch on the holder's side, which serves nothing cached before) gets
     * a lease again.
     */
    private volatile boolean lapsed;

    /** Where a push goes: the connection, after the answers made before it, flushed. Called on the loop. */
    @FunctionalInterface
    public interface Sink {
        void push(Invalidation.Push push);
    }

    public PushTable(Holder holder, Sink sink, EventLoop loop, CoherenceCounters counters) {
        this.holder = holder;
        this.sink = sink;
        this.loop = loop;
        this.counters = counters;
    }

    public Holder holder() {
        return holder;
    }

    /** Queues a push on the loop; false if the connection is already closed. */
    boolean offer(Invalidation invalidation, Fence fence) {
        if (!open) {
            return false;
        }
        try {
            loop.execute(() -> send(invalidation, fence));
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false; // the master is shutting down
        }
    }

    private void send(Invalidation invalidation, Fence fence) {
        long deadline = holder.grantedUntil();
        if (!open) {
            HolderRegistry.settleAtLease(holder, fence, counters, loop);
            return;
        }
        int id = nextId++;
        if (nextId == 0) {
            nextId = 1;
        }
        Push p = new Push(id, deadline, fence);
        unconfirmed.put(id, p);
        byDeadline.add(p);
        counters.pushesSent.increment();
        sink.push(invalidation.asPush(id));
        if (timer == null) {
            arm(p.deadline);
        }
    }

    /** The holder confirmed push {@code id}; on the loop. */
    public void confirmed(int id) {
        Push p = unconfirmed.remove(id);
        if (p != null && !p.settled) {
            p.settled = true;
            counters.pushesConfirmed.increment();
            p.fence.confirmed();
        }
    }

    /** The connection closed; on the loop. Unconfirmed pushes wait for their deadlines. */
    public void closed() {
        open = false;
        holder.controlClosed(this);
    }

    private void arm(long deadline) {
        long delay = Math.max(0, deadline - System.nanoTime());
        timer = loop.schedule(this::sweep, delay, TimeUnit.NANOSECONDS);
    }

    private void sweep() {
        timer = null;
        long now = System.nanoTime();
        for (Push p; (p = byDeadline.peek()) != null; ) {
            if (p.settled) {
                byDeadline.poll();
            } else if (now - p.deadline >= 0) {
                byDeadline.poll();
                unconfirmed.remove(p.id);
                p.settled = true;
                counters.leaseExpiries.increment();
                p.fence.leaseRanOut();
                if (open && !lapsed) {
                    lapsed = true;
                    log.warn("holder in slot {} of peer {} did not confirm an invalidation within its lease: no more "
                            + "lease on this control connection until it registers a new one", holder.slot(), holder.peer());
                }
            } else {
                arm(p.deadline);
                return;
            }
        }
    }

    /** Whether a push on this connection ran past its deadline unconfirmed: its lease is not renewed any more. */
    public boolean lapsed() {
        return lapsed;
    }

    /** Pushes written and not yet confirmed or expired. */
    public int unconfirmed() {
        return unconfirmed.size();
    }

    private static final class Push {
        final int id;
        final long deadline;
        final Fence fence;
        boolean settled;

        Push(int id, long deadline, Fence fence) {
            this.id = id;
            this.deadline = deadline;
            this.fence = fence;
        }
    }
}
