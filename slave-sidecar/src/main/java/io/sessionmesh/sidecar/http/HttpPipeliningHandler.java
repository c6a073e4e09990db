package io.sessionmesh.sidecar.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.timeout.IdleStateEvent;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * HTTP/1.1 pipelining for one connection: answers may complete out of order (a cache hit at once, a miss later),
 * but are written in the order of their requests. Each request read is passed on as a {@link PipelinedRequest}; the
 * handler after this one writes it back once answered, and this handler holds that answer until every earlier one
 * is written.
 *
 * <p>Also the connection's life: with {@code maxPipelined} requests waiting, the connection stops reading until at
 * most half are; a request that did not ask for keep-alive (or could not be decoded) is the last one acted on:
 * reading stops, requests already read behind it are dropped unexecuted, and the connection closes after its
 * answer; an idle connection closes only when no answer is due; answers still
 * waiting when the connection closes are released.
 */
final class HttpPipeliningHandler extends ChannelDuplexHandler {
    private final int maxPipelined;
    /** Requests without a written answer, in arrival order. */
    private final ArrayDeque<PipelinedRequest> pending = new ArrayDeque<>();
    /** Set when the connection is closing or closed: answers that complete after that are released, not written. */
    private boolean closing;
    /** Whether an answer was written since the last flush: a flush with nothing new is not passed on. */
    private boolean unflushed;
    /** Set once a request that ends the connection was read: nothing read after it is acted on (RFC 9112 9.6). */
    private boolean lastRequestRead;

    HttpPipeliningHandler(int maxPipelined) {
        this.maxPipelined = maxPipelined;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (lastRequestRead) {
            // Pipelined behind a request that closes the connection: never executed, so never half-done (a write
            // applied without an answer). The client sees the connection close and sends it again elsewhere.
            request.release();
            return;
        }
        // After a request that could not be decoded, the decoder drops the rest of the stream: close after answering.
        // A body over max-body is different: the aggregator skips it and the stream stays in step.
        boolean keepAlive = HttpUtil.isKeepAlive(request) && (request.decoderResult().isSuccess()
                || request.decoderResult().cause() instanceof TooLongHttpContentException);
        PipelinedRequest slot = new PipelinedRequest(request, keepAlive);
        pending.add(slot);
        if (!keepAlive) {
            lastRequestRead = true;
            ctx.channel().config().setAutoRead(false);
        } else if (pending.size() >= maxPipelined) {
            ctx.channel().config().setAutoRead(false);
        }
        ctx.fireChannelRead(slot);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof PipelinedRequest answered)) {
            unflushed = true;
            ctx.write(msg, promise);
            return;
        }
        if (closing) {
            answered.response.release(); // the connection is gone, or closing after an earlier answer
            fail(answered, promise);
            return;
        }
        answered.promise = promise;
        while (!pending.isEmpty() && pending.peek().response != null) {
            PipelinedRequest head = pending.poll();
            FullHttpResponse r = head.response;
            HttpUtil.setContentLength(r, r.content().readableBytes());
            HttpUtil.setKeepAlive(r, head.keepAlive);
            if (head.keepAlive) {
                ctx.write(r, head.promise);
                unflushed = true;
            } else {
                closing = true;
                unflushed = false;
                ChannelPromise last = head.promise.isVoid() ? ctx.newPromise() : head.promise;
                ctx.writeAndFlush(r, last);
                last.addListener(f -> ctx.close());
                releasePending();
                return;
            }
        }
        if (pending.size() < maxPipelined / 2 + 1 && !ctx.channel().config().isAutoRead() && !lastRequestRead) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (unflushed) {
            unflushed = false;
            ctx.flush();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && pending.isEmpty()) {
            ctx.close(); // idle with no answer due; with answers due, the master's timeout bounds the wait
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        releasePending();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closing = true;
        releasePending();
    }

    /** Requests still waiting for their answer to be written (for tests). */
    int pending() {
        return pending.size();
    }

    private void releasePending() {
        for (PipelinedRequest p : pending) {
            if (p.response != null) {
                p.response.release();
                fail(p, p.promise);
            }
        }
        pending.clear();
    }

    private static void fail(PipelinedRequest p, ChannelPromise promise) {
        p.response = null;
        if (promise != null && !promise.isVoid()) {
            promise.tryFailure(new ClosedChannelException());
        }
    }
}
