package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The body of an INVALIDATE push (PROTOCOL.md 3.7): a session's sections changed on the master, each now at (at
 * least) the version given; a holder drops its copies older than that. No section at all means the session is
 * gone (deleted).
 *
 * <pre>
 * +---------------+-----------------+------------------------+-------------+--------------------------------------------+
 * | id length: u8 | session id:     | write time: i64, us    | n: u16      | n x ( length: u8 | name: UTF-8 |           |
 * |               | ASCII           | since 1970 (master's)  | (0 = gone)  |       version: u64 )                       |
 * +---------------+-----------------+------------------------+-------------+--------------------------------------------+
 * </pre>
 *
 * @param writeTimeMicros when the master applied the write, by its wall clock: a holder reports how long the news
 *     took to reach it
 */
public record Invalidation(String sessionId, long writeTimeMicros, List<String> sections, long[] versions) {
    /** The most sections one push names (a write names at most this many: the store's own bound is lower). */
    public static final int MAX_SECTIONS = 0xFFFF;

    public Invalidation {
        if (sections.size() != versions.length || sections.size() > MAX_SECTIONS) {
            throw new IllegalArgumentException(sections.size() + " sections and " + versions.length + " versions");
        }
    }

    /** The push for a deleted session. */
    public static Invalidation deleted(String sessionId, long writeTimeMicros) {
        return new Invalidation(sessionId, writeTimeMicros, List.of(), new long[0]);
    }

    /** Whether the whole session is gone. */
    public boolean sessionGone() {
        return sections.isEmpty();
    }

    /** Bytes of the body. */
    public int encodedSize() {
        int n = 1 + sessionId.length() + 8 + 2;
        for (String s : sections) {
            n += 1 + ByteBufUtil.utf8Bytes(s) + 8;
        }
        return n;
    }

    /** Writes the body ({@link #encodedSize()} bytes). */
    public void writeTo(ByteBuf out) {
        out.writeByte(sessionId.length()).writeCharSequence(sessionId, StandardCharsets.US_ASCII);
        out.writeLong(writeTimeMicros).writeShort(sections.size());
        for (int i = 0; i < versions.length; i++) {
            String name = sections.get(i);
            int at = out.writerIndex();
            out.writeByte(0);
            int length = out.writeCharSequence(name, StandardCharsets.UTF_8);
            out.setByte(at, length);
            out.writeLong(versions[i]);
        }
    }

    /** This invalidation as a push frame with push id {@code pushId}. */
    public Push asPush(int pushId) {
        return new Push(pushId, this);
    }

    /** An INVALIDATE push frame: flag PUSH, a push id of the master's own in the request id field. */
    public record Push(int requestId, Invalidation invalidation) implements OutboundFrame {
        @Override
        public int opcode() {
            return Opcodes.INVALIDATE;
        }

        @Override
        public int flags() {
            return FrameHeader.FLAG_PUSH;
        }

        @Override
        public int status() {
            return Status.OK;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return invalidation.encodedSize();
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            invalidation.writeTo(out);
        }
    }

    /** A holder's confirmation of push {@code requestId}: flag RESPONSE, the push's id, no body. */
    public record Confirmation(int requestId) implements OutboundFrame {
        @Override
        public int opcode() {
            return Opcodes.INVALIDATE;
        }

        @Override
        public int flags() {
            return FrameHeader.FLAG_RESPONSE;
        }

        @Override
        public int status() {
            return Status.OK;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 0;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
        }
    }

    /**
     * Reads a push body.
     *
     * @throws MalformedMessageException BAD_REQUEST for a body that is cut short, too long, or names a bad id or name
     */
    public static Invalidation readFrom(ByteBuf body) {
        ByteBuf b = body.duplicate();
        try {
            int idLength = b.readUnsignedByte();
            if (idLength == 0 || idLength > TransportLimits.MAX_SESSION_ID_BYTES) {
                throw bad("session id of " + idLength + " bytes");
            }
            String id = TransportLimits.checkSessionId(b.readCharSequence(idLength, StandardCharsets.US_ASCII).toString());
            long time = b.readLong();
            int n = b.readUnsignedShort();
            String[] names = new String[n];
            long[] versions = new long[n];
            for (int i = 0; i < n; i++) {
                int length = b.readUnsignedByte();
                names[i] = TransportLimits.checkSectionName(b.readCharSequence(length, StandardCharsets.UTF_8).toString());
                versions[i] = b.readLong();
            }
            if (b.isReadable()) {
                throw bad(b.readableBytes() + " bytes after the last section");
            }
            return new Invalidation(id, time, Arrays.asList(names), versions);
        } catch (IndexOutOfBoundsException e) {
            throw bad("the body of " + body.readableBytes() + " bytes is cut short");
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private static MalformedMessageException bad(String why) {
        return new MalformedMessageException(Status.BAD_REQUEST, "INVALIDATE: " + why);
    }

    @Override
    public String toString() {
        return "Invalidation[" + sections.size() + " sections, versions " + Arrays.toString(versions) + "]";
    }
}
