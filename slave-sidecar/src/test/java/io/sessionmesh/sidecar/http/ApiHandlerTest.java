package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.SidecarOperations.ReadOutcome;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.sessionmesh.sidecar.http.Requests.accepting;
import static io.sessionmesh.sidecar.http.Requests.bytes;
import static io.sessionmesh.sidecar.http.Requests.get;
import static io.sessionmesh.sidecar.http.Requests.request;
import static io.sessionmesh.sidecar.http.Requests.text;
import static io.sessionmesh.sidecar.http.Requests.withBody;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ApiHandler} behind {@link HttpPipeliningHandler}, as in the server, with canned operations: routing, content
 * negotiation, error mapping, order. The operations themselves are SidecarService's, covered by SidecarApiTest.
 */
class ApiHandlerTest {
    static final String BINARY = MessageForms.BINARY;
    static final String JSON = MessageForms.JSON;

    final CannedOperations operations = new CannedOperations();
    final SidecarMetrics metrics = new SidecarMetrics();
    final BinaryTransportCodec binary = new BinaryTransportCodec();
    final EmbeddedChannel channel;

    ApiHandlerTest() {
        MessageForms forms = new MessageForms(binary, new JsonTransportCodec());
        channel = new EmbeddedChannel(new HttpPipeliningHandler(16),
                new ApiHandler(operations, forms, new ErrorResponses(forms, metrics)));
    }

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    /** Sends a request whose answer is due at once; checks that the request was released. */
    FullHttpResponse call(FullHttpRequest request) {
        channel.writeInbound(request);
        assertEquals(0, request.refCnt(), "the request was not released");
        FullHttpResponse answer = channel.readOutbound();
        assertNotNull(answer, "no answer");
        return answer;
    }

    static ReadOutcome outcome(String id, boolean stale) {
        return new ReadOutcome(new EncodedReadResult(id, List.of(
                EncodedSection.of(new SectionData("a", 2, Map.of("k", new byte[] {1, 2, 3}))),
                EncodedSection.of(new SectionData("b", 0, Map.of())))), stale);
    }

    static void assertJson(FullHttpResponse r) {
        assertEquals(JSON, r.headers().get(HttpHeaderNames.CONTENT_TYPE));
    }

    /** An error answer: its HTTP status and exactly its JSON body. */
    static void assertError(int http, String code, String message, FullHttpResponse r) {
        assertEquals(http, r.status().code());
        assertJson(r);
        assertEquals("{\"error\":\"" + code + "\",\"message\":\"" + message + "\"}", text(r));
    }

    // ---- routing ----

    @Test
    void channelRead_pathOutsideV1_is404NamingTheEndpoint() {
        assertError(404, "NOT_FOUND", "no such endpoint: GET /v2/nothing (the API is under /v1)", call(get("/v2/nothing")));
        assertEquals(List.of(), operations.calls);
        assertEquals(Map.of(), metrics.snapshot().get("errors"), "a route's 404 is not an operation's error");
    }

    @Test
    void channelRead_unknownPathUnderV1_is404NamingTheEndpoint() {
        assertError(404, "NOT_FOUND", "no such endpoint: GET /v1/sessions/abc/other", call(get("/v1/sessions/abc/other")));
    }

    @Test
    void channelRead_wrongMethodOnASession_is405WithAllow() {
        FullHttpResponse r = call(request(HttpMethod.PUT, "/v1/sessions/abc"));
        assertEquals("GET, PATCH, DELETE", r.headers().get(HttpHeaderNames.ALLOW));
        assertError(405, "BAD_REQUEST", "PUT is not allowed on /v1/sessions/abc; allowed: GET, PATCH, DELETE", r);
        assertEquals(List.of(), operations.calls);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET    | /v1/sessions           | POST",
        "GET    | /v1/sessions/abc/touch | POST",
        "DELETE | /v1/schemas/ff         | GET, PUT",
    })
    void channelRead_wrongMethod_is405WithTheRoutesAllow(String method, String path, String allow) {
        FullHttpResponse r = call(request(HttpMethod.valueOf(method), path));
        assertEquals(allow, r.headers().get(HttpHeaderNames.ALLOW));
        assertError(405, "BAD_REQUEST", method + " is not allowed on " + path + "; allowed: " + allow, r);
    }

    @Test
    void channelRead_badSessionIdWithAWrongMethod_is400Not405() {
        FullHttpResponse r = call(request(HttpMethod.PUT, "/v1/sessions/bad%20id"));
        assertEquals(400, r.status().code());
        assertTrue(text(r).contains("session id in the path"));
    }

    @Test
    void channelRead_createWithoutBody_callsCreateAndAnswers201() {
        operations.willAnswer(CompletableFuture.completedFuture(new SessionCreated("s1", 300, 43200)));
        FullHttpResponse r = call(request(HttpMethod.POST, "/v1/sessions"));
        assertEquals(201, r.status().code());
        assertJson(r);
        assertEquals("{\"id\":\"s1\",\"idleTimeoutSeconds\":300,\"maxLifetimeSeconds\":43200}", text(r));
        assertEquals(List.of("create 0"), operations.calls);
    }

    @Test
    void channelRead_createWithJsonBody_passesItsIdleTimeout() {
        operations.willAnswer(CompletableFuture.completedFuture(new SessionCreated("s1", 600, 43200)));
        text(call(withBody(HttpMethod.POST, "/v1/sessions", JSON, "{\"idleTimeoutSeconds\": 600}")));
        assertEquals(List.of("create 600"), operations.calls);
    }

    @Test
    void channelRead_read_callsReadWithTheSectionsAndAnswersJson() {
        operations.willAnswer(CompletableFuture.completedFuture(outcome("abc", false)));
        FullHttpResponse r = call(get("/v1/sessions/abc?sections=a,b"));
        assertEquals(200, r.status().code());
        assertJson(r);
        assertFalse(r.headers().contains(MessageForms.STALE_HEADER));
        assertEquals("{\"id\":\"abc\",\"sections\":{\"a\":{\"version\":2,\"attributes\":{\"k\":\"AQID\"}},"
                + "\"b\":{\"version\":0,\"attributes\":{}}}}", text(r));
        assertEquals(List.of("read abc [a, b]"), operations.calls);
    }

    @Test
    void channelRead_readWithoutSections_is400NamingTheParameter() {
        assertError(400, "BAD_REQUEST", "the query parameter 'sections' is required: ?sections=a,b,c names the sections to read",
                call(get("/v1/sessions/abc")));
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_writeInJson_callsWriteWithThePathsSession() {
        operations.willAnswer(CompletableFuture.completedFuture(new WriteResult("abc", Map.of("a", 1L))));
        FullHttpResponse r = call(withBody(HttpMethod.PATCH, "/v1/sessions/abc", JSON,
                "{\"sections\": {\"a\": {\"set\": {\"k\": \"AQID\"}}}}"));
        assertEquals(200, r.status().code());
        assertEquals("{\"id\":\"abc\",\"sections\":{\"a\":{\"version\":1}}}", text(r));
        WriteRequest w = (WriteRequest) operations.lastArgument;
        assertEquals("abc", w.sessionId());
        assertArrayEquals(new byte[] {1, 2, 3}, w.deltas().get(0).set().get("k"));
    }

    @Test
    void channelRead_writeWithAnIdempotencyKey_passesItAsTheWriteId_andABadOneIs400() {
        operations.willAnswer(CompletableFuture.completedFuture(new WriteResult("abc", Map.of("a", 1L))));
        String key = "0123456789abcdef0123456789ABCDEF";
        FullHttpRequest patch = withBody(HttpMethod.PATCH, "/v1/sessions/abc", JSON, "{\"sections\": {\"a\": {\"set\": {}}}}");
        patch.headers().set("Idempotency-Key", "\"" + key + "\""); // the draft's quoted form is taken too
        assertEquals(200, call(patch).status().code());
        assertEquals(List.of("write abc id " + key.toLowerCase()), operations.calls);
        FullHttpRequest bad = withBody(HttpMethod.PATCH, "/v1/sessions/abc", JSON, "{\"sections\": {}}");
        bad.headers().set("idempotency-key", "not-hex");
        assertError(400, "BAD_REQUEST", "Idempotency-Key: a write id is 32 hex digits, not 7 characters", call(bad));
        assertEquals(1, operations.calls.size(), "nothing sent for a bad key");
    }

    @Test
    void channelRead_writeOfUnknownOutcome_is504WithItsOwnCode() {
        operations.willAnswer(CompletableFuture.failedFuture(new MasterException(Status.OUTCOME_UNKNOWN,
                "WRITE: sent, then its connection broke; it may or may not have been applied")));
        assertError(504, "OUTCOME_UNKNOWN", "WRITE: sent, then its connection broke; it may or may not have been applied",
                call(withBody(HttpMethod.PATCH, "/v1/sessions/abc", JSON, "{\"sections\": {}}")));
    }

    @Test
    void channelRead_deleteAndTouch_answer204WithoutBody() {
        operations.willAnswer(CompletableFuture.completedFuture(null));
        operations.willAnswer(CompletableFuture.completedFuture(null));
        FullHttpResponse deleted = call(request(HttpMethod.DELETE, "/v1/sessions/abc"));
        FullHttpResponse touched = call(request(HttpMethod.POST, "/v1/sessions/abc/touch"));
        for (FullHttpResponse r : List.of(deleted, touched)) {
            assertEquals(204, r.status().code());
            assertFalse(r.headers().contains(HttpHeaderNames.CONTENT_TYPE));
            assertEquals("", text(r));
        }
        assertEquals(List.of("delete abc", "touch abc"), operations.calls);
    }

    // ---- content negotiation ----

    @Test
    void channelRead_readAcceptingBinary_answersTheBinaryForm() {
        operations.willAnswer(CompletableFuture.completedFuture(outcome("abc", false)));
        FullHttpResponse r = call(accepting(BINARY, get("/v1/sessions/abc?sections=a,b")));
        assertEquals(200, r.status().code());
        assertEquals(BINARY, r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(outcome("abc", false).result().toReadResult(), binary.decode(bytes(r), ReadResult.class));
    }

    @Test
    void channelRead_staleRead_hasTheStaleHeader() {
        operations.willAnswer(CompletableFuture.completedFuture(outcome("abc", true)));
        FullHttpResponse r = call(get("/v1/sessions/abc?sections=a,b"));
        assertEquals("true", r.headers().get("X-SessionMesh-Stale"));
        r.release();
    }

    @Test
    void channelRead_writeInTextPlain_is400NamingTheContentType() {
        assertError(400, "BAD_REQUEST", "content type \\\"text/plain\\\" is not one of application/x-sessionmesh, application/json",
                call(withBody(HttpMethod.PATCH, "/v1/sessions/abc", "text/plain; charset=utf-8", "x")));
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_binaryWrite_isDecodedAndAnsweredInBinary() {
        WriteRequest write = new WriteRequest("abc", List.of(new SectionDelta("a", Map.of("k", new byte[] {7}), List.of())));
        operations.willAnswer(CompletableFuture.completedFuture(new WriteResult("abc", Map.of("a", 3L))));
        FullHttpResponse r = call(accepting(BINARY, withBody(HttpMethod.PATCH, "/v1/sessions/abc", BINARY, binary.encode(write))));
        assertEquals(200, r.status().code());
        assertEquals(BINARY, r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(Map.of("a", 3L), binary.decode(bytes(r), WriteResult.class).versions());
        assertEquals(write, operations.lastArgument);
    }

    @Test
    void channelRead_binaryWriteNamingAnotherSession_is400() {
        WriteRequest write = new WriteRequest("other", List.of(new SectionDelta("a", Map.of("k", new byte[] {7}), List.of())));
        assertError(400, "BAD_REQUEST", "the body names another session than the path",
                call(withBody(HttpMethod.PATCH, "/v1/sessions/abc", BINARY, binary.encode(write))));
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_failureAcceptingBinary_isABinaryErrorMessage() {
        operations.willAnswer(CompletableFuture.failedFuture(new MasterException(Status.NOT_FOUND, "no session abc")));
        FullHttpResponse r = call(accepting(BINARY, get("/v1/sessions/abc?sections=a")));
        assertEquals(404, r.status().code());
        assertEquals(BINARY, r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(new ErrorMessage(Status.NOT_FOUND, "no session abc"), binary.decode(bytes(r), ErrorMessage.class));
    }

    @Test
    void channelRead_schemaPutInJson_publishesTheDecodedBytes() {
        operations.willAnswer(CompletableFuture.completedFuture(null));
        FullHttpResponse r = call(withBody(HttpMethod.PUT, "/v1/schemas/1A2b", JSON, "{\"uid\": \"1a2b\", \"schema\": \"AQID\"}"));
        assertEquals(204, r.status().code());
        r.release();
        assertEquals(List.of("publishSchema 1a2b"), operations.calls);
        assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) operations.lastArgument);
    }

    @Test
    void channelRead_schemaPutInTextPlain_is400NamingTheContentType() {
        assertError(400, "BAD_REQUEST", "content type \\\"text/plain\\\" is not one of application/octet-stream, application/json",
                call(withBody(HttpMethod.PUT, "/v1/schemas/ff", "text/plain", "x")));
    }

    @Test
    void channelRead_schemaGet_answersJsonOrTheBytesAsAsked() {
        operations.willAnswer(CompletableFuture.completedFuture(new byte[] {1, 2, 3}));
        operations.willAnswer(CompletableFuture.completedFuture(new byte[] {1, 2, 3}));
        FullHttpResponse json = call(get("/v1/schemas/ff"));
        assertJson(json);
        assertEquals("{\"uid\":\"ff\",\"schema\":\"AQID\"}", text(json));
        FullHttpResponse octets = call(accepting(BINARY, get("/v1/schemas/ff")));
        assertEquals(MessageForms.OCTETS, octets.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertArrayEquals(new byte[] {1, 2, 3}, bytes(octets));
    }

    // ---- error mapping ----

    @ParameterizedTest
    @CsvSource({
        "NOT_FOUND, 404", "CONFLICT, 409", "TOO_LARGE, 413", "BAD_REQUEST, 400", "UNSUPPORTED_VERSION, 400",
        "UNAVAILABLE, 503", "TIMEOUT, 504", "INTERNAL, 500",
    })
    void channelRead_operationFailingWithAStatus_answersItsHttpStatusAndNamesIt(String code, int http) {
        int status = Status.code(code);
        operations.willAnswer(CompletableFuture.failedFuture(new CompletionException(
                new MasterException(status, "the master says " + code))));
        assertError(http, code, "the master says " + code, call(get("/v1/sessions/abc?sections=a")));
        assertEquals(Map.of(code, 1L), metrics.snapshot().get("errors"));
    }

    @Test
    void channelRead_operationThrowingUnexpectedly_is500NamingIt() {
        // Nothing queued: the canned read throws IllegalStateException, as a bug would.
        assertError(500, "INTERNAL", "the test queued no answer for read abc [a]", call(get("/v1/sessions/abc?sections=a")));
    }

    @Test
    void channelRead_operationFailingWithIllegalArgument_is400() {
        operations.willAnswer(CompletableFuture.failedFuture(new IllegalArgumentException("bad section name")));
        assertError(400, "BAD_REQUEST", "bad section name", call(get("/v1/sessions/abc?sections=a")));
    }

    @Test
    void channelRead_undecodableRequest_is400AndClosesTheConnection() {
        FullHttpRequest bad = get("/bad-request");
        bad.setDecoderResult(DecoderResult.failure(new TooLongHttpHeaderException("HTTP header is larger than 16384 bytes.")));
        FullHttpResponse r = call(bad);
        assertEquals("close", r.headers().get(HttpHeaderNames.CONNECTION));
        assertError(400, "BAD_REQUEST", "HTTP request: HTTP header is larger than 16384 bytes.", r);
        assertFalse(channel.isOpen());
    }

    @Test
    void channelRead_bodyOverMaxBody_is413AndKeepsTheConnection() {
        FullHttpRequest big = request(HttpMethod.PATCH, "/v1/sessions/abc");
        big.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException("the body is above the limit of 16 bytes (max-body)")));
        assertError(413, "TOO_LARGE", "HTTP request: the body is above the limit of 16 bytes (max-body)", call(big));
        assertTrue(channel.isOpen());
        assertEquals(List.of(), operations.calls);
    }

    // ---- order and the connection's end ----

    @Test
    void channelRead_missThenHit_answersInRequestOrder() {
        CompletableFuture<ReadOutcome> miss = operations.willAnswerLater();
        operations.willAnswer(CompletableFuture.completedFuture(outcome("hit", false)));
        FullHttpRequest first = get("/v1/sessions/miss?sections=a,b");
        channel.writeInbound(first, get("/v1/sessions/hit?sections=a,b"));
        assertEquals(0, first.refCnt(), "a request waiting for its answer was not released");
        assertNull(channel.readOutbound(), "the hit overtook the miss");

        miss.complete(outcome("miss", false));
        assertTrue(text(channel.readOutbound()).startsWith("{\"id\":\"miss\""));
        assertTrue(text(channel.readOutbound()).startsWith("{\"id\":\"hit\""));
    }

    @Test
    void channelRead_answerCompletingAfterClose_isReleasedNotWritten() {
        List<ByteBuf> made = new ArrayList<>();
        channel.config().setAllocator(new AbstractByteBufAllocator(false) {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                return Unpooled.buffer(initialCapacity, maxCapacity);
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                ByteBuf b = Unpooled.directBuffer(initialCapacity, maxCapacity);
                made.add(b);
                return b;
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        });
        CompletableFuture<ReadOutcome> miss = operations.willAnswerLater();
        channel.writeInbound(accepting(BINARY, get("/v1/sessions/abc?sections=a,b")));
        channel.close();
        miss.complete(outcome("abc", false));
        assertEquals(1, made.size(), "the binary answer was not encoded into the channel's allocator");
        assertEquals(0, made.get(0).refCnt());
        assertNull(channel.readOutbound());
    }

    @Test
    void exceptionCaught_closesTheConnection() {
        channel.pipeline().fireExceptionCaught(new IOException("connection reset by peer"));
        assertFalse(channel.isOpen());
    }
}
