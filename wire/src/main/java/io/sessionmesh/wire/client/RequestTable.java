package io.sessionmesh.wire.client;

import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.OutboundFrame;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The requests of one {@link MasterConnection} waiting for their answers; lives on the channel's event loop, so its
 * tables need no lock. It assigns each request its id as it goes out, matches answers by id (in whatever order they
 * come), decodes them with their request's type, and hands pushes to the {@link InvalidationListener}.
 *
 * <p>Bounds: at most {@code maxInFlight} requests are sent and wait for their answers (the master's own limit per
 * connection: past it the master would refuse them). More wait, in order, in a queue of at most {@code maxQueued}, and
 * go out as answers free slots, written during the read that freed them and flushed at its end (so they leave in
 * batches, as written requests do); only a request that finds the queue full fails at once with UNAVAILABLE.
 * Timeouts: every request of a connection has the same timeout, counted from when it was written here (queued or
 * sent), so deadlines come in the order requests arrive; a sweep every {@value #SWEEP_MILLIS} ms fails the overdue
 * ones at the head of that order with TIMEOUT, queued or in flight. No timer per request. When the connection
 * closes, every waiting request, queued or in flight, fails with UNAVAILABLE.
 *
 * <p>Unknown outcomes: a change ({@link Opcodes#isChange}) that may have reached the master, because a flush of the
 * connection passed it to the socket, and then got no answer (the connection broke, or its time ran out) fails with
 * OUTCOME_UNKNOWN instead: the master may have applied it. Only a change that never left (queued, or written after the
 * connection closed) is UNAVAILABLE, or TIMEOUT when its time ran out in the queue; a read is UNAVAILABLE or TIMEOUT as
 * before. A master's own TIMEOUT for a change (a group that did not confirm it in time, PROTOCOL.md 3.8) is
 * OUTCOME_UNKNOWN too. A flush that meets a closed channel sends nothing, so it does not count.
 */
final class RequestTable extends ChannelDuplexHandler {
    /** How often overdue requests are failed. */
    static final long SWEEP_MILLIS = 50;

    private static final Logger log = LoggerFactory.getLogger(RequestTable.class);

    private final String peer;
    private final MasterConnectionOptions options;
    private final BinaryTransportCodec codec;
    private final InvalidationListener pushes;
    private final IntObjectHashMap<Pending<?>> waiting = new IntObjectHashMap<>();
    /** Queued and sent requests, in the order of their deadlines (the order they were written here). */
    private final ArrayDeque<Pending<?>> byDeadline = new ArrayDeque<>();
    /** Requests written while {@code maxInFlight} were in flight, in order; ids are given as they are sent. */
    private final ArrayDeque<Pending<?>> queued = new ArrayDeque<>();
    /** Requests written to the encoder since the last flush: the next flush may send them. */
    private final ArrayDeque<Pending<?>> unsent = new ArrayDeque<>();
    /** Whether queued requests were sent since the last flush. */
    private boolean unflushed;
    private volatile MasterConnection connection;
    private ScheduledFuture<?> sweeper;
    /** The event loop's clock (a test's EmbeddedChannel moves it by hand). */
    private Ticker ticker = Ticker.systemTicker();
    private int nextId = 1;

    RequestTable(String peer, MasterConnectionOptions options, BinaryTransportCodec codec, InvalidationListener pushes) {
        this.peer = peer;
        this.options = options;
        this.codec = codec;
        this.pushes = pushes;
    }

    void attach(MasterConnection connection) {
        this.connection = connection;
    }

    /** One request on its way out and then waiting for its answer; the frame the encoder writes. */
    static final class Pending<A> implements OutboundFrame {
        final MasterRequest<A> request;
        final CompletableFuture<A> future = new CompletableFuture<>();
        int id;
        long deadline;
        /** A flush passed it to the socket: its bytes may have reached the master (set on the event loop). */
        boolean mayHaveLeft;

        Pending(MasterRequest<A> request) {
            this.request = request;
        }

        /** Whether a failure of this request now leaves its outcome unknown: a change that may have left. */
        boolean outcomeUnknown() {
            return mayHaveLeft && Opcodes.isChange(request.opcode());
        }

        /**
         * Fails the request because its connection broke or its send failed: OUTCOME_UNKNOWN for a change that may have
         * left, else UNAVAILABLE (it certainly did not reach the master).
         */
        void lost(String message, Throwable cause) {
            if (outcomeUnknown()) {
                future.completeExceptionally(new MasterException(Status.OUTCOME_UNKNOWN, message + "; "
                        + Opcodes.name(request.opcode()) + " was sent, and may or may not have been applied", cause));
            } else {
                future.completeExceptionally(new MasterException(Status.UNAVAILABLE, message, cause));
            }
        }

        @Override
        public int opcode() {
            return request.opcode();
        }

        @Override
        public int flags() {
            return request.flags();
        }

        @Override
        public int status() {
            return Status.OK;
        }

        @Override
        public int requestId() {
            return id;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return request.bodySize(codec);
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            request.writeBody(out, codec);
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
            request.writeBody(out, codec, bodySize);
        }

        void answer(Frame frame, String peer, BinaryTransportCodec codec) {
            String op = Opcodes.name(request.opcode());
            if (frame.status() != Status.OK) {
                String message = MasterAnswer.Error.readMessage(frame);
                // A change the master timed out on (a group that did not confirm it in time) may still be applied.
                int status = frame.status() == Status.TIMEOUT && Opcodes.isChange(request.opcode())
                        ? Status.OUTCOME_UNKNOWN : frame.status();
                future.completeExceptionally(new MasterException(status, op + " on " + peer + ": "
                        + Status.name(frame.status()) + ": " + message, message));
                return;
            }
            try {
                future.complete(request.decodeAnswer(frame, codec));
            } catch (RuntimeException e) {
                future.completeExceptionally(new MasterException(Status.INTERNAL, "bad " + op + " answer from " + peer + ": "
                        + e.getMessage(), e));
            }
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.executor() instanceof AbstractScheduledEventExecutor loop) {
            ticker = loop.ticker();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        sweeper = ctx.executor().scheduleAtFixedRate(() -> sweep(ctx), SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    private void sweep(ChannelHandlerContext ctx) {
        long now = ticker.nanoTime();
        for (Pending<?> p; (p = byDeadline.peek()) != null; ) {
            if (p.future.isDone()) {
                byDeadline.poll();
                if (p.id != 0 && waiting.get(p.id) == p) {
                    waiting.remove(p.id); // failed on the way out (its write did not go through): its slot is free
                }
            } else if (now - p.deadline >= 0) {
                byDeadline.poll();
                if (p.id == 0) {
                    // Never sent: every request queued before it is overdue too, or already sent.
                    p.future.completeExceptionally(new MasterException(Status.TIMEOUT, Opcodes.name(p.opcode()) + " on "
                            + peer + ": not sent in " + options.requestTimeout().toMillis() + " ms, queued behind "
                            + waiting.size() + " requests in flight (the limit, maxInFlight " + options.maxInFlight()
                            + "), " + queued.size() + " queued"));
                } else {
                    waiting.remove(p.id);
                    String late = Opcodes.name(p.opcode()) + " on " + peer + ": no answer in "
                            + options.requestTimeout().toMillis() + " ms (" + waiting.size() + " other requests waiting, "
                            + queued.size() + " queued)";
                    p.future.completeExceptionally(p.outcomeUnknown()
                            ? new MasterException(Status.OUTCOME_UNKNOWN, late + "; it was sent, and may or may not have"
                                    + " been applied")
                            : new MasterException(Status.TIMEOUT, late));
                }
            } else {
                break;
            }
        }
        while (!queued.isEmpty() && queued.peek().future.isDone()) {
            queued.poll(); // timed out while queued: no longer takes a place in the queue
        }
        sendQueued(ctx);
        if (unflushed) {
            unflushed = false;
            flushed(ctx);
            ctx.flush();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Pending<?> p)) {
            ctx.write(msg, promise);
            return;
        }
        if (!ctx.channel().isActive()) {
            p.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " is closed"));
            promise.trySuccess();
            return;
        }
        try {
            p.request.bodySize(codec); // a body that cannot be encoded fails its request alone, with the codec's reason
        } catch (RuntimeException e) {
            p.future.completeExceptionally(e);
            promise.trySuccess();
            return;
        }
        if (waiting.size() >= options.maxInFlight() || !queued.isEmpty()) {
            if (queued.size() >= options.maxQueued()) {
                p.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, options.maxInFlight()
                        + " requests already wait for answers from " + peer + " and " + queued.size()
                        + " more are queued (maxInFlight " + options.maxInFlight() + ", maxQueued " + options.maxQueued() + ")"));
                promise.trySuccess();
                return;
            }
            // Waits for a slot: its timeout runs from now. Its write is done as far as the caller can tell; a failure
            // to send it later fails its future.
            p.deadline = ticker.nanoTime() + options.requestTimeout().toNanos();
            byDeadline.add(p);
            queued.add(p);
            promise.trySuccess();
            return;
        }
        p.deadline = ticker.nanoTime() + options.requestTimeout().toNanos();
        byDeadline.add(p);
        send(ctx, p, promise);
    }

    private void send(ChannelHandlerContext ctx, Pending<?> p, ChannelPromise promise) {
        p.id = nextId++;
        if (nextId == 0) {
            nextId = 1;
        }
        waiting.put(p.id, p);
        unsent.add(p);
        ctx.write(p, promise);
    }

    /** Every request written since the last flush may leave with this one (PROTOCOL.md 3.12: unknown outcomes). */
    @Override
    public void flush(ChannelHandlerContext ctx) {
        flushed(ctx);
        ctx.flush();
    }

    /** Marks what the next flush sends; call before every {@code ctx.flush()} of this handler's own. */
    private void flushed(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            for (Pending<?> p; (p = unsent.poll()) != null; ) {
                p.mayHaveLeft = true;
            }
        }
    }

    /** Sends queued requests while there are free slots (without a flush: the caller flushes). */
    private void sendQueued(ChannelHandlerContext ctx) {
        while (waiting.size() < options.maxInFlight() && !queued.isEmpty()) {
            Pending<?> p = queued.poll();
            if (p.future.isDone()) {
                continue; // timed out while queued
            }
            ChannelPromise written = ctx.newPromise();
            written.addListener(f -> {
                if (!f.isSuccess()) {
                    p.lost("cannot send " + Opcodes.name(p.opcode()) + " to " + peer + ": " + f.cause(), f.cause());
                }
            });
            send(ctx, p, written);
            unflushed = true;
        }
    }

    /** The read's answers freed slots: what queued requests took them goes out now, in one flush. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (unflushed) {
            unflushed = false;
            flushed(ctx);
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof InvalidFrame invalid) {
            if (invalid.fatal() || invalid.requestId() == 0) {
                failAll(new MasterException(Status.UNAVAILABLE, "bad frame from " + peer + ": " + invalid.message()));
                ctx.close();
            } else {
                // An answer too large for us: that request fails alone; its body is skipped, the stream goes on.
                Pending<?> p = waiting.remove(invalid.requestId());
                if (p != null) {
                    p.future.completeExceptionally(new MasterException(invalid.status(), Opcodes.name(p.opcode()) + " on "
                            + peer + ": the answer " + invalid.message()));
                }
                sendQueued(ctx);
            }
            return;
        }
        Frame frame = (Frame) msg;
        try {
            answered(ctx, frame);
        } finally {
            frame.release();
        }
        sendQueued(ctx);
    }

    /** A frame that is not an invalid one: a push, a refusal of the connection, or an answer. */
    private void answered(ChannelHandlerContext ctx, Frame frame) {
        if (frame.isPush() || frame.requestId() == 0 && !frame.isResponse()) {
            push(ctx, frame);
        } else if (frame.requestId() == 0 && frame.status() != Status.OK) {
            // The master refused the connection: UNAVAILABLE at its connection limit, before it handled any request (so
            // nothing sent on it was applied); anything else (bytes it could not frame) after it may have handled some.
            failAll(new MasterException(frame.status(), peer + ": " + MasterAnswer.Error.readMessage(frame)),
                    frame.status() != Status.UNAVAILABLE);
        } else {
            Pending<?> p = waiting.remove(frame.requestId());
            if (p != null) {
                p.answer(frame, peer, codec);
            }
        }
    }

    /** A frame the master sent unasked: an INVALIDATE, decoded for the listener; anything else ends the connection. */
    private void push(ChannelHandlerContext ctx, Frame frame) {
        String problem;
        if (frame.opcode() != Opcodes.INVALIDATE) {
            problem = "pushed " + frame + ", which this client does not know";
        } else {
            try {
                Invalidation invalidation = Invalidation.readFrom(frame.body());
                if (pushes != null && connection != null) {
                    pushes.onInvalidation(connection, frame.requestId(), invalidation);
                }
                return;
            } catch (MalformedMessageException e) {
                problem = "pushed a bad invalidation (" + e.getMessage() + ")";
            }
        }
        // The cache cannot tell what changed: the connection closes, which ends its lease, so it trusts nothing cached.
        log.error("{} {}; closing the connection", peer, problem);
        if (pushes != null && connection != null) {
            pushes.onBadPush(connection, problem);
        }
        failAll(new MasterException(Status.UNAVAILABLE, peer + " " + problem));
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (sweeper != null) {
            sweeper.cancel(false);
        }
        failAll(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " closed"));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A TLS handshake refused (TLS 1.3: the master checks the client's certificate after the client has written its
        // first requests): the master took no application byte, so nothing sent was applied.
        failAll(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " failed: " + cause, cause),
                !handshakeRefused(cause));
        ctx.close();
    }

    private static boolean handshakeRefused(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Fails every request, sent or queued, with {@code e}, except a change that may have left: that one's outcome is
     * unknown ({@link Pending#lost}).
     */
    private void failAll(MasterException e) {
        failAll(e, true);
    }

    /** {@link #failAll(MasterException)}; without {@code unknownIfSent} when the master handled nothing of them. */
    private void failAll(MasterException e, boolean unknownIfSent) {
        List<Pending<?>> all = new ArrayList<>(waiting.values());
        all.addAll(queued);
        waiting.clear();
        queued.clear();
        byDeadline.clear();
        unsent.clear();
        for (Pending<?> p : all) {
            if (unknownIfSent && p.outcomeUnknown()) {
                p.lost(e.getMessage(), e);
            } else {
                p.future.completeExceptionally(e);
            }
        }
    }

    /** Requests waiting for their answers (on the event loop). */
    int waiting() {
        return waiting.size();
    }

    /** Requests waiting for a slot (on the event loop). */
    int queued() {
        return queued.size();
    }
}
