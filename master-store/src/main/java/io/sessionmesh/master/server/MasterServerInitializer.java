package io.sessionmesh.master.server;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.wire.transport.BinaryTransportCodec;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * The pipeline of one master connection: connection limit, idle timeout, frame decoder, request handler.
 * Answers are whole frames built by the handler, so there is no encoder. The idle timeout watches reads only:
 * watching writes too would put a listener on every answer, and a connection that stops reading its answers
 * stops being read as well, so it falls idle and is closed all the same.
 */
final class MasterServerInitializer extends ChannelInitializer<SocketChannel> {
    private final MasterConfig config;
    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final ServerCounters counters;
    private final ConnectionLimiter limiter;
    private final MasterRequestHandler.StatsSource stats;
    private final ChannelGroup channels;
    private final HolderRegistry holders;

    MasterServerInitializer(MasterConfig config, SessionStore store, ServerCounters counters,
                            MasterRequestHandler.StatsSource stats, ChannelGroup channels, HolderRegistry holders) {
        this.holders = holders;
        this.config = config;
        this.store = store;
        this.codec = new BinaryTransportCodec(config.transportLimits());
        this.counters = counters;
        this.limiter = new ConnectionLimiter(config.maxConnections(), counters);
        this.stats = stats;
        this.channels = channels;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        channels.add(ch);
        ch.pipeline()
                .addLast("limit", limiter)
                .addLast("idle", new IdleStateHandler(config.connectionIdleTimeout().toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                .addLast("frames", new FrameDecoder(config.maxFrameBytes()))
                .addLast("requests", new MasterRequestHandler(store, codec, counters, stats, config.maxInFlight(),
                        config.maxOutboundBytes(), holders));
    }
}
