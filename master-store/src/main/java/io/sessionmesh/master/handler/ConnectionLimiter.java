package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AttributeKey;

/**
 * Counts open connections and turns away those over {@code maxConnections}: such a connection gets one
 * UNAVAILABLE frame (request id 0) that says why, and is closed. Shared by every channel.
 *
 * <p>With TLS in the pipeline (an {@link SslHandler} ahead of this one) a connection takes its slot only once its
 * handshake has succeeded: before, thousands of peers that open TCP connections and never send a ClientHello (which
 * needs no certificate) held every slot and locked the sidecars out. A handshake that never completes takes no slot;
 * the SslHandler's handshake timeout ({@code TlsFiles.HANDSHAKE_TIMEOUT_MILLIS}) closes it, and the SslHandler passes
 * nothing but the handshake's own bytes before it is done, so a connection without a slot reaches no other handler.
 */
@ChannelHandler.Sharable
public final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    /** Set on a connection once it holds a slot (released at its channelInactive). */
    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("sessionmesh.master.connectionCounted");

    private final int maxConnections;
    private final ServerCounters counters;

    public ConnectionLimiter(int maxConnections, ServerCounters counters) {
        this.maxConnections = maxConnections;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.pipeline().get(SslHandler.class) != null) {
            super.channelActive(ctx); // counted at the handshake's success (userEventTriggered)
            return;
        }
        if (admit(ctx)) {
            super.channelActive(ctx);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done && done.isSuccess() && !ctx.channel().hasAttr(COUNTED)) {
            if (!admit(ctx)) {
                return;
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    /** Takes a slot for the connection, or refuses it (the frame, then close); whether it got one. */
    private boolean admit(ChannelHandlerContext ctx) {
        ctx.channel().attr(COUNTED).set(Boolean.TRUE); // counted until its channelInactive, refused or not
        if (counters.connections.incrementAndGet() > maxConnections) {
            counters.connectionsRefused.increment();
            ctx.channel().config().setAutoRead(false);
            MasterAnswer.Error refusal = new MasterAnswer.Error(0, 0, Status.UNAVAILABLE, "the master accepts at most "
                    + maxConnections + " connections; try another or later");
            ctx.writeAndFlush(refusal.toFrame(ctx.alloc())).addListener(ChannelFutureListener.CLOSE);
            return false;
        }
        counters.connectionsAccepted.increment();
        return true;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().hasAttr(COUNTED)) {
            counters.connections.decrementAndGet();
        }
        super.channelInactive(ctx);
    }
}
