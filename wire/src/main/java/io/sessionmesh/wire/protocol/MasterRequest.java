package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
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

    /** The frame's flags ({@link FrameHeader}): 0 but for a WRITE that asks for whole sections and a CREATE with an id. */
    default int flags() {
        return 0;
    }

    /** Bytes of the body. */
    int bodySize(BinaryTransportCodec codec);

    /** Writes the body ({@link #bodySize} bytes) at the writer index. */
    void writeBody(ByteBuf out, BinaryTransportCodec codec);

    /** {@link #writeBody(ByteBuf, BinaryTransportCodec)} when {@code bodySize} is what {@link #bodySize} returned. */
    default void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
        writeBody(out, codec);
    }

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

        @Override
        default void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
            Bodies.writeMessage(out, codec, message(), bodySize);
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

    /** A request whose body is a principal, UTF-8, the whole body (LOGOUT, PRINCIPAL_SESSIONS). */
    sealed interface CarriesPrincipal<A> extends MasterRequest<A> {
        String principal();

        @Override
        default int bodySize(BinaryTransportCodec codec) {
            return utf8Length(principal());
        }

        @Override
        default void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeCharSequence(principal(), StandardCharsets.UTF_8);
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

    /**
     * Per-section deltas applied atomically; with {@code wholeSections} (flag {@link FrameHeader#FLAG_WHOLE_SECTIONS})
     * the answer also carries every written section whose new version is above 1, whole. With a {@code writeId} (flag
     * {@link FrameHeader#FLAG_WRITE_ID}) the body starts with its 16 bytes, and a master that has applied a write of that
     * id to the session answers with that write's versions instead of applying it again (PROTOCOL.md 3.12).
     */
    record Write(WriteRequest message, boolean wholeSections, WriteId writeId) implements CarriesMessage<MasterAnswer.Write> {
        /** A write answered with the new versions only. */
        public Write(WriteRequest message) {
            this(message, false, null);
        }

        public Write(WriteRequest message, boolean wholeSections) {
            this(message, wholeSections, null);
        }

        @Override
        public int opcode() {
            return Opcodes.WRITE;
        }

        @Override
        public int flags() {
            return (wholeSections ? FrameHeader.FLAG_WHOLE_SECTIONS : 0) | (writeId != null ? FrameHeader.FLAG_WRITE_ID : 0);
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return (writeId != null ? WriteId.BYTES : 0) + codec.encodedSize(message);
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            writeBody(out, codec, bodySize(codec));
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
            if (writeId != null) {
                out.writeLong(writeId.high()).writeLong(writeId.low());
                Bodies.writeMessage(out, codec, message, bodySize - WriteId.BYTES);
            } else {
                Bodies.writeMessage(out, codec, message, bodySize);
            }
        }

        @Override
        public MasterAnswer.Write decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Write.decode(answer, codec);
        }

        /** Flag WRITE_ID: {@code | write id: 16 bytes | WRITE_REQUEST |}; without it the message alone. */
        static Write decode(ByteBuf body, int flags, BinaryTransportCodec codec) {
            boolean whole = (flags & FrameHeader.FLAG_WHOLE_SECTIONS) != 0;
            if ((flags & FrameHeader.FLAG_WRITE_ID) == 0) {
                return new Write(Bodies.readMessage(body, codec, WriteRequest.class), whole, null);
            }
            int n = body.readableBytes();
            if (n < WriteId.BYTES) {
                throw Bodies.bad("WRITE body of " + n + " bytes with flag WRITE_ID: expected a " + WriteId.BYTES
                        + "-byte write id, then a WRITE_REQUEST");
            }
            int at = body.readerIndex();
            WriteId id = new WriteId(body.getLong(at), body.getLong(at + 8));
            return new Write(Bodies.readMessage(body.slice(at + WriteId.BYTES, n - WriteId.BYTES), codec, WriteRequest.class),
                    whole, id);
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
     * that falls on the asked master's part of the ring {@code placement} describes (null: any id, for a single master),
     * belonging to {@code principal} (null: to no one yet); or, with {@code sessionId}, exactly that id (flag
     * {@link FrameHeader#FLAG_REQUESTED_ID}; no placement: the id places itself).
     *
     * <pre>[ id length: u8 | id: ASCII, flag REQUESTED_ID only ]
     * [ idle timeout ms: u32 [ placement (3.5), or 6 zero bytes for none [ principal length: u16 | UTF-8 ] ] ]</pre>
     */
    record Create(Duration idleTimeout, Placement placement, String principal, String sessionId)
            implements MasterRequest<MasterAnswer.Created> {
        /** Bytes that stand for "no placement" when a principal follows. */
        static final int NO_PLACEMENT_BYTES = 6;

        public Create {
            if (idleTimeout != null && (idleTimeout.toMillis() <= 0 || idleTimeout.toMillis() > 0xFFFF_FFFFL)) {
                throw new IllegalArgumentException("idle timeout of " + idleTimeout.toMillis() + " ms is outside 1..2^32-1 ms");
            }
            if (principal != null) {
                TransportLimits.checkPrincipal(principal);
            }
            if (sessionId != null) {
                TransportLimits.checkRequestedSessionId(sessionId);
                if (placement != null) {
                    throw new IllegalArgumentException("a CREATE with a requested id takes no placement: the id places itself");
                }
            }
        }

        public Create(Duration idleTimeout, Placement placement, String principal) {
            this(idleTimeout, placement, principal, null);
        }

        public Create(Duration idleTimeout, Placement placement) {
            this(idleTimeout, placement, null, null);
        }

        @Override
        public int opcode() {
            return Opcodes.CREATE;
        }

        @Override
        public int flags() {
            return sessionId == null ? 0 : FrameHeader.FLAG_REQUESTED_ID;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return (sessionId == null ? 0 : 1 + sessionId.length()) + fieldsSize();
        }

        private int fieldsSize() {
            if (principal != null) {
                return 4 + (placement == null ? NO_PLACEMENT_BYTES : placement.encodedSize()) + 2 + utf8Length(principal);
            }
            return idleTimeout == null && placement == null ? 0 : 4 + (placement == null ? 0 : placement.encodedSize());
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            if (sessionId != null) {
                out.writeByte(sessionId.length()).writeCharSequence(sessionId, StandardCharsets.US_ASCII);
            }
            if (idleTimeout != null || placement != null || principal != null) {
                out.writeInt(idleTimeout == null ? 0 : (int) idleTimeout.toMillis());
            }
            if (placement != null) {
                placement.writeTo(out);
            } else if (principal != null) {
                out.writeZero(NO_PLACEMENT_BYTES);
            }
            if (principal != null) {
                byte[] b = principal.getBytes(StandardCharsets.UTF_8);
                out.writeShort(b.length).writeBytes(b);
            }
        }

        @Override
        public MasterAnswer.Created decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Created.decode(answer);
        }
    }

    /**
     * Sets the principal of a session, or clears it ({@code principal} null). Answered with an empty body.
     *
     * <pre>| session id length: u8 | session id: ASCII | principal: UTF-8, the rest of the body (empty: none) |</pre>
     */
    record SetPrincipal(String sessionId, String principal) implements MasterRequest<Void> {
        public SetPrincipal {
            TransportLimits.checkSessionId(sessionId);
            if (principal != null) {
                TransportLimits.checkPrincipal(principal);
            }
        }

        @Override
        public int opcode() {
            return Opcodes.PRINCIPAL;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 1 + sessionId.length() + (principal == null ? 0 : utf8Length(principal));
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeByte(sessionId.length()).writeCharSequence(sessionId, StandardCharsets.US_ASCII);
            if (principal != null) {
                out.writeCharSequence(principal, StandardCharsets.UTF_8);
            }
        }

        @Override
        public Void decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return null;
        }

        static SetPrincipal decode(ByteBuf body) {
            int n = body.readableBytes();
            int idLength = n == 0 ? 0 : body.getUnsignedByte(body.readerIndex());
            if (idLength == 0 || 1 + idLength > n) {
                throw Bodies.bad("PRINCIPAL body of " + n + " bytes: expected a session id length (1.."
                        + TransportLimits.MAX_SESSION_ID_BYTES + "), the id, then the principal");
            }
            String id = Bodies.readSessionId(body.slice(body.readerIndex() + 1, idLength));
            int rest = n - 1 - idLength;
            if (rest == 0) {
                return new SetPrincipal(id, null);
            }
            byte[] principal = new byte[rest];
            body.getBytes(body.readerIndex() + 1 + idLength, principal);
            return new SetPrincipal(id, TransportLimits.decodePrincipal(principal));
        }
    }

    /**
     * "Log out everywhere" on one master: deletes every session of {@code principal} it holds, each as a DELETE would
     * (the caches holding them invalidated first). The body is the principal, UTF-8; the answer, the sessions deleted.
     */
    record Logout(String principal) implements CarriesPrincipal<Long> {
        public Logout {
            TransportLimits.checkPrincipal(principal);
        }

        @Override
        public int opcode() {
            return Opcodes.LOGOUT;
        }

        @Override
        public Long decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            ByteBuf b = answer.body();
            if (b.readableBytes() < 4) {
                throw new IllegalArgumentException("LOGOUT answer of " + b.readableBytes() + " bytes: expected a u32 count");
            }
            return b.getUnsignedInt(b.readerIndex());
        }
    }

    /**
     * The live sessions of {@code principal} on one master (or group), read-only: no session's idle time restarts. The
     * body is the principal, UTF-8, the whole body (as LOGOUT's); the answer, the ids, at most
     * {@link MasterAnswer.SessionsOfPrincipal#MAX_SESSIONS}, and whether that cut the list.
     */
    record PrincipalSessions(String principal) implements CarriesPrincipal<MasterAnswer.SessionsOfPrincipal> {
        public PrincipalSessions {
            TransportLimits.checkPrincipal(principal);
        }

        @Override
        public int opcode() {
            return Opcodes.PRINCIPAL_SESSIONS;
        }

        @Override
        public MasterAnswer.SessionsOfPrincipal decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.SessionsOfPrincipal.decode(answer);
        }
    }

    /**
     * Moves a session to {@code newId} (equal to {@code oldId}: keeps the id) and gives it {@code idleTimeout} (null: keeps
     * it), atomically; the idle time starts again. Answered with the session's times, as TOUCH is.
     *
     * <pre>| old id length: u8 | old id: ASCII | idle timeout ms: u32 (0: keep) | new id: ASCII, the rest of the body |</pre>
     */
    record Rename(String oldId, String newId, Duration idleTimeout) implements MasterRequest<SessionTimes> {
        /**
         * @param newId the new id ({@link TransportLimits#checkRequestedSessionId}), or null or {@code oldId} to keep it
         * @param idleTimeout 1..2^32-1 ms, or null to keep the session's
         */
        public Rename {
            TransportLimits.checkSessionId(oldId);
            if (newId == null) {
                newId = oldId;
            } else if (!newId.equals(oldId)) {
                TransportLimits.checkRequestedSessionId(newId);
            }
            if (idleTimeout != null && (idleTimeout.toMillis() <= 0 || idleTimeout.toMillis() > 0xFFFF_FFFFL)) {
                throw new IllegalArgumentException("idle timeout of " + idleTimeout.toMillis() + " ms is outside 1..2^32-1 ms");
            }
        }

        /** Whether the session keeps its id (only the idle timeout changes). */
        public boolean keepsId() {
            return newId.equals(oldId);
        }

        @Override
        public int opcode() {
            return Opcodes.RENAME;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return 1 + oldId.length() + 4 + newId.length();
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            out.writeByte(oldId.length()).writeCharSequence(oldId, StandardCharsets.US_ASCII);
            out.writeInt(idleTimeout == null ? 0 : (int) idleTimeout.toMillis());
            out.writeCharSequence(newId, StandardCharsets.US_ASCII);
        }

        @Override
        public SessionTimes decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return SessionTimes.readLast(answer.body());
        }

        static Rename decode(ByteBuf body) {
            int n = body.readableBytes();
            int at = body.readerIndex();
            int idLength = n == 0 ? 0 : body.getUnsignedByte(at);
            if (idLength == 0 || 1 + idLength + 4 >= n) {
                throw Bodies.bad("RENAME body of " + n + " bytes: expected an old id length (1.."
                        + TransportLimits.MAX_SESSION_ID_BYTES + "), the old id, a u32 idle timeout and the new id");
            }
            String oldId = Bodies.readSessionId(body.slice(at + 1, idLength));
            long ms = body.getUnsignedInt(at + 1 + idLength);
            String newId = Bodies.readSessionId(body.slice(at + 1 + idLength + 4, n - 1 - idLength - 4));
            if (!newId.equals(oldId) && newId.length() < TransportLimits.MIN_REQUESTED_ID_CHARS) {
                throw Bodies.bad("RENAME new id of " + newId.length() + " chars: an id the application chooses must have at least "
                        + TransportLimits.MIN_REQUESTED_ID_CHARS);
            }
            return new Rename(oldId, newId, ms == 0 ? null : Duration.ofMillis(ms));
        }
    }

    /** A session's times and principal, for an operator; the session is not used (its idle time does not restart). */
    record Describe(String sessionId) implements CarriesSessionId<MasterAnswer.Description> {
        @Override
        public int opcode() {
            return Opcodes.DESCRIBE;
        }

        @Override
        public MasterAnswer.Description decodeAnswer(Frame answer, BinaryTransportCodec codec) {
            return MasterAnswer.Description.decode(answer);
        }
    }

    private static int utf8Length(String s) {
        return io.netty.buffer.ByteBufUtil.utf8Bytes(s);
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
            case Opcodes.WRITE -> Write.decode(body, frame.flags(), codec);
            case Opcodes.TOUCH -> new Touch(Bodies.readSessionId(body));
            case Opcodes.DELETE -> new Delete(Bodies.readSessionId(body));
            case Opcodes.CREATE -> (frame.flags() & FrameHeader.FLAG_REQUESTED_ID) != 0 ? readCreateWithId(body) : readCreate(body);
            case Opcodes.RENAME -> Rename.decode(body);
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
            case Opcodes.PRINCIPAL -> SetPrincipal.decode(body);
            case Opcodes.LOGOUT -> new Logout(TransportLimits.decodePrincipal(Bodies.bytes(body)));
            case Opcodes.DESCRIBE -> new Describe(Bodies.readSessionId(body));
            case Opcodes.PRINCIPAL_SESSIONS -> new PrincipalSessions(TransportLimits.decodePrincipal(Bodies.bytes(body)));
            case Opcodes.GROUP_MAP, Opcodes.GROUP_CHANGE, Opcodes.GROUP_APPLY, Opcodes.GROUP_IMPORT ->
                    new GroupOp(frame.opcode(), Bodies.bytes(body));
            default -> throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "opcode " + frame.opcode()
                    + " is unknown to this master (frame version " + FrameHeader.VERSION + ")");
        };
    }

    /** Flag REQUESTED_ID: {@code | id length: u8 | id |}, then the fields of {@link #readCreate}, without a placement. */
    private static Create readCreateWithId(ByteBuf body) {
        int n = body.readableBytes();
        int at = body.readerIndex();
        int idLength = n == 0 ? 0 : body.getUnsignedByte(at);
        if (idLength == 0 || 1 + idLength > n) {
            throw Bodies.bad("CREATE body of " + n + " bytes with flag REQUESTED_ID: expected an id length (1.."
                    + TransportLimits.MAX_SESSION_ID_BYTES + "), the id, then the optional fields");
        }
        String id = Bodies.readSessionId(body.slice(at + 1, idLength));
        if (id.length() < TransportLimits.MIN_REQUESTED_ID_CHARS) {
            throw Bodies.bad("CREATE requested id of " + id.length() + " chars: an id the application chooses must have at least "
                    + TransportLimits.MIN_REQUESTED_ID_CHARS);
        }
        Create rest = readCreate(body.slice(at + 1 + idLength, n - 1 - idLength));
        if (rest.placement() != null) {
            throw Bodies.bad("CREATE with a requested id and a placement: the id places itself, send no placement");
        }
        return new Create(rest.idleTimeout(), null, rest.principal(), id);
    }

    private static Create readCreate(ByteBuf body) {
        int n = body.readableBytes();
        if (n == 0) {
            return new Create(null, null, null);
        }
        if (n < 4) {
            throw Bodies.bad("CREATE body of " + n + " bytes: expected none, or a 4-byte idle timeout in milliseconds and perhaps a "
                    + "placement and a principal");
        }
        int at = body.readerIndex();
        long ms = body.getUnsignedInt(at);
        Duration idle = ms == 0 ? null : Duration.ofMillis(ms);
        if (n == 4) {
            return new Create(idle, null, null);
        }
        int placementBytes = n - 4;
        int principalAt = -1;
        if (n >= 4 + Create.NO_PLACEMENT_BYTES) {
            int names = body.getUnsignedShort(at + 8);
            int end = at + 4 + Create.NO_PLACEMENT_BYTES;
            for (int i = 0; i < names && end < at + n; i++) {
                end += 1 + body.getUnsignedByte(end);
            }
            if (end < at + n) {
                principalAt = end;
                placementBytes = end - at - 4;
            }
        }
        Placement placement = null;
        boolean none = placementBytes == Create.NO_PLACEMENT_BYTES && body.getUnsignedShort(at + 8) == 0
                && body.getInt(at + 4) == 0;
        if (!none) {
            placement = Placement.readFrom(body.slice(at + 4, placementBytes));
        } else if (principalAt < 0) {
            throw Bodies.bad("CREATE with the no-placement marker but no principal after it");
        }
        String principal = null;
        if (principalAt >= 0) {
            int left = at + n - principalAt;
            if (left < 2 || body.getUnsignedShort(principalAt) != left - 2) {
                throw Bodies.bad("CREATE principal field of " + left + " bytes: expected a u16 length and that many bytes");
            }
            byte[] b = new byte[left - 2];
            body.getBytes(principalAt + 2, b);
            principal = TransportLimits.decodePrincipal(b);
        }
        return new Create(idle, placement, principal);
    }
}
