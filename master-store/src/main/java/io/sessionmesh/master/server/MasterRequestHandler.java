package io.sessionmesh.master.server;

import io.sessionmesh.master.protocol.Frame;
import io.sessionmesh.master.protocol.FrameBodies;
import io.sessionmesh.master.protocol.FrameHeader;
import io.sessionmesh.master.protocol.InvalidFrame;
import io.sessionmesh.master.protocol.Opcodes;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.serialization.transport.BinaryTransportCodec;
import io.sessionmesh.serialization.transport.MalformedMessageException;
import io.sessionmesh.serialization.transport.ReadRequest;
import io.sessionmesh.serialization.transport.Status;
import io.sessionmesh.serialization.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
 * operation takes microseconds; there is nothing to gain from another thread). Answers are written as they are
 * made and flushed once per read batch, so a pipelined batch goes back in one syscall.
 *
 * <p>Flow control: a request counts as in flight from its decoding until its answer is on the socket. At
 * {@code maxInFlight} the connection stops reading (TCP pushes back on the client) and reads again at half of
 * it; a request already read past the limit is answered UNAVAILABLE. When the socket will not take more
 * (the client does not read), reading stops too; answers queued beyond {@code maxOutboundBytes} close the
 * connection. Nothing here affects other connections.
 */
final class MasterRequestHandler extends ChannelInboundHandlerAdapter implements ChannelFutureListener {
    private static final Logger log = LoggerFactory.getLogger(MasterRequestHandler.class);

    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final ServerCounters counters;
    private final StatsSource stats;
    private final int maxInFlight;
    private final long maxOutboundBytes;
    private int inFlight;

    MasterRequestHandler(SessionStore store, BinaryTransportCodec codec, ServerCounters counters, StatsSource stats,
                         int maxInFlight, long maxOutboundBytes) {
        this.store = store;
        this.codec = codec;
        this.counters = counters;
        this.stats = stats;
        this.maxInFlight = maxInFlight;
        this.maxOutboundBytes = maxOutboundBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof InvalidFrame invalid) {
            counters.invalidFrames.increment();
            send(ctx, FrameBodies.error(ctx.alloc(), invalid.opcode(), invalid.requestId(), invalid.status(), invalid.message()));
            if (invalid.fatal()) {
                log.debug("closing {}: {}", ctx.channel().remoteAddress(), invalid.message());
                ctx.channel().config().setAutoRead(false);
                ctx.writeAndFlush(ctx.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
            }
            return;
        }
        Frame frame = (Frame) msg;
        try {
            counters.requests.increment();
            if (inFlight >= maxInFlight) {
                counters.inFlightRefused.increment();
                send(ctx, FrameBodies.error(ctx.alloc(), frame.opcode(), frame.requestId(), Status.UNAVAILABLE,
                        "more than " + maxInFlight + " requests in flight on this connection; wait for answers"));
                return;
            }
            send(ctx, answer(ctx.alloc(), frame));
        } finally {
            frame.release();
        }
    }

    private ByteBuf answer(ByteBufAllocator alloc, Frame frame) {
        int op = frame.opcode();
        int id = frame.requestId();
        ByteBuf body = frame.body();
        int ok = FrameHeader.FLAG_RESPONSE;
        try {
            if (frame.isResponse()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "a client sent an answer frame (flags 0x"
                        + Integer.toHexString(frame.flags()) + ")");
            }
            return switch (op) {
                case Opcodes.READ -> FrameBodies.message(alloc, codec, op, ok, id,
                        store.read(FrameBodies.readMessage(codec, body, ReadRequest.class)));
                case Opcodes.WRITE -> FrameBodies.message(alloc, codec, op, ok, id,
                        store.write(FrameBodies.readMessage(codec, body, WriteRequest.class)));
                case Opcodes.TOUCH -> {
                    store.touch(FrameBodies.readSessionId(body));
                    yield FrameBodies.bytes(alloc, op, ok, Status.OK, id, EMPTY);
                }
                case Opcodes.CREATE -> create(alloc, id, body);
                case Opcodes.DELETE -> {
                    store.delete(FrameBodies.readSessionId(body));
                    yield FrameBodies.bytes(alloc, op, ok, Status.OK, id, EMPTY);
                }
                case Opcodes.PING -> {
                    if (body.readableBytes() > FrameHeader.MAX_PING_BYTES) {
                        throw new MalformedMessageException(Status.TOO_LARGE, "ping body of " + body.readableBytes()
                                + " bytes is above the limit of " + FrameHeader.MAX_PING_BYTES);
                    }
                    yield FrameBodies.copy(alloc, op, ok, Status.OK, id, body);
                }
                case Opcodes.SCHEMA_PUBLISH -> {
                    long uid = FrameBodies.readUid(body, false);
                    byte[] schema = new byte[body.readableBytes() - 8];
                    body.getBytes(body.readerIndex() + 8, schema);
                    store.schemas().publish(uid, schema);
                    yield FrameBodies.bytes(alloc, op, ok, Status.OK, id, EMPTY);
                }
                case Opcodes.SCHEMA_FETCH -> {
                    long uid = FrameBodies.readUid(body, true);
                    byte[] schema = store.schemas().fetch(uid);
                    if (schema == null) {
                        throw new StoreException(Status.NOT_FOUND, "no schema " + Long.toHexString(uid));
                    }
                    yield FrameBodies.bytes(alloc, op, ok, Status.OK, id, schema);
                }
                case Opcodes.STATS -> FrameBodies.bytes(alloc, op, ok, Status.OK, id, stats.statsJson());
                default -> throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "opcode " + op
                        + " is unknown to this master (frame version " + FrameHeader.VERSION + ")");
            };
        } catch (StoreException e) {
            counters.errors.increment();
            return FrameBodies.error(alloc, op, id, e.status(), e.getMessage());
        } catch (MalformedMessageException e) {
            counters.errors.increment();
            return FrameBodies.error(alloc, op, id, e.status(), Opcodes.name(op) + ": " + e.getMessage());
        } catch (RuntimeException e) {
            counters.internalErrors.increment();
            log.error("{} request failed on {}", Opcodes.name(op), body, e);
            return FrameBodies.error(alloc, op, id, Status.INTERNAL, Opcodes.name(op) + " failed: " + e);
        }
    }

    private ByteBuf create(ByteBufAllocator alloc, int id, ByteBuf body) {
        Duration idle;
        int n = body.readableBytes();
        if (n == 0) {
            idle = null;
        } else if (n == 4) {
            long ms = body.getUnsignedInt(body.readerIndex());
            idle = ms == 0 ? null : Duration.ofMillis(ms);
        } else {
            throw new MalformedMessageException(Status.BAD_REQUEST, "CREATE body of " + n
                    + " bytes: expected none or a 4-byte idle timeout in milliseconds");
        }
        SessionStore.CreatedSession created = store.create(idle);
        byte[] sid = FrameBodies.sessionIdBytes(created.id());
        ByteBuf buf = alloc.heapBuffer(FrameHeader.BYTES + 8 + sid.length);
        FrameHeader.write(buf, Opcodes.CREATE, FrameHeader.FLAG_RESPONSE, Status.OK, id, 8 + sid.length);
        buf.writeInt((int) created.idleTimeout().toMillis());
        buf.writeInt((int) Math.min(created.maxLifetime().toMillis(), 0xFFFF_FFFFL));
        buf.writeBytes(sid);
        return buf;
    }

    private void send(ChannelHandlerContext ctx, ByteBuf answer) {
        inFlight++;
        ctx.write(answer).addListener(this);
        if (inFlight >= maxInFlight && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
        }
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (out != null && out.totalPendingWriteBytes() > maxOutboundBytes) {
            counters.slowConsumerClosed.increment();
            log.warn("closing {}: {} bytes of answers queued and not read (limit {})", ctx.channel().remoteAddress(),
                    out.totalPendingWriteBytes(), maxOutboundBytes);
            ctx.close();
        }
    }

    /** A write of an answer completed (or failed): one request fewer in flight. */
    @Override
    public void operationComplete(ChannelFuture future) {
        inFlight--;
        if (inFlight <= maxInFlight / 2 && future.channel().isWritable() && !future.channel().config().isAutoRead()
                && future.channel().isActive()) {
            future.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        boolean writable = ctx.channel().isWritable();
        if (!writable) {
            ctx.flush();
        }
        ctx.channel().config().setAutoRead(writable && inFlight < maxInFlight);
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

    private static final byte[] EMPTY = {};

    /** Where the STATS answer comes from. */
    interface StatsSource {
        byte[] statsJson();
    }
}
