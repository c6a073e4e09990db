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
 * timeout of keep-alive connections, the codec, on the admin port the token check on the headers
 * ({@link AdminTokenGate}), for the API its share of the body budget ({@link BodyBudgetHandler}, {@code body-budget}:
 * a body that does not fit is 503, in its turn), a body bound ({@code max-body}, on the admin port
 * {@link SidecarConfig#MAX_ADMIN_BODY_BYTES}: larger is 413, in its turn), then
 * for the API the request order, back-pressure and the outbound bound ({@link HttpPipeliningHandler},
 * {@code max-pipelined}, {@code max-outbound}) and the operations ({@link ApiHandler}), or for the
 * admin port {@link AdminHandler}, which answers at once and so in order. (Any Channel, not only a socket, so that
 * the pipeline can be tested on an EmbeddedChannel.)
 */
public final class SidecarHttpInitializer extends ChannelInitializer<Channel> {
    /** Headers of one request, and the longest request line. */
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
    private final SidecarMetrics metrics;

    /** Whether this is the admin endpoint's pipeline (else the REST API's). */
    public boolean isAdmin() {
        return admin;
    }

    public SidecarHttpInitializer(SidecarConfig config, SidecarService service, boolean admin) {
        this.config = config;
        this.admin = admin;
        if (admin) {
            this.handler = new AdminHandler(service, config.adminToken());
        } else {
            MessageForms forms = new MessageForms(new BinaryTransportCodec(config.transportLimits()),
                    new JsonTransportCodec(config.transportLimits()));
            this.handler = new ApiHandler(service, forms, new ErrorResponses(forms, service.metrics()));
        }
        this.limiter = new ConnectionLimiter(config.maxHttpConnections());
        this.gate = admin && config.adminToken() != null ? new AdminTokenGate(config.adminToken()) : null;
        this.metrics = service.metrics();
        this.budget = admin ? null : new BodyBudget(config.bodyBudgetBytes(), metrics.bodyBytesReserved, metrics.bodiesOverBudget);
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleStateHandler(config.httpIdleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                .addLast("http", new HttpServerCodec(MAX_LINE_BYTES, MAX_HEADER_BYTES, 8192));
        if (admin && gate != null) {
            ch.pipeline().addLast("token", gate);
        }
        BodyBudgetHandler bodies = null;
        if (!admin) {
            bodies = new BodyBudgetHandler(budget, config.maxBodyBytes());
            ch.pipeline().addLast("budget", bodies);
        }
        ch.pipeline().addLast("body", new SidecarBodyAggregator(admin ? SidecarConfig.MAX_ADMIN_BODY_BYTES : config.maxBodyBytes()));
        if (!admin) {
            ch.pipeline().addLast("pipelining", new HttpPipeliningHandler(config.maxPipelined(), config.maxOutboundBytes(),
                    bodies, metrics.httpSlowConsumersClosed));
        }
        ch.pipeline().addLast("api", handler);
    }
}
