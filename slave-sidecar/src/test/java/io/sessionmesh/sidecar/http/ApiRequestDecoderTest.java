package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpContentException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ApiRequestDecoder} in the API's pipeline order (decoder, pipelining), the test playing the answering handler:
 * bodies reserve their Content-Length before they are buffered, a body that does not fit or is over max-body becomes
 * a failed request and is skipped, and every reservation comes back, answered or closed.
 */
class ApiRequestDecoderTest {
    private final AtomicLong reserved = new AtomicLong();
    private final LongAdder refused = new LongAdder();

    /** The head and body timeouts of {@link #channel(long)}: long enough that no other test meets them, and apart. */
    private static final long HEAD_TIMEOUT_MILLIS = 20_000;
    private static final long BODY_TIMEOUT_MILLIS = 30_000;

    private EmbeddedChannel channel(long budget) {
        ApiRequestDecoder requests = new ApiRequestDecoder(new BodyBudget(budget, reserved, refused), 1000,
                HEAD_TIMEOUT_MILLIS, BODY_TIMEOUT_MILLIS);
        return new EmbeddedChannel(requests, new HttpPipeliningHandler(16, Long.MAX_VALUE, requests, new LongAdder()));
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

    /** Moves the channel's frozen clock on by {@code millis} and runs what came due (a body's deadline). */
    private static void elapse(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
    }

    /** Why {@code failed} was refused (it must be a refused request). */
    private static HttpRequestRejected rejection(PipelinedRequest failed) {
        return assertInstanceOf(HttpRequestRejected.class, failed.request().decoderResult().cause());
    }

    @Test
    void decode_bodyInPieces_isOneRequestWithItsHeadersAndBody() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "\r\nPATCH /v1/sessions/a?x=1 HTTP/1.1\r\nhOsT: x\r\nContent-Type:application/json \r\nAccept: a/b\r\nX-Other: y\r\nContent-Le");
        send(ch, "ngth: 10\r\n\r\n0123");
        assertNull(ch.readInbound(), "a request before its body was whole");
        send(ch, "456789");
        PipelinedRequest in = ch.readInbound();
        FullHttpRequest r = in.request();
        assertTrue(r.decoderResult().isSuccess());
        assertEquals("PATCH", r.method().name());
        assertEquals("/v1/sessions/a?x=1", r.uri());
        assertEquals("application/json", r.headers().get("content-type"));
        assertEquals("a/b", r.headers().get("Accept"));
        assertEquals("x", r.headers().get("host"));
        assertFalse(r.headers().contains("x-other"), "a header the API does not read was kept");
        assertEquals("0123456789", r.content().toString(StandardCharsets.US_ASCII));
        assertEquals(10, reserved.get());
        answer(ch, in);
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_contentLengthOverTheBudget_isRefusedBeforeItsBodyIsRead_andTheNextRequestIsRead() {
        EmbeddedChannel ch = channel(100);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 101\r\n\r\n" + "e".repeat(101)
                + "GET /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\n\r\n");
        PipelinedRequest refusedRequest = ch.readInbound();
        assertInstanceOf(BodyBudget.Exhausted.class, refusedRequest.request().decoderResult().cause());
        assertTrue(refusedRequest.keepAlive, "the stream stays in step: the connection goes on");
        assertEquals(0, refusedRequest.request().content().readableBytes(), "its body was skipped, not buffered");
        assertEquals(1, refused.sum());
        PipelinedRequest get = ch.readInbound();
        assertTrue(get.request().decoderResult().isSuccess());
        answer(ch, refusedRequest);
        answer(ch, get);
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_bodyOverMaxBody_isAFailedRequestThatKeepsTheConnection() {
        EmbeddedChannel ch = channel(10_000);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1001\r\n\r\n" + "f".repeat(500));
        PipelinedRequest tooLarge = ch.readInbound();
        assertInstanceOf(TooLongHttpContentException.class, tooLarge.request().decoderResult().cause());
        assertEquals("the body is above the limit of 1000 bytes (max-body)", tooLarge.request().decoderResult().cause().getMessage());
        assertEquals(0, reserved.get(), "an oversized body reserved budget");
        send(ch, "f".repeat(501) + "GET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
        PipelinedRequest next = ch.readInbound();
        assertEquals("/v1/next", next.request().uri());
        answer(ch, tooLarge);
        answer(ch, next);
        ch.finishAndReleaseAll();
    }

    /**
     * A body trickled in slower than body-timeout: the request fails 408 in its turn, nothing more is read, its
     * reservation comes back once the refusal is answered, and the connection closes. A body that completes in time
     * is not touched by the deadline it had.
     */
    @Test
    void decode_bodyNotInWithinTheTimeout_is408_andItsReservationComesBack() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 80\r\n\r\n" + "f".repeat(10));
        assertEquals(80, reserved.get());
        elapse(ch, BODY_TIMEOUT_MILLIS - 1);
        send(ch, "f".repeat(10)); // a trickle: bytes keep coming, the deadline stands
        assertNull(ch.readInbound(), "nothing before the deadline");
        elapse(ch, 1);
        PipelinedRequest late = ch.readInbound();
        HttpRequestRejected cause = rejection(late);
        assertEquals(408, cause.status().code());
        assertTrue(cause.getMessage().contains("body-timeout") && cause.getMessage().contains("80 bytes"), cause.getMessage());
        assertFalse(late.keepAlive, "the connection closes after the 408");
        send(ch, "f".repeat(60) + "GET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertNull(ch.readInbound(), "nothing is read after the refusal");
        assertEquals(80, reserved.get(), "held until the refusal is answered");
        answer(ch, late);
        assertEquals(0, reserved.get(), "given back with the answer");
        assertFalse(ch.isOpen(), "closed after the answer");
        ch.finishAndReleaseAll();

        EmbeddedChannel inTime = channel(1000);
        inTime.freezeTime();
        send(inTime, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n" + "g".repeat(10));
        elapse(inTime, BODY_TIMEOUT_MILLIS - 1);
        send(inTime, "g".repeat(10));
        PipelinedRequest whole = inTime.readInbound();
        assertTrue(whole.request().decoderResult().isSuccess());
        elapse(inTime, BODY_TIMEOUT_MILLIS);
        assertNull(inTime.readInbound(), "the deadline of a body that arrived does nothing");
        answer(inTime, whole);
        assertTrue(inTime.isOpen());
        inTime.finishAndReleaseAll();
    }

    /**
     * A head trickled in slower than head-timeout, in each of its parts (the request line, after empty lines or not, the
     * header lines): the request fails 408 in its turn, naming head-timeout, nothing more is read, and the connection
     * closes after the answer. Bytes that keep coming do not move the deadline: it runs from the head's first byte.
     */
    @Test
    void decode_headNotWholeWithinTheTimeout_is408_andNothingMoreIsRead() {
        for (String begun : new String[] {"\r\nGET /v1/sess", "GET /v1/sess", "GET /v1/sessions/a HTTP/1.1\r\nHo"}) {
            EmbeddedChannel ch = channel(1000);
            ch.freezeTime();
            send(ch, begun);
            elapse(ch, HEAD_TIMEOUT_MILLIS - 1);
            send(ch, "s"); // a trickle: never idle, never whole
            assertNull(ch.readInbound(), "nothing before the deadline: " + begun);
            elapse(ch, 1);
            PipelinedRequest late = ch.readInbound();
            HttpRequestRejected cause = rejection(late);
            assertEquals(408, cause.status().code(), begun);
            assertTrue(cause.getMessage().contains("head-timeout") && cause.getMessage().contains(HEAD_TIMEOUT_MILLIS + " ms"),
                    cause.getMessage());
            assertFalse(late.keepAlive, "the connection closes after the 408");
            send(ch, "t: x\r\n\r\nGET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertNull(ch.readInbound(), "nothing is read after the refusal");
            answer(ch, late);
            assertFalse(ch.isOpen(), "closed after the answer: " + begun);
            ch.finishAndReleaseAll();
        }
    }

    /**
     * A head in pieces that is whole just before its deadline is read as usual, and that deadline does nothing later; a
     * connection idle between requests has no deadline (http-idle-timeout is what closes it); the next head's deadline
     * runs from its own first byte.
     */
    @Test
    void decode_headInPiecesInTime_isRead_andTheDeadlineRunsFromEachHeadsFirstByte() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "GET /v1/sessions/a HTTP/1.1\r\nHo");
        elapse(ch, HEAD_TIMEOUT_MILLIS - 1);
        send(ch, "st: x\r\n\r\n");
        PipelinedRequest first = ch.readInbound();
        assertTrue(first.request().decoderResult().isSuccess());
        answer(ch, first);
        elapse(ch, 10 * HEAD_TIMEOUT_MILLIS);
        assertNull(ch.readInbound(), "an idle connection, or a head that arrived, has no deadline");
        send(ch, "GET /v1/sessions/b HT");
        elapse(ch, HEAD_TIMEOUT_MILLIS - 1);
        assertNull(ch.readInbound(), "the second head's deadline ran from before its first byte");
        elapse(ch, 1);
        PipelinedRequest late = ch.readInbound();
        assertEquals(408, rejection(late).status().code(), "the second head's own deadline");
        assertTrue(ch.isOpen(), "open until the 408 is answered");
        late.request().release();
        ch.finishAndReleaseAll();
    }

    /**
     * The usual path schedules nothing: whole requests, pipelined in one read, with and without bodies, leave no deadline
     * behind; nor does a connection closed with a head in pieces.
     */
    @Test
    void decode_wholeRequests_scheduleNoDeadline_norDoesAClosedConnection() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "GET /v1/sessions/a?sections=x HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"
                + "PUT /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
        for (int i = 0; i < 3; i++) {
            PipelinedRequest r = ch.readInbound();
            assertTrue(r.request().decoderResult().isSuccess());
            answer(ch, r);
        }
        assertEquals(-1, ch.runScheduledPendingTasks(), "a deadline was scheduled for whole requests");
        send(ch, "GET /v1/sessions/b HTTP/1.1\r\nHo");
        assertTrue(ch.runScheduledPendingTasks() > 0, "a head in pieces has its deadline");
        ch.close();
        assertEquals(-1, ch.runScheduledPendingTasks(), "the deadline outlived the connection");
        ch.finishAndReleaseAll();
    }

    /**
     * Empty lines before a request line start no deadline (a client may send one after a body, then stay idle: that is
     * http-idle-timeout's to close, quietly); more than MAX_EMPTY_LINE_BYTES of them are refused 400, so that empty
     * lines sent one at a time cannot hold the connection either.
     */
    @Test
    void decode_emptyLinesBeforeARequest_startNoDeadline_butTooManyAreRefused() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "\r\n");
        elapse(ch, 10 * HEAD_TIMEOUT_MILLIS);
        assertNull(ch.readInbound(), "an empty line and then nothing is an idle connection");
        send(ch, "\r\nGET /v1/sessions/a?sections=x HTTP/1.1\r\nHost: localhost\r\n\r\n");
        PipelinedRequest r = ch.readInbound();
        assertTrue(r.request().decoderResult().isSuccess(), "the request after the empty lines is read");
        answer(ch, r);
        for (int i = 0; i < ApiRequestDecoder.MAX_EMPTY_LINE_BYTES / 2; i++) {
            send(ch, "\r\n"); // again, one at a time: the count starts afresh after a request line
        }
        assertNull(ch.readInbound(), "up to the limit, empty lines are taken");
        send(ch, "\n");
        PipelinedRequest refused = ch.readInbound();
        HttpRequestRejected cause = rejection(refused);
        assertEquals(400, cause.status().code());
        assertTrue(cause.getMessage().contains("empty lines"), cause.getMessage());
        assertFalse(refused.keepAlive);
        refused.request().release();
        ch.finishAndReleaseAll();
    }

    /** While this side does not read (answers due past max-pipelined), the head cannot come: its deadline starts again. */
    @Test
    void decode_headDeadline_whileThisSideIsNotReading_startsAgain() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "GET /v1/sessions/a HTTP/1.1\r\n");
        ch.config().setAutoRead(false);
        elapse(ch, HEAD_TIMEOUT_MILLIS);
        assertNull(ch.readInbound(), "failed while this side was not reading");
        ch.config().setAutoRead(true);
        elapse(ch, HEAD_TIMEOUT_MILLIS);
        PipelinedRequest late = ch.readInbound();
        assertEquals(408, rejection(late).status().code(), "reading again, the deadline holds");
        assertEquals("/v1/sessions/a", late.request().uri(), "answered as the request whose head it was");
        late.request().release();
        ch.finishAndReleaseAll();
    }

    /**
     * A body refused at its head (over max-body) is skipped as it arrives, keeping the connection; trickled in slower
     * than body-timeout, the connection is refused too: 408 after the refusal, and nothing more is read.
     */
    @Test
    void decode_refusedBodyTrickledPastBodyTimeout_is408AfterTheRefusal() {
        EmbeddedChannel ch = channel(100_000);
        ch.freezeTime();
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n" + "z".repeat(10));
        PipelinedRequest refused = ch.readInbound();
        assertInstanceOf(TooLongHttpContentException.class, refused.request().decoderResult().cause());
        assertTrue(refused.keepAlive, "a refused body is skipped and the connection goes on");
        elapse(ch, BODY_TIMEOUT_MILLIS - 1);
        send(ch, "z".repeat(10));
        assertNull(ch.readInbound(), "nothing before the deadline");
        elapse(ch, 1);
        PipelinedRequest late = ch.readInbound();
        HttpRequestRejected cause = rejection(late);
        assertEquals(408, cause.status().code());
        assertTrue(cause.getMessage().contains("body-timeout") && cause.getMessage().contains("4980 bytes still to come"),
                cause.getMessage());
        assertFalse(late.keepAlive);
        send(ch, "z".repeat(4980) + "GET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertNull(ch.readInbound(), "nothing is read after the 408");
        answer(ch, refused);
        answer(ch, late);
        assertFalse(ch.isOpen());
        ch.finishAndReleaseAll();

        EmbeddedChannel inTime = channel(100_000);
        inTime.freezeTime();
        send(inTime, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n" + "z".repeat(10));
        PipelinedRequest skipped = inTime.readInbound();
        elapse(inTime, BODY_TIMEOUT_MILLIS - 1);
        send(inTime, "z".repeat(4990) + "GET /v1/next HTTP/1.1\r\nHost: localhost\r\n\r\n");
        PipelinedRequest next = inTime.readInbound();
        assertTrue(next.request().decoderResult().isSuccess(), "the request after a skipped body is read");
        elapse(inTime, BODY_TIMEOUT_MILLIS);
        assertNull(inTime.readInbound(), "the deadline of a body skipped in time does nothing");
        answer(inTime, skipped);
        answer(inTime, next);
        assertTrue(inTime.isOpen());
        inTime.finishAndReleaseAll();
    }

    /**
     * A body completed just before its deadline, then the next request's body begun: the first body's deadline does not
     * fail the second, whose own deadline runs from its own head.
     */
    @Test
    void decode_bodyDeadline_belongsToItsOwnBody_notTheNextOne() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n" + "a".repeat(10));
        elapse(ch, BODY_TIMEOUT_MILLIS - 1);
        send(ch, "a".repeat(10) + "PATCH /v1/sessions/b HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n" + "b".repeat(5));
        PipelinedRequest first = ch.readInbound();
        assertTrue(first.request().decoderResult().isSuccess());
        elapse(ch, 1);
        assertNull(ch.readInbound(), "the first body's deadline failed the second");
        elapse(ch, BODY_TIMEOUT_MILLIS - 2);
        assertNull(ch.readInbound(), "the second body's deadline ran from the first's head");
        elapse(ch, 1);
        PipelinedRequest second = ch.readInbound();
        assertEquals(408, rejection(second).status().code(), "the second body's own deadline");
        first.request().release();
        second.request().release();
        ch.finishAndReleaseAll();
    }

    /** While this side does not read (answers due past max-pipelined), the body cannot come: its deadline starts again. */
    @Test
    void decode_bodyDeadline_whileThisSideIsNotReading_startsAgain() {
        EmbeddedChannel ch = channel(1000);
        ch.freezeTime();
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20\r\n\r\n" + "a".repeat(10));
        ch.config().setAutoRead(false);
        elapse(ch, BODY_TIMEOUT_MILLIS);
        assertNull(ch.readInbound(), "failed while this side was not reading");
        ch.config().setAutoRead(true);
        elapse(ch, BODY_TIMEOUT_MILLIS);
        PipelinedRequest late = ch.readInbound();
        assertEquals(408, rejection(late).status().code(), "reading again, the deadline holds");
        late.request().release();
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_connectionClosedMidBody_givesItsReservationBack() {
        EmbeddedChannel ch = channel(100);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 80\r\n\r\n" + "f".repeat(10));
        assertEquals(80, reserved.get());
        ch.close();
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_connectionClosedWithRequestsUnanswered_givesTheirReservationsBack() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "PATCH /v1/sessions/a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n" + "g".repeat(50)
                + "PATCH /v1/sessions/b HTTP/1.1\r\nHost: localhost\r\nContent-Length: 70\r\n\r\n" + "h".repeat(70));
        assertEquals(120, reserved.get());
        PipelinedRequest a = ch.readInbound();
        PipelinedRequest b = ch.readInbound();
        a.request().release();
        b.request().release();
        ch.close();
        assertEquals(0, reserved.get());
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_refusedHead_isOneFailedRequestAndNothingAfterIsRead() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /b HTTP/1.1\r\n\r\n");
        PipelinedRequest failed = ch.readInbound();
        HttpRequestRejected cause = rejection(failed);
        assertEquals(411, cause.status().code());
        assertFalse(failed.keepAlive);
        assertNull(ch.readInbound());
        failed.request().release();
        ch.finishAndReleaseAll();
    }

    /**
     * An over-long request line or header block behind a request still unanswered: refused (414, 431) without an
     * exception (which would close the connection and lose the earlier request's answer), and that answer still goes
     * out, first.
     */
    @Test
    void decode_oversizeLineOrHeaders_behindAPendingRequest_isRefused_andTheEarlierAnswerStillGoesOut() {
        String longLine = "GET /" + "a".repeat(ApiRequestDecoder.MAX_LINE_BYTES + 10);
        String longHeaders = "GET /b HTTP/1.1\r\n" + ("X-Pad: " + "p".repeat(1000) + "\r\n").repeat(20);
        for (String[] c : new String[][] {{longLine, "414"}, {longHeaders, "431"}}) {
            EmbeddedChannel ch = channel(1000);
            send(ch, "GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n");
            PipelinedRequest first = ch.readInbound();
            send(ch, c[0]);
            PipelinedRequest failed = ch.readInbound();
            HttpRequestRejected cause = rejection(failed);
            assertEquals(c[1], Integer.toString(cause.status().code()), cause.getMessage());
            assertTrue(ch.isOpen(), "the refusal closed the connection before the first request's answer: " + c[1]);
            first.request().release();
            ch.writeAndFlush(first.answer(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.EMPTY_BUFFER)));
            Object out = ch.readOutbound();
            assertInstanceOf(io.netty.handler.codec.http.FullHttpResponse.class, out, "the first answer went out");
            assertEquals(200, ((io.netty.handler.codec.http.FullHttpResponse) out).status().code());
            io.netty.util.ReferenceCountUtil.release(out);
            failed.request().release();
            ch.finishAndReleaseAll();
        }
    }

    /**
     * A head that arrives a byte at a time: read right (each line searched once in all, where it was searched again
     * with every byte), and the limits still hold in that shape.
     */
    @Test
    void decode_headAByteAtATime_isReadWhole_andTheLimitsStillHold() {
        EmbeddedChannel ch = channel(1000);
        String head = "PUT /v1/sessions/abc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\n\r\n{}";
        for (byte b : head.getBytes(StandardCharsets.US_ASCII)) {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        PipelinedRequest request = ch.readInbound();
        assertEquals("/v1/sessions/abc", request.request().uri());
        assertEquals("application/json", request.request().headers().get("Content-Type"));
        assertEquals("{}", request.request().content().toString(StandardCharsets.US_ASCII));
        request.request().release();
        ch.finishAndReleaseAll();

        for (String[] c : new String[][] {{"GET /" + "a".repeat(ApiRequestDecoder.MAX_LINE_BYTES + 2), "414"},
                {"GET / HTTP/1.1\r\nX-Pad: " + "p".repeat(ApiRequestDecoder.MAX_HEADER_BYTES + 2), "431"}}) {
            EmbeddedChannel slow = channel(1000);
            PipelinedRequest failed = null;
            for (byte b : c[0].getBytes(StandardCharsets.US_ASCII)) {
                slow.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
                if ((failed = slow.readInbound()) != null) {
                    break;
                }
            }
            HttpRequestRejected cause = rejection(failed);
            assertEquals(c[1], Integer.toString(cause.status().code()));
            failed.request().release();
            slow.finishAndReleaseAll();
        }
    }

    /** 100 Continue is not written past an earlier answer still due (the client would take it for that request's). */
    @Test
    void decode_expectContinue_behindAPendingRequest_writesNo100() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n");
        PipelinedRequest first = ch.readInbound();
        send(ch, "PUT /b HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
        assertNull(ch.readOutbound(), "a 100 Continue went out ahead of the first request's answer");
        send(ch, "hello");
        PipelinedRequest second = ch.readInbound();
        assertEquals("hello", second.request().content().toString(StandardCharsets.US_ASCII));
        first.request().release();
        second.request().release();
        ch.finishAndReleaseAll();

        EmbeddedChannel idle = channel(1000);
        send(idle, "PUT /b HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
        io.netty.buffer.ByteBuf cont = idle.readOutbound();
        assertTrue(cont.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 100"), "nothing due: the 100 goes out");
        cont.release();
        idle.finishAndReleaseAll();
    }

    /**
     * RFC 9112 3.2: an HTTP/1.1 request without a Host, or any request with two, is refused 400 naming why, and nothing
     * after it is read; an HTTP/1.0 request may go without one.
     */
    @Test
    void decode_hostMissingOrTwice_isRefused400_butHttp10MayOmitIt() {
        for (String[] c : new String[][] {
                {"GET /v1/sessions/a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\nHost: localhost\r\n\r\n", "must have a Host header"},
                {"GET /v1/sessions/a HTTP/1.0\r\nHost: localhost\r\nHost: y\r\n\r\n", "more than one Host header"},
                {"PUT /v1/sessions/a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", "must have a Host header"}}) {
            EmbeddedChannel ch = channel(1000);
            send(ch, c[0]);
            PipelinedRequest failed = ch.readInbound();
            HttpRequestRejected cause = rejection(failed);
            assertEquals(400, cause.status().code(), c[0]);
            assertTrue(cause.getMessage().contains(c[1]), cause.getMessage());
            assertFalse(failed.keepAlive, "the connection closes after the refusal");
            assertNull(ch.readInbound(), "nothing after the refused head is read");
            assertEquals(0, reserved.get(), "the refused body reserved nothing");
            failed.request().release();
            ch.finishAndReleaseAll();
        }
        for (String fine : new String[] {"GET /v1/sessions/a HTTP/1.0\r\n\r\n", "GET /v1/sessions/a HTTP/1.0\r\nHost: localhost\r\n\r\n",
                "GET /v1/sessions/a HTTP/1.1\r\nHost:\r\n\r\n"}) { // an empty Host is allowed (RFC 9112 3.2)
            EmbeddedChannel ch = channel(1000);
            send(ch, fine);
            PipelinedRequest ok = ch.readInbound();
            assertEquals("/v1/sessions/a", ok.request().uri());
            assertTrue(ok.request().decoderResult().isSuccess(), fine);
            ok.request().release();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void decode_malformedRequestLine_isRefusedAtOnce_notAfterABlankLine() {
        EmbeddedChannel ch = channel(1000);
        send(ch, "hello\r\n");
        PipelinedRequest failed = ch.readInbound();
        HttpRequestRejected cause = rejection(failed);
        assertEquals(400, cause.status().code());
        assertTrue(cause.getMessage().contains("request line"), cause.getMessage());
        failed.request().release();
        ch.finishAndReleaseAll();
    }

    @Test
    void decode_headerValueWithObsText_isTaken() {
        EmbeddedChannel ch = channel(1000);
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1', '.', '1',
            '\r', '\n', 'H', 'o', 's', 't', ':', ' ', 'x', '\r', '\n',
            'A', 'c', 'c', 'e', 'p', 't', ':', ' ', (byte) 0xE9, '\r', '\n', '\r', '\n'}));
        PipelinedRequest in = ch.readInbound();
        assertTrue(in.request().decoderResult().isSuccess(), () -> in.request().decoderResult().toString());
        assertEquals("\u00e9", in.request().headers().get("accept"));
        in.request().release();
        ch.finishAndReleaseAll();
    }
}
