package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.TransportMessage;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.sidecar.service.SidecarService;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The REST API of one HTTP connection (openapi.yaml): routes each request to {@link SidecarService}, answers in
 * the content type asked for ({@code Accept: application/x-sessionmesh}, else JSON), maps every error to its HTTP
 * status with a body that names it. Bad input is 4xx, never 500, and concerns only its own request.
 *
 * <p>Answers can complete out of order (a cache hit at once, a miss later), so they are queued and written in the
 * order of their requests, as HTTP/1.1 pipelining requires. With {@code maxPipelined} requests waiting, the
 * connection stops reading until some are answered.
 */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final String BINARY = "application/x-sessionmesh";
    static final String JSON = "application/json";
    static final String OCTETS = "application/octet-stream";

    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    private final SidecarService service;
    private final BinaryTransportCodec binary;
    private final JsonTransportCodec json;
    private final int maxPipelined;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** Set when the connection is closing or closed: answers that complete after that are released, not written. */
    private boolean closing;

    ApiHandler(SidecarService service, BinaryTransportCodec binary, JsonTransportCodec json, int maxPipelined) {
        this.service = service;
        this.binary = binary;
        this.json = json;
        this.maxPipelined = maxPipelined;
    }

    /** A request waiting for its answer, in arrival order. */
    private static final class Pending {
        final boolean keepAlive;
        final boolean binaryAnswer;
        FullHttpResponse response;

        Pending(boolean keepAlive, boolean binaryAnswer) {
            this.keepAlive = keepAlive;
            this.binaryAnswer = binaryAnswer;
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean binaryAnswer = acceptsBinary(request);
        // After a request that could not be decoded, the decoder drops the rest of the stream: close after answering.
        // A body over max-body is different: the aggregator skips it and the stream stays in step.
        boolean keepAlive = HttpUtil.isKeepAlive(request) && (request.decoderResult().isSuccess()
                || request.decoderResult().cause() instanceof io.netty.handler.codec.http.TooLongHttpContentException);
        Pending p = new Pending(keepAlive, binaryAnswer);
        pending.add(p);
        if (pending.size() >= maxPipelined) {
            ctx.channel().config().setAutoRead(false);
        }
        CompletableFuture<FullHttpResponse> answer;
        try {
            if (!request.decoderResult().isSuccess()) {
                Throwable cause = request.decoderResult().cause();
                throw new MalformedMessageException(cause instanceof io.netty.handler.codec.http.TooLongHttpContentException
                        ? Status.TOO_LARGE : Status.BAD_REQUEST, "HTTP request: " + cause.getMessage());
            }
            answer = route(request, binaryAnswer);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, error) -> {
            FullHttpResponse r = error == null ? response : error(error, binaryAnswer);
            if (ctx.executor().inEventLoop()) {
                answered(p, r);
            } else {
                ctx.executor().execute(() -> answered(p, r));
            }
        });
    }

    private CompletableFuture<FullHttpResponse> route(FullHttpRequest request, boolean binaryAnswer) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        HttpMethod method = request.method();
        String[] parts = path.split("/", -1); // "", "v1", "sessions", id, "touch"
        if (parts.length < 3 || !parts[0].isEmpty() || !parts[1].equals("v1")) {
            throw new NotFound("no such endpoint: " + method + " " + path + " (the API is under /v1)");
        }
        if (parts[2].equals("sessions")) {
            if (parts.length == 3) {
                requireMethod(method, path, HttpMethod.POST);
                CreateRequest create = request.content().isReadable()
                        ? decode(request, CreateRequest.class, null) : CreateRequest.DEFAULT;
                return service.create(create).thenApply(c -> respond(HttpResponseStatus.CREATED, c, binaryAnswer));
            }
            String id = sessionId(parts[3]);
            if (parts.length == 4) {
                if (method.equals(HttpMethod.GET)) {
                    List<String> sections = sections(uri);
                    return service.read(id, sections).thenApply(r -> readAnswer(r, binaryAnswer));
                } else if (method.equals(HttpMethod.PATCH)) {
                    WriteRequest write = decode(request, WriteRequest.class, id);
                    return service.write(write).thenApply(w -> respond(HttpResponseStatus.OK, w, binaryAnswer));
                } else if (method.equals(HttpMethod.DELETE)) {
                    return service.delete(id).thenApply(v -> noContent());
                }
                throw new MethodNotAllowed(method, path, "GET, PATCH, DELETE");
            }
            if (parts.length == 5 && parts[4].equals("touch")) {
                requireMethod(method, path, HttpMethod.POST);
                return service.touch(id).thenApply(v -> noContent());
            }
        } else if (parts[2].equals("schemas") && parts.length == 4) {
            long uid = uid(parts[3]);
            if (method.equals(HttpMethod.PUT)) {
                byte[] schema = schemaBody(request);
                return service.publishSchema(uid, schema).thenApply(v -> noContent());
            } else if (method.equals(HttpMethod.GET)) {
                return service.fetchSchema(uid).thenApply(s -> schemaAnswer(uid, s, binaryAnswer));
            }
            throw new MethodNotAllowed(method, path, "GET, PUT");
        }
        throw new NotFound("no such endpoint: " + method + " " + path);
    }

    // ---- request parts ----

    private static void requireMethod(HttpMethod method, String path, HttpMethod expected) {
        if (!method.equals(expected)) {
            throw new MethodNotAllowed(method, path, expected.name());
        }
    }

    private static String sessionId(String raw) {
        try {
            return TransportLimits.checkSessionId(raw);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(raw.length() > TransportLimits.MAX_SESSION_ID_BYTES ? Status.TOO_LARGE
                    : Status.BAD_REQUEST, "session id in the path: " + e.getMessage());
        }
    }

    private List<String> sections(QueryStringDecoder uri) {
        List<String> values = uri.parameters().get("sections");
        if (values == null || values.isEmpty()) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "the query parameter 'sections' is required: "
                    + "?sections=a,b,c names the sections to read");
        }
        List<String> names = new ArrayList<>();
        for (String v : values) {
            for (String name : v.split(",", -1)) {
                try {
                    TransportLimits.checkSectionName(name);
                } catch (IllegalArgumentException e) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "sections: " + e.getMessage());
                }
                if (names.contains(name)) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "sections: \"" + name + "\" is named twice");
                }
                names.add(name);
            }
        }
        if (names.size() > binary.limits().maxSectionsPerMessage()) {
            throw new MalformedMessageException(Status.TOO_LARGE, "sections: " + names.size() + " is above the limit of "
                    + binary.limits().maxSectionsPerMessage());
        }
        return names;
    }

    private static long uid(String raw) {
        if (raw.isEmpty() || raw.length() > 16 || !raw.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "schema uid in the path: expected 1 to 16 hex digits");
        }
        return Long.parseUnsignedLong(raw, 16);
    }

    private <T extends TransportMessage> T decode(FullHttpRequest request, Class<T> type, String urlSessionId) {
        ByteBuf body = request.content();
        String contentType = mediaType(request);
        if (contentType.equals(BINARY)) {
            T m = binary.decode(nio(body), type);
            if (m instanceof WriteRequest w && !w.sessionId().equals(urlSessionId)) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "the body names another session than the path");
            }
            return m;
        }
        if (contentType.equals(JSON)) {
            byte[] bytes = new byte[body.readableBytes()];
            body.getBytes(body.readerIndex(), bytes);
            return urlSessionId == null ? json.decode(bytes, type) : json.decode(bytes, type, urlSessionId);
        }
        throw new MalformedMessageException(Status.BAD_REQUEST, "content type \"" + contentType + "\" is not one of "
                + BINARY + ", " + JSON);
    }

    private byte[] schemaBody(FullHttpRequest request) {
        String contentType = mediaType(request);
        ByteBuf body = request.content();
        byte[] bytes = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), bytes);
        if (contentType.equals(OCTETS) || contentType.equals(BINARY)) {
            return bytes;
        }
        if (contentType.equals(JSON)) {
            return SchemaJson.readSchema(bytes);
        }
        throw new MalformedMessageException(Status.BAD_REQUEST, "content type \"" + contentType + "\" is not one of "
                + OCTETS + ", " + JSON);
    }

    private static ByteBuffer nio(ByteBuf body) {
        if (body.hasArray()) {
            return ByteBuffer.wrap(body.array(), body.arrayOffset() + body.readerIndex(), body.readableBytes()).slice();
        }
        byte[] copy = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), copy);
        return ByteBuffer.wrap(copy);
    }

    private static String mediaType(FullHttpRequest request) {
        String ct = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (ct == null) {
            return "";
        }
        int semi = ct.indexOf(';');
        return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
    }

    private static boolean acceptsBinary(FullHttpRequest request) {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        return accept != null && accept.contains(BINARY);
    }

    // ---- answers ----

    /** The header that marks a read served stale (from the cache while no master could be reached). */
    static final String STALE_HEADER = "X-SessionMesh-Stale";

    private FullHttpResponse readAnswer(SidecarService.ReadOutcome outcome, boolean binaryAnswer) {
        EncodedReadResult result = outcome.result();
        FullHttpResponse r;
        if (!binaryAnswer) {
            r = respond(HttpResponseStatus.OK, result.toReadResult(), false);
        } else {
            int size = binary.readResultSize(result.sessionId(), result.sections());
            ByteBuf body = ctx.alloc().directBuffer(size);
            binary.encodeReadResult(result.sessionId(), result.sections(), body.nioBuffer(0, size));
            body.writerIndex(size);
            r = response(HttpResponseStatus.OK, body, BINARY);
        }
        if (outcome.stale()) {
            r.headers().set(STALE_HEADER, "true");
        }
        return r;
    }

    private FullHttpResponse respond(HttpResponseStatus status, TransportMessage message, boolean binaryAnswer) {
        byte[] bytes = binaryAnswer ? binary.encode(message) : json.encode(message);
        return response(status, Unpooled.wrappedBuffer(bytes), binaryAnswer ? BINARY : JSON);
    }

    private FullHttpResponse schemaAnswer(long uid, byte[] schema, boolean binaryAnswer) {
        if (binaryAnswer || schema.length == 0) {
            return response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(schema), OCTETS);
        }
        return response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(SchemaJson.write(uid, schema)), JSON);
    }

    private static FullHttpResponse noContent() {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT, Unpooled.EMPTY_BUFFER);
    }

    static FullHttpResponse response(HttpResponseStatus status, ByteBuf body, String contentType) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return r;
    }

    /** The answer for a failure: its status code, and a body that names it in the content type asked for. */
    private FullHttpResponse error(Throwable error, boolean binaryAnswer) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof NotFound nf) {
            return errorResponse(HttpResponseStatus.NOT_FOUND, Status.NOT_FOUND, nf.getMessage(), binaryAnswer);
        }
        if (cause instanceof MethodNotAllowed m) {
            FullHttpResponse r = errorResponse(HttpResponseStatus.METHOD_NOT_ALLOWED, Status.BAD_REQUEST, m.getMessage(),
                    binaryAnswer);
            r.headers().set(HttpHeaderNames.ALLOW, m.allow);
            return r;
        }
        int status = SidecarService.status(cause);
        if (status == Status.INTERNAL) {
            log.error("request failed", cause);
        }
        service.metrics().error(status);
        return errorResponse(HttpStatuses.of(status), status, cause.getMessage() == null ? cause.toString() : cause.getMessage(),
                binaryAnswer);
    }

    private FullHttpResponse errorResponse(HttpResponseStatus http, int status, String message, boolean binaryAnswer) {
        ErrorMessage m = ErrorMessage.of(status, message);
        return respond(http, m, binaryAnswer);
    }

    // ---- ordered answers ----

    private void answered(Pending p, FullHttpResponse response) {
        if (closing || !pending.contains(p)) {
            response.release(); // the connection is gone, or closing after an earlier answer
            return;
        }
        p.response = response;
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peek().response != null) {
            Pending head = pending.poll();
            FullHttpResponse r = head.response;
            HttpUtil.setContentLength(r, r.content().readableBytes());
            HttpUtil.setKeepAlive(r, head.keepAlive);
            if (head.keepAlive) {
                ctx.write(r, ctx.voidPromise());
            } else {
                closing = true;
                ctx.writeAndFlush(r).addListener(f -> ctx.close());
                pending.forEach(rest -> {
                    if (rest.response != null) {
                        rest.response.release();
                    }
                });
                pending.clear();
                return;
            }
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
        if (pending.size() < maxPipelined / 2 + 1 && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closing = true;
        for (Pending p : pending) {
            if (p.response != null) {
                p.response.release();
            }
        }
        pending.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && pending.isEmpty()) {
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /** No such endpoint: 404. */
    static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message, null, false, false);
        }
    }

    /** The endpoint exists, not with this method: 405 with an Allow header. */
    static final class MethodNotAllowed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String allow;

        MethodNotAllowed(HttpMethod method, String path, String allow) {
            super(method + " is not allowed on " + path + "; allowed: " + allow, null, false, false);
            this.allow = allow;
        }
    }
}
