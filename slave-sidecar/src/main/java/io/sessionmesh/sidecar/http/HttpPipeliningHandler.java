package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * HTTP/1.1 pipelining for one connection: answers may complete out of order (a cache hit at once, a miss later),
 * but are written in the order of their requests. Each request read is passed on as a {@link PipelinedRequest}; the
 * handler after this one writes it back once answered, and this handler holds that answer until every earlier one
 * is written.
 *
 * <p>Also the connection's life and its bounds. It reads only while three things hold: fewer than {@code maxPipelined}
 * requests wait (once there are, until at most half do), the socket takes what is written (a client that does not
 * read its answers is not read either: TCP pushes back on it, as the master does, FlowControlHandler), and no
 * request that ends the connection was read. Answers queued for the socket beyond {@code maxOutboundBytes} (what was
 * read before reading stopped, answered into a socket nobody reads) close the connection, counted as a slow
 * consumer, and so may the {@link OutboundBudget} of every connection's answers together ({@code outbound-budget}). Each request's share of the {@link BodyBudget} is given back once its answer is written, or it is dropped,
 * or the connection closes. A request that did not ask for keep-alive (or could not be decoded) is the last one acted on:
 * reading stops, requests already read behind it are dropped unexecuted, and the connection closes after its
 * answer; an idle connection closes only when no answer is due; answers still
 * waiting when the connection closes are released.
 */
final class HttpPipeliningHandler extends ChannelDuplexHandler {
    private static final Logger log = LoggerFactory.getLogger(HttpPipeliningHandler.class);

    private final int maxPipelined;
    private final long maxOutboundBytes;
    /** The connection's share of the body budget (null: none). */
    private final BodyReservations bodies;
    private final LongAdder slowConsumersClosed;
    /** The answers queued over every connection of the server (null: no such bound). */
    private final OutboundBudget outbound;
    /** Reading stopped at maxPipelined waiting requests, until at most half wait. */
    private boolean full;
    /** Requests without a written answer, in arrival order. */
    private final ArrayDeque<PipelinedRequest> pending = new ArrayDeque<>();
    /** Set when the connection is closing or closed: answers that complete after that are released, not written. */
    private boolean closing;
    /** Whether an answer was written since the last flush: a flush with nothing new is not passed on. */
    private boolean unflushed;
    /** Set once a request that ends the connection was read: nothing read after it is acted on (RFC 9112 9.6). */
    private boolean lastRequestRead;

    /** No outbound bound, no body budget (tests of the order). */
    HttpPipeliningHandler(int maxPipelined) {
        this(maxPipelined, Long.MAX_VALUE, null, new LongAdder());
    }

    /**
     * @param bodies the connection's share of the body budget, whose reservations go with their requests (null: none)
     * @param slowConsumersClosed counts the connections closed over {@code maxOutboundBytes}
     */
    HttpPipeliningHandler(int maxPipelined, long maxOutboundBytes, BodyReservations bodies, LongAdder slowConsumersClosed) {
        this(maxPipelined, maxOutboundBytes, bodies, slowConsumersClosed, null);
    }

    /**
     * @param outbound the bound of the answers queued over every connection ({@code outbound-budget}; null: none)
     */
    HttpPipeliningHandler(int maxPipelined, long maxOutboundBytes, BodyReservations bodies, LongAdder slowConsumersClosed,
                          OutboundBudget outbound) {
        this.maxPipelined = maxPipelined;
        this.maxOutboundBytes = maxOutboundBytes;
        this.bodies = bodies;
        this.slowConsumersClosed = slowConsumersClosed;
        this.outbound = outbound;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        long bodyBytes = bodies == null ? 0 : bodies.takeReserved();
        if (lastRequestRead || closing) {
            // Pipelined behind a request that closes the connection, or read before a connection closed as a slow
            // consumer: never executed, so never half-done (a write applied without an answer). The client sees the
            // connection close and sends it again elsewhere.
            request.release();
            release(bodyBytes);
            return;
        }
        // After a request that could not be decoded, the decoder drops the rest of the stream: close after answering.
        // A body over max-body is different: the aggregator skips it and the stream stays in step.
        boolean keepAlive = HttpUtil.isKeepAlive(request) && (request.decoderResult().isSuccess()
                || request.decoderResult().cause() instanceof TooLongHttpContentException
                || request.decoderResult().cause() instanceof BodyBudget.Exhausted);
        PipelinedRequest slot = new PipelinedRequest(request, keepAlive, HttpMethod.HEAD.equals(request.method()));
        slot.bodyBytes = bodyBytes;
        pending.add(slot);
        if (!keepAlive) {
            lastRequestRead = true;
        } else if (pending.size() >= maxPipelined) {
            full = true;
        }
        reading(ctx);
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
            release(head.bodyBytes);
            head.bodyBytes = 0;
            FullHttpResponse r = head.response;
            HttpUtil.setContentLength(r, r.content().readableBytes());
            HttpUtil.setKeepAlive(r, head.keepAlive);
            if (head.headRequest) {
                // A HEAD's answer has the length of the body it would have had, and no body (RFC 9110 9.3.2).
                FullHttpResponse headOnly = r.replace(Unpooled.EMPTY_BUFFER);
                r.release();
                r = headOnly;
            }
            if (head.keepAlive) {
                ctx.write(r, counted(ctx, r, head.promise));
                unflushed = true;
                if (overOutbound(ctx)) {
                    return;
                }
            } else {
                closing = true;
                unflushed = false;
                ChannelPromise last = counted(ctx, r, head.promise.isVoid() ? ctx.newPromise() : head.promise);
                ctx.writeAndFlush(r, last);
                last.addListener(f -> ctx.close());
                releasePending();
                return;
            }
        }
        if (full && pending.size() < maxPipelined / 2 + 1) {
            full = false;
            reading(ctx);
        }
    }

    /**
     * The promise to write an answer with: with an outbound budget, one that gives the answer's bytes back once the
     * socket took them or the write failed (a void promise becomes a real one, whose failure still reaches the
     * pipeline as the void one's would).
     */
    private ChannelPromise counted(ChannelHandlerContext ctx, FullHttpResponse r, ChannelPromise promise) {
        if (outbound == null) {
            return promise;
        }
        long bytes = r.content().readableBytes();
        ChannelPromise p = promise.isVoid()
                ? ctx.newPromise().addListener(io.netty.channel.ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE) : promise;
        io.netty.channel.Channel ch = ctx.channel();
        p.addListener(f -> outbound.release(ch, bytes));
        outbound.add(ch, bytes);
        return p;
    }

    /** Reads while few enough requests wait, the socket takes answers, and no request ended the connection. */
    private void reading(ChannelHandlerContext ctx) {
        boolean read = !full && !lastRequestRead && !closing && ctx.channel().isWritable();
        if (ctx.channel().config().isAutoRead() != read) {
            ctx.channel().config().setAutoRead(read);
        }
    }

    /**
     * After each answer passes to the codec: a client that does not read its answers is cut off once they pass
     * {@code maxOutboundBytes}; the answers still due are released, their budget given back.
     */
    private boolean overOutbound(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (outbound == null || outbound.totalPendingWriteBytes() <= maxOutboundBytes || closing) {
            return false;
        }
        slowConsumersClosed.increment();
        log.warn("closing {}: {} bytes of answers queued and not read (max-outbound {})", ctx.channel().remoteAddress(),
                outbound.totalPendingWriteBytes(), maxOutboundBytes);
        closing = true;
        unflushed = false;
        releasePending();
        ctx.close();
        return true;
    }

    /**
     * The socket stopped (or started again) taking what is written: reading stops (starts) with it, so a client that
     * pipelines requests and never reads its answers is not read either. What is written goes out first.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            ctx.flush();
        }
        reading(ctx);
        ctx.fireChannelWritabilityChanged();
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
        if (outbound != null) {
            outbound.forget(ctx.channel());
        }
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
            release(p.bodyBytes);
            p.bodyBytes = 0;
            if (p.response != null) {
                p.response.release();
                fail(p, p.promise);
            }
        }
        pending.clear();
    }

    private void release(long bodyBytes) {
        if (bodies != null) {
            bodies.release(bodyBytes);
        }
    }

    private static void fail(PipelinedRequest p, ChannelPromise promise) {
        p.response = null;
        if (promise != null && !promise.isVoid()) {
            promise.tryFailure(new ClosedChannelException());
        }
    }
}
