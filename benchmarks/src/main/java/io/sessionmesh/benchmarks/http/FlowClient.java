package io.sessionmesh.benchmarks.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop HTTP load of one flow on one app: {@code connections} keep-alive connections on one Netty event loop
 * (the driver's own CPU stays small), each with one request outstanding, the next sent when the answer is in. Each
 * request of a flow that names a session names one picked uniformly at random, in the X-Session-Id header. Latency per request in an HdrHistogram
 * {@link Recorder} (microseconds); answers other than 2xx and failed connections are errors. A connection the server
 * closes is opened again (counted).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>largest answer</td><td>{@value #MAX_ANSWER_BYTES} B</td></tr>
 *   <tr><td>largest latency recorded</td><td>{@value #MAX_MICROS} us</td></tr>
 *   <tr><td>wait for answers outstanding at {@link #stop}</td><td>{@value #DRAIN_SECONDS} s</td></tr>
 * </table>
 */
final class FlowClient implements AutoCloseable {
    /** The largest answer aggregated. */
    static final int MAX_ANSWER_BYTES = 1 << 20;
    /** The largest latency the histogram holds: a minute. */
    static final long MAX_MICROS = 60_000_000;
    /** How long {@link #stop} waits for the answers still outstanding. */
    static final long DRAIN_SECONDS = 5;
    /** The session id header both apps read. */
    static final String SESSION_HEADER = "X-Session-Id";

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Recorder latency = new Recorder(MAX_MICROS, 3);
    private final AtomicLong answers = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong outstanding = new AtomicLong();
    private final List<Channel> channels = new ArrayList<>();
    private final Bootstrap bootstrap;
    private final String host;
    private final Flow flow;
    private final List<String> sessions;
    private volatile boolean running = true;
    private volatile String firstError;

    FlowClient(int port, Flow flow, List<String> sessions) {
        this.flow = flow;
        this.sessions = sessions;
        this.host = "127.0.0.1:" + port;
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true).remoteAddress("127.0.0.1", port)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_ANSWER_BYTES),
                                new Connection(new SplittableRandom(ch.hashCode())));
                    }
                });
    }

    /** Opens the connections and starts each one's loop. */
    void start(int connections) throws InterruptedException {
        for (int i = 0; i < connections; i++) {
            ChannelFuture f = bootstrap.connect().sync();
            synchronized (channels) {
                channels.add(f.channel());
            }
        }
    }

    /** The latencies since the last call (microseconds), and a fresh interval from now. */
    Histogram interval() {
        return latency.getIntervalHistogram();
    }

    long answers() {
        return answers.get();
    }

    long errors() {
        return errors.get();
    }

    long reconnects() {
        return reconnects.get();
    }

    /** The first error seen, for the report; null if none. */
    String firstError() {
        return firstError;
    }

    /** Sends no more requests and waits (up to {@value #DRAIN_SECONDS} s) for the answers outstanding. */
    void stop() throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        running = false;
        synchronized (channels) {
            channels.forEach(Channel::close);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void error(String what) {
        errors.incrementAndGet();
        if (firstError == null) {
            firstError = what;
        }
    }

    /** One connection's loop: send, await the answer, record it, send the next. */
    private final class Connection extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final SplittableRandom random;
        private long sentAt;
        private boolean waiting;

        Connection(SplittableRandom random) {
            this.random = random;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            send(ctx.channel());
        }

        private void send(Channel ch) {
            if (!running) {
                return;
            }
            byte[] body = flow.body(random);
            ByteBuf content = body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body);
            FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, flow.method(), flow.path(), content);
            r.headers().set(HttpHeaderNames.HOST, host).set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            if (flow.sendsSession()) {
                r.headers().set(SESSION_HEADER, sessions.get(random.nextInt(sessions.size())));
            }
            if (body != null) {
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                        .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            }
            waiting = true;
            outstanding.incrementAndGet();
            sentAt = System.nanoTime();
            ch.writeAndFlush(r, ch.voidPromise());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse answer) {
            long micros = (System.nanoTime() - sentAt) / 1_000;
            waiting = false;
            outstanding.decrementAndGet();
            latency.recordValue(Math.min(micros, MAX_MICROS));
            answers.incrementAndGet();
            int status = answer.status().code();
            if (status < 200 || status > 299) {
                error(flow.path() + " answered " + status + ": " + answer.content().toString(java.nio.charset.StandardCharsets.UTF_8));
            }
            if (HttpUtil.isKeepAlive(answer)) {
                send(ctx.channel());
            } else {
                ctx.close(); // channelInactive opens another
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (waiting) {
                waiting = false;
                outstanding.decrementAndGet();
                error("a connection closed with a request outstanding");
            }
            synchronized (channels) {
                channels.remove(ctx.channel());
            }
            if (running) {
                reconnects.incrementAndGet();
                bootstrap.connect().addListener((ChannelFuture f) -> {
                    if (f.isSuccess()) {
                        synchronized (channels) {
                            channels.add(f.channel());
                        }
                    } else {
                        error("reconnecting failed: " + f.cause());
                    }
                });
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            error(cause.toString());
            ctx.close();
        }
    }
}
