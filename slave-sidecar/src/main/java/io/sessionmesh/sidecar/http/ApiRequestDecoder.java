package io.sessionmesh.sidecar.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.util.AsciiString;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The REST API port's HTTP/1.1 request decoder: one handler in place of Netty's general codec, the body budget's
 * handler and the body aggregator, for what the API takes (small requests, a body with a Content-Length). It reads
 * each request whole from the inbound bytes into a {@link FullHttpRequest} whose body is a slice of what was read (no
 * copy), reserving the body's bytes in the {@link BodyBudget} from its Content-Length before any of it is buffered.
 * An explicit state machine: request line, header lines, body (or a refused body skipped).
 *
 * <table>
 *   <caption>Limits (PROTOCOL.md 4)</caption>
 *   <tr><th>limit</th><th>default</th><th>past it</th></tr>
 *   <tr><td>request line</td><td>{@value #MAX_LINE_BYTES} bytes</td><td>414, connection closed</td></tr>
 *   <tr><td>header lines, together</td><td>{@value #MAX_HEADER_BYTES} bytes</td><td>431, connection closed</td></tr>
 *   <tr><td>body</td><td>{@code max-body}, 32 MiB</td><td>413 in its turn, body skipped, connection goes on</td></tr>
 *   <tr><td>bodies held, all connections</td><td>{@code body-budget}, 256 MiB</td><td>503 with Retry-After in its turn,
 *       body skipped, connection goes on</td></tr>
 *   <tr><td>empty lines before a request line</td><td>{@value #MAX_EMPTY_LINE_BYTES} bytes</td><td>400, connection
 *       closed</td></tr>
 *   <tr><td>a head's arrival, from its first byte after any empty lines</td><td>{@code head-timeout}, 10 s (counted
 *       again while this side is not reading)</td><td>408 in its turn, connection closed</td></tr>
 *   <tr><td>a body's arrival, from its head</td><td>{@code body-timeout}, 30 s (counted again while this side is not
 *       reading)</td><td>408 in its turn (its reservation kept until then), connection closed</td></tr>
 *   <tr><td>a refused body's arrival (skipped), from its head</td><td>{@code body-timeout}</td><td>408 after the
 *       refusal's answer, connection closed</td></tr>
 * </table>
 *
 * <p>What it refuses, each as a failed request answered in its turn by {@link ApiHandler} with a message naming the
 * problem, after which the connection closes (the stream can no longer be trusted to be in step) and nothing more is
 * read of it: a malformed request line or header (400, as are obsolete line folding, a bare CR, whitespace before a
 * header's colon), a version other than HTTP/1.0 and 1.1 (505), Transfer-Encoding (chunked: 411, the API takes
 * bodies with a Content-Length only; any other coding: 501), Transfer-Encoding together with Content-Length, or more
 * than one Content-Length (400: both are request smuggling's tools), an Expect other than 100-continue (417), an
 * HTTP/1.1 request without a Host header or any request with more than one (400, as RFC 9112 3.2 asks; the value's
 * syntax is not checked).
 * {@code Expect: 100-continue} is answered {@code 100 Continue} at once when the body is taken; when it is refused (413,
 * 503), the client has not sent it, so that connection closes after the answer.
 *
 * <p>Only the headers the API reads are kept (Accept, Content-Type, Connection, Host, Idempotency-Key); the others are checked for
 * syntax and dropped. Leading empty lines before a request line are skipped (RFC 9112 2.2); a bare LF ends a line as
 * CRLF does. One request is produced a call, so that {@link #takeReserved()} hands on exactly its reservation.
 *
 * <p>Deadlines cost nothing on the usual path: one is scheduled only when a read ends inside a head or a body (a head
 * or a body in pieces), and cancelled when the part is in. Without them a client that trickles bytes is never idle, so
 * {@code http-idle-timeout} never closes it, and it holds a connection slot (and a body its reservation) for as long as
 * it likes.
 */
final class ApiRequestDecoder extends ByteToMessageDecoder implements BodyReservations {
    /** The longest request line (method, target and version). */
    static final int MAX_LINE_BYTES = 8 << 10;
    /** The header lines of one request, together, with their line ends. */
    static final int MAX_HEADER_BYTES = 16 << 10;
    /**
     * Bytes of empty lines (CR, LF) taken before a request line: RFC 9112 2.2 asks a server to ignore at least one empty
     * line there (some clients send one after a body); more is refused 400, so that empty lines sent one at a time, which
     * start no head's deadline, cannot hold a connection either.
     */
    static final int MAX_EMPTY_LINE_BYTES = 16;
    /** Digits of a Content-Length: 18 keep it within a long; anything that long is over max-body anyway. */
    private static final int MAX_LENGTH_DIGITS = 18;
    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final AsciiString CONTINUE_100 = AsciiString.cached("100-continue");
    private static final AsciiString CLOSE = AsciiString.cached("close");
    /** Headers as read: checked here, so not again by Netty. */
    private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    private enum State { REQUEST_LINE, HEADERS, BODY, SKIP_BODY, DISCARD }

    private final BodyBudget budget;
    private final int maxBodyBytes;
    private final long headTimeoutMillis;
    private final long bodyTimeoutMillis;
    /** The deadline of the part being read (a head in pieces, a body, a refused body being skipped), or null. */
    private ScheduledFuture<?> deadline;
    /** Deadlines this connection has armed: one that fires acts only if it is still the latest and not cancelled. */
    private long deadlines;
    private State state = State.REQUEST_LINE;

    // The request being read.
    private HttpMethod method;
    private String uri;
    private HttpVersion version;
    private HttpHeaders headers;
    private int headerBytes;
    private long contentLength;
    private boolean transferEncoding;
    private String transferCoding;
    private String expect;
    /** Host header lines of the request being read (RFC 9112 3.2: an HTTP/1.1 request has exactly one). */
    private int hosts;
    /** Body bytes still to skip of a refused body. */
    private long skipping;
    /** Reserved for the request being read, not yet handed on with it. */
    private long reserved;
    /**
     * Bytes of the line being read (from the reader index) already searched for its LF: a line that arrives in many
     * pieces is searched once in all, not once a piece (which, a byte a packet, costs the square of the line limit).
     */
    private int scanned;
    /** Bytes of empty lines taken since the last request line began ({@link #MAX_EMPTY_LINE_BYTES}). */
    private int emptyLineBytes;

    ApiRequestDecoder(BodyBudget budget, int maxBodyBytes, long headTimeoutMillis, long bodyTimeoutMillis) {
        this.budget = budget;
        this.maxBodyBytes = maxBodyBytes;
        this.headTimeoutMillis = headTimeoutMillis;
        this.bodyTimeoutMillis = bodyTimeoutMillis;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        switch (state) {
            case REQUEST_LINE -> requestLine(ctx, in, out);
            case HEADERS -> headers(ctx, in, out);
            case BODY -> body(in, out);
            case SKIP_BODY -> {
                int n = (int) Math.min(in.readableBytes(), skipping);
                in.skipBytes(n);
                skipping -= n;
                if (skipping == 0) {
                    cancelDeadline();
                    state = State.REQUEST_LINE;
                }
            }
            case DISCARD -> in.skipBytes(in.readableBytes());
            default -> throw new IllegalStateException(state.name());
        }
        if (state == State.HEADERS && !in.isReadable()) {
            armHeadDeadline(ctx); // the head stops at a line's end: this runs again only when more comes
        }
    }

    private void requestLine(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable() && (in.getByte(in.readerIndex()) == CR || in.getByte(in.readerIndex()) == LF)) {
            in.skipBytes(1); // empty lines before a request
            if (++emptyLineBytes > MAX_EMPTY_LINE_BYTES) {
                reject(in, out, HttpResponseStatus.BAD_REQUEST, "more than " + MAX_EMPTY_LINE_BYTES + " bytes of empty "
                        + "lines before a request line");
                return;
            }
        }
        if (!in.isReadable()) {
            return; // empty lines alone are no head yet: an idle connection is http-idle-timeout's
        }
        emptyLineBytes = 0;
        int start = in.readerIndex();
        int limit = Math.min(in.readableBytes(), MAX_LINE_BYTES + 2);
        int lf = in.indexOf(start + Math.min(scanned, limit), start + limit, LF);
        if (lf < 0) {
            scanned = limit;
            if (in.readableBytes() > MAX_LINE_BYTES + 1) {
                reject(in, out, HttpResponseStatus.REQUEST_URI_TOO_LONG, "the request line is longer than " + MAX_LINE_BYTES
                        + " bytes");
            } else {
                armHeadDeadline(ctx); // the head has begun and is not whole
            }
            return;
        }
        scanned = 0;
        int end = lineEnd(in, start, lf);
        in.readerIndex(lf + 1);
        headers = HEADERS.newHeaders();
        headerBytes = 0;
        contentLength = -1;
        transferEncoding = false;
        transferCoding = null;
        expect = null;
        hosts = 0;
        method = HttpMethod.GET;
        uri = "/bad-request";
        version = HttpVersion.HTTP_1_1;
        state = State.HEADERS;
        HttpRequestRejected failure = end < 0 ? bad("a bare CR in the request line") : requestLine(in, start, end);
        if (failure != null) {
            reject(in, out, failure.status(), failure.getMessage());
        }
    }

    /** Method, target and version from [start, end), the line without its end; null, or why the line is refused. */
    private HttpRequestRejected requestLine(ByteBuf in, int start, int end) {
        int sp1 = in.indexOf(start, end, (byte) ' ');
        int sp2 = sp1 < 0 ? -1 : in.indexOf(sp1 + 1, end, (byte) ' ');
        if (sp1 <= start || sp2 <= sp1 + 1 || in.indexOf(sp2 + 1, end, (byte) ' ') >= 0) {
            return bad("the request line is not METHOD SP target SP HTTP-version");
        }
        for (int i = start; i < sp1; i++) {
            if (!HttpTokens.isTokenByte(in.getByte(i))) {
                return bad("the method is not a token");
            }
        }
        for (int i = sp1 + 1; i < sp2; i++) {
            byte b = in.getByte(i);
            if (b <= ' ' || b == 0x7F) {
                return bad("the request target has a control, space or non-ASCII byte");
            }
        }
        method = HttpTokens.method(in, start, sp1 - start);
        uri = in.toString(sp1 + 1, sp2 - sp1 - 1, StandardCharsets.US_ASCII);
        int v = sp2 + 1;
        int vLength = end - v;
        if (HttpTokens.equalsAscii(in, v, vLength, "HTTP/1.1")) {
            version = HttpVersion.HTTP_1_1;
        } else if (HttpTokens.equalsAscii(in, v, vLength, "HTTP/1.0")) {
            version = HttpVersion.HTTP_1_0;
        } else if (vLength == 8 && HttpTokens.equalsAscii(in, v, 5, "HTTP/") && Character.isDigit(in.getByte(v + 5))
                && in.getByte(v + 6) == '.' && Character.isDigit(in.getByte(v + 7))) {
            return new HttpRequestRejected(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "HTTP version "
                    + in.toString(v, vLength, StandardCharsets.US_ASCII) + " is not supported: HTTP/1.1 or HTTP/1.0");
        } else {
            return bad("the request line does not end with an HTTP version");
        }
        return null;
    }

    private void headers(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int room = MAX_HEADER_BYTES - headerBytes;
        int limit = Math.min(in.readableBytes(), room);
        int lf = in.indexOf(start + Math.min(scanned, limit), start + limit, LF);
        if (lf < 0) {
            scanned = limit;
            if (in.readableBytes() >= room) {
                reject(in, out, HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "the header lines are longer than "
                        + MAX_HEADER_BYTES + " bytes together");
            } else {
                armHeadDeadline(ctx);
            }
            return;
        }
        scanned = 0;
        headerBytes += lf + 1 - start;
        int end = lineEnd(in, start, lf);
        in.readerIndex(lf + 1);
        if (end == start) {
            headComplete(ctx, in, out);
            return;
        }
        HttpRequestRejected failure = end < 0 ? bad("a bare CR in a header line") : header(in, start, end);
        if (failure != null) {
            reject(in, out, failure.status(), failure.getMessage());
        }
    }

    /** One header line, [start, end) without its line end: null, or why it is refused. */
    private HttpRequestRejected header(ByteBuf in, int start, int end) {
        byte first = in.getByte(start);
        if (first == ' ' || first == '\t') {
            return bad("obsolete line folding (a header line that starts with whitespace)");
        }
        int colon = in.indexOf(start, end, (byte) ':');
        if (colon <= start) {
            return bad("a header line without a name and a colon");
        }
        for (int i = start; i < colon; i++) {
            if (!HttpTokens.isTokenByte(in.getByte(i))) {
                return bad("a header name with a byte that is not a token's (whitespace before the colon?)");
            }
        }
        int v = colon + 1;
        int vEnd = end;
        while (v < vEnd && (in.getByte(v) == ' ' || in.getByte(v) == '\t')) {
            v++;
        }
        while (vEnd > v && (in.getByte(vEnd - 1) == ' ' || in.getByte(vEnd - 1) == '\t')) {
            vEnd--;
        }
        for (int i = v; i < vEnd; i++) {
            byte b = in.getByte(i); // bytes over 0x7F (obs-text) are allowed in a value
            if ((b >= 0 && b < ' ' && b != '\t') || b == 0x7F) {
                return bad("a header value with a control byte");
            }
        }
        int nameLength = colon - start;
        if (HttpTokens.nameIs(in, start, nameLength, HttpHeaderNames.CONTENT_LENGTH)) {
            return contentLength(in, v, vEnd);
        } else if (HttpTokens.nameIs(in, start, nameLength, HttpHeaderNames.TRANSFER_ENCODING)) {
            transferEncoding = true;
            transferCoding = in.toString(v, vEnd - v, StandardCharsets.ISO_8859_1);
        } else if (HttpTokens.nameIs(in, start, nameLength, HttpHeaderNames.EXPECT)) {
            expect = in.toString(v, vEnd - v, StandardCharsets.ISO_8859_1);
        } else {
            AsciiString kept = HttpTokens.keptHeader(in, start, nameLength);
            if (kept == HttpHeaderNames.HOST) {
                hosts++;
            }
            if (kept != null) {
                headers.add(kept, in.toString(v, vEnd - v, StandardCharsets.ISO_8859_1));
            }
        }
        return null;
    }

    private HttpRequestRejected contentLength(ByteBuf in, int v, int vEnd) {
        if (contentLength >= 0) {
            return bad("more than one Content-Length");
        }
        if (v == vEnd || vEnd - v > MAX_LENGTH_DIGITS) {
            return bad("Content-Length is not a number of bytes");
        }
        long n = 0;
        for (int i = v; i < vEnd; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                return bad("Content-Length is not a number of bytes");
            }
            n = n * 10 + (b - '0');
        }
        contentLength = n;
        return null;
    }

    /** The blank line: the head is whole. Decides what becomes of the body. */
    private void headComplete(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        cancelDeadline(); // the head's, if it came in pieces
        if (transferEncoding && contentLength >= 0) {
            reject(in, out, HttpResponseStatus.BAD_REQUEST, "both Content-Length and Transfer-Encoding (refused: the two "
                    + "could be read differently on the way)");
            return;
        }
        if (transferEncoding) {
            if (transferCoding.toLowerCase(java.util.Locale.ROOT).trim().endsWith("chunked")) {
                reject(in, out, HttpResponseStatus.LENGTH_REQUIRED, "Transfer-Encoding: chunked is not supported: send the "
                        + "body with a Content-Length");
            } else {
                reject(in, out, HttpResponseStatus.NOT_IMPLEMENTED, "Transfer-Encoding \"" + transferCoding
                        + "\" is not supported: send the body with a Content-Length");
            }
            return;
        }
        boolean expectContinue = false;
        if (expect != null) {
            if (!CONTINUE_100.contentEqualsIgnoreCase(expect)) {
                reject(in, out, HttpResponseStatus.EXPECTATION_FAILED, "Expect \"" + expect + "\" is not supported: only "
                        + "100-continue");
                return;
            }
            expectContinue = version == HttpVersion.HTTP_1_1;
        }
        if (hosts > 1 || hosts == 0 && version == HttpVersion.HTTP_1_1) {
            // RFC 9112 3.2: a server MUST refuse an HTTP/1.1 request without a Host, and any request with more than one
            reject(in, out, HttpResponseStatus.BAD_REQUEST, hosts > 1 ? "more than one Host header"
                    : "an HTTP/1.1 request must have a Host header (RFC 9112 3.2)");
            return;
        }
        long length = Math.max(contentLength, 0);
        DecoderException refusal = null;
        if (length > maxBodyBytes) {
            refusal = new TooLongHttpContentException("the body is above the limit of " + maxBodyBytes + " bytes (max-body)");
        } else if (!budget.tryReserve(length)) {
            refusal = new BodyBudget.Exhausted("the sidecar holds " + budget.reserved() + " bytes of request bodies, its "
                    + "budget is " + budget.limit() + " (body-budget); a body of " + length + " bytes does not fit now, "
                    + "try again shortly");
        }
        if (refusal != null) {
            if (expectContinue) {
                headers.set(HttpHeaderNames.CONNECTION, CLOSE); // the client holds the body back: the stream ends here
                state = State.DISCARD;
            } else {
                skipping = length;
                state = length == 0 ? State.REQUEST_LINE : State.SKIP_BODY;
                if (in.readableBytes() < length) {
                    arm(ctx, bodyTimeoutMillis); // a refused body trickled in holds the connection, not the budget
                }
            }
            out.add(failed(refusal));
            return;
        }
        reserved += length;
        if (length == 0) {
            out.add(request(Unpooled.EMPTY_BUFFER));
            state = State.REQUEST_LINE;
            return;
        }
        contentLength = length;
        state = State.BODY;
        if (in.readableBytes() < length) {
            arm(ctx, bodyTimeoutMillis);
        }
        if (expectContinue && in.readableBytes() < length && nothingPending(ctx)) {
            // Only when no earlier answer is still due: a 100 written past them would be read as the earlier request's
            // interim answer. Otherwise the client sends the body when its own wait for the 100 runs out (RFC 9110 10.1.1).
            ctx.writeAndFlush(Unpooled.wrappedBuffer(CONTINUE), ctx.voidPromise());
        }
    }

    private void body(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < contentLength) {
            return;
        }
        cancelDeadline();
        out.add(request(in.readRetainedSlice((int) contentLength)));
        state = State.REQUEST_LINE;
    }

    /**
     * The part being read did not arrive in time: the head within {@code head-timeout} of its first byte, the body (or
     * the refused body being skipped) within {@code body-timeout} of its head. A request fails 408 in its turn (a body's
     * carrying its reservation, given back once that answer is written) and nothing more is read; the connection closes
     * after the answer. On the event loop.
     */
    private void timedOut(ChannelHandlerContext ctx, long armed, long millis) {
        if (armed != deadlines || deadline == null || !ctx.channel().isActive()) {
            return; // cancelled (the part is in), a later part's, or the connection gone
        }
        deadline = null;
        if (!ctx.channel().config().isAutoRead()) {
            // This side stopped reading (answers due past max-pipelined, or a socket that takes none): the rest cannot
            // come in meanwhile, which is no fault of the client's. The deadline starts again.
            arm(ctx, millis);
            return;
        }
        String late = switch (state) {
            case REQUEST_LINE, HEADERS -> "the request's head (request line and headers) did not arrive whole within "
                    + headTimeoutMillis + " ms of its first byte (head-timeout)";
            case BODY -> "the body did not arrive within " + bodyTimeoutMillis + " ms of the request's head (body-timeout): "
                    + contentLength + " bytes announced";
            case SKIP_BODY -> "the refused request's body did not arrive within " + bodyTimeoutMillis + " ms of its head "
                    + "(body-timeout): " + skipping + " bytes still to come";
            default -> null;
        };
        if (late == null) {
            return;
        }
        if (state != State.HEADERS && state != State.BODY) {
            placeholderRequest(); // no request is being read: the failure is answered in its own turn
        }
        state = State.DISCARD;
        scanned = 0;
        ctx.fireChannelRead(failed(new HttpRequestRejected(HttpResponseStatus.REQUEST_TIMEOUT, late)));
        ctx.fireChannelReadComplete();
    }

    /** Arms the head's deadline, unless it is armed already (a head in many pieces has one deadline, from its first). */
    private void armHeadDeadline(ChannelHandlerContext ctx) {
        if (deadline == null) {
            arm(ctx, headTimeoutMillis);
        }
    }

    private void arm(ChannelHandlerContext ctx, long millis) {
        if (!ctx.channel().isActive()) {
            return; // closing: what is left is decoded one last time, and nothing will come to finish it
        }
        long armed = ++deadlines;
        deadline = ctx.executor().schedule(() -> timedOut(ctx, armed, millis), millis, TimeUnit.MILLISECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private FullHttpRequest request(ByteBuf body) {
        FullHttpRequest r = new DefaultFullHttpRequest(version, method, uri, body, headers, EmptyHttpHeaders.INSTANCE);
        headers = null;
        return r;
    }

    private FullHttpRequest failed(Throwable cause) {
        FullHttpRequest r = request(Unpooled.EMPTY_BUFFER);
        r.setDecoderResult(DecoderResult.failure(cause));
        return r;
    }

    /** The request fails with this status, the connection closes after its answer, and nothing more is read. */
    private void reject(ByteBuf in, List<Object> out, HttpResponseStatus status, String message) {
        if (headers == null) {
            placeholderRequest();
        }
        cancelDeadline();
        out.add(failed(new HttpRequestRejected(status, message)));
        state = State.DISCARD;
        scanned = 0;
        in.skipBytes(in.readableBytes()); // a decode that hands a message on must read something (else Netty throws)
    }

    /** The request a failure is answered as when no request line has been read: GET /bad-request, HTTP/1.1. */
    private void placeholderRequest() {
        headers = HEADERS.newHeaders();
        method = HttpMethod.GET;
        uri = "/bad-request";
        version = HttpVersion.HTTP_1_1;
    }

    private static HttpRequestRejected bad(String message) {
        return new HttpRequestRejected(HttpResponseStatus.BAD_REQUEST, message);
    }

    /** Whether no answer of an earlier request on this connection is still to be written. */
    private static boolean nothingPending(ChannelHandlerContext ctx) {
        HttpPipeliningHandler pipelining = ctx.pipeline().get(HttpPipeliningHandler.class);
        return pipelining == null || pipelining.pending() == 0;
    }

    /** The end of the line that {@code lf} ends (before a CR in front of it), or -1 when a bare CR is inside it. */
    private static int lineEnd(ByteBuf in, int start, int lf) {
        int end = lf > start && in.getByte(lf - 1) == CR ? lf - 1 : lf;
        return in.indexOf(start, end, CR) >= 0 ? -1 : end;
    }

    @Override
    public long takeReserved() {
        long r = reserved;
        reserved = 0;
        return r;
    }

    @Override
    public void release(long bytes) {
        budget.release(bytes);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        budget.release(takeReserved());
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cancelDeadline();
        budget.release(takeReserved());
    }
}
