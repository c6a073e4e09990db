package io.sessionmesh.master.server;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.Holder;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.coherence.PushTable;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.Registration;
import io.sessionmesh.wire.protocol.FrameBodies;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.master.placement.Placements;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Answers the requests of one connection, in the order they arrive, on the connection's event loop (a store
 * operation takes a fraction of a microsecond; there is nothing to gain from another thread).
 *
 * <p>Answers go into one batch buffer per read (as Redis fills a reply buffer): a pipelined batch of requests is
 * answered with one buffer and one syscall, not one buffer, one promise and one iovec per answer. A batch is
 * written when it passes {@value #BATCH_BYTES} bytes and at the end of each read, then flushed. An answer of
 * {@value #LARGE_ANSWER} bytes or more (a big read) goes in a buffer of its own, after the batch before it.
 *
 * <p>Flow control: a request counts as in flight from its decoding until its answer is on the socket. At
 * {@code maxInFlight} the connection stops reading (TCP pushes back on the client) and reads again once half
 * are out; a request already read past the limit is answered UNAVAILABLE. When the socket will not take more
 * (the client does not read), reading stops too; answers queued beyond {@code maxOutboundBytes} close the
 * connection. Nothing here affects other connections.
 */
final class MasterRequestHandler extends ChannelInboundHandlerAdapter implements PushTable.Sink {
    /** Answers are gathered into a buffer of about this size before it is written. */
    static final int BATCH_BYTES = 16 << 10;
    /** An answer at least this large is written in a buffer of its own, not copied into the batch. */
    static final int LARGE_ANSWER = 8 << 10;

    private static final Logger log = LoggerFactory.getLogger(MasterRequestHandler.class);
    private static final byte[] EMPTY = {};

    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final ServerCounters counters;
    private final StatsSource stats;
    private final int maxInFlight;
    private final long maxOutboundBytes;
    private final HolderRegistry holders;

    private ChannelHandlerContext ctx;
    /** Answers not yet written to the channel, and how many. */
    private ByteBuf batch;
    private int batchAnswers;
    /** Answers made and not yet on the socket (in the batch, or written and not yet completed, or waiting on a fence). */
    private int inFlight;
    /** The cache this connection belongs to (null: an anonymous client, which caches nothing). */
    private Holder holder;
    /** Its pushes, when this is its control connection. */
    private PushTable pushes;
    private Invalidator invalidator;

    MasterRequestHandler(SessionStore store, BinaryTransportCodec codec, ServerCounters counters, StatsSource stats,
                         int maxInFlight, long maxOutboundBytes, HolderRegistry holders) {
        this.holders = holders;
        this.invalidator = holders.invalidatorFor(null);
        this.store = store;
        this.codec = codec;
        this.counters = counters;
        this.stats = stats;
        this.maxInFlight = maxInFlight;
        this.maxOutboundBytes = maxOutboundBytes;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof InvalidFrame invalid) {
            counters.invalidFrames.increment();
            FrameBodies.appendError(batch(), invalid.opcode(), invalid.requestId(), invalid.status(), invalid.message());
            answered();
            if (invalid.fatal()) {
                log.debug("closing {}: {}", ctx.channel().remoteAddress(), invalid.message());
                ctx.channel().config().setAutoRead(false);
                writeBatch();
                ctx.writeAndFlush(ctx.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
            }
            return;
        }
        Frame frame = (Frame) msg;
        try {
            if (frame.isResponse() && frame.opcode() == Opcodes.INVALIDATE && pushes != null) {
                pushes.confirmed(frame.requestId()); // a holder confirms an invalidation: no answer
                return;
            }
            counters.requests.increment();
            if (inFlight >= maxInFlight) {
                counters.inFlightRefused.increment();
                FrameBodies.appendError(batch(), frame.opcode(), frame.requestId(), Status.UNAVAILABLE,
                        "more than " + maxInFlight + " requests in flight on this connection; wait for answers");
            } else if (!answer(frame)) {
                return; // answered later, when its fence is done
            }
            answered();
        } finally {
            frame.release();
        }
    }

    /** Appends the answer to one request; false if it will be answered later (a write waiting on its fence). */
    private boolean answer(Frame frame) {
        int op = frame.opcode();
        int id = frame.requestId();
        ByteBuf body = frame.body();
        int ok = FrameHeader.FLAG_RESPONSE;
        try {
            if (frame.isResponse()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "a client sent an answer frame (flags 0x"
                        + Integer.toHexString(frame.flags()) + ")" + (op == Opcodes.INVALIDATE
                        ? " confirming an invalidation on a connection that is not its control connection" : ""));
            }
            switch (op) {
                case Opcodes.READ -> {
                    EncodedReadResult result = store.read(FrameBodies.readMessage(codec, body, ReadRequest.class),
                            holder == null ? 0 : holder.bit());
                    ByteBuf out = target(FrameBodies.readResultFrameSize(codec, result) + FrameBodies.SESSION_TIMES_BYTES);
                    int start = out.writerIndex();
                    FrameBodies.appendReadResult(out, codec, id, result);
                    appendTimes(out, start, result.sessionId());
                }
                case Opcodes.WRITE -> {
                    SessionStore.Written written = store.write(FrameBodies.readMessage(codec, body, WriteRequest.class),
                            holder == null ? 0 : holder.bit(), invalidator);
                    WriteResult result = written.result();
                    boolean now = written.fence() == null || written.fence().isDone();
                    ByteBuf out = now ? batch() : ctx.alloc().directBuffer(FrameHeader.BYTES + 64
                            + codec.encodedSize(result) + FrameBodies.SESSION_TIMES_BYTES);
                    int start = out.writerIndex();
                    FrameBodies.appendMessage(out, codec, op, ok, id, result);
                    appendTimes(out, start, result.sessionId());
                    if (!now) {
                        answerAfter(written.fence(), out);
                        return false;
                    }
                }
                case Opcodes.TOUCH -> {
                    String sessionId = FrameBodies.readSessionId(body);
                    store.touch(sessionId);
                    ByteBuf out = batch();
                    int start = out.writerIndex();
                    FrameBodies.appendBytes(out, op, ok, Status.OK, id, EMPTY);
                    appendTimes(out, start, sessionId);
                }
                case Opcodes.CREATE -> create(id, body);
                case Opcodes.DELETE -> {
                    Fence fence = store.delete(FrameBodies.readSessionId(body), holder == null ? 0 : holder.bit(), invalidator);
                    if (fence != null && !fence.isDone()) {
                        answerAfter(fence, FrameBodies.appendBytes(ctx.alloc().directBuffer(FrameHeader.BYTES), op, ok,
                                Status.OK, id, EMPTY));
                        return false;
                    }
                    FrameBodies.appendBytes(batch(), op, ok, Status.OK, id, EMPTY);
                }
                case Opcodes.PING -> {
                    if (body.readableBytes() > FrameHeader.MAX_PING_BYTES) {
                        throw new MalformedMessageException(Status.TOO_LARGE, "ping body of " + body.readableBytes()
                                + " bytes is above the limit of " + FrameHeader.MAX_PING_BYTES);
                    }
                    if (pushes != null && holder.isControl(pushes)) {
                        holder.granted(System.nanoTime() + holders.leaseNanos());
                    }
                    FrameBodies.appendCopy(batch(), op, ok, Status.OK, id, body);
                }
                case Opcodes.REGISTER -> register(id, body);
                case Opcodes.SCHEMA_PUBLISH -> {
                    long uid = FrameBodies.readUid(body, false);
                    byte[] schema = new byte[body.readableBytes() - 8];
                    body.getBytes(body.readerIndex() + 8, schema);
                    store.schemas().publish(uid, schema);
                    FrameBodies.appendBytes(batch(), op, ok, Status.OK, id, EMPTY);
                }
                case Opcodes.SCHEMA_FETCH -> {
                    long uid = FrameBodies.readUid(body, true);
                    byte[] schema = store.schemas().fetch(uid);
                    if (schema == null) {
                        throw new StoreException(Status.NOT_FOUND, "no schema " + Long.toHexString(uid));
                    }
                    FrameBodies.appendBytes(target(FrameHeader.BYTES + schema.length), op, ok, Status.OK, id, schema);
                }
                case Opcodes.STATS -> FrameBodies.appendBytes(batch(), op, ok, Status.OK, id, stats.statsJson());
                default -> throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "opcode " + op
                        + " is unknown to this master (frame version " + FrameHeader.VERSION + ")");
            }
        } catch (StoreException e) {
            counters.errors.increment();
            FrameBodies.appendError(batch(), op, id, e.status(), e.getMessage());
        } catch (MalformedMessageException e) {
            counters.errors.increment();
            FrameBodies.appendError(batch(), op, id, e.status(), Opcodes.name(op) + ": " + e.getMessage());
        } catch (RuntimeException e) {
            counters.internalErrors.increment();
            log.error("{} request failed on {}", Opcodes.name(op), ctx.channel(), e);
            FrameBodies.appendError(batch(), op, id, Status.INTERNAL, Opcodes.name(op) + " failed: " + e);
        }
        return true;
    }

    /**
     * REGISTER: this connection belongs to a cache from now on (its reads make it a holder, its writes do not
     * invalidate itself); on its control connection, invalidations are pushed here and the answer grants its lease.
     */
    private void register(int id, ByteBuf body) {
        Registration.Request request = Registration.readRequest(body);
        if (holder != null && !holder.id().equals(request.holder())) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "this connection is already registered as another holder");
        }
        if (holder == null) {
            holder = holders.connect(request.holder());
            invalidator = holders.invalidatorFor(holder);
        }
        if (request.control()) {
            if (pushes != null) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "this connection is already a control connection");
            }
            PushTable table = new PushTable(holder, this, ctx.channel().eventLoop(), holders.counters());
            if (!holder.takeControl(table, request.sequence())) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "control sequence " + request.sequence()
                        + " is superseded: a newer control connection of " + holder + " registered");
            }
            pushes = table;
        }
        if (pushes != null && holder.isControl(pushes)) {
            holder.granted(System.nanoTime() + holders.leaseNanos());
        }
        ByteBuf out = batch();
        out.ensureWritable(FrameHeader.BYTES + Registration.ANSWER_BYTES);
        FrameHeader.write(out, Opcodes.REGISTER, FrameHeader.FLAG_RESPONSE, Status.OK, id, Registration.ANSWER_BYTES);
        out.writeInt((int) holders.leaseMillis());
        out.writeByte(holder.slot());
    }

    /** A write's answer, made now and sent once its fence is done (on this connection's loop). */
    private void answerAfter(Fence fence, ByteBuf answer) {
        inFlight++;
        fence.whenDone(() -> {
            try {
                ctx.executor().execute(() -> {
                    holders.counters().fenceDone(fence.elapsedNanos());
                    writeBatch();
                    ctx.writeAndFlush(answer).addListener(new Written(1));
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                answer.release(); // shutting down
            }
        });
        if (inFlight >= maxInFlight && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    // ---- pushes (PushTable.Sink), on this connection's loop ----

    @Override
    public void writePush(ByteBuf frame) {
        writeBatch();
        ctx.writeAndFlush(frame, ctx.voidPromise());
    }

    @Override
    public ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (pushes != null) {
            pushes.closed();
        }
        if (holder != null) {
            holders.disconnect(holder);
        }
        super.channelInactive(ctx);
    }

    /** Appends the session's times to the frame that starts at {@code frameStart} (PROTOCOL.md 3.2). */
    private void appendTimes(ByteBuf out, int frameStart, String sessionId) {
        SessionStore.SessionTimes times = store.times(sessionId);
        FrameBodies.appendSessionTimes(out, frameStart, times == null ? 0 : times.idleTimeoutMillis(),
                times == null ? 0 : times.lifetimeLeftMillis());
    }

    private void create(int id, ByteBuf body) {
        Duration idle = null;
        java.util.function.Predicate<String> accept = candidate -> true;
        int n = body.readableBytes();
        if (n != 0) {
            if (n < 4) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "CREATE body of " + n
                        + " bytes: expected none, or a 4-byte idle timeout in milliseconds and perhaps a placement");
            }
            long ms = body.getUnsignedInt(body.readerIndex());
            idle = ms == 0 ? null : Duration.ofMillis(ms);
            if (n > 4) {
                Placement placement = Placement.readFrom(body.slice(body.readerIndex() + 4, n - 4));
                HashRing<Integer> ring = Placements.ring(placement);
                int self = placement.self();
                accept = candidate -> ring.indexFor(candidate) == self;
            }
        }
        SessionStore.CreatedSession created = store.create(idle, accept);
        byte[] sid = FrameBodies.sessionIdBytes(created.id());
        ByteBuf out = batch();
        out.ensureWritable(FrameHeader.BYTES + 8 + sid.length);
        FrameHeader.write(out, Opcodes.CREATE, FrameHeader.FLAG_RESPONSE, Status.OK, id, 8 + sid.length);
        out.writeInt((int) created.idleTimeout().toMillis());
        out.writeInt((int) Math.min(created.maxLifetime().toMillis(), 0xFFFF_FFFFL));
        out.writeBytes(sid);
    }

    // ---- the answer batch ----

    private ByteBuf batch() {
        if (batch == null) {
            batch = ctx.alloc().directBuffer(BATCH_BYTES);
        }
        return batch;
    }

    /** Where an answer of {@code size} bytes goes: the batch, or (when large) a buffer of its own after the batch. */
    private ByteBuf target(int size) {
        if (size < LARGE_ANSWER) {
            return batch();
        }
        writeBatch();
        batch = ctx.alloc().directBuffer(size);
        return batch;
    }

    /** One more answer is in the batch. */
    private void answered() {
        batchAnswers++;
        inFlight++;
        if (batch.readableBytes() >= BATCH_BYTES) {
            writeBatch();
        }
        if (inFlight >= maxInFlight && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Writes the batch to the channel (not flushed); its answers leave flight when the write completes. */
    private void writeBatch() {
        if (batch == null) {
            return;
        }
        ByteBuf out = batch;
        int answers = batchAnswers;
        batch = null;
        batchAnswers = 0;
        if (!out.isReadable()) {
            out.release();
            return;
        }
        ctx.write(out).addListener(new Written(answers));
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (outbound != null && outbound.totalPendingWriteBytes() > maxOutboundBytes) {
            counters.slowConsumerClosed.increment();
            log.warn("closing {}: {} bytes of answers queued and not read (limit {})", ctx.channel().remoteAddress(),
                    outbound.totalPendingWriteBytes(), maxOutboundBytes);
            ctx.close();
        }
    }

    /** Answers of one written batch are on the socket (or the write failed): they leave flight. */
    private final class Written implements ChannelFutureListener {
        private final int answers;

        Written(int answers) {
            this.answers = answers;
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            inFlight -= answers;
            Channel ch = future.channel();
            if (inFlight <= maxInFlight / 2 && ch.isActive() && ch.isWritable() && !ch.config().isAutoRead()
                    && !counters.draining) {
                ch.config().setAutoRead(true);
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writeBatch();
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        boolean writable = ctx.channel().isWritable();
        if (!writable) {
            ctx.flush();
        }
        ctx.channel().config().setAutoRead(writable && inFlight < maxInFlight && !counters.draining);
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            counters.idleClosed.increment();
            log.debug("closing idle connection {}", ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /** Where the STATS answer comes from. */
    interface StatsSource {
        byte[] statsJson();
    }
}
