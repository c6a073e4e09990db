package io.sessionmesh.benchmarks.driver.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
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

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The driver's one HTTP load engine: keep-alive HTTP/1.1 connections to a stack's hosts on one Netty event loop (the
 * driver's own CPU stays small beside the stack's), one request outstanding on each. Two ways to load, which may run
 * at once on one engine:
 * <ul>
 *   <li>{@link #closedLoop}: N users, each sending its next request when the last is answered, on a connection of its
 *   own to each host it sends to; latency from the send.</li>
 *   <li>{@link #openLoop}: requests on a fixed schedule whatever the answers do, each on an idle connection of its
 *   host (a new one while there are fewer than the most, else it waits in a backlog); latency from the intended send
 *   time, so a stack that falls behind is charged for the wait (no coordinated omission).</li>
 * </ul>
 * Latency in microseconds, an HdrHistogram {@link Recorder} per request kind and one over all; an answer its
 * {@link Request.Answer} refuses, or that is not 2xx when it has none, and a connection lost with a request on it, are
 * errors, counted by kind and status. A connection the server closes is opened again when next needed (counted).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>largest answer</td><td>{@value #MAX_ANSWER_BYTES} B</td></tr>
 *   <tr><td>largest latency recorded</td><td>{@value #MAX_MICROS} us</td></tr>
 *   <tr><td>open-loop requests waiting for a connection</td><td>{@value #MAX_BACKLOG} a host; more are dropped (counted)</td></tr>
 *   <tr><td>a closed-loop user's pause after a failed connect</td><td>{@value #RETRY_MILLIS} ms</td></tr>
 *   <tr><td>wait for answers outstanding at {@link #stop}</td><td>{@value #DRAIN_SECONDS} s</td></tr>
 * </table>
 */
public final class HttpLoad implements AutoCloseable {
    /** The largest answer aggregated. */
    public static final int MAX_ANSWER_BYTES = 1 << 20;
    /** The largest latency the histograms hold: a minute. */
    public static final long MAX_MICROS = 60_000_000;
    /** Open-loop requests of one host waiting for a connection, at most. */
    public static final int MAX_BACKLOG = 100_000;
    /** How long a closed-loop user waits after a failed connect before its next request. */
    public static final long RETRY_MILLIS = 100;
    /** How long {@link #stop} waits for the answers still outstanding. */
    public static final long DRAIN_SECONDS = 5;
    /** The session id header the example apps read. */
    public static final String SESSION_HEADER = "X-Session-Id";
    /** The kind under which {@link #interval()} gives the histogram of every request. */
    public static final String ALL = "all";

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    private final List<Bootstrap> hosts = new ArrayList<>();
    private final List<String> hostHeaders = new ArrayList<>();
    private final Map<String, Recorder> latency = new ConcurrentHashMap<>();
    private final Recorder all = new Recorder(MAX_MICROS, 3);
    private final LongAdder answers = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder outstanding = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final List<Channel> channels = new ArrayList<>(); // on the event loop only
    private final List<Thread> schedulers = new ArrayList<>();
    private volatile boolean running = true;
    private boolean closed;
    private volatile String firstError;
    private volatile String lastError;

    /** An engine for a stack whose hosts serve HTTP at {@code addresses} (host i at index i). */
    public HttpLoad(List<InetSocketAddress> addresses) {
        for (InetSocketAddress a : addresses) {
            hosts.add(new Bootstrap().group(group).channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true)
                    .remoteAddress(a).handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_ANSWER_BYTES),
                                    new Connection());
                        }
                    }));
            hostHeaders.add(a.getHostString() + ":" + a.getPort());
        }
    }

    /**
     * Starts {@code users} closed-loop users on {@code traffic}; the future completes when every one of them has run out
     * of requests (the traffic answered null) or the load was stopped.
     */
    public CompletableFuture<Void> closedLoop(int users, Request.Traffic traffic) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger left = new AtomicInteger(users);
        for (int u = 0; u < users; u++) {
            User user = new User(traffic, new SplittableRandom(ThreadLocalRandom.current().nextLong()), () -> {
                if (left.decrementAndGet() == 0) {
                    done.complete(null);
                }
            });
            loop.execute(user::next);
        }
        return done;
    }

    /**
     * Starts an open loop: {@code perSecond} requests a second from {@code traffic} on a fixed schedule (a thread of
     * its own keeps it), each on one of at most {@code maxConnections} connections to its host; runs until {@link #stop}.
     */
    public void openLoop(double perSecond, Request.Traffic traffic, int maxConnections) {
        Pool[] pools = new Pool[hosts.size()];
        for (int h = 0; h < pools.length; h++) {
            pools[h] = new Pool(h, maxConnections);
        }
        SplittableRandom random = new SplittableRandom(ThreadLocalRandom.current().nextLong());
        Thread t = new Thread(() -> schedule(perSecond, traffic, pools, random), "open-loop");
        t.setDaemon(true);
        schedulers.add(t);
        t.start();
    }

    /** The schedule: at each intended time, the requests due are handed to the event loop. */
    private void schedule(double perSecond, Request.Traffic traffic, Pool[] pools, SplittableRandom random) {
        double period = 1e9 / perSecond;
        long t0 = System.nanoTime();
        long n = 0;
        while (running) {
            long now = System.nanoTime();
            long due = t0 + (long) (n * period);
            if (due - now > 0) {
                LockSupport.parkNanos(due - now);
                continue;
            }
            List<Long> dues = new ArrayList<>();
            while (due - now <= 0) {
                dues.add(due);
                n++;
                due = t0 + (long) (n * period);
            }
            try {
                loop.execute(() -> {
                    for (long intended : dues) {
                        Request r = running ? traffic.next(random) : null;
                        if (r != null) {
                            pools[r.host()].dispatch(r, intended);
                        }
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closedMeanwhile) {
                return;
            }
        }
    }

    /** The latency of each kind of request since the last call, and of all of them under {@value #ALL}. */
    public Map<String, Histogram> interval() {
        Map<String, Histogram> m = new TreeMap<>();
        latency.forEach((kind, r) -> m.put(kind, r.getIntervalHistogram()));
        m.put(ALL, all.getIntervalHistogram());
        return m;
    }

    /** Answers so far, of any status. */
    public long answers() {
        return answers.sum();
    }

    /** Errors so far by "kind status" (or "kind Exception"). */
    public Map<String, Long> errors() {
        Map<String, Long> m = new TreeMap<>();
        errors.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** Errors so far, of every kind. */
    public long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** The first error with what came with it (the answer's body), null if none. */
    public String firstError() {
        return firstError;
    }

    /** The last error with what came with it, null if none. */
    public String lastError() {
        return lastError;
    }

    /** Connections the server closed while the load ran (each opened again when needed). */
    public long reconnects() {
        return reconnects.sum();
    }

    /** Open-loop requests dropped because their host's backlog was full. */
    public long dropped() {
        return dropped.sum();
    }

    /** Sends no more requests and waits (up to {@value #DRAIN_SECONDS} s) for the answers outstanding. */
    public void stop() throws InterruptedException {
        running = false;
        for (Thread t : schedulers) {
            t.join(1000);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        while (outstanding.sum() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        running = false;
        loop.execute(() -> channels.forEach(Channel::close));
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void error(String kind, String what, String detail) {
        errors.computeIfAbsent(kind + " " + what, k -> new LongAdder()).increment();
        String text = kind + " " + what + ": " + detail;
        if (firstError == null) {
            firstError = text;
        }
        lastError = text;
    }

    private void connect(int host, java.util.function.Consumer<Connection> connected, Runnable failed) {
        hosts.get(host).connect().addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                channels.add(f.channel());
                Connection c = f.channel().pipeline().get(Connection.class);
                c.host = host;
                connected.accept(c);
            } else {
                failed.run();
            }
        });
    }

    /** Who a connection belongs to: told when its request is answered, and when it closes. */
    private interface Owner {
        void answered(Connection c);

        /** The connection closed; {@code lost}: with a request on it (counted as an error). */
        void closed(Connection c, boolean lost);
    }

    /** A connection's one request at a time: sends, records the answer, hands the connection back to its owner. */
    private final class Connection extends SimpleChannelInboundHandler<FullHttpResponse> {
        private Channel channel;
        private int host;
        private Owner owner;
        private Request request;
        private long startNanos;
        /** Whether the request on the connection was counted as an error already (an exception, before the close). */
        private boolean counted;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channel = ctx.channel(); // a connect's listener runs before channelActive, and sends at once
        }

        boolean usable() {
            return channel != null && channel.isActive();
        }

        void send(Owner by, Request r, long intendedNanos) {
            owner = by;
            request = r;
            startNanos = intendedNanos;
            counted = false;
            ByteBuf content = r.body() == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(r.body());
            FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, r.method(), r.path(), content);
            http.headers().set(HttpHeaderNames.HOST, hostHeaders.get(r.host()))
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
            if (r.session() != null) {
                http.headers().set(SESSION_HEADER, r.session());
            }
            if (r.body() != null) {
                http.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
            }
            outstanding.increment();
            channel.writeAndFlush(http, channel.voidPromise());
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse answer) {
            Request r = request;
            if (r == null) {
                return; // nothing asked: not an answer of ours
            }
            request = null;
            long micros = Math.min(MAX_MICROS, Math.max(0, (System.nanoTime() - startNanos) / 1_000));
            outstanding.decrement();
            latency.computeIfAbsent(r.kind(), k -> new Recorder(MAX_MICROS, 3)).recordValue(micros);
            all.recordValue(micros);
            answers.increment();
            int status = answer.status().code();
            boolean served = r.answer() == null ? status / 100 == 2 : r.answer().accept(status, answer.content());
            if (!served) {
                error(r.kind(), String.valueOf(status), answer.content().toString(StandardCharsets.UTF_8));
            }
            if (!HttpUtil.isKeepAlive(answer)) {
                ctx.close(); // the owner opens another when it needs one
            }
            owner.answered(this);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            channels.remove(ctx.channel());
            if (running) {
                reconnects.increment();
            }
            boolean lost = request != null;
            if (lost) {
                outstanding.decrement();
                if (!counted) {
                    error(request.kind(), "closed", "a connection closed with a request outstanding");
                }
                request = null;
            }
            if (owner != null) {
                owner.closed(this, lost);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (request != null && !counted) {
                error(request.kind(), cause.getClass().getSimpleName(), String.valueOf(cause.getMessage()));
                counted = true; // the close that follows loses the request: one error, not two
            }
            ctx.close();
        }
    }

    /** A closed-loop user: a connection to each host it sends to, the next request sent when the last is answered. */
    private final class User implements Owner {
        private final Request.Traffic traffic;
        private final SplittableRandom random;
        private final Runnable finished;
        private final Connection[] byHost = new Connection[hosts.size()];
        private boolean done;

        User(Request.Traffic traffic, SplittableRandom random, Runnable finished) {
            this.traffic = traffic;
            this.random = random;
            this.finished = finished;
        }

        void next() {
            Request r = running ? traffic.next(random) : null;
            if (r == null) {
                if (!done) {
                    done = true;
                    finished.run();
                }
                return;
            }
            Connection c = byHost[r.host()];
            if (c != null && c.usable()) {
                c.send(this, r, System.nanoTime());
                return;
            }
            connect(r.host(), connected -> {
                byHost[r.host()] = connected;
                connected.send(this, r, System.nanoTime());
            }, () -> {
                error(r.kind(), "connect", "connecting to host " + r.host() + " (" + hostHeaders.get(r.host()) + ") failed");
                loop.schedule(this::next, RETRY_MILLIS, TimeUnit.MILLISECONDS);
            });
        }

        @Override
        public void answered(Connection c) {
            next();
        }

        @Override
        public void closed(Connection c, boolean lost) {
            if (byHost[c.host] == c) {
                byHost[c.host] = null;
            }
            if (lost) {
                next(); // its request failed: on to the next, on a new connection
            }
        }
    }

    /** An open loop's connections to one host: idle ones (the last used first), and requests waiting for one. */
    private final class Pool implements Owner {
        private final int host;
        private final int max;
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final ArrayDeque<Object[]> backlog = new ArrayDeque<>();
        private int open;

        Pool(int host, int max) {
            this.host = host;
            this.max = max;
        }

        void dispatch(Request r, long intended) {
            while (!idle.isEmpty()) {
                Connection c = idle.pop();
                if (c.usable()) {
                    c.send(this, r, intended);
                    return;
                }
            }
            if (open < max) {
                open++;
                connect(host, c -> c.send(this, r, intended), () -> {
                    open--;
                    error(r.kind(), "connect", "connecting to host " + host + " (" + hostHeaders.get(host) + ") failed");
                });
            } else if (backlog.size() < MAX_BACKLOG) {
                backlog.add(new Object[] {r, intended});
            } else {
                dropped.increment();
            }
        }

        @Override
        public void answered(Connection c) {
            if (!running) {
                backlog.clear(); // due before the stop, not sent: past the window that counts
            }
            Object[] waiting = backlog.poll();
            if (waiting != null && c.usable()) {
                c.send(this, (Request) waiting[0], (Long) waiting[1]);
            } else {
                if (waiting != null) {
                    backlog.addFirst(waiting);
                }
                if (c.usable()) {
                    idle.push(c);
                }
            }
        }

        @Override
        public void closed(Connection c, boolean lost) {
            idle.remove(c);
            open--;
            Object[] waiting = backlog.poll();
            if (waiting != null && running) {
                dispatch((Request) waiting[0], (Long) waiting[1]);
            }
        }
    }
}
