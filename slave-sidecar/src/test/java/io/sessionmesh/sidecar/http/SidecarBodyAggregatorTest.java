package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.SidecarOperations.ReadOutcome;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.JsonTransportCodec;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.TooLongHttpContentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.sessionmesh.sidecar.http.Requests.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link SidecarBodyAggregator} behind Netty's request decoder, alone and in front of the API's handlers. */
class SidecarBodyAggregatorTest {
    static final int MAX_BODY = 16;
    static final String OVERSIZED = "PATCH /v1/sessions/abc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: 100\r\n\r\n";
    private EmbeddedChannel channel;

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    private void send(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    @Test
    void channelRead_bodyWithinTheLimit_isAggregated() {
        channel = new EmbeddedChannel(new HttpRequestDecoder(), new SidecarBodyAggregator(MAX_BODY));
        send("PATCH /v1/sessions/abc HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n0123");
        send("456789");
        FullHttpRequest r = channel.readInbound();
        assertTrue(r.decoderResult().isSuccess());
        assertEquals("0123456789", r.content().toString(StandardCharsets.US_ASCII));
        r.release();
    }

    @Test
    void channelRead_bodyOverTheLimit_isPassedOnAsAFailedRequestAndTheNextIsRead() {
        channel = new EmbeddedChannel(new HttpRequestDecoder(), new SidecarBodyAggregator(MAX_BODY));
        send(OVERSIZED + "x".repeat(60));
        send("x".repeat(40) + "GET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");

        FullHttpRequest failed = channel.readInbound();
        assertEquals(HttpMethod.PATCH, failed.method());
        assertEquals("/v1/sessions/abc", failed.uri());
        assertEquals("application/json", failed.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(0, failed.content().readableBytes(), "the oversized body was buffered");
        assertInstanceOf(TooLongHttpContentException.class, failed.decoderResult().cause());
        assertEquals("the body is above the limit of 16 bytes (max-body)", failed.decoderResult().cause().getMessage());
        failed.release();

        FullHttpRequest next = channel.readInbound();
        assertTrue(next.decoderResult().isSuccess());
        assertEquals("/v1/next", next.uri());
        next.release();
        assertNull(channel.readOutbound(), "the aggregator answered by itself, ahead of earlier answers");
        assertTrue(channel.isOpen());
    }

    /** In the server's pipeline: the 413 comes in its turn, after a miss that was asked before it, and the connection goes on. */
    @Test
    void channelRead_bodyOverTheLimitBetweenReads_is413InItsTurn() {
        CannedOperations operations = new CannedOperations();
        MessageForms forms = new MessageForms(new BinaryTransportCodec(), new JsonTransportCodec());
        channel = new EmbeddedChannel(new HttpRequestDecoder(), new SidecarBodyAggregator(MAX_BODY),
                new HttpPipeliningHandler(16), new ApiHandler(operations, forms, new ErrorResponses(forms, new SidecarMetrics())));
        CompletableFuture<ReadOutcome> miss = operations.willAnswerLater();
        operations.willAnswer(CompletableFuture.completedFuture(new ReadOutcome(new EncodedReadResult("b", List.of()), false)));

        send("GET /v1/sessions/a?sections=s HTTP/1.1\r\nHost: localhost\r\n\r\n" + OVERSIZED + "x".repeat(100)
                + "GET /v1/sessions/b?sections=s HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertNull(channel.readOutbound(), "an answer overtook the first request's");

        miss.complete(new ReadOutcome(new EncodedReadResult("a", List.of()), false));
        FullHttpResponse first = channel.readOutbound();
        FullHttpResponse tooLarge = channel.readOutbound();
        FullHttpResponse last = channel.readOutbound();
        assertEquals("{\"id\":\"a\",\"sections\":{}}", text(first));
        assertEquals(413, tooLarge.status().code());
        assertTrue(text(tooLarge).contains("max-body"));
        assertEquals("{\"id\":\"b\",\"sections\":{}}", text(last));
        assertTrue(channel.isOpen());
    }
}
