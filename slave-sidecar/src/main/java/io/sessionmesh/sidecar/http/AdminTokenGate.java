package io.sessionmesh.sidecar.http;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;

/**
 * The admin port's check of the token, on the request's headers, before any of its body is read or buffered: a call
 * without the right {@code Authorization: Bearer <token>} is answered 401 and its connection closed (what body it
 * sends is dropped unread). Ahead of the body aggregator in the admin pipeline; {@link AdminHandler} checks again.
 * The one exception is a GET or HEAD of the operators' page or its script ({@link OperatorsPage#isPublic}), which hold
 * no figures: the page's own calls for figures carry the token.
 */
@ChannelHandler.Sharable
final class AdminTokenGate extends ChannelInboundHandlerAdapter {
    private final byte[] token;

    AdminTokenGate(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!ctx.channel().isOpen()) {
            ReferenceCountUtil.release(msg); // the rest of a refused request
            return;
        }
        if (msg instanceof HttpRequest request && !OperatorsPage.isPublic(request)
                && !AdminHandler.authorized(request.headers(), token)) {
            ReferenceCountUtil.release(msg);
            FullHttpResponse refused = AdminHandler.unauthorized();
            refused.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(refused).addListener(ChannelFutureListener.CLOSE);
            ctx.channel().config().setAutoRead(false); // read nothing more of it
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
