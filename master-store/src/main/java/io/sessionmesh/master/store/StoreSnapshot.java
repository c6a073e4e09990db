package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
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

    /**
     * The first u32 of a GROUP_IMPORT body that names the map of its move (from this build on): an earlier body starts
     * with its count of schemas, which is never this.
     */
    public static final int IMPORT_WITH_EPOCH = 0xFFFFFFFF;

    /**
     * A GROUP_IMPORT body, {@code | u32 0xFFFFFFFF | u64 map epoch | u32 schemas ... | records | 0 |}: the epoch of
     * the moving map it is sent for, these schemas, then these session records ({@link #record}).
     */
    public static byte[] moveBody(long epoch, Map<Long, byte[]> schemas, List<byte[]> records) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(IMPORT_WITH_EPOCH);
            out.writeLong(epoch);
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
     * A GROUP_IMPORT body taken apart: the epoch of the move it is for (null from a sender of an earlier build) and
     * the schemas and records after it.
     */
    public record Import(Long epoch, byte[] records) {
        /** @throws StoreException BAD_REQUEST for a body too short to say */
        public static Import of(byte[] body) {
            if (body.length >= 12 && ByteBuffer.wrap(body).getInt() == IMPORT_WITH_EPOCH) {
                return new Import(ByteBuffer.wrap(body, 4, 8).getLong(), Arrays.copyOfRange(body, 12, body.length));
            }
            if (body.length < 4 || ByteBuffer.wrap(body).getInt() == IMPORT_WITH_EPOCH) {
                throw new StoreException(Status.BAD_REQUEST, "GROUP_IMPORT body of " + body.length + " bytes: cut short");
            }
            return new Import(null, body);
        }
    }

    /**
     * Adopts what a GROUP_IMPORT body (its schemas and records, {@link Import#records}) carries: every schema, and
     * every session this store does not have yet ({@link SessionStore#adopt}) that {@code mayAdopt} lets in (not one
     * this group adopted and lost since, during this move); {@code adopted} hears each one adopted. Returns how many.
     *
     * @throws IOException for a body cut short or malformed
     */
    public static int adoptAll(SessionStore store, byte[] records, BinaryTransportCodec codec, long now) throws IOException {
        return adoptAll(store, records, codec, now, id -> true, id -> { });
    }

    /** {@link #adoptAll(SessionStore, byte[], BinaryTransportCodec, long)}, sessions let in by {@code mayAdopt} only. */
    public static int adoptAll(SessionStore store, byte[] records, BinaryTransportCodec codec, long now,
                               java.util.function.Predicate<String> mayAdopt,
                               java.util.function.Consumer<String> adopted) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(records));
        readSchemas(store, in);
        int count = 0;
        for (Record r = Record.next(in, codec); r != null; r = Record.next(in, codec)) {
            if (mayAdopt.test(r.id)
                    && store.adopt(r.id, r.created, r.idleTimeout, r.hardDeadline, r.lastAccess, r.sections, r.identity, now)) {
                adopted.accept(r.id);
                count++;
            }
        }
        return count;
    }

    /**
     * Checks a GROUP_IMPORT body on the leader of the group it is for, before it is proposed (what enters the log is
     * applied alike on every replica, so nothing there may fail): every length against the bytes present, every id,
     * time and size against this store's limits, nothing after the records, and room for what it adds, in sessions
     * (max-sessions) and bytes (the memory budget, {@link MemoryBudget#checkBeforeProposing}). Returns how many
     * sessions it would add (one already live here, the same move sent again, adds nothing).
     *
     * @throws StoreException BAD_REQUEST naming what is wrong, UNAVAILABLE when it does not fit
     */
    public static int checkImport(SessionStore store, byte[] body, BinaryTransportCodec codec) {
        StoreLimits limits = store.limits();
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(body));
        long growth = 0;
        int added = 0;
        try {
            int schemas = in.readInt();
            if (schemas < 0 || schemas > limits.maxSchemas()) {
                throw new IOException(schemas + " schemas: 0 to " + limits.maxSchemas());
            }
            java.util.Set<Long> newSchemas = new java.util.HashSet<>();
            for (int i = 0; i < schemas; i++) {
                long uid = in.readLong();
                byte[] schema = BoundedReads.bytes(in, in.readInt(), limits.maxSchemaBytes(), "schema " + Long.toHexString(uid));
                if (schema.length == 0) {
                    throw new IOException("schema " + Long.toHexString(uid) + " is empty");
                }
                if (store.schemas().fetch(uid) == null && newSchemas.add(uid)) {
                    growth += MemoryBudget.schemaCost(schema.length);
                }
            }
            if ((long) store.schemas().size() + newSchemas.size() > limits.maxSchemas()) {
                throw new StoreException(Status.UNAVAILABLE, "GROUP_IMPORT of " + newSchemas.size() + " schemas: this "
                        + "group holds " + store.schemas().size() + " of its max-schemas " + limits.maxSchemas());
            }
            for (Record r = Record.next(in, codec); r != null; r = Record.next(in, codec)) {
                checkRecord(r, limits);
                if (!store.isLive(r.id)) {
                    added++;
                    growth += MemoryBudget.SESSION_OVERHEAD + (long) r.sections.length * MemoryBudget.SECTION_OVERHEAD
                            + bytes(r.sections) + MemoryBudget.principalCost(r.identity.principal());
                }
            }
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes after the last session record");
            }
        } catch (StoreException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new StoreException(Status.BAD_REQUEST, "GROUP_IMPORT body: " + e.getMessage());
        }
        if ((long) store.sessionCount() + added > limits.maxSessions()) {
            throw new StoreException(Status.UNAVAILABLE, "GROUP_IMPORT of " + added + " sessions: this group holds "
                    + store.sessionCount() + " of its max-sessions " + limits.maxSessions());
        }
        store.budget().checkBeforeProposing(growth, "GROUP_IMPORT of " + added + " sessions");
        return added;
    }

    private static long bytes(EncodedSection[] sections) {
        long bytes = 0;
        for (EncodedSection section : sections) {
            bytes += section.encodedSize();
        }
        return bytes;
    }

    private static void checkRecord(Record r, StoreLimits limits) throws IOException {
        try {
            io.sessionmesh.wire.transport.TransportLimits.checkSessionId(r.id);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        String session = "session " + SessionIds.redact(r.id);
        long maxIdle = limits.maxIdleTimeout().toMillis();
        long maxLifetime = limits.maxLifetime().toMillis();
        if (r.idleTimeout < 1 || r.idleTimeout > maxIdle) {
            throw new IOException(session + ": idle timeout " + r.idleTimeout + " ms, not 1 to " + maxIdle
                    + " (max-idle-timeout)");
        }
        if (r.hardDeadline < r.created || r.hardDeadline - r.created > maxLifetime || r.lastAccess < r.created
                || r.lastAccess > r.hardDeadline) {
            throw new IOException(session + ": created " + r.created + ", last used " + r.lastAccess + ", ends "
                    + r.hardDeadline + ": not in order within max-lifetime " + maxLifetime + " ms");
        }
        if (r.sections.length > limits.maxSectionsPerSession()) {
            throw new IOException(session + ": " + r.sections.length + " sections, above max-sections-per-session "
                    + limits.maxSectionsPerSession());
        }
        if (bytes(r.sections) > limits.maxSessionBytes()) {
            throw new IOException(session + ": " + bytes(r.sections) + " bytes, above max-session-bytes "
                    + limits.maxSessionBytes());
        }
    }

    /**
     * The principal a session record (as HANDOFF takes it, without its tag) names, or null for none or a record that
     * cannot say: read past the sections without decoding them.
     */
    public static String principalOfRecord(byte[] record) {
        try {
            ByteBuffer in = ByteBuffer.wrap(record);
            in.position(in.position() + 1 + (in.get(0) & 0xFF) + 32);
            int sections = in.getInt();
            in.position(in.position() + sections + 4);
            int host = in.get() & 0xFF;
            in.position(in.position() + host);
            int length = in.getShort() & 0xFFFF;
            if (length == 0 || length > in.remaining()) {
                return null;
            }
            byte[] p = new byte[length];
            in.get(p);
            return new String(p, StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            return null;
        }
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
            byte[] id = BoundedReads.bytes(in, in.readUnsignedByte(), 255, "a session id");
            long created = in.readLong();
            long idleTimeout = in.readLong();
            long hardDeadline = in.readLong();
            long lastAccess = in.readLong();
            byte[] body = BoundedReads.sized(in, "a session's sections");
            List<EncodedSection> sections = codec.decodeEncodedReadResult(body, 0, body.length).sections();
            Identity identity = Identity.UNKNOWN;
            if (tag == RECORD_WITH_IDENTITY) {
                long version = in.readInt() & 0xFFFF_FFFFL;
                byte[] host = BoundedReads.bytes(in, in.readUnsignedByte(), 255, "a host");
                byte[] principal = BoundedReads.bytes(in, in.readUnsignedShort(), 0xFFFF, "a principal");
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
            store.schemas().adopt(uid, BoundedReads.sized(in, "schema " + Long.toHexString(uid)));
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
            state = BoundedReads.sized(in, "the group's state");
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
