package io.sessionmesh.benchmarks.master;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.Status;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The floor under the master's cost per request: a server on the master's own transport (the same event loop kind,
 * {@link FrameDecoder} and {@link FrameEncoder}, answers batched per read and flushed at its end) that does no work,
 * answering every request frame OK with an empty body. What {@link MasterVsRedis} measures against it (with
 * {@code --floor}) is what the socket, the kernel and Netty's loop cost a request on this machine; the master's cost
 * above it is its own work, which is where a gap to Redis lies (RESULTS.md 12.15).
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.MasterFloor [--port 7402] [--io-threads 1] [--io-transport auto]
 *     [--work none|set]
 * </pre>
 *
 * <p>With {@code --work set} it also does the work of Redis's SET for each WRITE, in Java, and nothing more: the
 * session id read from the body as a {@code String}, a look-up in one {@code ConcurrentHashMap} shared by every
 * connection, and a fresh copy of the rest of the body replacing the value there (no sections, versions, limits or
 * answer body). What a master would cost if its own work were SET's, on this transport; at most
 * {@link #MAX_SET_KEYS} ids, past which a new id is answered UNAVAILABLE.
 */
public final class MasterFloor implements AutoCloseable {
    /** Ids {@code --work set} keeps a value for; the benchmark writes one per session it made. */
    public static final int MAX_SET_KEYS = 1_000_000;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel server;

    private MasterFloor(EventLoopGroup boss, EventLoopGroup workers, Channel server) {
        this.boss = boss;
        this.workers = workers;
        this.server = server;
    }

    /**
     * Starts a floor server on {@code 127.0.0.1:port} (0: any free port) with {@code ioThreads} event loops, framing
     * bodies up to the master's default {@code max-frame} (a larger one is answered TOO_LARGE and skipped, as there).
     */
    public static MasterFloor start(int port, int ioThreads, IoTransport transport) throws InterruptedException {
        return start(port, ioThreads, transport, MasterConfig.DEFAULT_MAX_FRAME_BYTES);
    }

    static MasterFloor start(int port, int ioThreads, IoTransport transport, int maxFrameBytes) throws InterruptedException {
        return start(port, ioThreads, transport, maxFrameBytes, null);
    }

    /**
     * {@link #start(int, int, IoTransport)}, doing SET's work for each WRITE into {@code values} (null: no work); see
     * the class comment.
     */
    static MasterFloor start(int port, int ioThreads, IoTransport transport, int maxFrameBytes,
                             ConcurrentHashMap<String, byte[]> values) throws InterruptedException {
        EventLoopGroup boss = transport.eventLoops(1, "floor-accept");
        EventLoopGroup workers = null;
        BinaryTransportCodec codec = new BinaryTransportCodec();
        try {
            workers = transport.eventLoops(ioThreads, "floor-io");
            Channel server = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(transport.serverChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline()
                                    .addLast("frames", new FrameDecoder(maxFrameBytes))
                                    .addLast("encoder", new FrameEncoder(codec, null, true))
                                    .addLast("answers", new Answerer(values));
                        }
                    })
                    .bind("127.0.0.1", port).sync().channel();
            return new MasterFloor(boss, workers, server);
        } catch (RuntimeException | InterruptedException e) {
            boss.shutdownGracefully();
            if (workers != null) {
                workers.shutdownGracefully();
            }
            throw e;
        }
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        boss.shutdownGracefully().syncUninterruptibly();
        workers.shutdownGracefully().syncUninterruptibly();
    }

    /**
     * Answers every request frame OK with an empty body; a frame it cannot take with its error (TOO_LARGE, say); a
     * stream that is not frames with BAD_REQUEST, then closes it once that is written (as the master does).
     */
    private static final class Answerer extends ChannelInboundHandlerAdapter {
        /** Where {@code --work set} keeps each id's value; null without work. */
        private final ConcurrentHashMap<String, byte[]> values;

        Answerer(ConcurrentHashMap<String, byte[]> values) {
            this.values = values;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof InvalidFrame invalid) {
                MasterAnswer.Error error = new MasterAnswer.Error(invalid.opcode(), invalid.requestId(), invalid.status(),
                        invalid.message());
                if (invalid.fatal()) {
                    ctx.channel().config().setAutoRead(false);
                    ctx.writeAndFlush(error).addListener(ChannelFutureListener.CLOSE);
                } else {
                    ctx.write(error, ctx.voidPromise());
                }
                return;
            }
            Frame frame = (Frame) msg;
            try {
                if (!frame.isResponse()) { // a client's answer (a push confirmation) is not answered
                    MasterAnswer refused = values != null && frame.opcode() == Opcodes.WRITE ? set(frame) : null;
                    ctx.write(refused == null ? MasterAnswer.Bytes.empty(frame.opcode(), frame.requestId()) : refused,
                            ctx.voidPromise());
                }
            } finally {
                frame.release();
            }
        }

        /**
         * SET's work for a WRITE_REQUEST body (PROTOCOL.md 2.3: the message header, then the session id as a varint
         * length and ASCII): the rest of the body, copied, replaces the id's value. Returns null, or the error answer.
         */
        private MasterAnswer set(Frame frame) {
            ByteBuf body = frame.body();
            int at = body.readerIndex() + BinaryTransportCodec.HEADER_BYTES;
            int end = body.writerIndex();
            int idLength = at < end ? body.getByte(at++) : -1;
            if (idLength <= 0 || at + idLength > end) { // an id under 128 bytes has a one-byte length; the benchmark's do
                return new MasterAnswer.Error(Opcodes.WRITE, frame.requestId(), Status.BAD_REQUEST,
                        "WRITE: no session id where the floor looks for one");
            }
            String id = body.toString(at, idLength, StandardCharsets.ISO_8859_1);
            byte[] value = new byte[end - at - idLength];
            body.getBytes(at + idLength, value);
            if (values.replace(id, value) == null) {
                if (values.size() >= MAX_SET_KEYS) {
                    return new MasterAnswer.Error(Opcodes.WRITE, frame.requestId(), Status.UNAVAILABLE,
                            "WRITE: the floor keeps at most " + MAX_SET_KEYS + " ids");
                }
                values.put(id, value);
            }
            return null;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a reset by the load generator, say: nothing to answer
        }
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        int port = flags.port("port", 7402);
        int ioThreads = flags.integer("io-threads", 1, 1, 64);
        String transportSetting = flags.choice("io-transport", "auto", IoTransport.SETTING_VALUES);
        boolean setWork = flags.choice("work", "none", List.of("none", "set")).equals("set");
        flags.checkAllUsed();
        IoTransport transport = IoTransport.choose(transportSetting);
        MasterFloor floor = start(port, ioThreads, transport, MasterConfig.DEFAULT_MAX_FRAME_BYTES,
                setWork ? new ConcurrentHashMap<>() : null);
        System.out.println("master floor on 127.0.0.1:" + floor.port() + ", " + ioThreads + " I/O thread(s), "
                + IoTransport.describe(transportSetting, transport) + ": every request answered OK, "
                + (setWork ? "each WRITE doing SET's work" : "no work"));
        Runtime.getRuntime().addShutdownHook(new Thread(floor::close, "floor-stop"));
        floor.server.closeFuture().sync();
    }
}
