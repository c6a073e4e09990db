package io.sessionmesh.wire.client;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameBodies;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.Registration;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportMessage;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One pipelined connection to a master: any number of threads send requests, each gets a future, answers are
 * matched by request id (in whatever order they come). Bounded: at most {@code maxInFlight} requests wait for
 * an answer (more fail at once with UNAVAILABLE); each has a timeout (TIMEOUT); when the connection closes,
 * every waiting request fails with UNAVAILABLE. No reconnect here: a pool above it replaces dead connections.
 *
 * <p>Requests are written from the caller's thread through the channel; the request-id table is touched only
 * on the channel's event loop, so it needs no lock. Futures complete on the event loop: callers must not block
 * in their callbacks.
 */
public final class MasterConnection implements AutoCloseable {
    private final Channel channel;
    private final BinaryTransportCodec codec;
    private final String peer;

    private MasterConnection(Channel channel, BinaryTransportCodec codec, String peer) {
        this.channel = channel;
        this.codec = codec;
        this.peer = peer;
        channel.pipeline().get(RequestTable.class).connection = this;
    }

    /** Receives the frames a master sends unasked (INVALIDATE), on the connection's event loop, in stream order. */
    @FunctionalInterface
    public interface PushHandler {
        /** The frame is released after the call. */
        void onPush(MasterConnection connection, Frame push);
    }

    /**
     * Connects, waiting at most {@code connectTimeout}.
     *
     * @param pushes receives frames the master sends unasked (may be null: they are dropped)
     */
    public static CompletableFuture<MasterConnection> connect(EventLoopGroup group, InetSocketAddress address,
                                                              Options options, PushHandler pushes) {
        BinaryTransportCodec codec = new BinaryTransportCodec(options.limits);
        String peer = "master " + address.getHostString() + ":" + address.getPort();
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout.toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (options.traffic != null) {
                            ch.pipeline().addLast("traffic", options.traffic.handler());
                        }
                        ch.pipeline()
                                .addLast("frames", new FrameDecoder(options.limits.maxMessageBytes()))
                                .addLast("requests", new RequestTable(peer, options, pushes));
                    }
                });
        CompletableFuture<MasterConnection> result = new CompletableFuture<>();
        b.connect(address).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                result.complete(new MasterConnection(f.channel(), codec, peer));
            } else {
                result.completeExceptionally(new MasterException(Status.UNAVAILABLE, "cannot connect to " + peer + ": "
                        + f.cause().getMessage(), f.cause()));
            }
        });
        return result;
    }

    /** Whether the connection is open. */
    public boolean isOpen() {
        return channel.isActive();
    }

    /** "master host:port", for messages. */
    public String peer() {
        return peer;
    }

    /** The channel's event loop (where futures complete). */
    public io.netty.channel.EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** A close future: completes when the connection is gone. */
    public ChannelFuture closeFuture() {
        return channel.closeFuture();
    }

    public CompletableFuture<ReadResult> read(ReadRequest request) {
        return message(Opcodes.READ, request, ReadResult.class, true);
    }

    public CompletableFuture<WriteResult> write(WriteRequest request) {
        return message(Opcodes.WRITE, request, WriteResult.class, true);
    }

    /**
     * A read whose answer keeps its sections in wire form (what a cache stores), with the session's times (how long
     * a cache may keep it).
     */
    public CompletableFuture<Answer<EncodedReadResult>> readEncoded(ReadRequest request) {
        return request(Opcodes.READ, alloc -> encode(alloc, request), f -> new Answer<>(
                FrameBodies.readEncodedReadResult(codec, FrameBodies.withoutSessionTimes(f.body())),
                FrameBodies.readSessionTimes(f.body())), true);
    }

    /** A write, answered with the new versions and the session's times. */
    public CompletableFuture<Answer<WriteResult>> writeWithTimes(WriteRequest request) {
        return request(Opcodes.WRITE, alloc -> encode(alloc, request), f -> new Answer<>(
                FrameBodies.readMessage(codec, FrameBodies.withoutSessionTimes(f.body()), WriteResult.class),
                FrameBodies.readSessionTimes(f.body())), true);
    }

    /** An answer and the session's times that came with it. */
    public record Answer<T>(T result, FrameBodies.SessionTimes times) {
    }

    /**
     * A read that is written but not flushed: send several, then {@link #flush()} once, and they go out in one
     * batch (one syscall, one TCP segment when they fit).
     */
    public CompletableFuture<ReadResult> readNoFlush(ReadRequest request) {
        return message(Opcodes.READ, request, ReadResult.class, false);
    }

    /** A write that is written but not flushed; see {@link #readNoFlush}. */
    public CompletableFuture<WriteResult> writeNoFlush(WriteRequest request) {
        return message(Opcodes.WRITE, request, WriteResult.class, false);
    }

    /** Sends whatever was written without a flush. */
    public void flush() {
        channel.flush();
    }

    /** A new session with the master's default idle timeout ({@code null}) or the one given. */
    public CompletableFuture<Created> create(Duration idleTimeout) {
        return create(idleTimeout, null);
    }

    /**
     * A new session with the master's default idle timeout ({@code null}) or the one given, whose id falls on this
     * master's part of the ring described by {@code placement} (null: any id; for a single master).
     */
    public CompletableFuture<Created> create(Duration idleTimeout, Placement placement) {
        byte[] idle = idleTimeout == null ? new byte[4] : intBytes(idleTimeout.toMillis());
        return request(Opcodes.CREATE, alloc -> {
            ByteBuf b = FrameHeader.reserve(alloc, 4 + (placement == null ? 0 : 64));
            if (idleTimeout != null || placement != null) {
                b.writeBytes(idle);
            }
            if (placement != null) {
                placement.writeTo(b);
            }
            return b;
        }, f -> {
            ByteBuf b = f.body();
            if (b.readableBytes() < 9) {
                throw new MasterException(Status.INTERNAL, "CREATE answer of " + b.readableBytes() + " bytes from " + peer);
            }
            long idleMs = b.getUnsignedInt(b.readerIndex());
            long life = b.getUnsignedInt(b.readerIndex() + 4);
            String id = b.toString(b.readerIndex() + 8, b.readableBytes() - 8, StandardCharsets.US_ASCII);
            return new Created(id, Duration.ofMillis(idleMs), Duration.ofMillis(life));
        }, true);
    }

    public CompletableFuture<Void> delete(String sessionId) {
        return send(Opcodes.DELETE, FrameBodies.sessionIdBytes(sessionId), f -> null);
    }

    public CompletableFuture<Void> touch(String sessionId) {
        return send(Opcodes.TOUCH, FrameBodies.sessionIdBytes(sessionId), f -> null);
    }

    /** A touch, answered with the session's times. */
    public CompletableFuture<FrameBodies.SessionTimes> touchWithTimes(String sessionId) {
        return touchWithTimes(sessionId, true);
    }

    /** {@link #touchWithTimes(String)}, flushed now or with the next {@link #flush()} (for a batch of touches). */
    public CompletableFuture<FrameBodies.SessionTimes> touchWithTimes(String sessionId, boolean flush) {
        byte[] body = FrameBodies.sessionIdBytes(sessionId);
        return request(Opcodes.TOUCH, alloc -> FrameHeader.reserve(alloc, body.length).writeBytes(body),
                f -> FrameBodies.readSessionTimes(f.body()), flush);
    }

    /**
     * REGISTER: this connection belongs to the cache {@code holder}; on its control connection the master pushes
     * invalidations and the answer (as every PING answer there) grants its lease. The holder numbers its control
     * connections 1, 2, ... ({@code sequence}; 0 on other connections): the master refuses one not above the last.
     */
    public CompletableFuture<Registration.Answer> register(UUID holder, boolean control, long sequence) {
        return request(Opcodes.REGISTER, alloc -> Registration.writeRequest(FrameHeader.reserve(alloc,
                Registration.REQUEST_BYTES), holder, control, sequence), f -> Registration.readAnswer(f.body()), true);
    }

    /** Confirms a push (an INVALIDATE) to the master: on the event loop, after acting on it. */
    public void confirmPush(Frame push) {
        ByteBuf b = channel.alloc().directBuffer(FrameHeader.BYTES);
        FrameHeader.write(b, push.opcode(), FrameHeader.FLAG_RESPONSE, Status.OK, push.requestId(), 0);
        channel.writeAndFlush(b, channel.voidPromise());
    }

    /** Sends a ping; the answer carries the same bytes. */
    public CompletableFuture<byte[]> ping(byte[] payload) {
        return send(Opcodes.PING, payload, MasterConnection::bytes);
    }

    public CompletableFuture<Void> publishSchema(long uid, byte[] schema) {
        return request(Opcodes.SCHEMA_PUBLISH, alloc -> FrameHeader.reserve(alloc, 8 + schema.length).writeLong(uid)
                .writeBytes(schema), f -> null, true);
    }

    /** The schema of a uid; completes exceptionally with NOT_FOUND if the master does not have it. */
    public CompletableFuture<byte[]> fetchSchema(long uid) {
        return request(Opcodes.SCHEMA_FETCH, alloc -> FrameHeader.reserve(alloc, 8).writeLong(uid), MasterConnection::bytes, true);
    }

    /** The master's figures as the JSON text it sends. */
    public CompletableFuture<String> stats() {
        return send(Opcodes.STATS, new byte[0], f -> f.body().toString(StandardCharsets.UTF_8));
    }

    private <T extends TransportMessage> CompletableFuture<T> message(int opcode, TransportMessage message, Class<T> answer,
                                                                      boolean flush) {
        return request(opcode, alloc -> encode(alloc, message),
                f -> FrameBodies.readMessage(codec, FrameBodies.withoutSessionTimes(f.body()), answer), flush);
    }

    private ByteBuf encode(ByteBufAllocator alloc, TransportMessage message) {
        int size = codec.encodedSize(message);
        ByteBuf b = FrameHeader.reserve(alloc, size);
        codec.encode(message, b.nioBuffer(FrameHeader.BYTES, size));
        return b.writerIndex(FrameHeader.BYTES + size);
    }

    private <T> CompletableFuture<T> send(int opcode, byte[] body, Function<Frame, T> decode) {
        return request(opcode, alloc -> FrameHeader.reserve(alloc, body.length).writeBytes(body), decode, true);
    }

    /**
     * Sends one request frame: {@code frame} makes it from {@link FrameHeader#reserve} (the header is filled in
     * here); the answer frame goes through {@code decode} (on the event loop, before the frame is released).
     * Without {@code flush}, the frame waits for the next flush.
     */
    public <T> CompletableFuture<T> request(int opcode, Function<ByteBufAllocator, ByteBuf> frame, Function<Frame, T> decode,
                                            boolean flush) {
        Pending<T> pending = new Pending<>(opcode, frame, decode);
        if (!channel.isActive()) {
            pending.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " is closed"));
            return pending.future;
        }
        // A real promise: if the write never reaches the request table (the channel closed meanwhile), the
        // request fails instead of waiting forever.
        ChannelFuture written = flush ? channel.writeAndFlush(pending) : channel.write(pending);
        written.addListener(f -> {
            if (!f.isSuccess()) {
                pending.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, "cannot send "
                        + Opcodes.name(opcode) + " to " + peer + ": " + f.cause(), f.cause()));
            }
        });
        return pending.future;
    }

    /** Closes the connection; waits (at most 5 s) for it to be closed, except on its own event loop. */
    @Override
    public void close() {
        ChannelFuture closing = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            closing.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private static byte[] bytes(Frame f) {
        byte[] b = new byte[f.body().readableBytes()];
        f.body().getBytes(f.body().readerIndex(), b);
        return b;
    }

    private static byte[] intBytes(long v) {
        if (v <= 0 || v > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("idle timeout of " + v + " ms is outside 1..2^32-1 ms");
        }
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    /** What CREATE answered. */
    public record Created(String id, Duration idleTimeout, Duration maxLifetime) {
    }

    /** Connection options; {@code traffic} counts the bytes of every connection made with them (null: not counted). */
    public record Options(Duration connectTimeout, Duration requestTimeout, int maxInFlight,
                          io.sessionmesh.wire.transport.TransportLimits limits, LinkTraffic traffic) {
        /** 2 s to connect, 5 s a request, 4096 in flight, default transport limits, bytes not counted. */
        public static final Options DEFAULT = new Options(Duration.ofSeconds(2), Duration.ofSeconds(5), 4096,
                io.sessionmesh.wire.transport.TransportLimits.DEFAULT, null);

        public Options(Duration connectTimeout, Duration requestTimeout, int maxInFlight,
                       io.sessionmesh.wire.transport.TransportLimits limits) {
            this(connectTimeout, requestTimeout, maxInFlight, limits, null);
        }
    }

    /** One request waiting for its answer. */
    private static final class Pending<T> {
        final int opcode;
        final Function<ByteBufAllocator, ByteBuf> frame;
        final Function<Frame, T> decode;
        final CompletableFuture<T> future = new CompletableFuture<>();
        int id;
        long deadline;

        Pending(int opcode, Function<ByteBufAllocator, ByteBuf> frame, Function<Frame, T> decode) {
            this.opcode = opcode;
            this.frame = frame;
            this.decode = decode;
        }

        void answer(Frame frame, String peer) {
            if (frame.status() != Status.OK) {
                future.completeExceptionally(new MasterException(frame.status(), Opcodes.name(opcode) + " on " + peer
                        + ": " + Status.name(frame.status()) + ": " + FrameBodies.readText(frame.body())));
                return;
            }
            try {
                future.complete(decode.apply(frame));
            } catch (RuntimeException e) {
                future.completeExceptionally(e instanceof MasterException ? e : new MasterException(Status.INTERNAL,
                        "bad " + Opcodes.name(opcode) + " answer from " + peer + ": " + e.getMessage(), e));
            }
        }
    }

    /**
     * Assigns request ids, writes request frames, and matches answers; lives on the channel's event loop. Timeouts:
     * every request on a connection has the same timeout, so deadlines come in the order requests are sent; a
     * sweep every {@link #SWEEP_MILLIS} ms fails the overdue ones at the head of that queue. No timer per request.
     */
    private static final class RequestTable extends ChannelDuplexHandler {
        static final long SWEEP_MILLIS = 50;

        private final String peer;
        private final Options options;
        private final PushHandler pushes;
        private volatile MasterConnection connection;
        private final IntObjectHashMap<Pending<?>> waiting = new IntObjectHashMap<>();
        private final ArrayDeque<Pending<?>> byDeadline = new ArrayDeque<>();
        private ScheduledFuture<?> sweeper;
        private int nextId = 1;

        RequestTable(String peer, Options options, PushHandler pushes) {
            this.peer = peer;
            this.options = options;
            this.pushes = pushes;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            sweeper = ctx.executor().scheduleAtFixedRate(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
            super.channelActive(ctx);
        }

        private void sweep() {
            long now = System.nanoTime();
            for (Pending<?> p; (p = byDeadline.peek()) != null; ) {
                if (p.future.isDone()) {
                    byDeadline.poll();
                } else if (now - p.deadline >= 0) {
                    byDeadline.poll();
                    waiting.remove(p.id);
                    p.future.completeExceptionally(new MasterException(Status.TIMEOUT, Opcodes.name(p.opcode) + " on " + peer
                            + ": no answer in " + options.requestTimeout().toMillis() + " ms (" + waiting.size()
                            + " other requests waiting)"));
                } else {
                    return;
                }
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
            if (waiting.size() >= options.maxInFlight()) {
                p.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, options.maxInFlight()
                        + " requests already wait for answers from " + peer));
                promise.trySuccess();
                return;
            }
            ByteBuf frame;
            try {
                frame = p.frame.apply(ctx.alloc());
            } catch (RuntimeException e) {
                p.future.completeExceptionally(e);
                promise.trySuccess();
                return;
            }
            int id = nextId++;
            if (nextId == 0) {
                nextId = 1;
            }
            FrameHeader.set(frame, p.opcode, 0, Status.OK, id);
            p.id = id;
            p.deadline = System.nanoTime() + options.requestTimeout().toNanos();
            waiting.put(id, p);
            byDeadline.add(p);
            ctx.write(frame, promise);
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
                        p.future.completeExceptionally(new MasterException(invalid.status(), Opcodes.name(p.opcode) + " on "
                                + peer + ": the answer " + invalid.message()));
                    }
                }
                return;
            }
            Frame frame = (Frame) msg;
            try {
                if (frame.isPush() || frame.requestId() == 0 && !frame.isResponse()) {
                    if (pushes != null && connection != null) {
                        pushes.onPush(connection, frame);
                    }
                    return;
                }
                if (frame.requestId() == 0 && frame.status() != Status.OK) {
                    // The master refused the connection (e.g. too many connections): it will close it.
                    failAll(new MasterException(frame.status(), peer + ": " + FrameBodies.readText(frame.body())));
                    return;
                }
                Pending<?> p = waiting.remove(frame.requestId());
                if (p != null) {
                    p.answer(frame, peer);
                }
            } finally {
                frame.release();
            }
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
            failAll(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " failed: " + cause, cause));
            ctx.close();
        }

        private void failAll(MasterException e) {
            List<Pending<?>> all = new ArrayList<>(waiting.values());
            waiting.clear();
            byDeadline.clear();
            for (Pending<?> p : all) {
                p.future.completeExceptionally(e);
            }
        }
    }
}
