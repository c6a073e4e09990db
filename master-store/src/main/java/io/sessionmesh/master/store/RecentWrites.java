package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.EncodedWrite;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;
import io.sessionmesh.wire.transport.WriteRequest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;

/**
 * The writes a master applied lately under a write id (PROTOCOL.md 3.12), so that the same write sent again (a retry
 * after a connection cut or a timeout left its outcome unknown) is answered with the versions it made instead of being
 * applied a second time: a retry that came after another client's write of the same attribute would otherwise put the
 * older value back.
 *
 * <p>An entry is the session id, the write id, a digest of the write ({@link EncodedWrite#digest()}), the time it was
 * applied and the version it gave each section, in the order of its deltas. The same write id with another digest is
 * another write: CONFLICT, nothing applied. Only writes that were applied are remembered: a refused one (CONFLICT,
 * TOO_LARGE, NOT_FOUND, ...) changed nothing, so sending it again is safe anyway.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>value</th><th>over it</th></tr>
 *   <tr><td>how long an entry is kept ({@link #WINDOW_MILLIS})</td><td>2 min</td><td>forgotten: a write sent again
 *       later is applied again</td></tr>
 *   <tr><td>entries ({@link #MAX_ENTRIES})</td><td>262,144</td><td>the oldest forgotten first
 *       ({@link #evictedEarly()} counts those forgotten inside the window)</td></tr>
 *   <tr><td>bytes, counted as {@link #ENTRY_BYTES} + the session id + 8 a section ({@link #MAX_BYTES})</td>
 *       <td>64 MiB</td><td>the same</td></tr>
 * </table>
 * The bytes are outside the store's memory budget ({@code max-store}): a fixed 64 MiB at most. Under load the window is
 * the shorter of {@link #WINDOW_MILLIS} and {@link #MAX_ENTRIES} writes: 26 s at 10,000 writes with ids a second.
 *
 * <p>In a master group every replica keeps the same table: entries are added and dropped only while a log entry is
 * applied, in log order, at the entry's leader time (never a replica's own clock), and a snapshot carries the table
 * ({@link #encode}, {@link #load}), so a new leader after a failover knows what the old one applied. The fences of
 * the writes (their invalidations) are the leader's alone and are not replicated: a retry answered from here waits
 * for the original write's fence where this replica still has it.
 *
 * <p>Thread-safe. A single master applies writes on many event loops: {@link #write} holds one of
 * {@link #STRIPES} locks, chosen by the session id, from the lookup until the write is recorded, so two copies of one
 * write cannot both be applied; writes to other sessions rarely share a lock.
 */
public final class RecentWrites {
    /** How long an applied write id is remembered, by the time it was applied (a group's leader time). */
    public static final long WINDOW_MILLIS = 120_000;
    /** Entries at most; past it the oldest go first. */
    public static final int MAX_ENTRIES = 262_144;
    /** Bytes at most, counted per entry as below; past it the oldest go first. */
    public static final long MAX_BYTES = 64L << 20;
    /** What an entry costs besides its session id and versions: the map node, the key, the entry and its array. */
    public static final int ENTRY_BYTES = 160;
    /** Locks a single master's writes with ids take, by session. */
    static final int STRIPES = 64;
    /** Format byte of {@link #encode}. */
    static final int FORMAT = 1;
    /** The least bytes of one encoded entry: id length and 1 byte of id, write id, digest, time, section count. */
    private static final int MIN_ENCODED_ENTRY = 1 + 1 + WriteId.BYTES + 8 + 8 + 2;

    private record Key(String sessionId, long high, long low) {
    }

    /**
     * One applied write. {@code fence} is this replica's own, while its invalidations are not all confirmed (not
     * replicated; null once done, and after a load): an answer from memory waits for it, as the first answer did.
     */
    private static final class Entry {
        final Key key;
        final long digest;
        final long appliedAt;
        final long[] versions;
        volatile Fence fence;

        Entry(Key key, long digest, long appliedAt, long[] versions, Fence fence) {
            this.key = key;
            this.digest = digest;
            this.appliedAt = appliedAt;
            this.versions = versions;
            if (fence != null && !fence.isDone()) {
                this.fence = fence;
                fence.whenDone(() -> this.fence = null);
            }
        }

        Key key() {
            return key;
        }

        long digest() {
            return digest;
        }

        long appliedAt() {
            return appliedAt;
        }

        long[] versions() {
            return versions;
        }

        long bytes() {
            return ENTRY_BYTES + 2L * key.sessionId().length() + 8L * versions.length;
        }
    }

    private final Object[] stripes = new Object[STRIPES];
    /** Guarded by itself; insertion order is the order entries were applied. */
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>();
    private long bytes;
    private long duplicates;
    private long evictedEarly;

    public RecentWrites() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /**
     * Applies {@code request} through {@code apply} unless a write of {@code id} to its session is remembered: then the
     * remembered versions are the answer, and nothing is applied. An applied write is remembered at {@code now}.
     *
     * @param times the session's times now, for an answer from memory (it may have been deleted since: zero times)
     * @throws StoreException CONFLICT when {@code id} was used for another write to the session; whatever
     *     {@code apply} throws
     */
    public SessionStore.Written write(WriteId id, WriteRequest request, long now, Supplier<SessionStore.Written> apply,
                                      Supplier<SessionTimes> times) {
        EncodedWrite write = request.encoded();
        Key key = new Key(write.sessionId(), id.high(), id.low());
        long digest = write.digest();
        synchronized (stripes[Math.floorMod(key.sessionId().hashCode(), STRIPES)]) {
            Entry seen;
            synchronized (entries) {
                expire(now);
                seen = entries.get(key);
                if (seen != null) {
                    if (seen.digest() != digest) {
                        throw new StoreException(Status.CONFLICT, "write id " + id + " was used for another write to this"
                                + " session; nothing applied (a retry must send the same write)");
                    }
                    duplicates++;
                }
            }
            if (seen != null) {
                SessionTimes t = times.get();
                Fence fence = seen.fence;
                return new SessionStore.Written(write, seen.versions().clone(), fence, t == null ? SessionTimes.NONE : t,
                        new EncodedSection[0]);
            }
            SessionStore.Written written = apply.get();
            synchronized (entries) {
                add(new Entry(key, digest, now, written.versions().clone(), written.fence()));
            }
            return written;
        }
    }

    /** Forgets entries older than the window at {@code now}, in the order they were added (guarded by entries). */
    private void expire(long now) {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (now - e.appliedAt() < WINDOW_MILLIS) {
                return; // leader times need not rise, but every replica stops at the same entry: the same table
            }
            it.remove();
            bytes -= e.bytes();
        }
    }

    /** Adds an entry, then forgets the oldest while over a limit (guarded by entries). */
    private void add(Entry e) {
        Entry old = entries.remove(e.key());
        if (old != null) {
            bytes -= old.bytes();
        }
        entries.put(e.key(), e);
        bytes += e.bytes();
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && (entries.size() > MAX_ENTRIES
                || bytes > MAX_BYTES); ) {
            Entry oldest = it.next();
            it.remove();
            bytes -= oldest.bytes();
            evictedEarly++;
        }
    }

    /** Entries remembered now. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** Writes answered from memory instead of applied again, since start. */
    public long duplicates() {
        synchronized (entries) {
            return duplicates;
        }
    }

    /** Entries forgotten before their window ran out, for {@link #MAX_ENTRIES} or {@link #MAX_BYTES}, since start. */
    public long evictedEarly() {
        synchronized (entries) {
            return evictedEarly;
        }
    }

    /** Bytes counted for the entries now. */
    public long bytes() {
        synchronized (entries) {
            return bytes;
        }
    }

    /**
     * The STATS figures (PROTOCOL.md 3.12): {@code write_ids} and {@code write_id_bytes} (levels),
     * {@code write_id_duplicates} and {@code write_ids_evicted_early} (counts since start).
     */
    void putInto(java.util.Map<String, Long> stats) {
        synchronized (entries) {
            stats.put("write_ids", (long) entries.size());
            stats.put("write_id_bytes", bytes);
            stats.put("write_id_duplicates", duplicates);
            stats.put("write_ids_evicted_early", evictedEarly);
        }
    }

    /**
     * The table as a snapshot carries it (PROTOCOL.md 5.3), oldest first:
     * {@code | format: u8 (1) | n: u32 | n x ( id length: u8 | session id | write id: 16 bytes | digest: u64 |
     * applied at: i64 | m: u16 | m x version: u64 ) |}.
     */
    public byte[] encode() {
        synchronized (entries) {
            long size = 1 + 4;
            for (Entry e : entries.values()) {
                size += 1 + e.key().sessionId().length() + WriteId.BYTES + 8 + 8 + 2 + 8L * e.versions().length;
            }
            ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size));
            out.put((byte) FORMAT).putInt(entries.size());
            for (Entry e : entries.values()) {
                byte[] id = e.key().sessionId().getBytes(StandardCharsets.US_ASCII);
                out.put((byte) id.length).put(id).putLong(e.key().high()).putLong(e.key().low()).putLong(e.digest())
                        .putLong(e.appliedAt()).putShort((short) e.versions().length);
                for (long v : e.versions()) {
                    out.putLong(v);
                }
            }
            return out.array();
        }
    }

    /**
     * Replaces the table by what {@link #encode} wrote; an empty array empties it (a snapshot of an earlier build). Every
     * count and length is checked against its limit and the bytes left before anything is allocated.
     *
     * @throws IllegalArgumentException for bytes {@link #encode} would not write; the table is left as it was
     */
    public void load(byte[] bytes) {
        List<Entry> read = decode(bytes);
        synchronized (entries) {
            entries.clear();
            this.bytes = 0;
            for (Entry e : read) {
                add(e);
            }
        }
    }

    private static List<Entry> decode(byte[] bytes) {
        if (bytes.length == 0) {
            return List.of();
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int format = in.get() & 0xFF;
        if (format != FORMAT) {
            throw new IllegalArgumentException("recent writes of format " + format + ": this master reads " + FORMAT);
        }
        need(in, 4, "the entry count");
        long n = in.getInt() & 0xFFFF_FFFFL;
        if (n > MAX_ENTRIES || n > in.remaining() / MIN_ENCODED_ENTRY) {
            throw new IllegalArgumentException(n + " recent writes in " + in.remaining() + " bytes (at most " + MAX_ENTRIES
                    + ", " + MIN_ENCODED_ENTRY + " bytes each at least)");
        }
        List<Entry> out = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            need(in, 1, "an id length");
            int idLength = in.get() & 0xFF;
            if (idLength == 0 || idLength > TransportLimits.MAX_SESSION_ID_BYTES) {
                throw new IllegalArgumentException("recent write " + i + ": a session id of " + idLength + " bytes");
            }
            need(in, idLength + WriteId.BYTES + 8 + 8 + 2, "recent write " + i);
            byte[] id = new byte[idLength];
            in.get(id);
            String sessionId = new String(id, StandardCharsets.US_ASCII);
            try {
                TransportLimits.checkSessionId(sessionId);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("recent write " + i + ": " + e.getMessage());
            }
            Key key = new Key(sessionId, in.getLong(), in.getLong());
            long digest = in.getLong();
            long appliedAt = in.getLong();
            int m = in.getShort() & 0xFFFF;
            need(in, 8L * m, "recent write " + i + "'s versions");
            long[] versions = new long[m];
            for (int v = 0; v < m; v++) {
                versions[v] = in.getLong();
            }
            out.add(new Entry(key, digest, appliedAt, versions, null));
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " bytes after " + n + " recent writes");
        }
        return out;
    }

    private static void need(ByteBuffer in, long bytes, String what) {
        if (in.remaining() < bytes) {
            throw new IllegalArgumentException(what + ": " + bytes + " bytes needed, " + in.remaining() + " left");
        }
    }
}
