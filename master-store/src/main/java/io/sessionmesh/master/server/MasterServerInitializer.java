package io.sessionmesh.master.server;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.handler.ConnectionLimiter;
import io.sessionmesh.master.handler.ConnectionRegistration;
import io.sessionmesh.master.handler.DataHandler;
import io.sessionmesh.master.handler.FlowControlHandler;
import io.sessionmesh.master.groups.GroupOps;
import io.sessionmesh.master.handler.GroupDataHandler;
import io.sessionmesh.master.handler.IdleCloser;
import io.sessionmesh.master.handler.PushHandler;
import io.sessionmesh.master.handler.RegistrationHandler;
import io.sessionmesh.master.handler.RequestDecoder;
import io.sessionmesh.master.handler.RoleCheck;
import io.sessionmesh.master.handler.ServerCounters;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.transport.BinaryTransportCodec;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.sessionmesh.wire.tls.TlsFiles;

import java.util.concurrent.ScheduledExecutorService;

/**
 * The pipeline of one master connection, head to tail:
 *
 * <pre>
 *  tls        SslHandler             with TLS configured only: mutual TLS, a client certificate required (PROTOCOL.md 3.10)
 *  limit      ConnectionLimiter      refuses connections over max-connections
 *  idle       IdleCloser             closes a connection nothing was read from for connection-idle-timeout
 *  frames     FrameDecoder           bytes -> Frame (or InvalidFrame), lengths checked before buffering
 *  encoder    FrameEncoder           typed frames -> bytes, batched per read and flushed at its end
 *  requests   RequestDecoder         Frame -> Received (typed request), PushConfirmed or Rejected
 *  roles      RoleCheck              with TLS: FORBIDDEN for a request its peer's certificate role may not send
 *  pushes     PushHandler            pushes and fences: confirmations in, invalidations and fenced answers out
 *  flow       FlowControlHandler     answers in flight, reading on and off, slow consumers
 *  registry   RegistrationHandler    REGISTER, and PING with its lease grant
 *  group      GroupDataHandler       in a replica of a group only: the data operations through the group (or NOT_LEADER)
 *  data       DataHandler            READ, WRITE, TOUCH, CREATE, DELETE, schemas, STATS; answers what was rejected
 * </pre>
 *
 * Answers are written by the handler that makes them and pass flow control, then the pushes handler (which holds a
 * fenced one back), then the encoder. Any channel will do (tests run the whole pipeline in an EmbeddedChannel).
 */
final class MasterServerInitializer extends ChannelInitializer<Channel> {
    private final MasterConfig config;
    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final ServerCounters counters;
    private final ConnectionLimiter limiter;
    private final DataHandler.StatsSource stats;
    private final ChannelGroup channels;
    private final HolderRegistry holders;
    private final ReplicaGroup group;
    private final GroupOps groupOps;
    private final ScheduledExecutorService timer;
    /** The server TLS context, or null for plain TCP. */
    private final SslContext tls;

    MasterServerInitializer(MasterConfig config, SessionStore store, ServerCounters counters, DataHandler.StatsSource stats,
                            ChannelGroup channels, HolderRegistry holders, ReplicaGroup group, ScheduledExecutorService timer,
                            GroupOps groupOps, SslContext tls) {
        this.groupOps = groupOps;
        this.tls = tls;
        this.config = config;
        this.store = store;
        this.codec = new BinaryTransportCodec(config.transportLimits());
        this.counters = counters;
        this.limiter = new ConnectionLimiter(config.maxConnections(), counters);
        this.stats = stats;
        this.channels = channels;
        this.holders = holders;
        this.group = group;
        this.timer = timer;
    }

    @Override
    protected void initChannel(Channel ch) {
        channels.add(ch);
        ConnectionRegistration registration = new ConnectionRegistration(holders);
        FlowControlHandler flow = new FlowControlHandler(config.maxInFlight(), config.maxOutboundBytes(), counters);
        PushHandler pushes = new PushHandler(registration, holders.counters(), counters);
        if (tls != null) {
            SslHandler handler = tls.newHandler(ch.alloc());
            handler.setHandshakeTimeoutMillis(TlsFiles.HANDSHAKE_TIMEOUT_MILLIS);
            ch.pipeline().addLast("tls", handler);
        }
        ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleCloser(config.connectionIdleTimeout().toMillis(), counters))
                .addLast("frames", new FrameDecoder(config.maxFrameBytes()))
                .addLast("encoder", new FrameEncoder(codec, flow, true));
        ch.pipeline()
                .addLast("requests", new RequestDecoder(codec, counters))
                .addLast("roles", new RoleCheck(registration, counters))
                .addLast("pushes", pushes)
                .addLast("flow", flow)
                .addLast("registry", new RegistrationHandler(holders, registration, pushes, counters, group));
        if (group != null) {
            ch.pipeline().addLast("group", new GroupDataHandler(store, group, registration, counters, timer, groupOps));
        }
        ch.pipeline().addLast("data", new DataHandler(store, registration, counters, stats));
    }
}
