package io.sessionmesh.master.replication;

import io.sessionmesh.master.store.BoundedReads;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a master group's Raft log: a change to the store that every replica applies in log order
 * (PROTOCOL.md 5.2 gives every byte). The leader stamps it with its wall-clock time, so that each replica computes
 * the same expiry from it, and with its own origin and a ticket, so that the replica that proposed it can hand the
 * outcome to the request waiting for it.
 *
 * <pre>
 * u8  format (1)     u8  kind     i64 leader time (epoch ms)     i64 origin     i64 ticket     kind's body
 * </pre>
 */
public sealed interface ReplicaCommand {
    /** The entry format this build writes and reads. */
    int FORMAT = 1;
    /** A batch: several entries of {@link #FORMAT} in one Raft log entry, applied in their order. */
    int BATCH_FORMAT = 2;
    /** Bytes of a batch's header: format, count. */
    int BATCH_HEADER_BYTES = 3;
    /** Most entries in one batch (its count is a u16). */
    int MAX_BATCH_ENTRIES = 0xFFFF;
    /** Bytes before the body. */
    int HEADER_BYTES = 26;
    /** Most session ids in one TOUCH or EXPIRE entry. */
    int MAX_IDS = 4096;

    int WRITE = 1;
    int CREATE = 2;
    int DELETE = 3;
    int TOUCH = 4;
    int EXPIRE = 5;
    int SCHEMA = 6;
    int LEAD = 7;
    /** The cluster map of master groups, as the directory sent it (PROTOCOL.md 3.9, 5.2). */
    int MAP = 8;
    /** Sessions taken out of this group for the group that owns them now. */
    int HANDOFF = 9;
    /** Sessions the group that owns them now has confirmed: out of the outbox. */
    int HANDED = 10;
    /** Sessions and schemas handed to this group by another (a GROUP_IMPORT body). */
    int IMPORT = 11;
    /** A new session with its principal and the host that asked for it (CREATE, from this build on). */
    int CREATE_FOR = 12;
    /** A session's principal set or cleared. */
    int PRINCIPAL = 13;
    /** Every session of a principal deleted ("log out everywhere"). */
    int LOGOUT = 14;
    /** A session moved to a new id and/or given a new idle timeout (RENAME). */
    int RENAME = 15;
    /** Sessions and schemas handed to this group by another for the move to one map (IMPORT, from this build on). */
    int IMPORT_AT = 16;
    /** A write with its write id (PROTOCOL.md 3.12): applied unless the replicas remember a write of that id. */
    int WRITE_ONCE = 17;

    int kind();

    /** The kind's body, after the header. */
    void writeBody(ByteBuffer out, BinaryTransportCodec codec);

    int bodySize(BinaryTransportCodec codec);

    /** A write of sections: the WRITE request's own binary form (PROTOCOL.md 2.1). */
    record Write(WriteRequest request) implements ReplicaCommand {
        public int kind() {
            return WRITE;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return codec.encodedSize(request);
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            codec.encode(request, out);
        }
    }

    /**
     * A write with its write id: {@code | write id: 16 bytes | WRITE_REQUEST |}. Every replica applies it unless its
     * {@link io.sessionmesh.master.store.RecentWrites} holds a write of that id to the session, which it then leaves
     * alone: the same decision on every replica, since the table changes only in log order.
     */
    record WriteOnce(io.sessionmesh.wire.protocol.WriteId writeId, WriteRequest request) implements ReplicaCommand {
        public int kind() {
            return WRITE_ONCE;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return io.sessionmesh.wire.protocol.WriteId.BYTES + codec.encodedSize(request);
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            out.putLong(writeId.high()).putLong(writeId.low());
            codec.encode(request, out);
        }
    }

    /**
     * A new session with the id its leader chose. {@code idleTimeoutMillis} 0: the store's default. Written as
     * CREATE_FOR: {@code id | i64 idle timeout | u8 length, host | u16 length, principal} (lengths 0: none); CREATE
     * entries of earlier builds have neither.
     */
    record Create(String sessionId, long idleTimeoutMillis, String principal, String host) implements ReplicaCommand {
        /** Most bytes of the host's name kept (its length is a u8): a longer one is cut at a character's end. */
        public static final int MAX_HOST_BYTES = 255;

        public Create {
            host = clip(host, MAX_HOST_BYTES);
        }

        public Create(String sessionId, long idleTimeoutMillis) {
            this(sessionId, idleTimeoutMillis, null, null);
        }

        public int kind() {
            return CREATE_FOR;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return idSize(sessionId) + 8 + 1 + utf8(host).length + 2 + utf8(principal).length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            putId(out, sessionId);
            out.putLong(idleTimeoutMillis);
            byte[] h = utf8(host);
            out.put((byte) h.length).put(h);
            putText(out, principal);
        }
    }

    /** A session's principal set, or cleared ({@code principal} null): {@code id | u16 length, principal}. */
    record Principal(String sessionId, String principal) implements ReplicaCommand {
        public int kind() {
            return PRINCIPAL;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return idSize(sessionId) + 2 + utf8(principal).length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            putId(out, sessionId);
            putText(out, principal);
        }
    }

    /**
     * A session moved to {@code newId} ({@code oldId} itself: kept) with {@code idleTimeoutMillis} (0: kept):
     * {@code old id | i64 idle timeout | new id}.
     */
    record Rename(String oldId, String newId, long idleTimeoutMillis) implements ReplicaCommand {
        public int kind() {
            return RENAME;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return idSize(oldId) + 8 + idSize(newId);
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            putId(out, oldId);
            out.putLong(idleTimeoutMillis);
            putId(out, newId);
        }
    }

    /** Every session of {@code principal} deleted: {@code u16 length, principal}. */
    record Logout(String principal) implements ReplicaCommand {
        public int kind() {
            return LOGOUT;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return 2 + utf8(principal).length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            putText(out, principal);
        }
    }

    record Delete(String sessionId) implements ReplicaCommand {
        public int kind() {
            return DELETE;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return idSize(sessionId);
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            putId(out, sessionId);
        }
    }

    /**
     * Sessions used at the entry's time (TOUCH requests), expired by it (the leader's sweep), handed off to the groups
     * that own them now (HANDOFF) or confirmed by them (HANDED), by {@code kind}.
     */
    record Sessions(int kind, List<String> sessionIds) implements ReplicaCommand {
        public Sessions {
            if (kind != TOUCH && kind != EXPIRE && kind != HANDOFF && kind != HANDED) {
                throw new IllegalArgumentException("kind " + kind);
            }
            if (sessionIds.size() > MAX_IDS) {
                throw new IllegalArgumentException(sessionIds.size() + " ids, above " + MAX_IDS);
            }
        }

        public int bodySize(BinaryTransportCodec codec) {
            int n = 2;
            for (String id : sessionIds) {
                n += idSize(id);
            }
            return n;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            out.putShort((short) sessionIds.size());
            for (String id : sessionIds) {
                putId(out, id);
            }
        }
    }

    /** A schema of the attribute codec, published once and kept by every replica. */
    record Schema(long uid, byte[] schema) implements ReplicaCommand {
        public int kind() {
            return SCHEMA;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return 8 + 4 + schema.length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            out.putLong(uid);
            out.putInt(schema.length);
            out.put(schema);
        }
    }

    /**
     * A replica starts to lead at the entry's time: every session counts as used then and nobody holds anything
     * ({@link io.sessionmesh.master.store.SessionStore#lead}). No body.
     */
    record Lead() implements ReplicaCommand {
        public int kind() {
            return LEAD;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return 0;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
        }
    }

    /** A body of bytes: the cluster map (MAP). */
    record Blob(int kind, byte[] bytes) implements ReplicaCommand {
        public Blob {
            if (kind != MAP) {
                throw new IllegalArgumentException("kind " + kind);
            }
        }

        public int bodySize(BinaryTransportCodec codec) {
            return 4 + bytes.length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            out.putInt(bytes.length);
            out.put(bytes);
        }
    }

    /**
     * What another group handed to this one for the move to map {@code epoch} (null: an IMPORT entry of an earlier
     * build, applied as that build did): {@code | i64 epoch | u32 length | schemas and records |}.
     */
    record Import(Long epoch, byte[] records) implements ReplicaCommand {
        public int kind() {
            return epoch == null ? IMPORT : IMPORT_AT;
        }

        public int bodySize(BinaryTransportCodec codec) {
            return (epoch == null ? 0 : 8) + 4 + records.length;
        }

        public void writeBody(ByteBuffer out, BinaryTransportCodec codec) {
            if (epoch != null) {
                out.putLong(epoch);
            }
            out.putInt(records.length);
            out.put(records);
        }
    }

    /** A decoded entry: its command and header. */
    record Entry(ReplicaCommand command, long time, long origin, long ticket) {
    }

    static byte[] encode(ReplicaCommand command, long time, long origin, long ticket, BinaryTransportCodec codec) {
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + command.bodySize(codec));
        out.put((byte) FORMAT).put((byte) command.kind()).putLong(time).putLong(origin).putLong(ticket);
        command.writeBody(out, codec);
        if (out.hasRemaining()) {
            throw new IllegalStateException(command.getClass().getSimpleName() + " wrote " + out.position() + " of "
                    + out.capacity() + " bytes");
        }
        return out.array();
    }

    /**
     * One Raft log entry holding {@code entries} (each from {@link #encode}) in this order: the single entry itself, or
     * a batch {@code | 2: u8 | n: u16 | n x ( length: u32 | entry ) |} (PROTOCOL.md 5.2).
     */
    static byte[] batch(List<byte[]> entries) {
        if (entries.isEmpty() || entries.size() > MAX_BATCH_ENTRIES) {
            throw new IllegalArgumentException(entries.size() + " entries in one batch: 1 to " + MAX_BATCH_ENTRIES);
        }
        if (entries.size() == 1) {
            return entries.get(0);
        }
        int size = BATCH_HEADER_BYTES;
        for (byte[] e : entries) {
            size += 4 + e.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) BATCH_FORMAT).putShort((short) entries.size());
        for (byte[] e : entries) {
            out.putInt(e.length).put(e);
        }
        return out.array();
    }

    /**
     * The entries of one Raft log entry, single or batched, in the order to apply them.
     *
     * @throws MalformedMessageException for an entry this build cannot read (a replica must stop rather than skip it)
     */
    static List<Entry> decodeAll(ByteBuffer in, BinaryTransportCodec codec) {
        if (!in.hasRemaining() || (in.get(in.position()) & 0xFF) != BATCH_FORMAT) {
            return List.of(decode(in, codec));
        }
        try {
            in.get();
            int n = in.getShort() & 0xFFFF;
            List<Entry> entries = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int length = in.getInt();
                if (length < HEADER_BYTES || length > in.remaining()) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "batch entry " + i + " of " + length
                            + " bytes, with " + in.remaining() + " left");
                }
                ByteBuffer one = in.slice(in.position(), length);
                in.position(in.position() + length);
                entries.add(decode(one, codec));
            }
            if (in.hasRemaining()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, in.remaining() + " bytes after a batch of " + n);
            }
            return entries;
        } catch (java.nio.BufferUnderflowException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "batch cut short: " + e);
        }
    }

    /**
     * @throws MalformedMessageException for an entry this build cannot read (a replica must stop rather than skip it)
     */
    static Entry decode(ByteBuffer in, BinaryTransportCodec codec) {
        try {
            int format = in.get() & 0xFF;
            if (format != FORMAT) {
                throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "log entry format " + format
                        + ": this master reads format " + FORMAT);
            }
            int kind = in.get() & 0xFF;
            long time = in.getLong();
            long origin = in.getLong();
            long ticket = in.getLong();
            ReplicaCommand command = switch (kind) {
                case WRITE -> new Write(codec.decode(in, WriteRequest.class));
                case WRITE_ONCE -> {
                    io.sessionmesh.wire.protocol.WriteId id = new io.sessionmesh.wire.protocol.WriteId(in.getLong(), in.getLong());
                    yield new WriteOnce(id, codec.decode(in, WriteRequest.class));
                }
                case CREATE -> new Create(getId(in), in.getLong());
                case CREATE_FOR -> {
                    String id = getId(in);
                    long idle = in.getLong();
                    byte[] host = BoundedReads.bytes(in, in.get() & 0xFF, "a host");
                    String principal = getText(in);
                    yield new Create(id, idle, principal, host.length == 0 ? null : new String(host, StandardCharsets.UTF_8));
                }
                case PRINCIPAL -> new Principal(getId(in), getText(in));
                case LOGOUT -> {
                    String principal = getText(in);
                    if (principal == null) {
                        throw new IllegalArgumentException("LOGOUT without a principal");
                    }
                    yield new Logout(principal);
                }
                case DELETE -> new Delete(getId(in));
                case RENAME -> {
                    String oldId = getId(in);
                    long idle = in.getLong();
                    yield new Rename(oldId, getId(in), idle);
                }
                case TOUCH, EXPIRE, HANDOFF, HANDED -> {
                    int n = in.getShort() & 0xFFFF;
                    List<String> ids = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        ids.add(getId(in));
                    }
                    yield new Sessions(kind, ids);
                }
                case SCHEMA -> {
                    long uid = in.getLong();
                    yield new Schema(uid, BoundedReads.sized(in, "a schema"));
                }
                case LEAD -> new Lead();
                case MAP -> new Blob(kind, BoundedReads.sized(in, "a cluster map"));
                case IMPORT -> new Import(null, BoundedReads.sized(in, "a GROUP_IMPORT body"));
                case IMPORT_AT -> {
                    long epoch = in.getLong();
                    yield new Import(epoch, BoundedReads.sized(in, "a GROUP_IMPORT body"));
                }
                default -> throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "log entry kind " + kind
                        + " is unknown to this master");
            };
            if (in.hasRemaining()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, in.remaining() + " bytes after a log entry of kind "
                        + kind);
            }
            return new Entry(command, time, origin, ticket);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "log entry cut short or malformed: " + e);
        }
    }

    /** {@code text} cut to at most {@code max} UTF-8 bytes, at the end of a character. */
    static String clip(String text, int max) {
        if (text == null || text.length() * 3 <= max || utf8(text).length <= max) {
            return text;
        }
        int end = 0;
        int bytes = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + n > max) {
                break;
            }
            bytes += n;
            end += Character.charCount(cp);
        }
        return text.substring(0, end);
    }

    private static byte[] utf8(String text) {
        return text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
    }

    /** A u16 length and UTF-8 bytes; length 0 for null. */
    private static void putText(ByteBuffer out, String text) {
        byte[] bytes = utf8(text);
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("text of " + bytes.length + " bytes");
        }
        out.putShort((short) bytes.length).put(bytes);
    }

    /** A principal (the only text of an entry): 1..256 bytes of UTF-8 without a control character, or none. */
    private static String getText(ByteBuffer in) {
        byte[] bytes = BoundedReads.bytes(in, in.getShort() & 0xFFFF, "a text");
        if (bytes.length == 0) {
            return null;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (!java.util.Arrays.equals(bytes, text.getBytes(StandardCharsets.UTF_8))) {
            throw new IllegalArgumentException("a principal that is not UTF-8");
        }
        io.sessionmesh.wire.transport.TransportLimits.checkPrincipal(text);
        return text;
    }

    private static int idSize(String id) {
        return 1 + id.getBytes(StandardCharsets.UTF_8).length;
    }

    private static void putId(ByteBuffer out, String id) {
        byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 255) {
            throw new IllegalArgumentException("session id of " + bytes.length + " bytes");
        }
        out.put((byte) bytes.length).put(bytes);
    }

    /** A session id: 1..128 characters of the id alphabet, as every id the wire lets in. */
    private static String getId(ByteBuffer in) {
        byte[] bytes = BoundedReads.bytes(in, in.get() & 0xFF, "a session id");
        return io.sessionmesh.wire.transport.TransportLimits.checkSessionId(new String(bytes, StandardCharsets.ISO_8859_1));
    }
}
