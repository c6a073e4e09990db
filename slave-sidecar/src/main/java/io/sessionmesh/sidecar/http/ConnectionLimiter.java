package io.sessionmesh.sidecar.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closes connections beyond {@code max-http-connections} at once (a local client that leaks connections gets a clear
 * signal rather than a slow sidecar). One instance counts every connection of a server.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    ConnectionLimiter(int max) {
        this.max = max;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > max) {
            ctx.close(); // counted until its channelInactive, like any other
            return;
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open.decrementAndGet();
        super.channelInactive(ctx);
    }

    /** Connections counted now. */
    int open() {
        return open.get();
    }
}
