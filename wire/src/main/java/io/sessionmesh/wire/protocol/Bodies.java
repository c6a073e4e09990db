package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.TransportMessage;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Reading and writing the parts that frame bodies share: transport messages, session ids, schema uids, bytes. */
final class Bodies {
    private Bodies() {
    }

    /** A body that is a session id: 1..128 ASCII characters of {@code [A-Za-z0-9_-]}. */
    static String readSessionId(ByteBuf body) {
        int n = body.readableBytes();
        if (n == 0 || n > TransportLimits.MAX_SESSION_ID_BYTES) {
            throw new MalformedMessageException(n == 0 ? Status.BAD_REQUEST : Status.TOO_LARGE, "session id of " + n
                    + " bytes: expected 1.." + TransportLimits.MAX_SESSION_ID_BYTES);
        }
        String id = body.toString(body.readerIndex(), n, StandardCharsets.ISO_8859_1);
        try {
            return TransportLimits.checkSessionId(id);
        } catch (IllegalArgumentException e) {
            throw bad("session id is not 1.." + TransportLimits.MAX_SESSION_ID_BYTES + " characters of [A-Za-z0-9_-]");
        }
    }

    /** A body that starts with an 8-byte uid (and is nothing else, when {@code exact}). */
    static long readUid(ByteBuf body, boolean exact) {
        int n = body.readableBytes();
        if (n < 8 || (exact && n != 8)) {
            throw bad("body of " + n + " bytes: expected an 8-byte schema uid" + (exact ? "" : " and the schema"));
        }
        return body.getLong(body.readerIndex());
    }

    /** Decodes a transport message that fills a body; a heap body is read in place. */
    static <T extends TransportMessage> T readMessage(ByteBuf body, BinaryTransportCodec codec,
                                                                                  Class<T> type) {
        int n = body.readableBytes();
        if (body.hasArray()) {
            return codec.decode(ByteBuffer.wrap(body.array(), body.arrayOffset() + body.readerIndex(), n).slice(), type);
        }
        return codec.decodeOwned(bytes(body), type); // our own copy: a decoded write keeps it rather than copy it again
    }

    /** The largest message encoded through a thread's {@link #ENCODED} array; a larger one gets an array of its own. */
    static final int MAX_SCRATCH_BYTES = 64 * 1024;
    /**
     * Per thread: the array a message bound for a direct buffer is encoded into, then copied from (the encoder writes
     * arrays; a fresh array per answer was a hundred bytes of garbage for every WRITE answered). At most
     * {@link #MAX_SCRATCH_BYTES} a thread.
     */
    private static final FastThreadLocal<byte[]> ENCODED = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[1024];
        }
    };

    /** Encodes a transport message at the writer index. */
    static void writeMessage(ByteBuf out, BinaryTransportCodec codec, TransportMessage message) {
        writeMessage(out, codec, message, codec.encodedSize(message));
    }

    /** {@link #writeMessage(ByteBuf, BinaryTransportCodec, TransportMessage)} of a message {@code size} bytes encoded. */
    static void writeMessage(ByteBuf out, BinaryTransportCodec codec, TransportMessage message, int size) {
        if (!out.hasArray()) {
            if (size > MAX_SCRATCH_BYTES) {
                out.writeBytes(codec.encode(message));
                return;
            }
            byte[] scratch = ENCODED.get();
            if (scratch.length < size) {
                scratch = new byte[Math.min(MAX_SCRATCH_BYTES, Math.max(size, scratch.length * 2))];
                ENCODED.set(scratch);
            }
            codec.encode(message, size, scratch, 0);
            out.writeBytes(scratch, 0, size);
            return;
        }
        out.ensureWritable(size);
        codec.encode(message, size, out.array(), out.arrayOffset() + out.writerIndex());
        out.writerIndex(out.writerIndex() + size);
    }

    /** A copy of the readable bytes (the reader index does not move). */
    static byte[] bytes(ByteBuf body) {
        byte[] b = new byte[body.readableBytes()];
        body.getBytes(body.readerIndex(), b);
        return b;
    }

    static MalformedMessageException bad(String why) {
        return new MalformedMessageException(Status.BAD_REQUEST, why);
    }
}
