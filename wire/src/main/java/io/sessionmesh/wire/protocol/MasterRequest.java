package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportMessage;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * A request to a master in typed form, one record per opcode (PROTOCOL.md 3.3 to 3.7): the client encodes its body,
 * the master decodes it ({@link #decode}), and {@link #decodeAnswer} turns the body of an OK answer into the typed
 * answer {@code A}. Request ids are not part of a request: the client's request table assigns them as it sends.
 *
 * @param <A> what an OK answer decodes to
 */
public sealed interface MasterRequest<A> {
    /** The opcode ({@link Opcodes}). */
    int opcode();

    /** Bytes of the body. */
    int bodySize(BinaryTransportCodec codec);

    /** Writes the body ({@link #bodySize} bytes) at the writer index. */
    void writeBody(ByteBuf out, BinaryTransportCodec codec);

    /** The typed answer of an OK answer frame of this request. */
    A decodeAnswer(Frame answer, BinaryTransportCodec codec);

    /** A request whose body is one transport message, whole, with its header (PROTOCOL.md 2.1). */
    sealed interface CarriesMessage<A> extends MasterRequest<A> {
        TransportMessage message();

        @Override
        default int bodySize(BinaryTransportCodec codec) {
            return codec.encodedSize(message());
        }

        @Override
        default void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            Bodies.writeMessage(out, codec, message());
        }
    }

    /** A request whose body is a session id, ASCII, the whole body. */
    sealed interface CarriesSessionId<A> extends MasterRequest<A> {
        String sessionId();

        @Override
        default int bodySize(BinaryTransportCodec codec) {
            return sessionId().length();
        }

        @Override
        default void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeCharSequence(sessionId(), StandardCharsets.US_ASCII);
        }
    }

    /** Batch read of named sections. */
    record Read(ReadRequest message) implements CarriesMessage<MasterAnswer.Read> {
        @Override
        public int opcode() {
            return Opcodes.READ;
        }

        @Override
        public MasterAnswer.Read decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Read.decode(answer, codec);
        }
    }

    /** Per-section deltas applied atomically. */
    record Write(WriteRequest message) implements CarriesMessage<MasterAnswer.Write> {
        @Override
        public int opcode() {
            return Opcodes.WRITE;
        }

        @Override
        public MasterAnswer.Write decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Write.decode(answer, codec);
        }
    }

    /** Extends a session's idle time; answered with the session's times. */
    record Touch(String sessionId) implements CarriesSessionId<SessionTimes> {
        @Override
        public int opcode() {
            return Opcodes.TOUCH;
        }

        @Override
        public SessionTimes decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return SessionTimes.readLast(answer.body());
        }
    }

    /** Removes a session. */
    record Delete(String sessionId) implements CarriesSessionId<Void> {
        @Override
        public int opcode() {
            return Opcodes.DELETE;
        }

        @Override
        public Void decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return null;
        }
    }

    /**
     * A new empty session: with the master's default idle timeout ({@code idleTimeout} null) or the one given, and an id
     * that falls on the asked master's part of the ring {@code placement} describes (null: any id, for a single master).
     */
    record Create(Duration idleTimeout, Placement placement) implements MasterRequest<MasterAnswer.Created> {
        public Create {
            if (idleTimeout != null && (idleTimeout.toMillis() <= 0 || idleTimeout.toMillis() > 0xFFFF_FFFFL)) {
                throw new IllegalArgumentException("idle timeout of " + idleTimeout.toMillis() + " ms is outside 1..2^32-1 ms");
            }
        }

        @Override
        public int opcode() {
            return Opcodes.CREATE;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return idleTimeout == null && placement == null ? 0 : 4 + (placement == null ? 0 : placement.encodedSize());
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            if (idleTimeout != null || placement != null) {
                out.writeInt(idleTimeout == null ? 0 : (int) idleTimeout.toMillis());
            }
            if (placement != null) {
                placement.writeTo(out);
            }
        }

        @Override
        public MasterAnswer.Created decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Created.decode(answer);
        }
    }

    /**
     * Liveness; on a cache's control connection also a lease renewal. The answer carries the lease granted (0: none)
     * and the payload back.
     */
    record Ping(byte[] payload) implements MasterRequest<MasterAnswer.Pong> {
        @Override
        public int opcode() {
            return Opcodes.PING;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return payload.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeBytes(payload);
        }

        @Override
        public MasterAnswer.Pong decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Pong.decode(answer);
        }
    }

    /**
     * REGISTER (PROTOCOL.md 3.7): the connection belongs to the cache {@code holder}; on its control connection the
     * master pushes invalidations and the answer grants its lease. The holder numbers its control connections 1, 2,
     * ... ({@code sequence}, unsigned 32 bits; 0 on other connections): the master refuses one not above the last, so
     * a REGISTER of a connection the holder gave up cannot take the pushes away from the one it listens on.
     *
     * <pre>| holder id: 16 bytes (UUID, most significant half first) | flags: u8 (0x01 CONTROL) | sequence: u32 |</pre>
     */
    record Register(UUID holder, boolean control, long sequence) implements MasterRequest<MasterAnswer.Registered> {
        /** Bytes of a REGISTER body. */
        public static final int BYTES = 21;
        /** Flag: this is the holder's control connection. */
        public static final int FLAG_CONTROL = 0x01;

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
            out.writeLong(holder.getMostSignificantBits()).writeLong(holder.getLeastSignificantBits())
                    .writeByte(control ? FLAG_CONTROL : 0).writeInt((int) sequence);
        }

        @Override
        public MasterAnswer.Registered decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Registered.decode(answer);
        }

        static Register decode(ByteBuf body) {
            if (body.readableBytes() != BYTES) {
                throw Bodies.bad("body of " + body.readableBytes() + " bytes: expected a 16-byte holder id, a flags byte and a "
                        + "4-byte control sequence");
            }
            int at = body.readerIndex();
            int flags = body.getUnsignedByte(at + 16);
            if ((flags & ~FLAG_CONTROL) != 0) {
                throw Bodies.bad("unknown flags 0x" + Integer.toHexString(flags));
            }
            boolean control = (flags & FLAG_CONTROL) != 0;
            long sequence = body.getUnsignedInt(at + 17);
            if (control && sequence == 0) {
                throw Bodies.bad("a control REGISTER needs a sequence above 0");
            }
            return new Register(new UUID(body.getLong(at), body.getLong(at + 8)), control, sequence);
        }
    }

    /** Stores a one-nio schema: uid (8 bytes) then the schema's bytes. */
    record PublishSchema(long uid, byte[] schema) implements MasterRequest<Void> {
        @Override
        public int opcode() {
            return Opcodes.SCHEMA_PUBLISH;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 8 + schema.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeLong(uid).writeBytes(schema);
        }

        @Override
        public Void decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return null;
        }
    }

    /** Fetches a one-nio schema by uid; NOT_FOUND when the master does not have it. */
    record FetchSchema(long uid) implements MasterRequest<byte[]> {
        @Override
        public int opcode() {
            return Opcodes.SCHEMA_FETCH;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 8;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeLong(uid);
        }

        @Override
        public byte[] decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return Bodies.bytes(answer.body());
        }
    }

    /** The master's figures, as the JSON text it sends. */
    record Stats() implements MasterRequest<String> {
        @Override
        public int opcode() {
            return Opcodes.STATS;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 0;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
        }

        @Override
        public String decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return answer.body().toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * An operation on the master groups of a cluster (GROUP_MAP, GROUP_CHANGE, GROUP_APPLY, GROUP_IMPORT): the body as
     * PROTOCOL.md 3.9 gives it, read by the master's group layer; the answer is the OK answer's body.
     */
    record GroupOp(int opcode, byte[] body) implements MasterRequest<byte[]> {
        public GroupOp {
            if (opcode < Opcodes.GROUP_MAP || opcode > Opcodes.GROUP_IMPORT) {
                throw new IllegalArgumentException("opcode " + opcode + " is not a group operation");
            }
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return body.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeBytes(body);
        }

        @Override
        public byte[] decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return Bodies.bytes(answer.body());
        }
    }

    /**
     * A body encoded beforehand, sent as it is under any opcode, answered by status only: for load generators that
     * encode once and send many times (as redis-benchmark does), and for tests of what a master does with odd bodies.
     */
    record Prepared(int opcode, byte[] body) implements MasterRequest<Void> {
        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return body.length;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeBytes(body);
        }

        @Override
        public Void decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return null;
        }
    }

    /**
     * The typed request in a request frame, for the master.
     *
     * @throws MalformedMessageException for a body that does not fit its opcode (BAD_REQUEST, TOO_LARGE) and for an
     *     opcode this version does not know (UNSUPPORTED_VERSION); the message names what is wrong
     */
    static MasterRequest<?> decode(Frame frame, BinaryTransportCodec codec) {
        ByteBuf body = frame.body();
        return switch (frame.opcode()) {
            case Opcodes.READ -> new Read(Bodies.readMessage(body, codec, ReadRequest.class));
            case Opcodes.WRITE -> new Write(Bodies.readMessage(body, codec, WriteRequest.class));
            case Opcodes.TOUCH -> new Touch(Bodies.readSessionId(body));
            case Opcodes.DELETE -> new Delete(Bodies.readSessionId(body));
            case Opcodes.CREATE -> readCreate(body);
            case Opcodes.PING -> {
                if (body.readableBytes() > FrameHeader.MAX_PING_BYTES) {
                    throw new MalformedMessageException(Status.TOO_LARGE, "ping body of " + body.readableBytes()
                            + " bytes is above the limit of " + FrameHeader.MAX_PING_BYTES);
                }
                yield new Ping(Bodies.bytes(body));
            }
            case Opcodes.REGISTER -> Register.decode(body);
            case Opcodes.SCHEMA_PUBLISH -> {
                long uid = Bodies.readUid(body, false);
                byte[] schema = new byte[body.readableBytes() - 8];
                body.getBytes(body.readerIndex() + 8, schema);
                yield new PublishSchema(uid, schema);
            }
            case Opcodes.SCHEMA_FETCH -> new FetchSchema(Bodies.readUid(body, true));
            case Opcodes.STATS -> new Stats();
            case Opcodes.GROUP_MAP, Opcodes.GROUP_CHANGE, Opcodes.GROUP_APPLY, Opcodes.GROUP_IMPORT ->
                    new GroupOp(frame.opcode(), Bodies.bytes(body));
            default -> throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "opcode " + frame.opcode()
                    + " is unknown to this master (frame version " + FrameHeader.VERSION + ")");
        };
    }

    private static Create readCreate(ByteBuf body) {
        int n = body.readableBytes();
        if (n == 0) {
            return new Create(null, null);
        }
        if (n < 4) {
            throw Bodies.bad("CREATE body of " + n + " bytes: expected none, or a 4-byte idle timeout in milliseconds and perhaps a "
                    + "placement");
        }
        long ms = body.getUnsignedInt(body.readerIndex());
        Placement placement = n > 4 ? Placement.readFrom(body.slice(body.readerIndex() + 4, n - 4)) : null;
        return new Create(ms == 0 ? null : Duration.ofMillis(ms), placement);
    }
}
