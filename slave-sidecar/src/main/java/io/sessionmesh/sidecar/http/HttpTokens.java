package io.sessionmesh.sidecar.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;

/**
 * Byte-level pieces of HTTP/1.1's grammar (RFC 9110 5.6.2, RFC 9112) for {@link ApiRequestDecoder}: tokens, the
 * methods and header names the API knows, compared in the inbound bytes without making strings of them.
 */
final class HttpTokens {
    /** tchar of RFC 9110 5.6.2, by byte value. */
    private static final boolean[] TOKEN = new boolean[128];
    /** A write's id, which makes sending it again safe (PROTOCOL.md 4, 3.12); lower case, as header names compare. */
    static final AsciiString IDEMPOTENCY_KEY = AsciiString.cached("idempotency-key");
    /** The headers the API reads; any other is dropped once checked. */
    private static final AsciiString[] KEPT = {HttpHeaderNames.ACCEPT, HttpHeaderNames.CONTENT_TYPE,
            HttpHeaderNames.CONNECTION, HttpHeaderNames.HOST, IDEMPOTENCY_KEY};
    private static final HttpMethod[] METHODS = {HttpMethod.GET, HttpMethod.PATCH, HttpMethod.POST, HttpMethod.PUT,
            HttpMethod.DELETE, HttpMethod.HEAD, HttpMethod.OPTIONS};

    static {
        for (char c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
    }

    private HttpTokens() {
    }

    static boolean isTokenByte(byte b) {
        return b > 0 && TOKEN[b];
    }

    /** The method named by [at, at + length), the constant when it is a known one (the bytes are a token). */
    static HttpMethod method(ByteBuf in, int at, int length) {
        for (HttpMethod m : METHODS) {
            if (equalsAscii(in, at, length, m.name())) {
                return m;
            }
        }
        return HttpMethod.valueOf(in.toString(at, length, StandardCharsets.US_ASCII));
    }

    /** Whether [at, at + length) are exactly the ASCII characters of {@code text}, case counting. */
    static boolean equalsAscii(ByteBuf in, int at, int length, String text) {
        if (length != text.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (in.getByte(at + i) != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether [at, at + length) is the header name {@code lowerCase}, case ignored. */
    static boolean nameIs(ByteBuf in, int at, int length, AsciiString lowerCase) {
        if (length != lowerCase.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            byte b = in.getByte(at + i);
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lowerCase.byteAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The name of a header the API reads, or null for one it drops. */
    static AsciiString keptHeader(ByteBuf in, int at, int length) {
        for (AsciiString name : KEPT) {
            if (nameIs(in, at, length, name)) {
                return name;
            }
        }
        return null;
    }
}
