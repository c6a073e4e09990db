package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.service.SidecarService;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sessionmesh.sidecar.http.Requests.get;
import static io.sessionmesh.sidecar.http.Requests.request;
import static io.sessionmesh.sidecar.http.Requests.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operators' page ({@link OperatorsPage}) as {@link AdminHandler} serves it, and through the admin port's whole
 * pipeline with a token ({@link AdminTokenGate}). In a browser, against a real sidecar: OperatorsPageIT.
 */
class OperatorsPageTest {
    static final String TOKEN = "s3cret-token";

    final SidecarService service = OfflineService.of(new SectionCache(1 << 20, Duration.ofMinutes(5)));
    EmbeddedChannel channel;

    @AfterEach
    void finish() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    FullHttpResponse call(String token, FullHttpRequest request) {
        if (channel == null) {
            channel = new EmbeddedChannel(new AdminHandler(service, token));
        }
        channel.writeInbound(request);
        assertEquals(0, request.refCnt(), "the request was not released");
        FullHttpResponse r = channel.readOutbound();
        assertNotNull(r, "no answer");
        return r;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = OperatorsPage.class.getResourceAsStream("/io/sessionmesh/sidecar/http/" + name)) {
            assertNotNull(in, name + " is not on the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void assertPageHeaders(String contentType, FullHttpResponse r) {
        assertEquals(200, r.status().code());
        assertEquals(contentType, r.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals("no-store", r.headers().get(HttpHeaderNames.CACHE_CONTROL));
        assertEquals("nosniff", r.headers().get("X-Content-Type-Options"));
        assertEquals("DENY", r.headers().get(HttpHeaderNames.X_FRAME_OPTIONS));
        String csp = r.headers().get(HttpHeaderNames.CONTENT_SECURITY_POLICY);
        assertNotNull(csp);
        assertTrue(csp.startsWith("default-src 'none'; script-src 'self'; style-src 'sha256-"), csp);
        assertTrue(csp.contains("; connect-src 'self';") && csp.endsWith("; frame-ancestors 'none'"), csp);
        assertFalse(csp.contains("unsafe"), csp);
    }

    @Test
    void page_get_isTheHtmlResourceWithNoStoreAndAStrictPolicy() throws Exception {
        FullHttpResponse r = call(null, get("/admin/"));
        assertPageHeaders("text/html; charset=utf-8", r);
        String html = text(r);
        assertEquals(resource("admin-page.html"), html);
        assertTrue(html.contains("<script src=\"/admin/page.js\"></script>"), "the script is the sidecar's own");
        assertFalse(Pattern.compile("<script>|<script [^>]*>[^<]").matcher(html).find(), "no inline script");
        assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing from another host");
        assertFalse(html.contains(" style=\""), "a style attribute would be refused by the policy");
        for (String f : new String[] {"hit_ratio", "master_latency_p50", "master_latency_p99", "master_latency_p999",
                "master_latency_max", "cache_entries", "cache_bytes", "invalidation_delay_p50", "invalidation_delay_p99",
                "invalidation_delay_max", "masters_up", "errors_total", "requests_per_second", "error"}) {
            assertTrue(html.contains("data-figure=\"" + f + "\""), "no figure " + f);
        }
    }

    @Test
    void page_styleHash_isTheDigestOfTheOneStyleBlock() throws Exception {
        String html = resource("admin-page.html");
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(html);
        assertTrue(style.find());
        String expected = "sha256-" + Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        String csp = call(null, get("/admin/")).headers().get(HttpHeaderNames.CONTENT_SECURITY_POLICY);
        assertTrue(csp.contains("style-src '" + expected + "';"), csp);
        channel.releaseOutbound();
        assertThrows(IllegalStateException.class, () -> OperatorsPage.styleHash("<style>a</style><style>b</style>"));
        assertThrows(IllegalStateException.class, () -> OperatorsPage.styleHash("<p>no style</p>"));
    }

    @Test
    void script_get_isTheScriptResourceWithItsNamedLimits() throws Exception {
        FullHttpResponse r = call(null, get("/admin/page.js"));
        assertPageHeaders("text/javascript; charset=utf-8", r);
        String js = text(r);
        assertEquals(resource("admin-page.js"), js);
        assertTrue(js.contains("const POLL_INTERVAL_MS = 2000;"), "the documented poll interval");
        assertTrue(js.contains("const HISTORY_POINTS = 150;"), "the documented history length");
        assertTrue(js.contains("sessionStorage"), "the token is kept for the tab only");
        assertFalse(js.contains("localStorage"), "the token never outlives the tab");
        assertFalse(js.contains("innerHTML"), "figures are written as text, never as markup");
        assertFalse(js.replace("'http://www.w3.org/2000/svg'", "").contains("http"), "nothing from another host");
    }

    @Test
    void bare_get_redirectsToThePage() {
        FullHttpResponse r = call(null, get("/admin?x=1"));
        assertEquals(301, r.status().code());
        assertEquals("/admin/", r.headers().get(HttpHeaderNames.LOCATION));
        r.release();
    }

    @Test
    void page_head_answersTheGetsHeaders() {
        FullHttpResponse got = call(null, get("/admin/"));
        FullHttpResponse head = call(null, request(HttpMethod.HEAD, "/admin/"));
        assertEquals(200, head.status().code());
        assertEquals(got.headers().get(HttpHeaderNames.CONTENT_TYPE), head.headers().get(HttpHeaderNames.CONTENT_TYPE));
        assertEquals(got.headers().get(HttpHeaderNames.CONTENT_LENGTH), head.headers().get(HttpHeaderNames.CONTENT_LENGTH));
        assertEquals(got.headers().get(HttpHeaderNames.CONTENT_SECURITY_POLICY),
                head.headers().get(HttpHeaderNames.CONTENT_SECURITY_POLICY));
        got.release();
        head.release();
    }

    @Test
    void page_otherMethods_are405WithAllow() {
        for (HttpMethod m : new HttpMethod[] {HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE}) {
            for (String path : new String[] {"/admin/", "/admin", "/admin/page.js"}) {
                FullHttpResponse r = call(null, request(m, path));
                assertEquals(405, r.status().code(), m + " " + path);
                assertEquals("GET, HEAD", r.headers().get(HttpHeaderNames.ALLOW));
                assertEquals("application/json", r.headers().get(HttpHeaderNames.CONTENT_TYPE));
                assertEquals("{\"error\":\"METHOD_NOT_ALLOWED\",\"message\":\"" + path + " answers GET, HEAD, not " + m + "\"}",
                        text(r));
            }
        }
    }

    @Test
    void page_tokenConfigured_pageWithoutToken_figuresAndOtherMethodsNeedIt() {
        assertEquals(200, call(TOKEN, get("/admin/")).status().code());
        assertEquals(200, call(TOKEN, get("/admin/page.js")).status().code());
        assertEquals(401, call(TOKEN, get("/admin/stats")).status().code());
        assertEquals(401, call(TOKEN, get("/admin/health")).status().code());
        assertEquals(401, call(TOKEN, request(HttpMethod.POST, "/admin/")).status().code(), "no 405 hint without the token");
        FullHttpRequest post = request(HttpMethod.POST, "/admin/");
        post.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + TOKEN);
        assertEquals(405, call(TOKEN, post).status().code());
        channel.releaseOutbound();
    }

    @Test
    void page_unknownPathsBesideIt_stay404Json() {
        for (String path : new String[] {"/admin/page.css", "/admin/index.html", "/admin//", "/admin/page.js/x", "/"}) {
            FullHttpResponse r = call(null, get(path));
            assertEquals(404, r.status().code(), path);
            assertEquals("application/json", r.headers().get(HttpHeaderNames.CONTENT_TYPE));
            assertTrue(text(r).startsWith("{\"error\":\"NOT_FOUND\",\"message\":\"no such admin endpoint: GET " + path + "; see GET /admin/ "),
                    path);
        }
    }

    /** The gate in front of the aggregator lets the page through without the token, and nothing else. */
    @Test
    void adminPipeline_withToken_servesThePageAndRefusesTheRest() {
        SidecarConfig config = SidecarConfig.of(Map.of("masters", "127.0.0.1:1", "admin-token", "x".repeat(32)));
        channel = new EmbeddedChannel(new SidecarHttpInitializer(config, service, true));
        SidecarHttpInitializerTest.send(channel, "GET /admin/ HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "HEAD /admin/page.js HTTP/1.1\r\nHost: localhost\r\n\r\n");
        String out = SidecarHttpInitializerTest.written(channel);
        assertTrue(out.startsWith("HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\n"), out);
        int head = out.indexOf("HTTP/1.1 200 OK\r\ncontent-type: text/javascript; charset=utf-8\r\n");
        assertTrue(head > 0, out);
        assertTrue(out.endsWith("\r\n\r\n"), "the HEAD's answer ends with its headers: " + out.substring(head));
        assertTrue(channel.isOpen());

        SidecarHttpInitializerTest.send(channel, "GET /admin/stats HTTP/1.1\r\nHost: localhost\r\n\r\n");
        out = SidecarHttpInitializerTest.written(channel);
        assertTrue(out.startsWith("HTTP/1.1 401 Unauthorized\r\n"), out);
        assertFalse(channel.isOpen());

        channel.finishAndReleaseAll();
        channel = new EmbeddedChannel(new SidecarHttpInitializer(config, service, true));
        SidecarHttpInitializerTest.send(channel, "POST /admin/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
        out = SidecarHttpInitializerTest.written(channel);
        assertTrue(out.startsWith("HTTP/1.1 401 Unauthorized\r\n"), out);
    }
}
