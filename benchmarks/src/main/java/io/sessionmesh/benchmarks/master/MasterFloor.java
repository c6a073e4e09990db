package io.sessionmesh.benchmarks.master;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.transport.BinaryTransportCodec;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;

/**
 * The floor under the master's cost per request: a server on the master's own transport (the same event loop kind,
 * {@link FrameDecoder} and {@link FrameEncoder}, answers batched per read and flushed at its end) that does no work,
 * answering every request frame OK with an empty body. What {@link MasterVsRedis} measures against it (with
 * {@code --floor}) is what the socket, the kernel and Netty's loop cost a request on this machine; the master's cost
 * above it is its own work, which is where a gap to Redis lies (RESULTS.md 12.15).
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.MasterFloor [--port 7402] [--io-threads 1] [--io-transport auto]
 * </pre>
 */
public final class MasterFloor implements AutoCloseable {
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
                                    .addLast("answers", new Answerer());
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
                    ctx.write(MasterAnswer.Bytes.empty(frame.opcode(), frame.requestId()), ctx.voidPromise());
                }
            } finally {
                frame.release();
            }
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
        flags.checkAllUsed();
        IoTransport transport = IoTransport.choose(transportSetting);
        MasterFloor floor = start(port, ioThreads, transport);
        System.out.println("master floor on 127.0.0.1:" + floor.port() + ", " + ioThreads + " I/O thread(s), "
                + IoTransport.describe(transportSetting, transport) + ": every request answered OK, no work");
        Runtime.getRuntime().addShutdownHook(new Thread(floor::close, "floor-stop"));
        floor.server.closeFuture().sync();
    }
}
