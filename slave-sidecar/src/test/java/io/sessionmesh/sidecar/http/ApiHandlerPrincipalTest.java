package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.sessionmesh.sidecar.http.Requests.accepting;
import static io.sessionmesh.sidecar.http.Requests.bytes;
import static io.sessionmesh.sidecar.http.Requests.get;
import static io.sessionmesh.sidecar.http.Requests.request;
import static io.sessionmesh.sidecar.http.Requests.text;
import static io.sessionmesh.sidecar.http.Requests.withBody;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The principal routes of {@link ApiHandler} (PUT, DELETE and GET {@code /v1/sessions/{id}/principal}, and CREATE's
 * principal) behind {@link HttpPipeliningHandler}, with canned operations: what each calls, the answers in both forms,
 * and the refusals, none of which repeats the principal.
 */
class ApiHandlerPrincipalTest {
    private static final String BINARY = MessageForms.BINARY;
    private static final String JSON = MessageForms.JSON;
    private static final String PATH = "/v1/sessions/abc/principal";

    private final CannedOperations operations = new CannedOperations();
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final EmbeddedChannel channel;

    ApiHandlerPrincipalTest() {
        MessageForms forms = new MessageForms(binary, new JsonTransportCodec());
        channel = new EmbeddedChannel(new HttpPipeliningHandler(16),
                new ApiHandler(operations, forms, new ErrorResponses(forms, new SidecarMetrics())));
    }

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    private FullHttpResponse call(FullHttpRequest request) {
        channel.writeInbound(request);
        assertEquals(0, request.refCnt(), "the request was not released");
        FullHttpResponse answer = channel.readOutbound();
        assertNotNull(answer, "no answer");
        return answer;
    }

    @Test
    void channelRead_createWithAPrincipal_passesIt() {
        operations.willAnswer(CompletableFuture.completedFuture(new SessionCreated("s1", 300, 43200)));
        operations.willAnswer(CompletableFuture.completedFuture(new SessionCreated("s2", 300, 43200)));
        assertEquals(201, call(withBody(HttpMethod.POST, "/v1/sessions", JSON, "{\"principal\": \"alice\"}")).status().code());
        assertEquals(201, call(withBody(HttpMethod.POST, "/v1/sessions", BINARY,
                binary.encode(new CreateRequest(60, "bob")))).status().code());
        assertEquals(List.of("create 0 alice", "create 60 bob"), operations.calls);
    }

    @Test
    void channelRead_putJsonWithoutId_setsThePrincipalAndAnswers204() {
        operations.willAnswer(CompletableFuture.completedFuture(null));
        FullHttpResponse r = call(withBody(HttpMethod.PUT, PATH, JSON, "{\"principal\":\"alice\"}"));
        assertEquals(204, r.status().code());
        assertEquals("", text(r));
        assertEquals(List.of("setPrincipal abc alice"), operations.calls);
    }

    @Test
    void channelRead_putBinary_setsThePrincipal() {
        operations.willAnswer(CompletableFuture.completedFuture(null));
        FullHttpResponse r = call(withBody(HttpMethod.PUT, PATH, BINARY, binary.encode(new SessionPrincipal("abc", "Zoë"))));
        assertEquals(204, r.status().code());
        r.release();
        assertEquals(List.of("setPrincipal abc Zoë"), operations.calls);
    }

    @Test
    void channelRead_putNamingAnotherSession_is400InBothForms() {
        FullHttpResponse json = call(withBody(HttpMethod.PUT, PATH, JSON, "{\"id\":\"other\",\"principal\":\"alice\"}"));
        assertEquals(400, json.status().code());
        assertTrue(text(json).contains("names another session than the URL"));
        FullHttpResponse bin = call(withBody(HttpMethod.PUT, PATH, BINARY, binary.encode(new SessionPrincipal("other", "alice"))));
        assertEquals(400, bin.status().code());
        assertTrue(text(bin).contains("the body names another session than the path"));
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_putWithoutAPrincipal_is400SayingDeleteClears() {
        FullHttpResponse r = call(withBody(HttpMethod.PUT, PATH, JSON, "{}"));
        assertEquals(400, r.status().code());
        assertTrue(text(r).contains("DELETE clears it"));
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_putABadPrincipal_is400Or413NamingTheProblemNotThePrincipal() {
        String secret = "mallory@example.com";
        FullHttpResponse control = call(withBody(HttpMethod.PUT, PATH, JSON, "{\"principal\":\"" + secret + "\\n\"}"));
        assertEquals(400, control.status().code());
        String body = text(control);
        assertTrue(body.contains("principal") && body.contains("control character"), body);
        assertFalse(body.contains(secret), body);

        FullHttpResponse big = call(withBody(HttpMethod.PUT, PATH, JSON, "{\"principal\":\"" + secret.repeat(14) + "\"}"));
        assertEquals(413, big.status().code());
        body = text(big);
        assertTrue(body.contains("266 bytes") && body.contains("256"), body);
        assertFalse(body.contains(secret), body);

        FullHttpResponse empty = call(withBody(HttpMethod.PUT, PATH, JSON, "{\"principal\":\"\"}"));
        assertEquals(400, empty.status().code());
        empty.release();
        assertEquals(List.of(), operations.calls);
    }

    @Test
    void channelRead_delete_clearsThePrincipalAndAnswers204() {
        operations.willAnswer(CompletableFuture.completedFuture(null));
        FullHttpResponse r = call(request(HttpMethod.DELETE, PATH));
        assertEquals(204, r.status().code());
        r.release();
        assertEquals(List.of("setPrincipal abc null"), operations.calls);
    }

    @Test
    void channelRead_get_answersSessionPrincipalInJsonOrBinary() {
        operations.willAnswer(CompletableFuture.completedFuture(new SessionPrincipal("abc", "alice")));
        operations.willAnswer(CompletableFuture.completedFuture(new SessionPrincipal("abc", null)));
        operations.willAnswer(CompletableFuture.completedFuture(new SessionPrincipal("abc", "alice")));
        FullHttpResponse some = call(get(PATH));
        assertEquals(200, some.status().code());
        assertEquals(JSON, some.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals("{\"id\":\"abc\",\"principal\":\"alice\"}", text(some));
        assertEquals("{\"id\":\"abc\"}", text(call(get(PATH))));
        FullHttpResponse bin = call(accepting(BINARY, get(PATH)));
        assertEquals(BINARY, bin.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(new SessionPrincipal("abc", "alice"), binary.decode(bytes(bin), SessionPrincipal.class));
    }

    @Test
    void channelRead_unknownSession_is404() {
        operations.willAnswer(CompletableFuture.failedFuture(new MasterException(Status.NOT_FOUND, "no such session")));
        operations.willAnswer(CompletableFuture.failedFuture(new MasterException(Status.NOT_FOUND, "no such session")));
        assertEquals(404, call(get(PATH)).status().code());
        FullHttpResponse bin = call(accepting(BINARY, withBody(HttpMethod.PUT, PATH, JSON, "{\"principal\":\"a\"}")));
        assertEquals(404, bin.status().code());
        assertEquals(Status.NOT_FOUND, binary.decode(bytes(bin), ErrorMessage.class).status());
    }

    @Test
    void channelRead_otherMethod_is405WithAllow() {
        FullHttpResponse r = call(request(HttpMethod.POST, PATH));
        assertEquals(405, r.status().code());
        assertEquals("GET, PUT, DELETE", r.headers().get(HttpHeaderNames.ALLOW));
        r.release();
    }
}
