package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.service.SidecarService;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * The pipelines of the sidecar's two HTTP servers: codec, a body bound ({@code max-body}: larger is 413, answered
 * by the aggregator), the idle timeout of keep-alive connections, then the API or the admin handler. The API
 * server also counts its connections and closes those over {@code max-http-connections}.
 */
public final class SidecarHttpInitializer extends ChannelInitializer<SocketChannel> {
    /** Headers of one request, and the longest request line. */
    static final int MAX_HEADER_BYTES = 16 << 10;
    static final int MAX_LINE_BYTES = 8 << 10;

    private final SidecarConfig config;
    private final SidecarService service;
    private final boolean admin;
    private final BinaryTransportCodec binary;
    private final JsonTransportCodec json;
    private final ChannelHandler adminHandler;
    private final ChannelHandler limiter;

    public SidecarHttpInitializer(SidecarConfig config, SidecarService service, boolean admin) {
        this.config = config;
        this.service = service;
        this.admin = admin;
        this.binary = new BinaryTransportCodec(config.transportLimits());
        this.json = new JsonTransportCodec(config.transportLimits());
        this.adminHandler = admin ? new AdminHandler(service, config.adminToken()) : null;
        this.limiter = new ConnectionLimiter(config.maxHttpConnections());
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleStateHandler(config.httpIdleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                .addLast("http", new HttpServerCodec(MAX_LINE_BYTES, MAX_HEADER_BYTES, 8192))
                .addLast("body", new SidecarBodyAggregator(config.maxBodyBytes()))
                .addLast("api", admin ? adminHandler : new ApiHandler(service, binary, json, config.maxPipelined()));
    }
}
