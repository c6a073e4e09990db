package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.SidecarService;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * The pipelines of the sidecar's two HTTP servers: the connection limit ({@code max-http-connections}), the idle
 * timeout of keep-alive connections, then
 * <ul>
 *   <li>for the API, its hot path: the API's own HTTP/1.1 request decoder ({@link ApiRequestDecoder}: whole requests
 *       with a Content-Length, the line and header limits, its connection's share of the body budget,
 *       {@code body-budget}, and the body bound, {@code max-body}; a request refused is passed on failed, answered in
 *       its turn) and response encoder ({@link ApiResponseEncoder}), the request order, back-pressure and the
 *       outbound bounds ({@link HttpPipeliningHandler}, {@code max-pipelined}, {@code max-outbound}, and
 *       {@code outbound-budget} over every connection: {@link OutboundBudget}) and the operations
 *       ({@link ApiHandler}): five handlers where Netty's general codec and aggregator made seven (RESULTS.md 12.11 at 1f3fa7a's
 *       profile put a third of the sidecar's CPU in Netty's own code);</li>
 *   <li>for the admin port, the request's deadline ({@link AdminRequestDeadline}, {@code head-timeout}, around the
 *       next three), Netty's general codec, the token check on the headers ({@link AdminTokenGate}), a body bound
 *       ({@link SidecarConfig#MAX_ADMIN_BODY_BYTES}: larger is 413) and {@link AdminHandler}, which answers at once and
 *       so in order.</li>
 * </ul>
 * (Any Channel, not only a socket, so that the pipeline can be tested on an EmbeddedChannel.)
 */
public final class SidecarHttpInitializer extends ChannelInitializer<Channel> {
    /** Headers of one request, and the longest request line, on the admin port (the API's: {@link ApiRequestDecoder}). */
    static final int MAX_HEADER_BYTES = 16 << 10;
    static final int MAX_LINE_BYTES = 8 << 10;

    private final SidecarConfig config;
    /** The last handler, shared by every connection: ApiHandler or AdminHandler. */
    private final ChannelHandler handler;
    private final ChannelHandler limiter;
    private final boolean admin;
    /** The admin port's token check on the headers (null: no token, or the API port). */
    private final ChannelHandler gate;
    /** The API's body budget, shared by its connections (null on the admin port). */
    private final BodyBudget budget;
    /** The API's bound of answers queued over all its connections (null on the admin port). */
    private final OutboundBudget outbound;
    private final SidecarMetrics metrics;

    /** Whether this is the admin endpoint's pipeline (else the REST API's). */
    public boolean isAdmin() {
        return admin;
    }

    public SidecarHttpInitializer(SidecarConfig config, SidecarService service, boolean admin) {
        this.config = config;
        this.admin = admin;
        MessageForms forms = new MessageForms(new BinaryTransportCodec(config.transportLimits()),
                new JsonTransportCodec(config.transportLimits()));
        if (admin) {
            this.handler = new AdminHandler(service, config.adminToken(), forms,
                    new HostAllowList(java.util.List.of(config.adminBind()), config.allowedHosts()));
        } else {
            this.handler = new ApiHandler(service, forms, new ErrorResponses(forms, service.metrics()),
                    new HostAllowList(java.util.List.of(config.bind()), config.allowedHosts()));
        }
        this.limiter = new ConnectionLimiter(config.maxHttpConnections());
        this.gate = admin && config.adminToken() != null ? new AdminTokenGate(config.adminToken()) : null;
        this.metrics = service.metrics();
        this.budget = admin ? null : new BodyBudget(config.bodyBudgetBytes(), metrics.bodyBytesReserved, metrics.bodiesOverBudget);
        this.outbound = admin ? null : new OutboundBudget(config.outboundBudgetBytes(), metrics.outboundBytesQueued,
                metrics.httpSlowConsumersClosed);
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleStateHandler(config.httpIdleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS));
        if (admin) {
            AdminRequestDeadline deadline = new AdminRequestDeadline(config.headTimeout().toMillis());
            ch.pipeline().addLast("deadline", deadline.bytes())
                    .addLast("http", new HttpServerCodec(MAX_LINE_BYTES, MAX_HEADER_BYTES, 8192));
            if (gate != null) {
                ch.pipeline().addLast("token", gate);
            }
            ch.pipeline().addLast("body", new SidecarBodyAggregator(SidecarConfig.MAX_ADMIN_BODY_BYTES))
                    .addLast("whole", deadline.requests());
        } else {
            ApiRequestDecoder requests = new ApiRequestDecoder(budget, config.maxBodyBytes(), config.headTimeout().toMillis(),
                    config.bodyTimeout().toMillis());
            ch.pipeline()
                    .addLast("requests", requests)
                    .addLast("responses", new ApiResponseEncoder())
                    .addLast("pipelining", new HttpPipeliningHandler(config.maxPipelined(), config.maxOutboundBytes(),
                            requests, metrics.httpSlowConsumersClosed, outbound));
        }
        ch.pipeline().addLast("api", handler);
    }
}
