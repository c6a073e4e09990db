package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * One REST connection's share of the {@link BodyBudget}, between the HTTP codec and the body aggregator: reserves a
 * body's bytes before the aggregator buffers them (the Content-Length as the headers arrive; a chunked body, chunk by
 * chunk), and hands what it reserved for a request to {@link HttpPipeliningHandler} with that request
 * ({@link #takeReserved()}), which gives it back once the answer is written.
 *
 * <p>A body that does not fit: its request goes on as a failed one ({@link BodyBudget.Exhausted}; answered 503 in its
 * turn, with Retry-After), the rest of its body is skipped, never buffered, and the connection stays in step. A body
 * above {@code max-body} reserves nothing: the aggregator answers it 413 and skips it. What a closing connection still
 * holds here is given back.
 */
final class BodyBudgetHandler extends ChannelInboundHandlerAdapter {
    private final BodyBudget budget;
    private final int maxBodyBytes;
    /** Reserved for the request being read, not yet handed on with it. */
    private long reserved;
    /** The request being read is chunked: its chunks are reserved as they come. */
    private boolean chunked;
    /** Bytes of the chunked body so far (past max-body the aggregator refuses it; nothing more is reserved). */
    private long chunkedBytes;
    /** The request being read was refused: its body is dropped until its last content. */
    private boolean skipping;

    BodyBudgetHandler(BodyBudget budget, int maxBodyBytes) {
        this.budget = budget;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request && !(msg instanceof FullHttpRequest)) {
            started(ctx, request);
        } else if (msg instanceof HttpContent content) {
            content(ctx, content);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void started(ChannelHandlerContext ctx, HttpRequest request) {
        skipping = false;
        chunked = false;
        chunkedBytes = 0;
        if (request.decoderResult().isSuccess()) {
            long length = HttpUtil.getContentLength(request, -1L);
            if (length < 0) {
                chunked = HttpUtil.isTransferEncodingChunked(request);
            } else if (length <= maxBodyBytes && !budget.tryReserve(length)) {
                refuse(ctx, request, length);
                return;
            } else if (length <= maxBodyBytes) {
                reserved += length;
            }
        }
        ctx.fireChannelRead(request);
    }

    private void content(ChannelHandlerContext ctx, HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (skipping) {
            skipping = !last;
            content.release();
            return;
        }
        int n = content.content().readableBytes();
        if (chunked && n > 0 && chunkedBytes + n <= maxBodyBytes) {
            if (!budget.tryReserve(n)) {
                // The aggregator has the request's start: a failed last content ends it as a failed request.
                content.release();
                LastHttpContent failed = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
                failed.setDecoderResult(DecoderResult.failure(exhausted(chunkedBytes + n)));
                skipping = !last;
                ctx.fireChannelRead(failed);
                return;
            }
            reserved += n;
        }
        chunkedBytes += n;
        ctx.fireChannelRead(content);
    }

    /** The request goes on with no body, failed: answered 503 in its turn; its body is skipped. */
    private void refuse(ChannelHandlerContext ctx, HttpRequest request, long length) {
        FullHttpRequest failed = new DefaultFullHttpRequest(request.protocolVersion(), request.method(), request.uri(),
                Unpooled.EMPTY_BUFFER, request.headers(), EmptyHttpHeaders.INSTANCE);
        failed.setDecoderResult(DecoderResult.failure(exhausted(length)));
        ReferenceCountUtil.release(request);
        skipping = true;
        ctx.fireChannelRead(failed);
    }

    private BodyBudget.Exhausted exhausted(long bytes) {
        return new BodyBudget.Exhausted("the sidecar holds " + budget.reserved() + " bytes of request bodies, its budget is "
                + budget.limit() + " (body-budget); a body of " + bytes + " bytes does not fit now, try again shortly");
    }

    /** What was reserved for the request just handed on: the caller gives it back when that request is done. */
    long takeReserved() {
        long r = reserved;
        reserved = 0;
        return r;
    }

    /** Gives back what a request handed on with {@link #takeReserved()} held. */
    void release(long bytes) {
        budget.release(bytes);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        budget.release(takeReserved());
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        budget.release(takeReserved());
    }
}
