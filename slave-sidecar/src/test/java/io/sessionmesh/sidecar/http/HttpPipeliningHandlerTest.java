package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.timeout.IdleStateEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;

import static io.sessionmesh.sidecar.http.Requests.get;
import static io.sessionmesh.sidecar.http.Requests.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HttpPipeliningHandler} alone: the test plays the handler that answers. */
class HttpPipeliningHandlerTest {
    private EmbeddedChannel channel;

    @AfterEach
    void finish() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel channel(int maxPipelined) {
        channel = new EmbeddedChannel(new HttpPipeliningHandler(maxPipelined));
        return channel;
    }

    /** Reads a request in and returns what the handler passed on for it, the request released as ApiHandler does. */
    private PipelinedRequest read(FullHttpRequest request) {
        channel.writeInbound(request);
        PipelinedRequest in = channel.readInbound();
        assertSame(request, in.request());
        request.release();
        return in;
    }

    private static FullHttpResponse answer(String body) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    }

    /** Answers a request as the API handler does: written and flushed. */
    private ChannelFuture respond(PipelinedRequest in, FullHttpResponse response) {
        return channel.writeAndFlush(in.answer(response));
    }

    @Test
    void channelRead_request_isPassedOnAsPipelinedRequestCountingTheRequestsReferences() {
        channel(16);
        FullHttpRequest request = get("/v1/x");
        channel.writeInbound(request);
        PipelinedRequest in = channel.readInbound();
        assertSame(request, in.request());
        assertEquals(1, in.refCnt());
        assertTrue(in.keepAlive);
        in.release();
        assertEquals(0, request.refCnt());
    }

    @Test
    void answer_givenAnAnswer_theReferenceCountIsTheAnswers() {
        FullHttpRequest request = get("/1");
        PipelinedRequest in = new PipelinedRequest(request, true);
        request.release(); // as the answering handler does, once it has read the request
        FullHttpResponse r = answer("1");
        in.answer(r).retain();
        assertEquals(2, r.refCnt());
        in.release(2);
        assertEquals(0, r.refCnt());
    }

    @Test
    void channelRead_notARequest_isPassedOnUntouched() {
        channel(16);
        channel.writeInbound("not http");
        assertEquals("not http", channel.readInbound());
    }

    @Test
    void write_answersCompletingOutOfOrder_areWrittenInRequestOrder() {
        channel(16);
        PipelinedRequest first = read(get("/1"));
        PipelinedRequest second = read(get("/2"));
        PipelinedRequest third = read(get("/3"));

        respond(third, answer("3"));
        respond(second, answer("2"));
        assertNull(channel.readOutbound(), "an answer overtook the first request's");

        respond(first, answer("1"));
        assertEquals("1", text(channel.readOutbound()));
        assertEquals("2", text(channel.readOutbound()));
        assertEquals("3", text(channel.readOutbound()));
        assertNull(channel.readOutbound());
        assertEquals(0, channel.pipeline().get(HttpPipeliningHandler.class).pending());
    }

    @Test
    void write_keepAliveAnswer_hasContentLengthAndNoConnectionHeader() {
        channel(16);
        respond(read(get("/1")), answer("hello"));
        FullHttpResponse r = channel.readOutbound();
        assertEquals("5", r.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertFalse(r.headers().contains(HttpHeaderNames.CONNECTION));
        r.release();
        assertTrue(channel.isOpen());
    }

    @Test
    void write_answerWaitingForAnEarlierOne_isNotFlushedAndItsPromiseWaits() {
        channel(16);
        PipelinedRequest first = read(get("/1"));
        PipelinedRequest second = read(get("/2"));
        ChannelFuture written = channel.writeAndFlush(second.answer(answer("2")));
        assertFalse(written.isDone());
        respond(first, answer("1"));
        assertTrue(written.isSuccess());
        assertEquals("1", text(channel.readOutbound()));
        assertEquals("2", text(channel.readOutbound()));
    }

    /** A socket that takes nothing until told to: flushes stop here, so what is written stays queued. */
    static final class SocketNotTaking extends io.netty.channel.ChannelOutboundHandlerAdapter {
        boolean taking;

        @Override
        public void flush(io.netty.channel.ChannelHandlerContext ctx) {
            if (taking) {
                ctx.flush();
            }
        }
    }

    @Test
    void socketNotTakingAnswers_stopsReading_andReadingResumesWhenItDoes() {
        SocketNotTaking socket = new SocketNotTaking();
        channel = new EmbeddedChannel(socket, new HttpPipeliningHandler(16));
        channel.config().setWriteBufferWaterMark(new io.netty.channel.WriteBufferWaterMark(8, 16));
        PipelinedRequest in = read(get("/big"));
        respond(in, answer("an answer longer than sixteen bytes")); // written and flushed, but the socket takes nothing
        assertFalse(channel.isWritable());
        assertFalse(channel.config().isAutoRead(), "a connection whose answers are not taken is still read");
        socket.taking = true;
        channel.pipeline().context(socket).flush(); // the socket takes what waits
        channel.runPendingTasks();
        assertTrue(channel.isWritable());
        assertTrue(channel.config().isAutoRead(), "reading did not resume once the answers were taken");
        text(channel.readOutbound());
    }

    @Test
    void answersQueuedPastMaxOutbound_closeTheConnection_countedAsASlowConsumer() {
        java.util.concurrent.atomic.LongAdder closed = new java.util.concurrent.atomic.LongAdder();
        channel = new EmbeddedChannel(new SocketNotTaking(), new HttpPipeliningHandler(16, 200, null, closed));
        PipelinedRequest first = read(get("/1"));
        PipelinedRequest second = read(get("/2"));
        respond(first, answer("thirty bytes of an answer body")); // 30 bytes and Netty's 96 a queued write
        assertTrue(channel.isActive(), "under max-outbound");
        respond(second, answer("thirty bytes of an answer body"));
        assertFalse(channel.isActive(), "past max-outbound: closed");
        assertEquals(1, closed.sum());
    }

    @Test
    void channelRead_atMaxPipelined_turnsAutoReadOff_andBackOnBelowHalf() {
        channel(4);
        PipelinedRequest[] in = new PipelinedRequest[4];
        for (int i = 0; i < 3; i++) {
            in[i] = read(get("/" + i));
        }
        assertTrue(channel.config().isAutoRead(), "reading stopped before max-pipelined");
        in[3] = read(get("/3"));
        assertFalse(channel.config().isAutoRead(), "reading went on at max-pipelined");

        respond(in[0], answer("0")); // 3 waiting: not below 4 / 2 + 1
        assertFalse(channel.config().isAutoRead());
        respond(in[1], answer("1")); // 2 waiting
        assertTrue(channel.config().isAutoRead(), "reading did not resume");
        for (int i = 0; i < 2; i++) {
            text(channel.readOutbound());
        }
    }

    @Test
    void write_answerToConnectionClose_hasConnectionCloseAndClosesAfterIt() {
        channel(16);
        FullHttpRequest request = get("/1");
        request.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        PipelinedRequest in = read(request);
        assertFalse(in.keepAlive);
        respond(in, answer("last"));
        FullHttpResponse r = channel.readOutbound();
        assertEquals("close", r.headers().get(HttpHeaderNames.CONNECTION));
        assertEquals("last", text(r));
        assertFalse(channel.isOpen());
    }

    /** RFC 9112 9.6: nothing after a "close" request is processed, so a pipelined write behind it is never applied unanswered. */
    @Test
    void channelRead_requestsBehindAConnectionClose_areDroppedUnexecuted_andReadingStops() {
        channel(16);
        FullHttpRequest closing = get("/1");
        closing.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        PipelinedRequest first = read(closing);
        assertFalse(channel.config().isAutoRead(), "nothing more is read after the last request");
        FullHttpRequest behind = get("/2");
        channel.writeInbound(behind);
        assertNull(channel.readInbound(), "a request behind the last one reached the API");
        assertEquals(0, behind.refCnt());
        respond(first, answer("1"));
        assertEquals("1", text(channel.readOutbound()));
        assertNull(channel.readOutbound());
        assertFalse(channel.isOpen());
    }

    @Test
    void write_answerCompletingAfterTheClientClosed_isReleasedNotWritten() {
        channel(16);
        PipelinedRequest slow = read(get("/1"));
        channel.close();
        FullHttpResponse late = answer("1");
        ChannelFuture written = respond(slow, late);
        assertNull(channel.readOutbound());
        assertEquals(0, late.refCnt());
        assertFalse(written.isSuccess());
    }

    @Test
    void channelInactive_answersStillWaiting_areReleasedAndTheirPromisesFail() {
        channel(16);
        PipelinedRequest first = read(get("/1"));
        PipelinedRequest second = read(get("/2"));
        FullHttpResponse waiting = answer("2");
        ChannelFuture written = channel.writeAndFlush(second.answer(waiting));
        channel.close();
        assertEquals(0, waiting.refCnt());
        assertInstanceOf(ClosedChannelException.class, written.cause());
        assertEquals(0, first.refCnt(), "the unanswered request was not released");
    }

    @Test
    void channelRead_bodyOverMaxBody_keepsTheConnection() {
        channel(16);
        FullHttpRequest request = get("/1");
        request.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException("too long")));
        PipelinedRequest in = read(request);
        assertTrue(in.keepAlive);
        respond(in, answer("413"));
        text(channel.readOutbound());
        assertTrue(channel.isOpen());
    }

    @Test
    void channelRead_undecodableRequest_closesAfterItsAnswer() {
        channel(16);
        FullHttpRequest request = get("/bad-request");
        request.setDecoderResult(DecoderResult.failure(new TooLongHttpHeaderException("headers too long")));
        PipelinedRequest in = read(request);
        assertFalse(in.keepAlive);
        respond(in, answer("400"));
        FullHttpResponse r = channel.readOutbound();
        assertEquals("close", r.headers().get(HttpHeaderNames.CONNECTION));
        r.release();
        assertFalse(channel.isOpen());
    }

    @Test
    void userEventTriggered_idleWithNoAnswerDue_closes() {
        channel(16);
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertFalse(channel.isOpen());
    }

    @Test
    void userEventTriggered_idleWithAnAnswerDue_staysOpen() {
        channel(16);
        PipelinedRequest in = read(get("/1"));
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertTrue(channel.isOpen());
        respond(in, answer("1"));
        assertEquals("1", text(channel.readOutbound()));
    }

    @Test
    void write_notAPipelinedAnswer_isPassedOn() {
        channel(16);
        FullHttpResponse r = answer("plain");
        channel.writeAndFlush(r);
        assertSame(r, channel.readOutbound());
        r.release();
    }
}
