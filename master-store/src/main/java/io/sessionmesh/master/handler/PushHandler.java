package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.CoherenceCounters;
import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.PushTable;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

import java.util.concurrent.RejectedExecutionException;

/**
 * Pushes and fences of one connection (PROTOCOL.md 3.7). Out: the invalidations its {@link PushTable} sends when this
 * is a control connection, written after the answers made before them and flushed, so that a push and the lease
 * grants around it leave in one order; {@link FencedAnswer}s, held back until their fence is done (every other
 * holder confirmed or lost its lease) and then written on this connection's loop; and {@link DeferredAnswer}s, written
 * there when they are made. In: a holder's confirmation of a
 * push, which releases that push's fences; on a connection that is not a control connection it is answered
 * BAD_REQUEST.
 */
public final class PushHandler extends ChannelDuplexHandler implements PushTable.Sink {
    private final ConnectionRegistration registration;
    private final CoherenceCounters counters;
    private final ServerCounters serverCounters;
    private ChannelHandlerContext ctx;
    private final Outbox outbox = new Outbox();

    public PushHandler(ConnectionRegistration registration, CoherenceCounters counters, ServerCounters serverCounters) {
        this.registration = registration;
        this.counters = counters;
        this.serverCounters = serverCounters;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof PushConfirmed confirmation)) {
            ctx.fireChannelRead(msg);
            return;
        }
        PushTable pushes = registration.pushes();
        if (pushes != null) {
            pushes.confirmed(confirmation.pushId()); // a holder confirms an invalidation: no answer
        } else {
            serverCounters.requests.increment();
            serverCounters.errors.increment();
            ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(Opcodes.INVALIDATE, confirmation.pushId(),
                    Status.BAD_REQUEST, "INVALIDATE: a client sent an answer frame (flags 0x"
                    + Integer.toHexString(confirmation.flags()) + ") confirming an invalidation on a connection that is not "
                    + "its control connection"), false));
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof DeferredAnswer deferred) {
            deferred.answer().thenAccept(answer -> {
                if (ctx.executor().inEventLoop()) {
                    ctx.writeAndFlush(answer, promise);
                } else {
                    outbox.add(answer, promise);
                }
            });
            return;
        }
        if (!(msg instanceof FencedAnswer fenced)) {
            ctx.write(msg, promise);
            return;
        }
        Fence fence = fenced.fence();
        if (fence.isDone()) {
            ctx.write(fenced.answer(), promise);
            return;
        }
        fence.whenDone(() -> {
            try {
                ctx.executor().execute(() -> {
                    counters.fenceDone(fence.elapsedNanos());
                    ctx.writeAndFlush(fenced.answer(), promise);
                });
            } catch (RejectedExecutionException e) {
                // The loop is shutting down: the answer goes with the connection.
            }
        });
    }

    /** On the loop (the push table's). */
    @Override
    public void push(Invalidation.Push push) {
        ctx.writeAndFlush(push, ctx.voidPromise());
    }

    /**
     * Answers made off the loop, written by one task on the loop and flushed once: the answers of a Raft entry (a batch
     * of changes, a read barrier shared by many reads) are made together on the thread that applies the log, and leave
     * in one write instead of one task, one wake-up and one system call each.
     */
    private record Made(MasterAnswer answer, ChannelPromise promise) {
    }

    private final class Outbox implements Runnable {
        private final java.util.concurrent.ConcurrentLinkedQueue<Made> answers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final java.util.concurrent.atomic.AtomicBoolean scheduled = new java.util.concurrent.atomic.AtomicBoolean();

        void add(MasterAnswer answer, ChannelPromise promise) {
            answers.add(new Made(answer, promise));
            if (scheduled.compareAndSet(false, true)) {
                try {
                    ctx.executor().execute(this);
                } catch (RejectedExecutionException e) {
                    answers.clear(); // the loop is shutting down: the answers go with the connection
                }
            }
        }

        @Override
        public void run() {
            scheduled.set(false); // before draining: an answer added from now on schedules another run
            Made next;
            boolean wrote = false;
            while ((next = answers.poll()) != null) {
                ctx.write(next.answer(), next.promise());
                wrote = true;
            }
            if (wrote) {
                ctx.flush();
            }
        }
    }
}
