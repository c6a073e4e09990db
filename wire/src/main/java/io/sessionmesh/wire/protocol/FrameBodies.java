package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.TransportMessage;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Builds whole frames (header and body in one buffer) and reads the small fixed bodies of PROTOCOL.md,
 * section 3. Transport-message bodies go through the serialization module's {@link BinaryTransportCodec}.
 * Frames are built in direct buffers: a heap buffer would be copied into a direct one on its way to the socket.
 */
public final class FrameBodies {
    private FrameBodies() {
    }

    /** Appends a frame whose body is a transport message in its binary form. */
    public static ByteBuf appendMessage(ByteBuf out, BinaryTransportCodec codec, int opcode, int flags, int requestId,
                                        TransportMessage message) {
        int size = codec.encodedSize(message);
        out.ensureWritable(FrameHeader.BYTES + size);
        FrameHeader.write(out, opcode, flags, Status.OK, requestId, size);
        codec.encode(message, out.nioBuffer(out.writerIndex(), size));
        return out.writerIndex(out.writerIndex() + size);
    }

    /** Bytes of the session times that follow the message in READ and WRITE answers and make up a TOUCH answer. */
    public static final int SESSION_TIMES_BYTES = 8;

    /**
     * Appends the session times to the frame that starts at {@code frameStart} (the last one in {@code out}) and
     * adds them to its body length: idle timeout in ms, then the time left before the session's maximum lifetime
     * ends in ms, each uint32 (saturated).
     */
    public static void appendSessionTimes(ByteBuf out, int frameStart, long idleMillis, long lifetimeLeftMillis) {
        out.writeInt((int) Math.min(idleMillis, 0xFFFF_FFFFL));
        out.writeInt((int) Math.min(lifetimeLeftMillis, 0xFFFF_FFFFL));
        int lengthAt = frameStart + FrameHeader.LENGTH_OFFSET;
        out.setInt(lengthAt, out.getInt(lengthAt) + SESSION_TIMES_BYTES);
    }

    /** The session times at the end of an answer body, or null if the body is too short to hold them. */
    public static SessionTimes readSessionTimes(ByteBuf body) {
        int n = body.readableBytes();
        if (n < SESSION_TIMES_BYTES) {
            return null;
        }
        int at = body.readerIndex() + n - SESSION_TIMES_BYTES;
        return new SessionTimes(body.getUnsignedInt(at), body.getUnsignedInt(at + 4));
    }

    /** A session's idle timeout and the time left before its maximum lifetime ends, as a master last saw them. */
    public record SessionTimes(long idleTimeoutMillis, long lifetimeLeftMillis) {
    }

    /** The body without its trailing session times (the transport message of a READ or WRITE answer). */
    public static ByteBuf withoutSessionTimes(ByteBuf body) {
        return body.readableBytes() < SESSION_TIMES_BYTES ? body
                : body.slice(body.readerIndex(), body.readableBytes() - SESSION_TIMES_BYTES);
    }

    /** The bytes {@link #appendReadResult} adds. */
    public static int readResultFrameSize(BinaryTransportCodec codec, EncodedReadResult result) {
        return FrameHeader.BYTES + codec.readResultSize(result.sessionId(), result.sections());
    }

    /** Appends an answer whose body is a READ_RESULT of sections kept in wire form: their bytes are copied as they are. */
    public static ByteBuf appendReadResult(ByteBuf out, BinaryTransportCodec codec, int requestId, EncodedReadResult result) {
        int size = codec.readResultSize(result.sessionId(), result.sections());
        out.ensureWritable(FrameHeader.BYTES + size);
        FrameHeader.write(out, Opcodes.READ, FrameHeader.FLAG_RESPONSE, Status.OK, requestId, size);
        codec.encodeReadResult(result.sessionId(), result.sections(), out.nioBuffer(out.writerIndex(), size));
        return out.writerIndex(out.writerIndex() + size);
    }

    /** A READ_RESULT frame body decoded with its sections kept in wire form. */
    public static EncodedReadResult readEncodedReadResult(BinaryTransportCodec codec, ByteBuf body) {
        int n = body.readableBytes();
        if (body.hasArray()) {
            return codec.decodeEncodedReadResult(body.array(), body.arrayOffset() + body.readerIndex(), n);
        }
        byte[] copy = new byte[n];
        body.getBytes(body.readerIndex(), copy);
        return codec.decodeEncodedReadResult(copy, 0, n);
    }

    /** Appends a frame with the given body bytes. */
    public static ByteBuf appendBytes(ByteBuf out, int opcode, int flags, int status, int requestId, byte[] body) {
        out.ensureWritable(FrameHeader.BYTES + body.length);
        FrameHeader.write(out, opcode, flags, status, requestId, body.length);
        return out.writeBytes(body);
    }

    /** Appends a frame whose body is a copy of {@code body}'s readable bytes (its reader index does not move). */
    public static ByteBuf appendCopy(ByteBuf out, int opcode, int flags, int status, int requestId, ByteBuf body) {
        int n = body.readableBytes();
        out.ensureWritable(FrameHeader.BYTES + n);
        FrameHeader.write(out, opcode, flags, status, requestId, n);
        return out.writeBytes(body, body.readerIndex(), n);
    }

    /**
     * Appends an answer with a status other than OK: the body is the message, cut to
     * {@link FrameHeader#MAX_ERROR_MESSAGE_BYTES}.
     */
    public static ByteBuf appendError(ByteBuf out, int opcode, int requestId, int status, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        if (text.length > FrameHeader.MAX_ERROR_MESSAGE_BYTES) {
            text = cut(message, FrameHeader.MAX_ERROR_MESSAGE_BYTES);
        }
        return appendBytes(out, opcode, FrameHeader.FLAG_RESPONSE, status, requestId, text);
    }

    /** An error answer in a buffer of its own. */
    public static ByteBuf error(ByteBufAllocator alloc, int opcode, int requestId, int status, String message) {
        return appendError(alloc.directBuffer(FrameHeader.BYTES + 256), opcode, requestId, status, message);
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
