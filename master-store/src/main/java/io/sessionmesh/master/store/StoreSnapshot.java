package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A whole store as one stream, for a replicated group's snapshots (a replica that restarts or falls behind loads the
 * latest one, then the log after it). Taken on the thread that applies the log, so it is the state at one log index;
 * reads that run meanwhile only move access times. PROTOCOL.md 5.3 gives the format:
 *
 * <pre>
 * "SMSN"  u8 format (1, 2 or 3)
 * u32 schemas, each: i64 uid, u32 length, bytes
 * per session: u8 tag (1, or 2 from format 3), u8 id length, id, i64 created, i64 idle timeout, i64 hard deadline,
 *              i64 last access, u32 length, the sections as a READ_RESULT message (PROTOCOL.md 2.1),
 *              tag 2 only: u32 registry version, u8 host length, host (UTF-8), u16 principal length, principal
 *              (UTF-8; length 0: none)
 * u8 0
 * format 2 to 4: u32 length, the replicated group's own state (its cluster map and the sessions it is handing off)
 * format 4: u32 length, the writes applied lately under a write id ({@link RecentWrites#encode})
 * </pre>
 *
 * <p>The same session records, after the same u32 count of schemas, make the body of a GROUP_IMPORT (PROTOCOL.md 5.3):
 * {@link #moveBody} and {@link #adoptAll}.
 */
public final class StoreSnapshot {
    private static final int MAGIC = 0x534D534E;
    private static final int FORMAT = 4;
    /** Snapshots of earlier builds: no recent writes (1 to 3), no group state (1), no session identity (1 and 2). */
    private static final int FORMAT_3 = 3;
    private static final int FORMAT_1 = 1;
    private static final int FORMAT_2 = 2;
    /** A session record without, and with, its identity (principal, host, registry version). */
    private static final int RECORD = 1;
    private static final int RECORD_WITH_IDENTITY = 2;

    /**
     * The most bytes a snapshot's recent writes may take, checked before they are allocated: an entry encodes to fewer
     * bytes than {@link RecentWrites} counts for it, and the table never counts more than
     * {@link RecentWrites#MAX_BYTES}; twice that leaves room and still bounds the allocation.
     */
    static final int MAX_RECENT_WRITES_BYTES = (int) (2 * RecentWrites.MAX_BYTES);

    /** The host names read so far, shared by the sessions that name them (a handful of peers). */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> HOSTS = new java.util.concurrent.ConcurrentHashMap<>();
    /** Host names shared at most; past it each session keeps its own copy. */
    private static final int MAX_SHARED_HOSTS = 4096;

    private StoreSnapshot() {
    }

    /** Writes every live session and schema of {@code store}; returns the sessions written. */
    public static int write(SessionStore store, DataOutputStream out, BinaryTransportCodec codec) throws IOException {
        return write(store, out, codec, new byte[0]);
    }

    /** {@link #write}, then {@code groupState} (what the replicated group keeps beside the store). */
    public static int write(SessionStore store, DataOutputStream out, BinaryTransportCodec codec, byte[] groupState)
            throws IOException {
        return write(store, out, codec, groupState, new byte[0]);
    }

    /** {@link #write}, then {@code groupState}, then {@code recentWrites} ({@link RecentWrites#encode}). */
    public static int write(SessionStore store, DataOutputStream out, BinaryTransportCodec codec, byte[] groupState,
                            byte[] recentWrites) throws IOException {
        out.writeInt(MAGIC);
        out.writeByte(FORMAT);
        int[] schemas = {0};
        store.schemas().forEach((uid, bytes) -> schemas[0]++);
        out.writeInt(schemas[0]);
        IOException[] failed = {null};
        store.schemas().forEach((uid, bytes) -> {
            try {
                out.writeLong(uid);
                out.writeInt(bytes.length);
                out.write(bytes);
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        int written = 0;
        for (Session session : store.sessionsForSnapshot()) {
            EncodedSection[] sections;
            long lastAccess;
            Identity identity;
            synchronized (session) {
                if (session.removed) {
                    continue;
                }
                sections = session.sections;
                lastAccess = store.snapshotAccess(session);
                identity = Identity.of(session);
            }
            out.writeByte(RECORD_WITH_IDENTITY);
            writeRecord(out, session.id, session.createdAt, session.idleTimeout, session.hardDeadline, lastAccess,
                    sections, identity, codec);
            written++;
        }
        out.writeByte(0);
        out.writeInt(groupState.length);
        out.write(groupState);
        out.writeInt(recentWrites.length);
        out.write(recentWrites);
        return written;
    }

    private static void writeRecord(DataOutputStream out, String sessionId, long createdAt, long idleTimeout,
                                    long hardDeadline, long lastAccess, EncodedSection[] sections, Identity identity,
                                    BinaryTransportCodec codec) throws IOException {
        byte[] id = sessionId.getBytes(StandardCharsets.UTF_8);
        byte[] body = codec.encodeReadResult(new EncodedReadResult(sessionId, Arrays.asList(sections)));
        out.writeByte(id.length);
        out.write(id);
        out.writeLong(createdAt);
        out.writeLong(idleTimeout);
        out.writeLong(hardDeadline);
        out.writeLong(lastAccess);
        out.writeInt(body.length);
        out.write(body);
        out.writeInt((int) identity.registryVersion());
        byte[] host = identity.host() == null ? new byte[0] : identity.host().getBytes(StandardCharsets.UTF_8);
        byte[] principal = identity.principal() == null ? new byte[0] : identity.principal().getBytes(StandardCharsets.UTF_8);
        out.writeByte(Math.min(host.length, 255));
        out.write(host, 0, Math.min(host.length, 255));
        out.writeShort(principal.length);
        out.write(principal);
    }

    /** One session's record (without the leading 1), as a move carries it. */
    public static byte[] record(SessionStore.Taken t, BinaryTransportCodec codec) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeRecord(out, t.id(), t.createdAt(), t.idleTimeout(), t.hardDeadline(), t.lastAccess(), t.sections(),
                    t.identity(), codec);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A GROUP_IMPORT body: these schemas, then these session records ({@link #record}). */
    public static byte[] moveBody(Map<Long, byte[]> schemas, List<byte[]> records) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(schemas.size());
            for (Map.Entry<Long, byte[]> e : schemas.entrySet()) {
                out.writeLong(e.getKey());
                out.writeInt(e.getValue().length);
                out.write(e.getValue());
            }
            for (byte[] r : records) {
                out.writeByte(RECORD_WITH_IDENTITY);
                out.write(r);
            }
            out.writeByte(0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Adopts what a GROUP_IMPORT body carries: every schema, and every session this store does not have yet
     * ({@link SessionStore#adopt}); returns the sessions adopted.
     *
     * @throws IOException for a body cut short or malformed
     */
    public static int adoptAll(SessionStore store, byte[] body, BinaryTransportCodec codec, long now) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(body));
        readSchemas(store, in);
        int adopted = 0;
        for (Record r = Record.next(in, codec); r != null; r = Record.next(in, codec)) {
            if (store.adopt(r.id, r.created, r.idleTimeout, r.hardDeadline, r.lastAccess, r.sections, r.identity, now)) {
                adopted++;
            }
        }
        return adopted;
    }

    /** One session's record as {@link #writeRecord} writes it. */
    private record Record(String id, long created, long idleTimeout, long hardDeadline, long lastAccess,
                          EncodedSection[] sections, Identity identity) {
        /** The record after its tag, or null at the 0 that ends the records. */
        static Record next(DataInputStream in, BinaryTransportCodec codec) throws IOException {
            int tag = in.readUnsignedByte();
            if (tag == 0) {
                return null;
            }
            if (tag != RECORD && tag != RECORD_WITH_IDENTITY) {
                throw new IOException("session record tag " + tag + ": expected " + RECORD + " or " + RECORD_WITH_IDENTITY);
            }
            byte[] id = new byte[in.readUnsignedByte()];
            in.readFully(id);
            long created = in.readLong();
            long idleTimeout = in.readLong();
            long hardDeadline = in.readLong();
            long lastAccess = in.readLong();
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            List<EncodedSection> sections = codec.decodeEncodedReadResult(body, 0, body.length).sections();
            Identity identity = Identity.UNKNOWN;
            if (tag == RECORD_WITH_IDENTITY) {
                long version = in.readInt() & 0xFFFF_FFFFL;
                byte[] host = new byte[in.readUnsignedByte()];
                in.readFully(host);
                byte[] principal = new byte[in.readUnsignedShort()];
                in.readFully(principal);
                // hosts are few and repeat across sessions: one string each
                String hostName = host.length == 0 ? null : shared(new String(host, StandardCharsets.UTF_8));
                identity = new Identity(principal.length == 0 ? null : new String(principal, StandardCharsets.UTF_8),
                        hostName, Math.max(1, version));
            }
            return new Record(new String(id, StandardCharsets.UTF_8), created, idleTimeout, hardDeadline, lastAccess,
                    sections.toArray(EncodedSection[]::new), identity);
        }
    }

    private static String shared(String host) {
        String known = HOSTS.get(host);
        if (known != null) {
            return known;
        }
        if (HOSTS.size() < MAX_SHARED_HOSTS) {
            known = HOSTS.putIfAbsent(host, host);
        }
        return known == null ? host : known;
    }

    private static void readSchemas(SessionStore store, DataInputStream in) throws IOException {
        int schemas = in.readInt();
        if (schemas < 0) {
            throw new IOException(schemas + " schemas");
        }
        for (int i = 0; i < schemas; i++) {
            long uid = in.readLong();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            store.schemas().adopt(uid, bytes);
        }
    }

    /** Replaces everything in {@code store} by the snapshot; returns the sessions read. */
    public static int read(SessionStore store, DataInputStream in, BinaryTransportCodec codec) throws IOException {
        return read(store, in, codec, null);
    }

    /**
     * {@link #read}; {@code groupState} (if not null) gets the group's own state of a format-2 snapshot (empty for
     * format 1).
     */
    public static int read(SessionStore store, DataInputStream in, BinaryTransportCodec codec,
                           java.util.function.Consumer<byte[]> groupState) throws IOException {
        return read(store, in, codec, groupState, null);
    }

    /**
     * {@link #read}; {@code recentWrites} (if not null) gets the writes applied lately of a format-4 snapshot (empty for
     * earlier formats), a length checked against {@link RecentWrites#MAX_BYTES}-derived bounds before it is allocated.
     */
    public static int read(SessionStore store, DataInputStream in, BinaryTransportCodec codec,
                           java.util.function.Consumer<byte[]> groupState, java.util.function.Consumer<byte[]> recentWrites)
            throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a SessionMesh store snapshot");
        }
        int format = in.readUnsignedByte();
        if (format != FORMAT && format != FORMAT_3 && format != FORMAT_2 && format != FORMAT_1) {
            throw new IOException("snapshot format " + format + ": this master reads formats " + FORMAT_1 + " to " + FORMAT);
        }
        store.clearForSnapshot();
        readSchemas(store, in);
        int read = 0;
        for (Record r = Record.next(in, codec); r != null; r = Record.next(in, codec)) {
            store.restore(r.id, r.created, r.idleTimeout, r.hardDeadline, r.lastAccess, r.sections, r.identity);
            read++;
        }
        byte[] state = new byte[0];
        if (format != FORMAT_1) {
            state = new byte[in.readInt()];
            in.readFully(state);
        }
        if (groupState != null) {
            groupState.accept(state);
        }
        byte[] writes = new byte[0];
        if (format == FORMAT) {
            int length = in.readInt();
            if (length < 0 || length > MAX_RECENT_WRITES_BYTES) {
                throw new IOException("recent writes of " + Integer.toUnsignedString(length) + " bytes: at most "
                        + MAX_RECENT_WRITES_BYTES);
            }
            writes = new byte[length];
            in.readFully(writes);
        }
        if (recentWrites != null) {
            recentWrites.accept(writes);
        }
        return read;
    }
}
