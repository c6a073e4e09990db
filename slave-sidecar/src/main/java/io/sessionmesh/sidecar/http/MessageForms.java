package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.service.SidecarOperations.ReadOutcome;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.TransportMessage;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Content negotiation of the REST API: one model in two forms (PROTOCOL.md 4). A request body is read in the form its
 * {@code Content-Type} names (any other is 400, naming it); an answer is written in the binary form when the request
 * says {@code Accept: application/x-sessionmesh}, else in JSON.
 */
final class MessageForms {
    static final String BINARY = "application/x-sessionmesh";
    static final String JSON = "application/json";
    static final String OCTETS = "application/octet-stream";
    /** The header that marks a read served stale (from the cache while no master could be reached). */
    static final String STALE_HEADER = "X-SessionMesh-Stale";

    private final BinaryTransportCodec binary;
    private final JsonTransportCodec json;

    MessageForms(BinaryTransportCodec binary, JsonTransportCodec json) {
        this.binary = binary;
        this.json = json;
    }

    /** The limits the two codecs apply. */
    TransportLimits limits() {
        return binary.limits();
    }

    /** Whether the answer is asked for in the binary form. */
    static boolean acceptsBinary(FullHttpRequest request) {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        return accept != null && accept.contains(BINARY);
    }

    /** The media type of the body, lower case, without parameters; "" without a Content-Type. */
    static String mediaType(FullHttpRequest request) {
        String ct = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (ct == null) {
            return "";
        }
        int semi = ct.indexOf(';');
        return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    // ---- request bodies ----

    /**
     * A message from the body, in the form its Content-Type names.
     *
     * @param urlSessionId the session of the path, for a write or a principal: the JSON body may leave it out, the
     *     binary one must name the same; null for other messages
     */
    <T extends TransportMessage> T decode(FullHttpRequest request, Class<T> type, String urlSessionId) {
        ByteBuf body = request.content();
        String contentType = mediaType(request);
        if (contentType.equals(BINARY)) {
            T m = binary.decode(nio(body), type);
            String bodyId = m instanceof WriteRequest w ? w.sessionId()
                    : m instanceof SessionPrincipal p ? p.sessionId() : null;
            if (bodyId != null && !bodyId.equals(urlSessionId)) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "the body names another session than the path");
            }
            return m;
        }
        if (contentType.equals(JSON)) {
            byte[] bytes = bytes(body);
            return urlSessionId == null ? json.decode(bytes, type) : json.decode(bytes, type, urlSessionId);
        }
        throw new MalformedMessageException(Status.BAD_REQUEST, "content type \"" + contentType + "\" is not one of "
                + BINARY + ", " + JSON);
    }

    /** A schema's bytes: the body itself (octet-stream or binary), or the JSON form of {@link SchemaJson}. */
    byte[] schemaBody(FullHttpRequest request) {
        String contentType = mediaType(request);
        byte[] bytes = bytes(request.content());
        if (contentType.equals(OCTETS) || contentType.equals(BINARY)) {
            return bytes;
        }
        if (contentType.equals(JSON)) {
            return SchemaJson.readSchema(bytes);
        }
        throw new MalformedMessageException(Status.BAD_REQUEST, "content type \"" + contentType + "\" is not one of "
                + OCTETS + ", " + JSON);
    }

    private static byte[] bytes(ByteBuf body) {
        byte[] bytes = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), bytes);
        return bytes;
    }

    /** The body as a ByteBuffer, without a copy when it is on the heap. */
    private static ByteBuffer nio(ByteBuf body) {
        if (body.hasArray()) {
            return ByteBuffer.wrap(body.array(), body.arrayOffset() + body.readerIndex(), body.readableBytes()).slice();
        }
        return ByteBuffer.wrap(bytes(body));
    }

    // ---- answers ----

    /**
     * A read's answer. The binary form is encoded straight from the cached sections' bytes into one direct buffer
     * (the product's fastest path: no intermediate message); with {@code X-SessionMesh-Stale} when it is stale.
     */
    FullHttpResponse readAnswer(ByteBufAllocator alloc, ReadOutcome outcome, boolean binaryAnswer) {
        EncodedReadResult result = outcome.result();
        FullHttpResponse r;
        if (!binaryAnswer) {
            r = answer(HttpResponseStatus.OK, result.toReadResult(), false);
        } else {
            int size = binary.readResultSize(result.sessionId(), result.sections());
            ByteBuf body = alloc.directBuffer(size);
            binary.encodeReadResult(result.sessionId(), result.sections(), body.nioBuffer(0, size));
            body.writerIndex(size);
            r = response(HttpResponseStatus.OK, body, BINARY);
        }
        if (outcome.stale()) {
            r.headers().set(STALE_HEADER, "true");
        }
        return r;
    }

    /** A message's answer, in the form asked for. */
    FullHttpResponse answer(HttpResponseStatus status, TransportMessage message, boolean binaryAnswer) {
        byte[] bytes = binaryAnswer ? binary.encode(message) : json.encode(message);
        return response(status, Unpooled.wrappedBuffer(bytes), binaryAnswer ? BINARY : JSON);
    }

    /** A schema's answer: its bytes (binary asked for, or the schema is empty), else its JSON form. */
    static FullHttpResponse schemaAnswer(long uid, byte[] schema, boolean binaryAnswer) {
        if (binaryAnswer || schema.length == 0) {
            return response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(schema), OCTETS);
        }
        return response(HttpResponseStatus.OK, Unpooled.wrappedBuffer(SchemaJson.write(uid, schema)), JSON);
    }

    /** 204, no body. */
    static FullHttpResponse noContent() {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NO_CONTENT, Unpooled.EMPTY_BUFFER);
    }

    /** An answer with a body of the given type (Content-Length and keep-alive are set when it is written). */
    static FullHttpResponse response(HttpResponseStatus status, ByteBuf body, String contentType) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return r;
    }
}
