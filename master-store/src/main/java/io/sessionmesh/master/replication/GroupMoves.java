package io.sessionmesh.master.replication;

import io.sessionmesh.wire.placement.GroupMap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import io.sessionmesh.master.store.BoundedReads;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a replicated group keeps beside its store for elastic groups (PROTOCOL.md 3.9, 5.3): the latest cluster map it
 * applied; its outbox, the sessions it took out of its store for the groups that own them now and that those have
 * not confirmed yet; the ids of the sessions it adopted during the move in progress, so that an import sent again (its
 * answer was lost) does not bring back one deleted, logged out, renamed or expired since (a tombstone for each); and
 * how many log entries it refused to apply (alike on every replica). Changed only by the thread that applies the log;
 * read by any. Part of every snapshot.
 *
 * <p>The adopted ids are kept for one map: a move ends only once every sender's outbox is empty, so no import of it
 * can come later, and an import of another map is refused ({@link #importRefusal}). They are as many as the sessions
 * moved into this group by one move, each of which had to fit in its memory budget.
 */
public final class GroupMoves {
    /** One session on its way out: the group (its name) it goes to, and its record ({@code StoreSnapshot#record}). */
    public record Outgoing(String sessionId, String target, byte[] record) {
        /** The principal the record names, or null. */
        public String principal() {
            return io.sessionmesh.master.store.StoreSnapshot.principalOfRecord(record);
        }
    }

    /** This replica's data addresses as maps name them: which group of a map is this one. */
    private final Set<String> selfAddresses;
    private volatile GroupMap map;
    private final LinkedHashMap<String, Outgoing> outbox = new LinkedHashMap<>();
    /** Sessions adopted while the current map moves (tombstones once removed here); cleared by the next map. */
    private final java.util.HashSet<String> adopted = new java.util.HashSet<>();
    /** Log entries refused when applied: cut short, malformed or failing, the same on every replica. */
    private long refusedEntries;

    GroupMoves(Set<String> selfAddresses) {
        this.selfAddresses = Set.copyOf(selfAddresses);
    }

    /** The latest map applied, or null before the first. */
    public GroupMap map() {
        return map;
    }

    /** The name this group has in {@code m}, or null when {@code m} does not name it (among its groups or the ones before). */
    public String selfName(GroupMap m) {
        for (List<String> g : m.allGroups()) {
            for (String r : g) {
                if (selfAddresses.contains(r)) {
                    return g.get(0);
                }
            }
        }
        return null;
    }

    /** Takes {@code next} if it is newer than the map held; true if it did. */
    boolean apply(GroupMap next) {
        GroupMap m = map;
        if (m != null && next.epoch() <= m.epoch()) {
            return false;
        }
        map = next;
        synchronized (this) {
            adopted.clear();
        }
        return true;
    }

    /**
     * Why an import sent for the move to map {@code epoch} is refused here, or null when it is taken: only during that
     * move, while this group holds that map (MOVING). A null epoch (a sender of an earlier build) is not checked.
     */
    public String importRefusal(Long epoch) {
        GroupMap m = map;
        if (m == null) {
            return "this group has no cluster map: no session moves here";
        }
        if (epoch != null && (m.epoch() != epoch || !m.moving())) {
            return "the import is for the move to map " + epoch + "; this group is at map " + m.epoch()
                    + (m.moving() ? " (moving)" : " (stable): that move is over");
        }
        return null;
    }

    /** Whether {@code id} was adopted during the current move (it may be gone again: then it stays gone). */
    synchronized boolean adoptedInThisMove(String id) {
        return adopted.contains(id);
    }

    synchronized void adopted(String id) {
        adopted.add(id);
    }

    synchronized void refused() {
        refusedEntries++;
    }

    /** Log entries this group refused to apply since it began (every replica counts alike). */
    public synchronized long refusedEntries() {
        return refusedEntries;
    }

    /** A digest of the state every replica holds alike (the map, the outbox, the tombstones, the refusals). */
    synchronized long digest() {
        long h = io.sessionmesh.master.store.Digest.mix(refusedEntries, map == null ? 0 : java.util.Arrays.hashCode(map.encode()));
        long sum = 0;
        for (Outgoing o : outbox.values()) {
            sum += io.sessionmesh.master.store.Digest.finish(io.sessionmesh.master.store.Digest.mix(
                    io.sessionmesh.master.store.Digest.of(o.sessionId() + " " + o.target()), java.util.Arrays.hashCode(o.record())));
        }
        long tombs = 0;
        for (String id : adopted) {
            tombs += io.sessionmesh.master.store.Digest.finish(io.sessionmesh.master.store.Digest.of(id));
        }
        return io.sessionmesh.master.store.Digest.mix(io.sessionmesh.master.store.Digest.mix(h, sum), tombs);
    }

    synchronized void add(Outgoing o) {
        outbox.put(o.sessionId(), o);
    }

    synchronized void handed(List<String> ids) {
        for (String id : ids) {
            outbox.remove(id);
        }
    }

    /** The ids of the outbox's sessions of {@code principal}, at most {@code limit}: in flight out of this group. */
    public synchronized List<String> leavingOf(String principal, int limit) {
        List<String> ids = new ArrayList<>();
        for (Outgoing o : outbox.values()) {
            if (ids.size() == limit) {
                break;
            }
            if (principal.equals(o.principal())) {
                ids.add(o.sessionId());
            }
        }
        return ids;
    }

    /**
     * A LOGOUT of {@code principal} applied: its sessions leave the outbox, never to be sent (one sent already, not yet
     * confirmed, is at its new group, which the same "log out everywhere" asks next). Returns how many.
     */
    synchronized int dropLeavingOf(String principal) {
        int dropped = 0;
        for (Iterator<Outgoing> it = outbox.values().iterator(); it.hasNext(); ) {
            if (principal.equals(it.next().principal())) {
                it.remove();
                dropped++;
            }
        }
        return dropped;
    }

    /** Whether a session is in the outbox: out of this group's store, not yet confirmed by its new group. */
    public synchronized boolean isLeaving(String sessionId) {
        return outbox.containsKey(sessionId);
    }

    public synchronized int outboxSize() {
        return outbox.size();
    }

    /** The oldest sessions of the outbox, at most {@code maxSessions} and about {@code maxBytes} of records. */
    public synchronized List<Outgoing> nextOut(int maxSessions, long maxBytes) {
        List<Outgoing> out = new ArrayList<>();
        long bytes = 0;
        for (Iterator<Outgoing> it = outbox.values().iterator(); it.hasNext() && out.size() < maxSessions && bytes < maxBytes; ) {
            Outgoing o = it.next();
            out.add(o);
            bytes += o.record().length;
        }
        return out;
    }

    /**
     * The state, for a snapshot: {@code | u32 map length | map | u32 n | n x (id, target, record) | i64 refused entries |
     * u32 m | m x adopted id |} (the part after the outbox from this build on: an earlier build's state ends there).
     */
    synchronized byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            byte[] m = map == null ? new byte[0] : map.encode();
            out.writeInt(m.length);
            out.write(m);
            out.writeInt(outbox.size());
            for (Outgoing o : outbox.values()) {
                writeString(out, o.sessionId());
                writeString(out, o.target());
                out.writeInt(o.record().length);
                out.write(o.record());
            }
            out.writeLong(refusedEntries);
            out.writeInt(adopted.size());
            for (String id : adopted) {
                writeString(out, id);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Replaces the state by a snapshot's ({@link #encode}; empty: nothing, from a snapshot of an earlier build). */
    synchronized void load(byte[] state) throws IOException {
        outbox.clear();
        adopted.clear();
        refusedEntries = 0;
        map = null;
        if (state.length == 0) {
            return;
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
        byte[] m = BoundedReads.sized(in, "the cluster map");
        map = m.length == 0 ? null : GroupMap.decode(m);
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            String id = readString(in);
            String target = readString(in);
            byte[] record = BoundedReads.sized(in, "an outgoing session's record");
            outbox.put(id, new Outgoing(id, target, record));
        }
        if (in.available() == 0) {
            return; // an earlier build's state
        }
        refusedEntries = in.readLong();
        int tombstones = in.readInt();
        if (tombstones < 0 || tombstones > state.length / 3) {
            throw new IOException(tombstones + " adopted ids in a group state of " + state.length + " bytes");
        }
        for (int i = 0; i < tombstones; i++) {
            adopted.add(readString(in));
        }
        if (in.available() > 0) {
            throw new IOException(in.available() + " bytes after the group's state");
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readUnsignedShort()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** For tests and figures: the outbox by session id. */
    synchronized Map<String, Outgoing> outbox() {
        return Map.copyOf(outbox);
    }
}
