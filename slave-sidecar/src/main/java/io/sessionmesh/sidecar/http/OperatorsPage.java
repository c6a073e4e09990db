package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The operators' page on the admin port: {@code GET /admin/} (the HTML, with its one inline style block) and
 * {@code GET /admin/page.js} (the script that polls {@code /admin/stats} and {@code /admin/health} and draws the
 * figures); {@code /admin} redirects to {@code /admin/}. Both are classpath resources, read once at start. They hold no
 * figures, so they are served without the admin token: a browser cannot add a header to a page load, and the script
 * sends the token the operator types in as {@code Authorization: Bearer} on its own calls, which are gated like any
 * other (docs/operations.md, "The operators' page"; PROTOCOL.md 4). Only GET and HEAD; any other method is 405 with
 * {@code Allow}.
 *
 * <p>Every answer carries {@code Cache-Control: no-store} and a Content-Security-Policy that lets the page run the
 * sidecar's own script only, allows its inline style block by SHA-256 (computed here from the resource, so an edit of
 * the style cannot leave a stale hash behind), fetches from the sidecar only, and forbids framing.
 */
final class OperatorsPage {
    /** The page. */
    static final String PAGE_PATH = "/admin/";
    /** Redirected to {@link #PAGE_PATH}, so that the page has one address. */
    static final String BARE_PATH = "/admin";
    /** The page's script. */
    static final String SCRIPT_PATH = "/admin/page.js";
    /** The methods the page's paths answer. */
    static final String ALLOW = "GET, HEAD";
    static final String HTML = "text/html; charset=utf-8";
    static final String JAVASCRIPT = "text/javascript; charset=utf-8";

    private static final String RESOURCES = "/io/sessionmesh/sidecar/http/";

    private final byte[] page;
    private final byte[] script;
    private final String policy;

    /** Reads the page and its script from the classpath; throws when either is missing (a broken build). */
    OperatorsPage() {
        this(resource("admin-page.html"), resource("admin-page.js"));
    }

    OperatorsPage(byte[] page, byte[] script) {
        this.page = page;
        this.script = script;
        this.policy = "default-src 'none'; script-src 'self'; style-src '" + styleHash(new String(page, StandardCharsets.UTF_8))
                + "'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    }

    /** Whether the path is one of the page's. */
    static boolean serves(String path) {
        return path.equals(PAGE_PATH) || path.equals(BARE_PATH) || path.equals(SCRIPT_PATH);
    }

    /** Whether the request may go without the admin token: a GET or HEAD of one of the page's paths. */
    static boolean isPublic(HttpRequest request) {
        HttpMethod m = request.method();
        return (m.equals(HttpMethod.GET) || m.equals(HttpMethod.HEAD))
                && serves(new QueryStringDecoder(request.uri()).path());
    }

    /** The Content-Security-Policy the page's answers carry. */
    String policy() {
        return policy;
    }

    /**
     * The answer to {@code method path}, path being one that {@link #serves}. A HEAD gets a GET's answer: the HTTP
     * codec sends its headers (Content-Length included) without the body.
     */
    FullHttpResponse answer(HttpMethod method, String path) {
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse r = AdminHandler.json(HttpResponseStatus.METHOD_NOT_ALLOWED, AdminHandler.error(
                    "METHOD_NOT_ALLOWED", path + " answers " + ALLOW + ", not " + method));
            r.headers().set(HttpHeaderNames.ALLOW, ALLOW);
            return r;
        }
        FullHttpResponse r;
        if (path.equals(BARE_PATH)) {
            r = MessageForms.response(HttpResponseStatus.MOVED_PERMANENTLY, Unpooled.EMPTY_BUFFER, HTML);
            r.headers().set(HttpHeaderNames.LOCATION, PAGE_PATH);
        } else if (path.equals(SCRIPT_PATH)) {
            r = MessageForms.response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(script), JAVASCRIPT);
        } else {
            r = MessageForms.response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(page), HTML);
        }
        r.headers()
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set(HttpHeaderNames.CONTENT_SECURITY_POLICY, policy)
                .set("X-Content-Type-Options", "nosniff")
                .set(HttpHeaderNames.X_FRAME_OPTIONS, "DENY")
                .set("Referrer-Policy", "no-referrer");
        return r;
    }

    /** The CSP source of the page's one {@code <style>} block: {@code sha256-} and the Base64 of its text's digest. */
    static String styleHash(String html) {
        int open = html.indexOf("<style>");
        int close = html.indexOf("</style>");
        if (open < 0 || close < open || html.indexOf("<style", open + 1) >= 0) {
            throw new IllegalStateException("the operators' page must have exactly one <style> block");
        }
        String style = html.substring(open + "<style>".length(), close);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(style.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = OperatorsPage.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the operators' page resource " + RESOURCES + name + " is not on the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
