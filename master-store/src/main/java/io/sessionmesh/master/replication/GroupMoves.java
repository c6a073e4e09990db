package io.sessionmesh.master.replication;

import io.sessionmesh.wire.placement.GroupMap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
 * applied, and its outbox, the sessions it took out of its store for the groups that own them now and that those have
 * not confirmed yet. Changed only by the thread that applies the log; read by any. Part of every snapshot.
 */
public final class GroupMoves {
    /** One session on its way out: the group (its name) it goes to, and its record ({@code StoreSnapshot#record}). */
    public record Outgoing(String sessionId, String target, byte[] record) {
    }

    /** This replica's data addresses as maps name them: which group of a map is this one. */
    private final Set<String> selfAddresses;
    private volatile GroupMap map;
    private final LinkedHashMap<String, Outgoing> outbox = new LinkedHashMap<>();

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
        return true;
    }

    synchronized void add(Outgoing o) {
        outbox.put(o.sessionId(), o);
    }

    synchronized void handed(List<String> ids) {
        for (String id : ids) {
            outbox.remove(id);
        }
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

    /** The map and the outbox, for a snapshot: {@code | u32 map length | map | u32 n | n x (id, target, record) |}. */
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Replaces the state by a snapshot's ({@link #encode}; empty: nothing, from a snapshot of an earlier build). */
    synchronized void load(byte[] state) throws IOException {
        outbox.clear();
        map = null;
        if (state.length == 0) {
            return;
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
        byte[] m = new byte[in.readInt()];
        in.readFully(m);
        map = m.length == 0 ? null : GroupMap.decode(m);
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            String id = readString(in);
            String target = readString(in);
            byte[] record = new byte[in.readInt()];
            in.readFully(record);
            outbox.put(id, new Outgoing(id, target, record));
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
