package io.sessionmesh.sidecar.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The admin port's deadline for a request (the API port's is {@link ApiRequestDecoder}'s): from the read that begins a
 * request (empty lines before it included, which Netty's codec skips without bound), the request, head and body
 * ({@code MAX_ADMIN_BODY_BYTES} at most), must reach the admin handler whole within {@code head-timeout}; past it the
 * connection is answered 408 and closed. Without it a client trickling a head a byte at a time is never idle, so
 * {@code http-idle-timeout} ({@link AdminHandler} closes an idle connection) never closes it, and enough of them hold
 * every admin connection slot, before the token is even read. A request whose first bytes came in the read that ended
 * the one before it is armed by its next read; if none comes, the connection is idle.
 *
 * <p>Two handlers share the deadline: {@link #bytes()} ahead of Netty's codec (a read that starts a request arms it),
 * {@link #requests()} behind the body aggregator (a whole request, or one the codec or the aggregator refused, disarms
 * it). A deadline that runs out while the connection is not read (an answer still being made: the admin handler stops
 * reading meanwhile) starts again. One instance a connection, on its event loop.
 */
final class AdminRequestDeadline {
    private final long timeoutMillis;
    /** The deadline of the request being read, or null. */
    private ScheduledFuture<?> deadline;
    /** Whether a request has begun (bytes in) and not yet reached the admin handler. */
    private boolean reading;
    /** Where a 408 is written from: behind the codec, so that it is encoded as an answer. */
    private ChannelHandlerContext answers;

    AdminRequestDeadline(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** Ahead of the codec: a read that starts a request arms the deadline; a closed connection drops it. */
    ChannelInboundHandlerAdapter bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (!reading && msg instanceof ByteBuf b && b.isReadable()) {
                    reading = true;
                    arm(ctx);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                cancel();
                ctx.fireChannelInactive();
            }

            @Override
            public void handlerRemoved(ChannelHandlerContext ctx) {
                cancel();
            }
        };
    }

    /** Behind the body aggregator: a request that reaches the admin handler ends its deadline. */
    ChannelInboundHandlerAdapter requests() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                answers = ctx;
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof FullHttpRequest) {
                    reading = false;
                    cancel();
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    private void arm(ChannelHandlerContext ctx) {
        cancel();
        if (ctx.channel().isActive()) {
            deadline = ctx.executor().schedule(() -> timedOut(ctx), timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void cancel() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void timedOut(ChannelHandlerContext ctx) {
        deadline = null;
        if (!reading || !ctx.channel().isActive() || answers == null) {
            return;
        }
        if (!ctx.channel().config().isAutoRead()) {
            arm(ctx); // not read meanwhile (an answer is being made): no fault of the client's
            return;
        }
        ctx.channel().config().setAutoRead(false); // read nothing more of it
        FullHttpResponse late = AdminHandler.json(HttpResponseStatus.REQUEST_TIMEOUT, AdminHandler.error("BAD_REQUEST",
                "the admin request did not arrive whole within " + timeoutMillis + " ms of its first byte (head-timeout)"));
        HttpUtil.setContentLength(late, late.content().readableBytes());
        HttpUtil.setKeepAlive(late, false);
        answers.writeAndFlush(late).addListener(ChannelFutureListener.CLOSE);
    }
}
