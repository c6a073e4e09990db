package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.TooLongHttpContentException;

/**
 * Netty's aggregator with one change: a body over {@code max-body} is not answered here (that 413 would overtake the
 * answers still due on a pipelined connection) but passed on as a failed request, which {@link ApiHandler} answers
 * (413) in the turn {@link HttpPipeliningHandler} keeps for it. The rest of the oversized body is skipped, never
 * buffered, and the connection goes on.
 */
final class SidecarBodyAggregator extends HttpObjectAggregator {
    SidecarBodyAggregator(int maxBodyBytes) {
        super(maxBodyBytes, true);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (oversized instanceof HttpRequest r) {
            FullHttpRequest failed = new DefaultFullHttpRequest(r.protocolVersion(), r.method(), r.uri(), Unpooled.EMPTY_BUFFER,
                    r.headers(), EmptyHttpHeaders.INSTANCE);
            failed.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException("the body is above the limit of "
                    + maxContentLength() + " bytes (max-body)")));
            ctx.fireChannelRead(failed);
            return;
        }
        super.handleOversizedMessage(ctx, oversized);
    }
}
