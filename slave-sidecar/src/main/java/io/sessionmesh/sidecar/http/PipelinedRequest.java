package io.sessionmesh.sidecar.http;

import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.ReferenceCounted;

/**
 * One request in its place in its connection's order: what {@link HttpPipeliningHandler} passes on for each request
 * it reads, and what the handler that answers writes back, with the answer, through {@link #answer}. The pipelining
 * handler writes the answer once every earlier request's answer is written.
 *
 * <p>Its reference count is that of what it carries: the request until it is answered, the answer after. So Netty's
 * own releases do the right thing either way: the pipeline's tail releases an unhandled request, and the channel
 * releases an answer written after the connection closed (its handlers gone, the pipelining handler no longer
 * sees it). The handler that answers releases the request itself once it has read it, without waiting for the
 * answer. One object per request for both roles: the hot path allocates no wrapper for the answer.
 */
final class PipelinedRequest implements ReferenceCounted {
    private final FullHttpRequest request;
    /** Whether the connection stays open after this request's answer. */
    final boolean keepAlive;
    /** Whether the request was a HEAD: its answer is written without its body. */
    final boolean headRequest;
    /** The answer, once there is one (null again once the pipelining handler released it unwritten). */
    FullHttpResponse response;
    /** The promise of the answer's write, kept while earlier answers are still due. */
    ChannelPromise promise;
    /** Bytes of the {@link BodyBudget} its body holds until its answer is written (or it is dropped). */
    long bodyBytes;

    PipelinedRequest(FullHttpRequest request, boolean keepAlive) {
        this(request, keepAlive, false);
    }

    PipelinedRequest(FullHttpRequest request, boolean keepAlive, boolean headRequest) {
        this.request = request;
        this.keepAlive = keepAlive;
        this.headRequest = headRequest;
    }

    /** The request: read it only until it is released (during the answering handler's {@code channelRead}). */
    FullHttpRequest request() {
        return request;
    }

    /** Gives this request its answer; write what this returns, once, on the channel's event loop. */
    PipelinedRequest answer(FullHttpResponse answer) {
        this.response = answer;
        return this;
    }

    /** What the reference count is that of: the answer once there is one, else the request. */
    private ReferenceCounted carried() {
        FullHttpResponse r = response;
        return r != null ? r : request;
    }

    @Override
    public int refCnt() {
        return carried().refCnt();
    }

    @Override
    public PipelinedRequest retain() {
        carried().retain();
        return this;
    }

    @Override
    public PipelinedRequest retain(int increment) {
        carried().retain(increment);
        return this;
    }

    @Override
    public PipelinedRequest touch() {
        carried().touch();
        return this;
    }

    @Override
    public PipelinedRequest touch(Object hint) {
        carried().touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return carried().release();
    }

    @Override
    public boolean release(int decrement) {
        return carried().release(decrement);
    }
}
