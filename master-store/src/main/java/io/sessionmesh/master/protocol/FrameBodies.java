package io.sessionmesh.master.protocol;

import io.sessionmesh.serialization.transport.BinaryTransportCodec;
import io.sessionmesh.serialization.transport.MalformedMessageException;
import io.sessionmesh.serialization.transport.Status;
import io.sessionmesh.serialization.transport.TransportLimits;
import io.sessionmesh.serialization.transport.TransportMessage;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Builds whole frames (header and body in one buffer) and reads the small fixed bodies of PROTOCOL.md,
 * section 3. Transport-message bodies go through the serialization module's {@link BinaryTransportCodec}.
 */
public final class FrameBodies {
    private FrameBodies() {
    }

    /** A frame whose body is a transport message in its binary form. */
    public static ByteBuf message(ByteBufAllocator alloc, BinaryTransportCodec codec, int opcode, int flags, int requestId,
                                  TransportMessage message) {
        int size = codec.encodedSize(message);
        ByteBuf buf = alloc.heapBuffer(FrameHeader.BYTES + size);
        FrameHeader.write(buf, opcode, flags, Status.OK, requestId, size);
        ByteBuffer nio = buf.nioBuffer(buf.writerIndex(), size);
        codec.encode(message, nio);
        buf.writerIndex(buf.writerIndex() + size);
        return buf;
    }

    /** A frame with the given body bytes. */
    public static ByteBuf bytes(ByteBufAllocator alloc, int opcode, int flags, int status, int requestId, byte[] body) {
        ByteBuf buf = alloc.heapBuffer(FrameHeader.BYTES + body.length);
        FrameHeader.write(buf, opcode, flags, status, requestId, body.length);
        buf.writeBytes(body);
        return buf;
    }

    /** A frame whose body is a copy of {@code body}'s readable bytes (its reader index does not move). */
    public static ByteBuf copy(ByteBufAllocator alloc, int opcode, int flags, int status, int requestId, ByteBuf body) {
        int n = body.readableBytes();
        ByteBuf buf = alloc.heapBuffer(FrameHeader.BYTES + n);
        FrameHeader.write(buf, opcode, flags, status, requestId, n);
        buf.writeBytes(body, body.readerIndex(), n);
        return buf;
    }

    /** An answer with a status other than OK: the body is the message, cut to {@link FrameHeader#MAX_ERROR_MESSAGE_BYTES}. */
    public static ByteBuf error(ByteBufAllocator alloc, int opcode, int requestId, int status, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        if (text.length > FrameHeader.MAX_ERROR_MESSAGE_BYTES) {
            text = cut(message, FrameHeader.MAX_ERROR_MESSAGE_BYTES);
        }
        return bytes(alloc, opcode, FrameHeader.FLAG_RESPONSE, status, requestId, text);
    }

    /** A frame whose body is an 8-byte uid and then {@code rest}. */
    public static ByteBuf uid(ByteBufAllocator alloc, int opcode, int flags, int requestId, long uid, byte[] rest) {
        ByteBuf buf = alloc.heapBuffer(FrameHeader.BYTES + 8 + rest.length);
        FrameHeader.write(buf, opcode, flags, Status.OK, requestId, 8 + rest.length);
        buf.writeLong(uid);
        buf.writeBytes(rest);
        return buf;
    }

    /** Decodes a transport message of the given class that fills a frame body. */
    public static <T extends TransportMessage> T readMessage(BinaryTransportCodec codec, ByteBuf body, Class<T> type) {
        int n = body.readableBytes();
        if (body.hasArray()) {
            return codec.decode(ByteBuffer.wrap(body.array(), body.arrayOffset() + body.readerIndex(), n).slice(), type);
        }
        byte[] copy = new byte[n];
        body.getBytes(body.readerIndex(), copy);
        return codec.decode(copy, type);
    }

    /** A body that is a session id: 1..128 ASCII characters of {@code [A-Za-z0-9_-]}. */
    public static String readSessionId(ByteBuf body) {
        int n = body.readableBytes();
        if (n == 0 || n > TransportLimits.MAX_SESSION_ID_BYTES) {
            throw new MalformedMessageException(n == 0 ? Status.BAD_REQUEST : Status.TOO_LARGE, "session id of " + n
                    + " bytes: expected 1.." + TransportLimits.MAX_SESSION_ID_BYTES);
        }
        String id = body.toString(body.readerIndex(), n, StandardCharsets.ISO_8859_1);
        try {
            return TransportLimits.checkSessionId(id);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "session id is not 1.." + TransportLimits.MAX_SESSION_ID_BYTES
                    + " characters of [A-Za-z0-9_-]");
        }
    }

    /** The session id of a body as bytes, for a request. */
    public static byte[] sessionIdBytes(String id) {
        return id.getBytes(StandardCharsets.US_ASCII);
    }

    /** A body that starts with an 8-byte uid. */
    public static long readUid(ByteBuf body, boolean exact) {
        int n = body.readableBytes();
        if (n < 8 || (exact && n != 8)) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "body of " + n + " bytes: expected an 8-byte schema uid"
                    + (exact ? "" : " and the schema"));
        }
        return body.getLong(body.readerIndex());
    }

    /** The text of an error answer. */
    public static String readText(ByteBuf body) {
        return body.toString(StandardCharsets.UTF_8);
    }

    private static byte[] cut(String message, int max) {
        byte[] all = message.getBytes(StandardCharsets.UTF_8);
        int end = max;
        while (end > 0 && (all[end] & 0xC0) == 0x80) {
            end--;
        }
        byte[] out = new byte[end];
        System.arraycopy(all, 0, out, 0, end);
        return out;
    }
}
