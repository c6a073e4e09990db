package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A master's answer in typed form, one record per kind of body (PROTOCOL.md 3.3 to 3.7): the master writes it as an
 * {@link OutboundFrame} through {@link FrameEncoder}, the client decodes the OK ones from their frames
 * ({@link MasterRequest#decodeAnswer}). Every answer carries the request id and opcode of its request, and flag
 * RESPONSE.
 */
public sealed interface MasterAnswer extends OutboundFrame {
    @Override
    default int flags() {
        return FrameHeader.FLAG_RESPONSE;
    }

    @Override
    default int status() {
        return Status.OK;
    }

    /** READ: the sections in wire form (copied as they are), then the session's times. */
    record Read(int requestId, EncodedReadResult result, SessionTimes times) implements MasterAnswer {
        @Override
        public int opcode() {
            return Opcodes.READ;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return codec.readResultSize(result.sessionId(), result.sections()) + SessionTimes.BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            int size = codec.readResultSize(result.sessionId(), result.sections());
            codec.encodeReadResult(result.sessionId(), result.sections(), out.nioBuffer(out.writerIndex(), size));
            out.writerIndex(out.writerIndex() + size);
            times.writeTo(out);
        }

        static Read decode(Frame frame, BinaryTransportCodec codec) {
            ByteBuf message = SessionTimes.withoutTimes(frame.body());
            int n = message.readableBytes();
            EncodedReadResult result = message.hasArray()
                    ? codec.decodeEncodedReadResult(message.array(), message.arrayOffset() + message.readerIndex(), n)
                    : codec.decodeEncodedReadResult(Bodies.bytes(message), 0, n);
            return new Read(frame.requestId(), result, SessionTimes.readLast(frame.body()));
        }
    }

    /**
     * WRITE: the new versions; then, if the request asked for them ({@link FrameHeader#FLAG_WHOLE_SECTIONS}) and there
     * are any, the written sections whose new version is above 1, whole, as a READ_RESULT message; then the session's
     * times.
     *
     * <pre>| WRITE_RESULT message | [ READ_RESULT message ] | session times: 8 bytes |</pre>
     */
    record Write(int requestId, WriteResult result, List<EncodedSection> sections, SessionTimes times) implements MasterAnswer {
        public Write {
            sections = List.copyOf(sections);
        }

        /** An answer without whole sections. */
        public Write(int requestId, WriteResult result, SessionTimes times) {
            this(requestId, result, List.of(), times);
        }

        @Override
        public int opcode() {
            return Opcodes.WRITE;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return codec.encodedSize(result) + (sections.isEmpty() ? 0 : codec.readResultSize(result.sessionId(), sections))
                    + SessionTimes.BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
            if (sections.isEmpty()) { // the usual answer: the result sized once, by bodySize
                Bodies.writeMessage(out, codec, result, bodySize - SessionTimes.BYTES);
                times.writeTo(out);
            } else {
                writeBody(out, codec);
            }
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            Bodies.writeMessage(out, codec, result);
            if (!sections.isEmpty()) {
                int size = codec.readResultSize(result.sessionId(), sections);
                codec.encodeReadResult(result.sessionId(), sections, out.nioBuffer(out.writerIndex(), size));
                out.writerIndex(out.writerIndex() + size);
            }
            times.writeTo(out);
        }

        static Write decode(Frame frame, BinaryTransportCodec codec) {
            ByteBuf messages = SessionTimes.withoutTimes(frame.body());
            int n = messages.readableBytes();
            int at = messages.readerIndex();
            long first = n > BinaryTransportCodec.HEADER_BYTES
                    ? BinaryTransportCodec.HEADER_BYTES + messages.getUnsignedInt(at + BinaryTransportCodec.HEADER_BYTES - 4) : n;
            if (first >= n) { // one message (or a malformed one, which the codec names)
                return new Write(frame.requestId(), Bodies.readMessage(messages, codec, WriteResult.class),
                        SessionTimes.readLast(frame.body()));
            }
            WriteResult result = Bodies.readMessage(messages.slice(at, (int) first), codec, WriteResult.class);
            byte[] rest = Bodies.bytes(messages.slice(at + (int) first, n - (int) first));
            EncodedReadResult whole = codec.decodeEncodedReadResult(rest, 0, rest.length);
            if (!whole.sessionId().equals(result.sessionId())) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "WRITE answer: the whole sections are of another "
                        + "session than the write result");
            }
            for (EncodedSection s : whole.sections()) {
                Long v = result.versions().get(s.name());
                if (v == null || v != s.version()) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "WRITE answer: a whole section at version "
                            + s.version() + " that the write result does not name at that version");
                }
            }
            return new Write(frame.requestId(), result, whole.sections(), SessionTimes.readLast(frame.body()));
        }
    }

    /** TOUCH: the session's times are the whole body. */
    record Touched(int requestId, SessionTimes times) implements MasterAnswer {
        @Override
        public int opcode() {
            return Opcodes.TOUCH;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return SessionTimes.BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            times.writeTo(out);
        }
    }

    /** RENAME: the session's times under its new id (as TOUCH answers). {@code | idle timeout ms: u32 | lifetime left ms: u32 |} */
    record Renamed(int requestId, SessionTimes times) implements MasterAnswer {
        @Override
        public int opcode() {
            return Opcodes.RENAME;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return SessionTimes.BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            times.writeTo(out);
        }
    }

    /**
     * CREATE: the session's idle timeout and maximum lifetime in ms (uint32 each, saturated), then its id (ASCII).
     *
     * <pre>| idle timeout ms: u32 | max lifetime ms: u32 | session id: ASCII, the rest of the body |</pre>
     */
    record Created(int requestId, String sessionId, Duration idleTimeout, Duration maxLifetime) implements MasterAnswer {
        @Override
        public int opcode() {
            return Opcodes.CREATE;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 8 + sessionId.length();
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeInt((int) Math.min(idleTimeout.toMillis(), 0xFFFF_FFFFL));
            out.writeInt((int) Math.min(maxLifetime.toMillis(), 0xFFFF_FFFFL));
            out.writeCharSequence(sessionId, StandardCharsets.US_ASCII);
        }

        static Created decode(Frame frame) {
            ByteBuf b = frame.body();
            if (b.readableBytes() < 9) {
                throw new IllegalArgumentException("CREATE answer of " + b.readableBytes() + " bytes: expected 8 and an id");
            }
            return new Created(frame.requestId(), b.toString(b.readerIndex() + 8, b.readableBytes() - 8, StandardCharsets.US_ASCII),
                    Duration.ofMillis(b.getUnsignedInt(b.readerIndex())), Duration.ofMillis(b.getUnsignedInt(b.readerIndex() + 4)));
        }
    }

    /** REGISTER: how long a lease runs, and the holder's slot. {@code | lease ms: u32 | slot: u8 (0..62 own, 63 shared) |} */
    record Registered(int requestId, long leaseMillis, int slot) implements MasterAnswer {
        /** Bytes of the body (later versions may add bytes at the end, which a reader skips). */
        public static final int BYTES = 5;

        @Override
        public int opcode() {
            return Opcodes.REGISTER;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeInt((int) leaseMillis).writeByte(slot);
        }

        static Registered decode(Frame frame) {
            ByteBuf b = frame.body();
            if (b.readableBytes() < BYTES) {
                throw new IllegalArgumentException("REGISTER answer of " + b.readableBytes() + " bytes");
            }
            return new Registered(frame.requestId(), b.getUnsignedInt(b.readerIndex()), b.getUnsignedByte(b.readerIndex() + 4));
        }
    }

    /**
     * PING: the lease it granted, then the payload back. {@code | lease granted ms: u32 | payload |}. The grant is
     * the master's lease length when the ping came on its holder's current control connection (the holder's lease
     * now runs from when it sent the ping), and 0 otherwise: on any other connection, and on a control connection
     * whose registration a newer one superseded; a cache counts only a grant above 0 as a renewal (PROTOCOL.md 3.7).
     */
    record Pong(int requestId, long grantedMillis, byte[] payload) implements MasterAnswer {
        /** Bytes before the payload. */
        public static final int GRANT_BYTES = 4;

        @Override
        public int opcode() {
            return Opcodes.PING;
        }

        /** Whether this answer renewed the lease. */
        public boolean granted() {
            return grantedMillis > 0;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return GRANT_BYTES + payload.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeInt((int) grantedMillis).writeBytes(payload);
        }

        static Pong decode(Frame frame) {
            ByteBuf b = frame.body();
            if (b.readableBytes() < GRANT_BYTES) {
                throw new IllegalArgumentException("PING answer of " + b.readableBytes() + " bytes: expected "
                        + GRANT_BYTES + " and the payload");
            }
            long granted = b.readUnsignedInt();
            return new Pong(frame.requestId(), granted, Bodies.bytes(b));
        }
    }

    /** LOGOUT: how many sessions of the principal this master deleted. <pre>| sessions: u32 |</pre> */
    record LoggedOut(int requestId, long sessions) implements MasterAnswer {
        @Override
        public int opcode() {
            return Opcodes.LOGOUT;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 4;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeInt((int) Math.min(sessions, 0xFFFF_FFFFL));
        }
    }

    /**
     * PRINCIPAL_SESSIONS: the ids of a principal's live sessions on this master, at most {@link #MAX_SESSIONS}, and
     * whether there were more ({@code truncated}).
     *
     * <pre>| flags: u8 (0x01 TRUNCATED) | count: u32 | count x ( id length: u8 | id: ASCII ) |</pre>
     *
     * A reader ignores the other flag bits (0 from this version) and refuses a count that the bytes cannot hold, a bad
     * id, or bytes after the last id.
     */
    record SessionsOfPrincipal(int requestId, List<String> sessionIds, boolean truncated) implements MasterAnswer {
        /** The most ids one master lists for one principal; more are cut, and the answer says so. */
        public static final int MAX_SESSIONS = 1_000;
        /** Flag: the principal has more live sessions on this master than the answer lists. */
        public static final int FLAG_TRUNCATED = 0x01;
        /** Bytes before the first id. */
        static final int FIXED_BYTES = 5;

        public SessionsOfPrincipal {
            sessionIds = List.copyOf(sessionIds);
        }

        @Override
        public int opcode() {
            return Opcodes.PRINCIPAL_SESSIONS;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            int size = FIXED_BYTES;
            for (String id : sessionIds) {
                size += 1 + id.length();
            }
            return size;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeByte(truncated ? FLAG_TRUNCATED : 0).writeInt(sessionIds.size());
            for (String id : sessionIds) {
                out.writeByte(id.length()).writeCharSequence(id, StandardCharsets.US_ASCII);
            }
        }

        static SessionsOfPrincipal decode(Frame frame) {
            ByteBuf b = frame.body();
            int n = b.readableBytes();
            if (n < FIXED_BYTES) {
                throw new IllegalArgumentException("PRINCIPAL_SESSIONS answer of " + n + " bytes: expected at least " + FIXED_BYTES);
            }
            int at = b.readerIndex();
            boolean truncated = (b.getUnsignedByte(at) & FLAG_TRUNCATED) != 0;
            long count = b.getUnsignedInt(at + 1);
            if (count * 2 > n - FIXED_BYTES) {
                throw new IllegalArgumentException("PRINCIPAL_SESSIONS answer: " + count + " ids cannot fit in "
                        + (n - FIXED_BYTES) + " bytes");
            }
            String[] ids = new String[(int) count];
            int pos = at + FIXED_BYTES;
            for (int i = 0; i < ids.length; i++) {
                int len = pos < at + n ? b.getUnsignedByte(pos) : 0;
                if (len == 0 || pos + 1 + len > at + n) {
                    throw new IllegalArgumentException("PRINCIPAL_SESSIONS answer: id " + i + " has length " + len
                            + " at offset " + (pos - at) + " of " + n + " bytes");
                }
                try {
                    ids[i] = Bodies.readSessionId(b.slice(pos + 1, len));
                } catch (MalformedMessageException e) {
                    throw new IllegalArgumentException("PRINCIPAL_SESSIONS answer: id " + i + ": " + e.getMessage());
                }
                pos += 1 + len;
            }
            if (pos != at + n) {
                throw new IllegalArgumentException("PRINCIPAL_SESSIONS answer: " + (at + n - pos) + " bytes after the last id");
            }
            return new SessionsOfPrincipal(frame.requestId(), List.of(ids), truncated);
        }
    }

    /**
     * DESCRIBE: a session as its master holds it, times in epoch milliseconds.
     *
     * <pre>| created: u64 | last use: u64 | expires: u64 | idle timeout ms: u32 | registry version: u32 |
     * | principal: UTF-8, the rest of the body (empty: none) |</pre>
     */
    record Description(int requestId, long createdAtMillis, long lastAccessMillis, long expiresAtMillis,
                       long idleTimeoutMillis, long registryVersion, String principal) implements MasterAnswer {
        /** Bytes before the principal. */
        static final int FIXED_BYTES = 32;

        @Override
        public int opcode() {
            return Opcodes.DESCRIBE;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return FIXED_BYTES + (principal == null ? 0 : io.netty.buffer.ByteBufUtil.utf8Bytes(principal));
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeLong(createdAtMillis).writeLong(lastAccessMillis).writeLong(expiresAtMillis)
                    .writeInt((int) Math.min(idleTimeoutMillis, 0xFFFF_FFFFL)).writeInt((int) Math.min(registryVersion, 0xFFFF_FFFFL));
            if (principal != null) {
                out.writeCharSequence(principal, StandardCharsets.UTF_8);
            }
        }

        static Description decode(Frame frame) {
            ByteBuf b = frame.body();
            int n = b.readableBytes();
            if (n < FIXED_BYTES) {
                throw new IllegalArgumentException("DESCRIBE answer of " + n + " bytes: expected at least " + FIXED_BYTES);
            }
            int at = b.readerIndex();
            String principal = n == FIXED_BYTES ? null : b.toString(at + FIXED_BYTES, n - FIXED_BYTES, StandardCharsets.UTF_8);
            return new Description(frame.requestId(), b.getLong(at), b.getLong(at + 8), b.getLong(at + 16),
                    b.getUnsignedInt(at + 24), b.getUnsignedInt(at + 28), principal);
        }
    }

    /** An OK answer whose body is bytes: SCHEMA_FETCH's schema, SCHEMA_FETCH's schema, STATS's JSON; empty for DELETE and SCHEMA_PUBLISH. */
    record Bytes(int opcode, int requestId, byte[] body) implements MasterAnswer {
        private static final byte[] NONE = {};

        /** An OK answer with an empty body. */
        public static Bytes empty(int opcode, int requestId) {
            return new Bytes(opcode, requestId, NONE);
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return body.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeBytes(body);
        }
    }

    /**
     * An answer with a status other than OK: the body is a UTF-8 message naming what is wrong, cut to
     * {@link FrameHeader#MAX_ERROR_MESSAGE_BYTES} (at a character boundary). Not a record, so that the message is
     * encoded once: NOT_FOUND answers can come in floods.
     */
    final class Error implements MasterAnswer {
        private final int opcode;
        private final int requestId;
        private final int status;
        private final String message;
        private final byte[] text;

        public Error(int opcode, int requestId, int status, String message) {
            this.opcode = opcode;
            this.requestId = requestId;
            this.status = status;
            this.message = message;
            this.text = cut(message.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public int opcode() {
            return opcode;
        }

        @Override
        public int requestId() {
            return requestId;
        }

        @Override
        public int status() {
            return status;
        }

        /** The message, whole (the body carries it cut to the limit). */
        public String message() {
            return message;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return text.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeBytes(text);
        }

        private static byte[] cut(byte[] all) {
            if (all.length <= FrameHeader.MAX_ERROR_MESSAGE_BYTES) {
                return all;
            }
            int end = FrameHeader.MAX_ERROR_MESSAGE_BYTES;
            while (end > 0 && (all[end] & 0xC0) == 0x80) {
                end--;
            }
            return java.util.Arrays.copyOf(all, end);
        }

        /** The whole frame in a buffer of its own, for a connection that is refused before any handler runs. */
        public ByteBuf toFrame(ByteBufAllocator alloc) {
            ByteBuf b = alloc.directBuffer(FrameHeader.BYTES + text.length);
            FrameHeader.write(b, opcode, flags(), status, requestId, text.length);
            return b.writeBytes(text);
        }

        /** The message of an error answer frame. */
        public static String readMessage(Frame frame) {
            return frame.body().toString(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "Error[" + Opcodes.name(opcode) + ", id " + requestId + ", " + Status.name(status) + ": " + message + "]";
        }
    }
}
