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
 * <p>Inbound it stands for the request and counts the request's references (so that
 * {@code SimpleChannelInboundHandler}, or the pipeline's tail, releases the request as usual). Once answered, the
 * answer belongs to the pipelining handler, which writes it or releases it. One object per request for both roles:
 * the hot path allocates no wrapper for the answer.
 */
final class PipelinedRequest implements ReferenceCounted {
    private final FullHttpRequest request;
    /** Whether the connection stays open after this request's answer. */
    final boolean keepAlive;
    /** The answer, once there is one. */
    FullHttpResponse response;
    /** The promise of the answer's write, kept while earlier answers are still due. */
    ChannelPromise promise;

    PipelinedRequest(FullHttpRequest request, boolean keepAlive) {
        this.request = request;
        this.keepAlive = keepAlive;
    }

    /** The request: read it only while this is unreleased (during the handler's {@code channelRead}). */
    FullHttpRequest request() {
        return request;
    }

    /** Gives this request its answer; write what this returns, once, on the channel's event loop. */
    PipelinedRequest answer(FullHttpResponse answer) {
        this.response = answer;
        return this;
    }

    @Override
    public int refCnt() {
        return request.refCnt();
    }

    @Override
    public PipelinedRequest retain() {
        request.retain();
        return this;
    }

    @Override
    public PipelinedRequest retain(int increment) {
        request.retain(increment);
        return this;
    }

    @Override
    public PipelinedRequest touch() {
        request.touch();
        return this;
    }

    @Override
    public PipelinedRequest touch(Object hint) {
        request.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return request.release();
    }

    @Override
    public boolean release(int decrement) {
        return request.release(decrement);
    }
}
