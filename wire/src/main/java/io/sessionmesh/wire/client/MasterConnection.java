package io.sessionmesh.wire.client;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.tls.TlsFiles;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One pipelined connection to a master (PROTOCOL.md 3): any number of threads send typed requests
 * ({@link MasterRequest}), each gets a future of its typed answer, answers are matched by request id in whatever
 * order they come ({@link RequestTable}). Futures complete on the connection's event loop: callers must not block in
 * their callbacks. No reconnect here: a pool above it replaces dead connections.
 *
 * <p>The pipeline: TLS (optional, {@link MasterConnectionOptions#tls()}), traffic counter (optional), {@link FrameDecoder}, {@link FrameEncoder} (requests written without a
 * flush leave together at the next {@link #flush()}), {@link RequestTable}.
 */
public final class MasterConnection implements AutoCloseable {
    private final Channel channel;
    private final String peer;

    MasterConnection(Channel channel, String peer) {
        this.channel = channel;
        this.peer = peer;
        channel.pipeline().get(RequestTable.class).attach(this);
    }

    /**
     * Connects, waiting at most the options' connect timeout.
     *
     * @param pushes receives the invalidations the master pushes (null: they are dropped)
     */
    public static CompletableFuture<MasterConnection> connect(EventLoopGroup group, InetSocketAddress address,
                                                              MasterConnectionOptions options, InvalidationListener pushes) {
        BinaryTransportCodec codec = new BinaryTransportCodec(options.limits());
        String peer = "master " + address.getHostString() + ":" + address.getPort();
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(IoTransport.socketChannelFor(group))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (options.tls() != null) {
                            SslHandler tls = options.tls().newHandler(ch.alloc(), address.getHostString(), address.getPort());
                            tls.setHandshakeTimeoutMillis(TlsFiles.HANDSHAKE_TIMEOUT_MILLIS);
                            ch.pipeline().addLast("tls", tls);
                        }
                        if (options.traffic() != null) {
                            ch.pipeline().addLast("traffic", options.traffic().handler());
                        }
                        ch.pipeline()
                                .addLast("frames", new FrameDecoder(options.limits().maxMessageBytes()))
                                .addLast("encoder", new FrameEncoder(codec, null, false))
                                .addLast("requests", new RequestTable(peer, options, codec, pushes));
                    }
                });
        CompletableFuture<MasterConnection> result = new CompletableFuture<>();
        b.connect(address).addListener((ChannelFuture f) -> {
            SslHandler tls = f.isSuccess() ? f.channel().pipeline().get(SslHandler.class) : null;
            if (tls != null) {
                // Ready once the handshake is done: a master that refuses our certificate (or whose certificate we
                // refuse) fails the connect, not the first request.
                tls.handshakeFuture().addListener(h -> {
                    if (h.isSuccess()) {
                        result.complete(new MasterConnection(f.channel(), peer));
                    } else {
                        f.channel().close();
                        result.completeExceptionally(new MasterException(Status.UNAVAILABLE, "TLS handshake with " + peer
                                + " failed: " + h.cause().getMessage(), h.cause()));
                    }
                });
            } else if (f.isSuccess()) {
                result.complete(new MasterConnection(f.channel(), peer));
            } else {
                result.completeExceptionally(new MasterException(Status.UNAVAILABLE, "cannot connect to " + peer + ": "
                        + f.cause().getMessage(), f.cause()));
            }
        });
        return result;
    }

    /**
     * Sends a request; the future completes with its typed answer, or a {@link MasterException}. Sent from the
     * connection's own event loop, it is flushed once the loop has handled what it is handling now, together with every
     * other request made meanwhile (the requests that one round of reads on the loop's REST connections makes go out in
     * one write: Netty's flush consolidation); from another thread, at once.
     */
    public <A> CompletableFuture<A> send(MasterRequest<A> request) {
        if (!channel.eventLoop().inEventLoop()) {
            return send(request, true);
        }
        CompletableFuture<A> answer = send(request, false);
        if (!flushScheduled) {
            flushScheduled = true;
            channel.eventLoop().execute(flushTask);
        }
        return answer;
    }

    /**
     * Sends a request; without {@code flush} it waits for the next {@link #flush()}, so that several go out in one
     * batch (one syscall, one TCP segment when they fit).
     */
    public <A> CompletableFuture<A> send(MasterRequest<A> request, boolean flush) {
        RequestTable.Pending<A> pending = new RequestTable.Pending<>(request);
        if (!channel.isActive()) {
            pending.future.completeExceptionally(new MasterException(Status.UNAVAILABLE, "connection to " + peer + " is closed"));
            return pending.future;
        }
        // A real promise: if the write never reaches the request table (the channel closed meanwhile), the request
        // fails instead of waiting forever.
        ChannelFuture written = flush ? channel.writeAndFlush(pending) : channel.write(pending);
        written.addListener(f -> {
            if (!f.isSuccess()) {
                pending.lost("cannot send " + Opcodes.name(request.opcode()) + " to " + peer + ": " + f.cause(), f.cause());
            }
        });
        return pending.future;
    }

    /** Whether {@link #flushTask} is queued on the event loop (only touched there). */
    private boolean flushScheduled;
    private final Runnable flushTask = this::flushConsolidated;

    private void flushConsolidated() {
        flushScheduled = false;
        channel.flush();
    }

    /** Sends whatever was written without a flush. */
    public void flush() {
        channel.flush();
    }

    /** A batch read; the answer keeps the sections in wire form (what a cache stores) and carries the session's times. */
    public CompletableFuture<MasterAnswer.Read> read(ReadRequest request) {
        return send(new MasterRequest.Read(request));
    }

    /** A write; answered with the new versions and the session's times. */
    public CompletableFuture<MasterAnswer.Write> write(WriteRequest request) {
        return send(new MasterRequest.Write(request));
    }

    /**
     * A write; with {@code wholeSections}, its answer also carries the written sections above version 1, whole (from a
     * master that knows the flag: PROTOCOL.md 3.2).
     */
    public CompletableFuture<MasterAnswer.Write> write(WriteRequest request, boolean wholeSections) {
        return send(new MasterRequest.Write(request, wholeSections));
    }

    /**
     * A write with its write id (null: none), which makes sending it again safe: a master that applied a write of this
     * id to the session answers with its versions instead of applying it twice (PROTOCOL.md 3.12). A master that does
     * not know write ids answers UNSUPPORTED_VERSION, having applied nothing.
     */
    public CompletableFuture<MasterAnswer.Write> write(WriteRequest request, boolean wholeSections, WriteId writeId) {
        return send(new MasterRequest.Write(request, wholeSections, writeId));
    }

    /** Extends a session's idle time; answered with its times. */
    public CompletableFuture<SessionTimes> touch(String sessionId) {
        return send(new MasterRequest.Touch(sessionId));
    }

    public CompletableFuture<Void> delete(String sessionId) {
        return send(new MasterRequest.Delete(sessionId));
    }

    /** A new session with the master's default idle timeout ({@code null}) or the one given, on any id. */
    public CompletableFuture<MasterAnswer.Created> create(Duration idleTimeout) {
        return create(idleTimeout, null);
    }

    /** A new session whose id falls on this master's part of the ring {@code placement} describes (null: any id). */
    public CompletableFuture<MasterAnswer.Created> create(Duration idleTimeout, Placement placement) {
        return send(new MasterRequest.Create(idleTimeout, placement));
    }

    /** REGISTER this connection as the cache {@code holder}'s; see {@link MasterRequest.Register}. */
    public CompletableFuture<MasterAnswer.Registered> register(UUID holder, boolean control, long sequence) {
        return send(new MasterRequest.Register(holder, control, sequence));
    }

    /** A ping; the answer carries the lease it granted (0: none, PROTOCOL.md 3.7) and the same bytes. */
    public CompletableFuture<MasterAnswer.Pong> ping(byte[] payload) {
        return send(new MasterRequest.Ping(payload));
    }

    public CompletableFuture<Void> publishSchema(long uid, byte[] schema) {
        return send(new MasterRequest.PublishSchema(uid, schema));
    }

    /** The schema of a uid; completes exceptionally with NOT_FOUND if the master does not have it. */
    public CompletableFuture<byte[]> fetchSchema(long uid) {
        return send(new MasterRequest.FetchSchema(uid));
    }

    /** The master's figures as the JSON text it sends. */
    public CompletableFuture<String> stats() {
        return send(new MasterRequest.Stats());
    }

    /** A group operation (PROTOCOL.md 3.9); the answer is the OK answer's body. */
    public CompletableFuture<byte[]> groupOp(int opcode, byte[] body) {
        return send(new MasterRequest.GroupOp(opcode, body));
    }

    /** Confirms push {@code pushId} (an {@link Invalidation}) to the master, once it has been acted on. */
    public void confirmPush(int pushId) {
        channel.writeAndFlush(new Invalidation.Confirmation(pushId), channel.voidPromise());
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
    public EventLoop eventLoop() {
        return channel.eventLoop();
    }

    /** Completes when the connection is gone. */
    public ChannelFuture closeFuture() {
        return channel.closeFuture();
    }

    /** Closes the connection; waits (at most 5 s) for it to be closed, except on its own event loop. */
    @Override
    public void close() {
        ChannelFuture closing = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            closing.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
