package io.sessionmesh.sidecar.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.charset.StandardCharsets;

/** Requests for handler tests, and the text of answers. */
final class Requests {
    private Requests() {
    }

    static FullHttpRequest request(HttpMethod method, String uri) {
        // A buffer of its own (not EMPTY_BUFFER, which is never released), so that tests can check its release.
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, Unpooled.buffer(0));
    }

    static FullHttpRequest get(String uri) {
        return request(HttpMethod.GET, uri);
    }

    static FullHttpRequest withBody(HttpMethod method, String uri, String contentType, byte[] body) {
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return r;
    }

    static FullHttpRequest withBody(HttpMethod method, String uri, String contentType, String body) {
        return withBody(method, uri, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    static FullHttpRequest accepting(String accept, FullHttpRequest request) {
        request.headers().set(HttpHeaderNames.ACCEPT, accept);
        return request;
    }

    /** The answer's body as text; releases the answer. */
    static String text(FullHttpResponse response) {
        try {
            return response.content().toString(StandardCharsets.UTF_8);
        } finally {
            response.release();
        }
    }

    /** The answer's body as bytes; releases the answer. */
    static byte[] bytes(FullHttpResponse response) {
        try {
            byte[] b = new byte[response.content().readableBytes()];
            response.content().getBytes(response.content().readerIndex(), b);
            return b;
        } finally {
            response.release();
        }
    }
}
