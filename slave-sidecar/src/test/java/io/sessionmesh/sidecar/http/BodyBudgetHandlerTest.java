package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BodyBudgetHandler} in the API's pipeline order (codec, budget, aggregator, pipelining), the test playing the
 * answering handler: bodies reserve before they are buffered, a body that does not fit becomes a failed request and
 * is skipped, and every reservation comes back, answered or closed.
 */
class BodyBudgetHandlerTest {
    private final AtomicLong reserved = new AtomicLong();
    private final LongAdder refused = new LongAdder();

    private EmbeddedChannel channel(long budget) {
        BodyBudgetHandler bodies = new BodyBudgetHandler(new BodyBudget(budget, reserved, refused), 1000);
        return new EmbeddedChannel(new HttpServerCodec(), bodies, new SidecarBodyAggregator(1000),
                new HttpPipeliningHandler(16, Long.MAX_VALUE, bodies, new LongAdder()), new io.netty.channel.ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(io.netty.channel.ChannelHandlerContext ctx, Throwable cause) {
                        ctx.close(); // as ApiHandler does (a connection closed mid-body)
                    }
                });
    }

    private static void send(EmbeddedChannel ch, String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    private static void answer(EmbeddedChannel ch, PipelinedRequest in) {
        in.request().release();
        ch.writeAndFlush(in.answer(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER)));
        Object written;
        while ((written = ch.readOutbound()) != null) {
            io.netty.util.ReferenceCountUtil.release(written);
        }
    }

    @Test
    void chunkedBodyPastTheBudget_isAFailedRequest_itsRestSkipped_andEveryByteComesBack() {
        EmbeddedChannel ch = channel(100);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3c\r\n" + "a".repeat(60) + "\r\n");
        assertEquals(60, reserved.get(), "a chunk is reserved as it arrives");
        send(ch, "3c\r\n" + "b".repeat(60) + "\r\n3c\r\n" + "c".repeat(60) + "\r\n0\r\n\r\n");
        PipelinedRequest failed = ch.readInbound();
        assertInstanceOf(BodyBudget.Exhausted.class, failed.request().decoderResult().cause());
        assertTrue(failed.keepAlive, "the stream stays in step: the connection goes on");
        assertEquals(1, refused.sum());
        assertEquals(60, reserved.get(), "the failed request holds what it had until it is answered");
        answer(ch, failed);
        assertEquals(0, reserved.get());

        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: x\r\nContent-Length: 80\r\n\r\n" + "d".repeat(80));
        PipelinedRequest next = ch.readInbound();
        assertTrue(next.request().decoderResult().isSuccess());
        assertEquals(80, next.request().content().readableBytes());
        assertEquals(80, reserved.get());
        answer(ch, next);
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void contentLengthOverTheBudget_isRefusedBeforeItsBodyIsRead_andTheNextRequestIsRead() {
        EmbeddedChannel ch = channel(100);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n" + "e".repeat(101)
                + "GET /v1/sessions/a HTTP/1.1\r\nHost: x\r\n\r\n");
        PipelinedRequest refusedRequest = ch.readInbound();
        assertInstanceOf(BodyBudget.Exhausted.class, refusedRequest.request().decoderResult().cause());
        assertEquals(0, refusedRequest.request().content().readableBytes(), "its body was skipped, not buffered");
        PipelinedRequest get = ch.readInbound();
        assertTrue(get.request().decoderResult().isSuccess());
        answer(ch, refusedRequest);
        answer(ch, get);
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void connectionClosedMidBody_givesItsReservationBack() {
        EmbeddedChannel ch = channel(100);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: x\r\nContent-Length: 80\r\n\r\n" + "f".repeat(10));
        assertEquals(80, reserved.get());
        ch.close();
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void connectionClosedWithRequestsUnanswered_givesTheirReservationsBack() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n" + "g".repeat(50)
                + "PATCH /v1/sessions/b HTTP/1.1\r\nHost: x\r\nContent-Length: 70\r\n\r\n" + "h".repeat(70));
        assertEquals(120, reserved.get());
        PipelinedRequest a = ch.readInbound();
        PipelinedRequest b = ch.readInbound();
        a.request().release();
        b.request().release();
        ch.close();
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }
}
