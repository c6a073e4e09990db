package io.sessionmesh.master.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.io.ServerMeters;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The master's HTTP admin endpoint ({@code admin-port}), read-only, on an event loop of its own so that a scrape never
 * waits behind the data connections: {@code GET /health} (200 {@code {"status":"UP",...}}, 503 DRAINING once the
 * master is stopping) and {@code GET} or {@code HEAD /metrics} ({@link MasterMetrics}, Prometheus text). Anything else
 * is 404 or 405 with a JSON error naming what there is. It shows no session's data.
 */
public final class MasterAdminServer implements AutoCloseable {
    /** Bytes of one request's line and headers; an admin request has no body to speak of. */
    static final int MAX_REQUEST_BYTES = 8 << 10;
    /** A keep-alive connection idle this long is closed. */
    static final long IDLE_SECONDS = 60;

    private final EventLoopGroup loop;
    private final Channel channel;

    private MasterAdminServer(EventLoopGroup loop, Channel channel) {
        this.loop = loop;
        this.channel = channel;
    }

    /**
     * Binds the admin endpoint.
     *
     * @param sessions the live sessions (for /health)
     * @param draining whether the master is stopping (then /health is 503)
     */
    public static MasterAdminServer start(IoTransport io, String bind, int port, MasterMetrics metrics, LongSupplier sessions,
                                          BooleanSupplier draining) throws InterruptedException {
        EventLoopGroup loop = io.eventLoops(1, "master-admin");
        Handler handler = new Handler(metrics, sessions, draining);
        try {
            Channel ch = new ServerBootstrap().group(loop).channel(io.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 64)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline()
                                    .addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS, TimeUnit.SECONDS))
                                    .addLast("http", new HttpServerCodec(MAX_REQUEST_BYTES, MAX_REQUEST_BYTES, 8192))
                                    .addLast("body", new HttpObjectAggregator(MAX_REQUEST_BYTES))
                                    .addLast("admin", handler);
                        }
                    })
                    .bind(bind, port).sync().channel();
            return new MasterAdminServer(loop, ch);
        } catch (Exception e) { // also the bind's IOException (a port in use), which Netty throws undeclared
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    @ChannelHandler.Sharable
    static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final MasterMetrics metrics;
        private final LongSupplier sessions;
        private final BooleanSupplier draining;

        Handler(MasterMetrics metrics, LongSupplier sessions, BooleanSupplier draining) {
            this.metrics = metrics;
            this.sessions = sessions;
            this.draining = draining;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            FullHttpResponse r;
            if (!request.decoderResult().isSuccess()) {
                r = json(HttpResponseStatus.BAD_REQUEST, error("BAD_REQUEST", "not an HTTP request this endpoint can read: "
                        + request.decoderResult().cause()));
            } else {
                r = answer(request.method(), new QueryStringDecoder(request.uri()).path());
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request) && request.decoderResult().isSuccess();
            HttpUtil.setContentLength(r, r.content().readableBytes());
            HttpUtil.setKeepAlive(r, keepAlive);
            // HEAD: the codec sends the headers, Content-Length included, and not the body
            var written = ctx.writeAndFlush(r);
            if (!keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }

        FullHttpResponse answer(HttpMethod method, String path) {
            boolean read = method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD);
            switch (path) {
                case "/metrics":
                    if (!read) {
                        return notAllowed(method, path);
                    }
                    return response(HttpResponseStatus.OK, metrics.prometheusText(), ServerMeters.PROMETHEUS_CONTENT_TYPE);
                case "/health":
                    if (!read) {
                        return notAllowed(method, path);
                    }
                    boolean down = draining.getAsBoolean();
                    return json(down ? HttpResponseStatus.SERVICE_UNAVAILABLE : HttpResponseStatus.OK,
                            "{\"status\":\"" + (down ? "DRAINING" : "UP") + "\",\"sessions\":" + sessions.getAsLong() + "}");
                default:
                    return json(HttpResponseStatus.NOT_FOUND, error("NOT_FOUND", "no such admin endpoint: " + method + " "
                            + path + "; see GET /health, GET /metrics"));
            }
        }

        private static FullHttpResponse notAllowed(HttpMethod method, String path) {
            FullHttpResponse r = json(HttpResponseStatus.METHOD_NOT_ALLOWED, error("METHOD_NOT_ALLOWED",
                    method + " " + path + ": only GET and HEAD"));
            r.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            return r;
        }

        private static String error(String code, String message) {
            return "{\"error\":\"" + code + "\",\"message\":\"" + new String(JsonStringEncoder.getInstance().quoteAsString(message))
                    + "\"}";
        }

        private static FullHttpResponse json(HttpResponseStatus status, String body) {
            return response(status, body, "application/json");
        }

        private static FullHttpResponse response(HttpResponseStatus status, String body, String contentType) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            return r;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent) {
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
