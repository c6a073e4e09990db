package io.sessionmesh.wire.placement;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster map of master groups (PROTOCOL.md 3.9, 5.2): which groups share the sessions, each group's replicas (their
 * data addresses, {@code host:port}; a group is named after its first), and the virtual nodes each puts on the
 * {@link HashRing} that places a session id or a schema uid on a group. It lives in the consensus layer: the directory
 * group (the first group of the first map) keeps it in its Raft log, and every change makes a new map with a higher
 * epoch. While ranges move, the map is MOVING and also names the groups before the change: a session belongs to its
 * {@linkplain #previousOwner previous owner} until that group answers MOVED, then to its {@linkplain #owner owner}.
 * Immutable; the rings are built on first use (65,535 virtual nodes x 3 groups take about 50 ms).
 *
 * <pre>
 * | format: u8 (1) | epoch: u64 | state: u8 (0 STABLE, 1 MOVING) | vnodes: u16 | groups | MOVING only: groups before |
 * groups: | n: u16 | n x ( r: u8 | r x ( length: u8 | host:port, ASCII ) ) |
 * </pre>
 */
public final class GroupMap {
    /** The format this build writes and reads. */
    public static final int FORMAT = 1;
    /** Most groups in a map (as many as a CREATE's placement may name). */
    public static final int MAX_GROUPS = Placement.MAX_MASTERS;
    /** Most replicas in one group. */
    public static final int MAX_REPLICAS = 9;

    private final long epoch;
    private final boolean moving;
    private final int vnodes;
    private final List<List<String>> groups;
    private final List<List<String>> previous;
    private volatile HashRing<Integer> ring;
    private volatile HashRing<Integer> previousRing;

    private GroupMap(long epoch, boolean moving, int vnodes, List<List<String>> groups, List<List<String>> previous) {
        if (epoch < 1 || vnodes < 1 || vnodes > Placement.MAX_VNODES) {
            throw new IllegalArgumentException("map epoch " + epoch + ", vnodes " + vnodes);
        }
        this.epoch = epoch;
        this.moving = moving;
        this.vnodes = vnodes;
        this.groups = check(groups);
        this.previous = moving ? check(previous) : List.of();
        if ((long) Math.max(groups.size(), this.previous.size()) * vnodes > Placement.MAX_TOKENS) {
            throw new IllegalArgumentException(groups.size() + " groups x " + vnodes + " vnodes is above "
                    + Placement.MAX_TOKENS + " tokens");
        }
    }

    private static List<List<String>> check(List<List<String>> groups) {
        if (groups.isEmpty() || groups.size() > MAX_GROUPS) {
            throw new IllegalArgumentException("a map of " + groups.size() + " groups: 1 to " + MAX_GROUPS);
        }
        List<List<String>> copy = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (List<String> g : groups) {
            if (g.isEmpty() || g.size() > MAX_REPLICAS) {
                throw new IllegalArgumentException("a group of " + g.size() + " replicas: 1 to " + MAX_REPLICAS);
            }
            for (String r : g) {
                if (r.isEmpty() || r.length() > Placement.MAX_NAME_BYTES || !StandardCharsets.US_ASCII.newEncoder().canEncode(r)
                        || r.indexOf(':') < 1) {
                    throw new IllegalArgumentException("replica \"" + r + "\" is not host:port in 1.."
                            + Placement.MAX_NAME_BYTES + " ASCII characters");
                }
            }
            if (names.contains(g.get(0))) {
                throw new IllegalArgumentException("two groups named " + g.get(0));
            }
            names.add(g.get(0));
            copy.add(List.copyOf(g));
        }
        return List.copyOf(copy);
    }

    /** The first map of a cluster: epoch 1, stable. */
    public static GroupMap first(List<List<String>> groups, int vnodes) {
        return new GroupMap(1, false, vnodes, groups, List.of());
    }

    /** The next map: {@code group} added, MOVING from this one's groups. */
    public GroupMap adding(List<String> group) {
        requireStable();
        for (List<String> g : groups) {
            if (g.get(0).equals(group.get(0))) {
                throw new IllegalStateException("group " + group.get(0) + " is in the map already");
            }
        }
        List<List<String>> next = new ArrayList<>(groups);
        next.add(group);
        return new GroupMap(epoch + 1, true, vnodes, next, groups);
    }

    /** The next map: the group named {@code name} removed, MOVING from this one's groups. */
    public GroupMap removing(String name) {
        requireStable();
        List<List<String>> next = new ArrayList<>();
        for (List<String> g : groups) {
            if (!g.get(0).equals(name)) {
                next.add(g);
            }
        }
        if (next.size() == groups.size()) {
            throw new IllegalArgumentException("no group named " + name + " in map " + epoch);
        }
        if (next.isEmpty()) {
            throw new IllegalArgumentException("the last group cannot be removed");
        }
        return new GroupMap(epoch + 1, true, vnodes, next, groups);
    }

    /** The map once a move is over: the same groups, stable, the next epoch. */
    public GroupMap settled() {
        if (!moving) {
            throw new IllegalStateException("map " + epoch + " is not moving");
        }
        return new GroupMap(epoch + 1, false, vnodes, groups, List.of());
    }

    private void requireStable() {
        if (moving) {
            throw new IllegalStateException("map " + epoch + " is still moving ranges; one change at a time");
        }
    }

    public long epoch() {
        return epoch;
    }

    public boolean moving() {
        return moving;
    }

    public int vnodes() {
        return vnodes;
    }

    /** The groups, each its replicas' data addresses. */
    public List<List<String>> groups() {
        return groups;
    }

    /** The groups before the change being made (empty unless MOVING). */
    public List<List<String>> previous() {
        return previous;
    }

    /** Each group's name (its first replica), in map order: the names its ring is built from. */
    public List<String> names() {
        return names(groups);
    }

    private static List<String> names(List<List<String>> groups) {
        return groups.stream().map(g -> g.get(0)).toList();
    }

    /** The group (its name) a key belongs to in this map. */
    public String owner(String key) {
        return groups.get(ring().indexFor(key)).get(0);
    }

    /** The group (its name) a key belonged to before the change being made; {@link #owner} when stable. */
    public String previousOwner(String key) {
        if (!moving) {
            return owner(key);
        }
        HashRing<Integer> r = previousRing;
        if (r == null) {
            r = previousRing = new HashRing<>(indexes(previous.size()), names(previous), vnodes);
        }
        return previous.get(r.indexFor(key)).get(0);
    }

    /** The placement ring of {@link #groups}. */
    public HashRing<Integer> ring() {
        HashRing<Integer> r = ring;
        if (r == null) {
            r = ring = new HashRing<>(indexes(groups.size()), names(groups), vnodes);
        }
        return r;
    }

    private static List<Integer> indexes(int n) {
        List<Integer> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    /** The group named {@code name} in this map or the one before, or null. */
    public List<String> group(String name) {
        for (List<String> g : groups) {
            if (g.get(0).equals(name)) {
                return g;
            }
        }
        for (List<String> g : previous) {
            if (g.get(0).equals(name)) {
                return g;
            }
        }
        return null;
    }

    /** Every group of this map and of the one before it, each once, in that order. */
    public List<List<String>> allGroups() {
        List<List<String>> all = new ArrayList<>(groups);
        List<String> names = names();
        for (List<String> g : previous) {
            if (!names.contains(g.get(0))) {
                all.add(g);
            }
        }
        return all;
    }

    /** A CREATE's placement for the group at {@code index} of {@link #groups}. */
    public Placement placement(int index) {
        return new Placement(names(), vnodes, index);
    }

    public byte[] encode() {
        int size = 1 + 8 + 1 + 2 + size(groups) + (moving ? size(previous) : 0);
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) FORMAT).putLong(epoch).put((byte) (moving ? 1 : 0)).putShort((short) vnodes);
        put(out, groups);
        if (moving) {
            put(out, previous);
        }
        return out.array();
    }

    private static int size(List<List<String>> groups) {
        int n = 2;
        for (List<String> g : groups) {
            n++;
            for (String r : g) {
                n += 1 + r.length();
            }
        }
        return n;
    }

    private static void put(ByteBuffer out, List<List<String>> groups) {
        out.putShort((short) groups.size());
        for (List<String> g : groups) {
            out.put((byte) g.size());
            for (String r : g) {
                out.put((byte) r.length()).put(r.getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    /**
     * Reads a map that fills {@code bytes}.
     *
     * @throws MalformedMessageException BAD_REQUEST naming what is wrong; UNSUPPORTED_VERSION for another format
     */
    public static GroupMap decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            int format = in.get() & 0xFF;
            if (format != FORMAT) {
                throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "group map format " + format
                        + ": this build reads format " + FORMAT);
            }
            long epoch = in.getLong();
            int state = in.get() & 0xFF;
            if (state > 1) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "group map state " + state + ": 0 or 1");
            }
            int vnodes = in.getShort() & 0xFFFF;
            List<List<String>> groups = get(in);
            List<List<String>> previous = state == 1 ? get(in) : List.of();
            if (in.hasRemaining()) {
                throw new MalformedMessageException(Status.BAD_REQUEST, in.remaining() + " bytes after the group map");
            }
            return new GroupMap(epoch, state == 1, vnodes, groups, previous);
        } catch (java.nio.BufferUnderflowException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "group map cut short");
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "group map: " + e.getMessage());
        }
    }

    private static List<List<String>> get(ByteBuffer in) {
        int n = in.getShort() & 0xFFFF;
        if (n == 0 || n > MAX_GROUPS) {
            throw new IllegalArgumentException(n + " groups: 1 to " + MAX_GROUPS);
        }
        List<List<String>> groups = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int r = in.get() & 0xFF;
            if (r == 0 || r > MAX_REPLICAS) {
                throw new IllegalArgumentException("a group of " + r + " replicas: 1 to " + MAX_REPLICAS);
            }
            List<String> g = new ArrayList<>(r);
            for (int j = 0; j < r; j++) {
                byte[] b = new byte[in.get() & 0xFF];
                in.get(b);
                g.add(new String(b, StandardCharsets.US_ASCII));
            }
            groups.add(g);
        }
        return groups;
    }

    /**
     * Groups as the sidecar's {@code --masters} and the admin command write them: groups separated by commas, a group's
     * replicas by {@code |}.
     */
    public static List<List<String>> parseGroups(String spec) {
        List<List<String>> groups = new ArrayList<>();
        for (String group : spec.split(",")) {
            List<String> replicas = new ArrayList<>();
            for (String r : group.split("\\|")) {
                if (!r.isBlank()) {
                    replicas.add(r.trim());
                }
            }
            if (!replicas.isEmpty()) {
                groups.add(replicas);
            }
        }
        return groups;
    }

    /** The form {@link #parseGroups} reads. */
    public static String format(List<List<String>> groups) {
        return String.join(",", groups.stream().map(g -> String.join("|", g)).toList());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupMap m && m.epoch == epoch && m.moving == moving && m.vnodes == vnodes
                && m.groups.equals(groups) && m.previous.equals(previous);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch) * 31 + groups.hashCode();
    }

    @Override
    public String toString() {
        return "map " + epoch + (moving ? " MOVING from " + format(previous) + " to " : " ") + format(groups);
    }
}
