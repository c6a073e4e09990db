package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionData;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.TooLongHttpContentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sessionmesh.sidecar.http.Requests.get;
import static io.sessionmesh.sidecar.http.Requests.request;
import static io.sessionmesh.sidecar.http.Requests.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdminHandler} on a SidecarService whose one master (127.0.0.1:1) is never connected to: the admin endpoint
 * is local, so everything but a healthy master can be seen without one.
 */
class AdminHandlerTest {
    static final String TOKEN = "s3cret";

    final SectionCache cache = new SectionCache(1 << 20, Duration.ofMinutes(5));
    final SidecarService service = OfflineService.of(cache);
    EmbeddedChannel channel;

    @AfterEach
    void finish() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    EmbeddedChannel channel(String token) {
        channel = new EmbeddedChannel(new AdminHandler(service, token));
        return channel;
    }

    /** Sends a request (with the token when the handler has one); checks that the request was released. */
    FullHttpResponse call(FullHttpRequest request) {
        if (channel == null) {
            channel(null);
        }
        channel.writeInbound(request);
        assertEquals(0, request.refCnt(), "the request was not released");
        FullHttpResponse r = channel.readOutbound();
        assertNotNull(r, "no answer");
        return r;
    }

    static FullHttpRequest authorized(String token, FullHttpRequest request) {
        request.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + token);
        return request;
    }

    /** Caches section "cards" (version 1, attribute "visa" of 3 bytes) for the session. */
    void cached(String id) {
        SectionCache.Lookup miss = cache.lookup(id, List.of("cards"), 0, true);
        cache.fill(id, miss.generation(), 0, () -> 0,
                List.of(EncodedSection.of(new SectionData("cards", 1, Map.of("visa", new byte[] {1, 2, 3})))), 300_000, 3_600_000);
        assertTrue(cache.contains(id));
    }

    static void assertJson(int status, String body, FullHttpResponse r) {
        assertEquals(status, r.status().code());
        assertEquals("application/json", r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(body, text(r));
    }

    // ---- the token ----

    @Test
    void channelRead_tokenConfiguredWithoutAuthorization_is401WithWwwAuthenticate() {
        channel(TOKEN);
        FullHttpResponse r = call(get("/admin/stats"));
        assertEquals("Bearer realm=\"sessionmesh-admin\"", r.headers().get(HttpHeaderNames.WWW_AUTHENTICATE));
        assertJson(401, "{\"error\":\"UNAUTHORIZED\",\"message\":\"admin calls need the header Authorization: Bearer <admin token>\"}", r);
    }

    @Test
    void channelRead_wrongTokenOrScheme_is401() {
        channel(TOKEN);
        assertEquals(401, call(authorized("nope", get("/admin/stats"))).status().code());
        FullHttpRequest basic = get("/admin/stats");
        basic.headers().set(HttpHeaderNames.AUTHORIZATION, "Basic " + TOKEN);
        assertEquals(401, call(basic).status().code());
        channel.releaseOutbound();
    }

    @Test
    void channelRead_rightToken_answers() {
        channel(TOKEN);
        FullHttpResponse r = call(authorized(TOKEN, get("/admin/stats")));
        assertEquals(200, r.status().code());
        r.release();
    }

    // ---- the calls ----

    @Test
    void health_noMasterReachable_is503DownNamingTheMaster() {
        FullHttpResponse r = call(get("/admin/health"));
        assertEquals(503, r.status().code());
        String body = text(r);
        assertTrue(body.startsWith("{\"status\":\"DOWN\",\"masters\":[{\"address\":\"127.0.0.1:1\",\"leader\":\"127.0.0.1:1\",\"status\":\"DOWN\","
                + "\"connections\":0,\"lease\":{\"valid\":false,"), body);
        // no answer from the directory yet: routed by --masters until its cluster map is fetched
        assertTrue(body.endsWith("\"error\":\"not connected yet\"}],\"cluster\":{\"routing\":\"pending\"}}"), body);
    }

    @Test
    void stats_answersTheFiguresAndTheCaches() {
        cached("s1");
        FullHttpResponse r = call(get("/admin/stats"));
        assertEquals(200, r.status().code());
        String body = text(r);
        assertTrue(body.startsWith("{\"requests\":{\"create\":0,"), body);
        assertTrue(body.contains("\"cache\":{\"entries\":1,"), body);
        assertTrue(body.contains("\"pending_touches\":0,\"masters_up\":0,"), body);
        assertTrue(body.endsWith("\"leases\":{\"valid\":0,\"renewals\":0,\"expiries\":0}}"), body);
    }

    @Test
    void metrics_answersPrometheusText() {
        cached("s1");
        FullHttpResponse r = call(get("/metrics"));
        assertEquals(200, r.status().code());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        String body = text(r);
        assertTrue(body.contains("# TYPE sessionmesh_sidecar_requests_total counter\n"), body);
        assertTrue(body.contains("\nsessionmesh_sidecar_requests_total{operation=\"create\"} 0.0\n"), body);
        assertTrue(body.contains("# HELP sessionmesh_sidecar_cache_entries sessions with an entry in the cache\n"), body);
        assertTrue(body.contains("\nsessionmesh_sidecar_cache_entries 1.0\n"), body);
    }

    @Test
    void session_cached_listsSectionsVersionsAndSizesNotValues() {
        cached("s1");
        assertJson(200, "{\"sections\":{\"cards\":{\"version\":1,\"bytes\":17,\"attributes\":{\"visa\":3}}}}",
                call(get("/admin/sessions/s1")));
    }

    @Test
    void session_notCached_is404() {
        assertJson(404, "{\"error\":\"NOT_FOUND\",\"message\":\"nothing is cached for that session\"}",
                call(get("/admin/sessions/s1")));
    }

    @Test
    void session_badId_is400() {
        FullHttpResponse r = call(get("/admin/sessions/bad%20id"));
        assertEquals(400, r.status().code());
        assertTrue(text(r).startsWith("{\"error\":\"BAD_REQUEST\",\"message\":"));
    }

    @Test
    void evict_oneSession_evictsItAndSaysWhetherItWasCached() {
        cached("s1");
        cached("s2");
        assertJson(200, "{\"evicted\":1}", call(request(HttpMethod.DELETE, "/admin/cache?session=s1")));
        assertFalse(cache.contains("s1"));
        assertTrue(cache.contains("s2"));
        assertJson(200, "{\"evicted\":0}", call(request(HttpMethod.DELETE, "/admin/cache?session=s1")));
    }

    @Test
    void evict_all_evictsEverySessionAndCountsThem() {
        cached("s1");
        cached("s2");
        assertJson(200, "{\"evicted\":2}", call(request(HttpMethod.DELETE, "/admin/cache")));
        assertFalse(cache.contains("s1") || cache.contains("s2"));
    }

    @Test
    void channelRead_unknownEndpointOrMethod_is404NamingTheEndpoints() {
        assertJson(404, "{\"error\":\"NOT_FOUND\",\"message\":\"no such admin endpoint: POST /admin/stats; see GET /admin/ (the operators' page), /admin/health, "
                + "/admin/stats, /metrics, /admin/sessions/{id}, DELETE /admin/cache, POST /admin/principals/{principal}/logout, "
                + "GET /admin/principals/{principal}/sessions, GET /admin/principals/{principal}/live-sessions, "
                + "GET /admin/registry/count, /admin/registry/health, "
                + "/admin/registry/sessions/{id}\"}", call(request(HttpMethod.POST, "/admin/stats")));
    }

    // ---- the registry calls (answered by SessionDirectory; with masters and PostgreSQL: LogoutEverywhereIT) ----

    @Test
    void registryQueries_withoutARegistry_are503NamingTheSetting() {
        FullHttpResponse r = call(get("/admin/registry/count"));
        assertEquals(503, r.status().code());
        String body = text(r);
        assertTrue(body.contains("--registry-url"), body);
        assertEquals(503, call(get("/admin/principals/alice/sessions")).status().code());
    }

    @Test
    void registryCalls_badInput_is400NamingWhatIsWrong() {
        assertBadRequest(call(get("/admin/registry/count?limit=lots")), "limit=lots");
        assertBadRequest(call(get("/admin/principals/alice/sessions?limit=0")), "1..10000");
        String control = assertBadRequest(call(request(HttpMethod.POST, "/admin/principals/a%07b/logout")), "control character");
        assertFalse(control.contains("a\u0007b"), "the principal is not echoed");
        assertBadRequest(call(request(HttpMethod.POST, "/admin/principals//logout")), "principal");
        assertBadRequest(call(get("/admin/registry/sessions/bad!id")), "session id");
        assertBadRequest(call(get("/admin/registry/count?by=planet")), "by=planet");
    }

    private static String assertBadRequest(FullHttpResponse r, String names) {
        assertEquals(400, r.status().code());
        String body = text(r);
        assertTrue(body.contains(names), body);
        return body;
    }

    // ---- the connection ----

    @Test
    void channelRead_keepAlive_answersWithContentLengthAndStaysOpen() {
        FullHttpResponse r = call(get("/admin/sessions/s1"));
        assertEquals(String.valueOf(r.content().readableBytes()), r.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertFalse(r.headers().contains(HttpHeaderNames.CONNECTION));
        r.release();
        assertTrue(channel.isOpen());
    }

    @Test
    void channelRead_connectionClose_closesAfterTheAnswer() {
        FullHttpRequest last = get("/admin/stats");
        last.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        FullHttpResponse r = call(last);
        assertEquals("close", r.headers().get(HttpHeaderNames.CONNECTION));
        r.release();
        assertFalse(channel.isOpen());
    }

    @Test
    void channelRead_bodyOverMaxBody_is413AndNothingIsEvicted_andTheConnectionCloses() {
        String id = "s1";
        cached(id);
        FullHttpRequest evictAll = request(HttpMethod.DELETE, "/admin/cache");
        evictAll.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException("the body is above the limit")));
        FullHttpResponse r = call(evictAll);
        assertJson(413, "{\"error\":\"TOO_LARGE\",\"message\":\"admin request: the body is above the limit\"}", r);
        assertTrue(cache.contains(id), "a request refused for its body was acted on");
        assertFalse(channel.isOpen());
    }

    @Test
    void channelRead_undecodableRequest_is400AndCloses() {
        FullHttpRequest broken = get("/admin/stats");
        broken.setDecoderResult(DecoderResult.failure(new IllegalArgumentException("invalid version format: HTTQ/1.1")));
        assertJson(400, "{\"error\":\"BAD_REQUEST\",\"message\":\"admin request: invalid version format: HTTQ/1.1\"}",
                call(broken));
        assertFalse(channel.isOpen());
    }

    @Test
    void channelRead_unexpectedFailure_is500NamingIt_notAHungConnection() {
        channel = new EmbeddedChannel(new AdminHandler(null, null)); // no service: every call but a 401 or 404 fails
        FullHttpResponse r = call(get("/admin/stats"));
        assertEquals(500, r.status().code());
        String body = text(r);
        assertTrue(body.contains("admin call failed: java.lang.NullPointerException"), body);
        assertTrue(channel.isOpen(), "the next call on the connection is answered too");
    }

    /** A session id is a bearer secret: an admin call that fails is logged with the ids in its path and query hashed. */
    @Test
    void channelRead_failedCallWithSessionIds_isLoggedWithTheIdsRedacted() {
        String id = "AdminLogSecretId0123456789";
        String other = "AdminLogSecretQuery0123456";
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            channel = new EmbeddedChannel(new AdminHandler(null, null)); // no service: the calls fail and are logged
            assertEquals(500, call(get("/admin/sessions/" + id)).status().code());
            assertEquals(500, call(request(HttpMethod.DELETE, "/admin/cache?session=" + other)).status().code());
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(log.contains("admin GET /admin/sessions/"), "the failure is logged: " + log);
        assertFalse(log.contains(id), "a session id in the log: " + log);
        assertFalse(log.contains(other), "a session id in the log: " + log);
        assertTrue(log.contains("/admin/sessions/" + io.sessionmesh.wire.transport.RedactedIds.redact(id)), log);
    }

    @Test
    void channelRead_requestBehindAConnectionClose_isNotExecuted() {
        String id = "s1";
        cached(id);
        FullHttpRequest last = get("/admin/stats");
        last.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        FullHttpRequest evict = request(HttpMethod.DELETE, "/admin/cache");
        List<Object> held = new java.util.ArrayList<>();
        // A socket that has not yet taken the last answer: the connection is still open when the next request is read.
        channel = new EmbeddedChannel(new io.netty.channel.ChannelOutboundHandlerAdapter() {
            @Override
            public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg, io.netty.channel.ChannelPromise promise) {
                held.add(msg);
            }
        }, new AdminHandler(service, null));
        channel.writeInbound(last, evict);
        assertEquals(1, held.size(), "a request behind the last one was answered");
        FullHttpResponse r = (FullHttpResponse) held.get(0);
        assertEquals("close", r.headers().get(HttpHeaderNames.CONNECTION));
        r.release();
        assertTrue(cache.contains(id), "a request behind the last one was executed");
        assertEquals(0, evict.refCnt());
        assertTrue(!channel.config().isAutoRead(), "reading goes on after the last request");
    }
}
