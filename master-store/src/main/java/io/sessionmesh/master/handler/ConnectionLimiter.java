package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Counts open connections and turns away those over {@code maxConnections}: such a connection gets one
 * UNAVAILABLE frame (request id 0) that says why, and is closed. Shared by every channel.
 */
@ChannelHandler.Sharable
public final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    private final int maxConnections;
    private final ServerCounters counters;

    public ConnectionLimiter(int maxConnections, ServerCounters counters) {
        this.maxConnections = maxConnections;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (counters.connections.incrementAndGet() > maxConnections) {
            counters.connectionsRefused.increment();
            ctx.channel().config().setAutoRead(false);
            MasterAnswer.Error refusal = new MasterAnswer.Error(0, 0, Status.UNAVAILABLE, "the master accepts at most "
                    + maxConnections + " connections; try another or later");
            ctx.writeAndFlush(refusal.toFrame(ctx.alloc())).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        counters.connectionsAccepted.increment();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        counters.connections.decrementAndGet();
        super.channelInactive(ctx);
    }
}
