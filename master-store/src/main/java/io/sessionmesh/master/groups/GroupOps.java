package io.sessionmesh.master.groups;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.replication.GroupMoves;
import io.sessionmesh.master.replication.ReplicaCommand;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.master.store.StoreSnapshot;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.tls.PeerCertificate;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Elastic master groups on one replica (PROTOCOL.md 3.9): the GROUP_* operations it answers as its group's leader, the
 * directory's driver of moves (on the leader of the directory group, the first group of the map), and the handoff of
 * the sessions this group no longer owns to the groups that own them now.
 *
 * <p>A move, driven by the directory's leader once a GROUP_CHANGE put a MOVING map in its log: (1) every group, old
 * and new, applies the MOVING map (GROUP_APPLY); from then on a group refuses to create a session the new map places
 * elsewhere, and a group that is gaining sessions answers MOVING for one it has not received yet. (2) every group of
 * the old map hands off what the new map gives to others, batch by batch: a HANDOFF entry takes the batch out of its
 * store into its outbox (replicated), telling every cache that held any of it; once those caches confirmed (or their
 * leases ran out) and writes are open on this leader, the batch goes to its new group (GROUP_IMPORT, applied there
 * through its own log), then a HANDED entry empties it from the outbox. A request for a session in the outbox is
 * answered MOVING, for one handed off MOVED. (3) the directory commits the settled map and tells every group.
 */
public final class GroupOps implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GroupOps.class);

    /** GROUP_CHANGE kinds. */
    public static final int CHANGE_FIRST = 1;
    public static final int CHANGE_ADD = 2;
    public static final int CHANGE_REMOVE = 3;
    /** GROUP_APPLY flag: hand off what the map gives to other groups, and answer how many sessions are left to move. */
    public static final int APPLY_HAND_OFF = 1;
    /**
     * GROUP_APPLY flag: apply nothing; answer this group's room and what it would hand to each other group under the
     * map sent, for the directory's check before a move ({@link #checkRoom}).
     */
    public static final int APPLY_ROOM = 2;
    /** Most sessions in one HANDOFF entry and one GROUP_IMPORT. */
    public static final int MAX_MOVE_SESSIONS = 512;
    /** About the most bytes of session records in one GROUP_IMPORT (well under a master's max-frame). */
    public static final long MAX_MOVE_BYTES = 1 << 20;
    /** Longest wait for another group's leader to answer one call (an election takes a few seconds). */
    public static final long CALL_TIMEOUT_MILLIS = 15_000;
    /** Longest wait for a group being added to answer, before the change is refused. */
    public static final long NEW_GROUP_WAIT_MILLIS = 5_000;
    /** How often the directory's leader looks for a move to drive or a map to pass on. */
    public static final long DRIVE_INTERVAL_MILLIS = 200;

    private final ReplicaGroup group;
    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final Invalidator anonymous;
    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("group-links", true),
            NioIoHandler.newFactory());
    /** This master's connections to other groups' masters: with its own certificate when TLS is configured. */
    private final MasterConnectionOptions linkOptions;
    private final Map<String, GroupLink> links = new ConcurrentHashMap<>();
    /** GROUP_CHANGE and GROUP_APPLY: they wait for the log, and for other groups. */
    private final ExecutorService requests = Executors.newSingleThreadExecutor(daemon("group-requests"));
    private final ExecutorService handoff = Executors.newSingleThreadExecutor(daemon("group-handoff"));
    private final ScheduledExecutorService directory = Executors.newSingleThreadScheduledExecutor(daemon("group-directory"));
    /** The epoch of the map the handoff runs for (-1: none), and how many sessions it still has to move (-1: not counted yet). */
    private volatile long handoffEpoch = -1;
    private volatile long left = -1;
    private volatile boolean handoffRunning;
    /** The epoch each group (by name) confirmed it applied, as the directory's leader last heard. */
    private final Map<String, Long> confirmed = new ConcurrentHashMap<>();
    /** Groups the last move removed: told the settled map too, while they answer. */
    private volatile List<List<String>> removed = List.of();
    private volatile boolean closed;
    private volatile long movedSessions;
    /** Batches the handoff has begun to take from the outbox, and finished with (sent and HANDED, or given up). */
    private final java.util.concurrent.atomic.AtomicLong batchesTaken = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong batchesDone = new java.util.concurrent.atomic.AtomicLong();
    /** How often {@link #afterBatchesInFlight} looks whether the batch it waits for is done. */
    static final long BATCH_POLL_MILLIS = 5;

    /** @param linkTls the client TLS context of this master's connections to other masters, or null for plain TCP */
    public GroupOps(ReplicaGroup group, SessionStore store, BinaryTransportCodec codec, Invalidator anonymous,
                    SslContext linkTls) {
        this.codec = codec;
        this.linkOptions = MasterConnectionOptions.builder()
                .requestTimeout(Duration.ofMillis(CALL_TIMEOUT_MILLIS)).tls(linkTls).build();
        this.group = group;
        this.store = store;
        this.anonymous = anonymous;
        directory.scheduleWithFixedDelay(this::drive, DRIVE_INTERVAL_MILLIS, DRIVE_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Sessions this replica handed off to other groups since it started. */
    public long movedSessions() {
        return movedSessions;
    }

    /**
     * The answer body of a GROUP_* request this replica got as its group's leader.
     *
     * @param peer what the sender's certificate says, or null on a connection without TLS (no identity to check).
     *             {@link io.sessionmesh.master.handler.RoleCheck} let only an operator send GROUP_CHANGE and only a
     *             replica GROUP_APPLY or GROUP_IMPORT; which replica is checked here, against the map.
     */
    public CompletableFuture<byte[]> answer(int opcode, byte[] body, PeerCertificate peer) {
        try {
            return switch (opcode) {
                case Opcodes.GROUP_MAP -> {
                    GroupMap map = group.moves().map();
                    yield CompletableFuture.completedFuture(map == null ? new byte[0] : map.encode());
                }
                case Opcodes.GROUP_CHANGE -> CompletableFuture.supplyAsync(() -> change(body), requests);
                case Opcodes.GROUP_APPLY -> CompletableFuture.supplyAsync(() -> apply(body, peer), requests);
                case Opcodes.GROUP_IMPORT -> importing(body, peer);
                default -> CompletableFuture.failedFuture(new StoreException(Status.UNSUPPORTED_VERSION,
                        Opcodes.name(opcode) + " is not a group operation"));
            };
        } catch (StoreException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * GROUP_IMPORT: from a replica of a group of this group's map only, and only a body that is whole and fits
     * ({@link StoreSnapshot#checkImport}): what is proposed to the log is applied alike on every replica.
     */
    private CompletableFuture<byte[]> importing(byte[] body, PeerCertificate peer) {
        GroupMap map = group.moves().map();
        if (map == null) {
            throw new StoreException(Status.CONFLICT, "GROUP_IMPORT: this group has no cluster map yet: no session moves here");
        }
        if (peer != null) {
            List<String> senders = new ArrayList<>();
            map.allGroups().forEach(senders::addAll);
            if (!peer.isReplicaOf(senders)) {
                throw forbidden("GROUP_IMPORT comes only from a replica of a group of map " + map.epoch(), peer, senders);
            }
        }
        StoreSnapshot.Import sent = StoreSnapshot.Import.of(body);
        // a sender of an earlier build names no map: it sends for the move in progress, if there is one
        long epoch = sent.epoch() != null ? sent.epoch() : map.epoch();
        String refusal = group.moves().importRefusal(epoch);
        if (refusal != null) {
            throw new StoreException(Status.CONFLICT, "GROUP_IMPORT refused: " + refusal);
        }
        StoreSnapshot.checkImport(store, sent.records(), codec);
        return group.propose(new ReplicaCommand.Import(epoch, sent.records()), 0, anonymous)
                .thenApply(adopted -> ByteBuffer.allocate(4).putInt((Integer) adopted).array());
    }

    private static StoreException forbidden(String what, PeerCertificate peer, List<String> replicas) {
        return new StoreException(Status.FORBIDDEN, what + " (" + String.join(" ", replicas)
                + "); this connection's certificate " + peer.subject() + " names the hosts " + peer.hosts());
    }

    /** GROUP_CHANGE on the directory's leader: {@code | kind: u8 | FIRST: a map; ADD: replicas "h:p|h:p"; REMOVE: a group's name |}. */
    private byte[] change(byte[] body) {
        if (body.length < 1) {
            throw new StoreException(Status.BAD_REQUEST, "GROUP_CHANGE needs a kind byte");
        }
        int kind = body[0] & 0xFF;
        byte[] rest = java.util.Arrays.copyOfRange(body, 1, body.length);
        GroupMap map = group.moves().map();
        if (kind == CHANGE_FIRST) {
            if (map == null) {
                GroupMap first = decodeMap(rest);
                if (first.epoch() != 1 || first.moving()) {
                    throw new StoreException(Status.BAD_REQUEST, "a first map has epoch 1 and is stable, not " + first);
                }
                if (!first.names().get(0).equals(group.moves().selfName(first))) {
                    throw new StoreException(Status.BAD_REQUEST, "the first group of a first map is the directory: "
                            + first.names().get(0) + " is not this group");
                }
                propose(ReplicaCommand.MAP, first.encode());
                log.info("directory: first {}", first);
            }
            return group.moves().map().encode();
        }
        if (map == null) {
            throw new StoreException(Status.BAD_REQUEST, "this group has no map yet: start a sidecar on it first, or send FIRST");
        }
        requireDirectory(map);
        // every group must hold the current map before the next one: a group takes maps one epoch at a time
        if (!map.moving()) {
            awaitConfirmed(map);
        }
        String arg = new String(rest, StandardCharsets.US_ASCII).trim();
        GroupMap next;
        try {
            if (kind == CHANGE_ADD) {
                List<List<String>> groups = GroupMap.parseGroups(arg);
                if (groups.size() != 1) {
                    throw new IllegalArgumentException("ADD takes one group, its replicas separated by |: \"" + arg + "\"");
                }
                next = map.adding(groups.get(0));
                // The new group must lead before the map names it: sidecars send it creations as soon as they see it.
                try {
                    link(groups.get(0)).call(Opcodes.GROUP_MAP, new byte[0], NEW_GROUP_WAIT_MILLIS);
                } catch (StoreException e) {
                    throw new StoreException(Status.BAD_REQUEST, "group " + groups.get(0) + " has no leader that answers ("
                            + e.getMessage() + "): start its replicas first");
                }
            } else if (kind == CHANGE_REMOVE) {
                if (arg.equals(map.names().get(0))) {
                    throw new IllegalArgumentException("group " + arg + " is the directory (the first group); it cannot be removed");
                }
                next = map.removing(arg);
            } else {
                throw new StoreException(Status.BAD_REQUEST, "GROUP_CHANGE kind " + kind + ": 1 FIRST, 2 ADD or 3 REMOVE");
            }
        } catch (IllegalStateException e) {
            throw new StoreException(Status.CONFLICT, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new StoreException(e.getMessage().startsWith("no group named") ? Status.NOT_FOUND : Status.BAD_REQUEST,
                    e.getMessage());
        }
        checkRoom(map, next);
        propose(ReplicaCommand.MAP, next.encode());
        log.info("directory: {} committed; moving ranges", next);
        return next.encode();
    }

    /**
     * Waits (at most {@link #NEW_GROUP_WAIT_MILLIS}) until every group of {@code map} has confirmed it to the
     * directory's drive ({@link #tellAll}, every {@link #DRIVE_INTERVAL_MILLIS}); CONFLICT naming one that has not.
     */
    private void awaitConfirmed(GroupMap map) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(NEW_GROUP_WAIT_MILLIS);
        while (true) {
            String behind = null;
            for (List<String> g : map.groups()) {
                Long at = confirmed.get(g.get(0));
                if (at == null || at < map.epoch()) {
                    behind = g.get(0);
                    break;
                }
            }
            if (behind == null) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StoreException(Status.CONFLICT, "group " + behind + " has not taken map " + map.epoch()
                        + " yet (does its leader answer?); try again once it has");
            }
            try {
                Thread.sleep(DRIVE_INTERVAL_MILLIS / 4);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException(Status.UNAVAILABLE, "interrupted");
            }
        }
    }

    /** A map from a request's body: BAD_REQUEST naming what is wrong with one that does not decode. */
    private static GroupMap decodeMap(byte[] bytes) {
        try {
            return GroupMap.decode(bytes);
        } catch (io.sessionmesh.wire.transport.MalformedMessageException e) {
            throw new StoreException(e.status(), e.getMessage());
        }
    }

    private void requireDirectory(GroupMap map) {
        String self = group.moves().selfName(map);
        if (!map.names().get(0).equals(self)) {
            throw new StoreException(Status.BAD_REQUEST, "this is group " + self + ", not the directory: send it to group "
                    + map.names().get(0));
        }
    }

    /**
     * GROUP_APPLY: {@code | flags: u8 | map |}; answers {@code | sessions left to hand off: u64 |}. Only from a replica
     * of the directory group (of this group's map; of the map sent, for a group that has none yet), and only the map
     * of the next epoch, or the one held again: never a stale one, and never one that skips an epoch (but by a group
     * its own map no longer names: one removed, now added again).
     */
    private byte[] apply(byte[] body, PeerCertificate peer) {
        if (body.length < 2) {
            throw new StoreException(Status.BAD_REQUEST, "GROUP_APPLY needs flags and a map");
        }
        GroupMap next = decodeMap(java.util.Arrays.copyOfRange(body, 1, body.length));
        GroupMap map = group.moves().map();
        GroupMap known = map == null ? next : map;
        if (peer != null && !peer.isReplicaOf(known.groups().get(0))) {
            throw forbidden("a cluster map comes only from a replica of the directory group " + known.names().get(0),
                    peer, known.groups().get(0));
        }
        if ((body[0] & APPLY_ROOM) != 0) {
            return room(next);
        }
        if (map != null && !next.names().get(0).equals(map.names().get(0))) {
            throw new StoreException(Status.CONFLICT, "map " + next.epoch() + " names directory " + next.names().get(0)
                    + "; this group's directory is " + map.names().get(0) + " (the directory never changes)");
        }
        if (map != null && next.epoch() < map.epoch()) {
            throw new StoreException(Status.CONFLICT, "map " + next.epoch() + " is stale: this group is at map " + map.epoch());
        }
        if (map != null && next.epoch() == map.epoch() && !java.util.Arrays.equals(next.encode(), map.encode())) {
            throw new StoreException(Status.CONFLICT, "map " + next.epoch() + " is not the map " + map.epoch()
                    + " this group holds");
        }
        if (map != null && next.epoch() > map.epoch() + 1 && group.moves().selfName(map) != null) {
            throw new StoreException(Status.CONFLICT, "map " + next.epoch() + " skips an epoch: this group is at map "
                    + map.epoch() + " and takes " + (map.epoch() + 1) + " next");
        }
        if (map == null || next.epoch() > map.epoch()) {
            propose(ReplicaCommand.MAP, next.encode());
            map = group.moves().map();
        }
        long remaining = 0;
        if ((body[0] & APPLY_HAND_OFF) != 0) {
            if (map.epoch() != next.epoch()) {
                throw new StoreException(Status.CONFLICT, "this group is at map " + map.epoch() + ", not " + next.epoch());
            }
            remaining = handOff(map);
        }
        return ByteBuffer.allocate(8).putLong(remaining).array();
    }

    /**
     * GROUP_APPLY with ROOM: {@code | free sessions: u64 | free bytes: u64 | n: u16 | n x (group name: u8 length,
     * ASCII | sessions: u64 | bytes: u64) |}, the sessions (and what they would cost a receiver's memory budget) that
     * {@code next} gives from this group to each other group.
     */
    private byte[] room(GroupMap next) {
        String self = group.moves().selfName(next);
        Map<String, long[]> out = new LinkedHashMap<>();
        for (Iterator<String> it = store.sessionIds(); it.hasNext(); ) {
            String id = it.next();
            String owner = next.owner(id);
            if (owner.equals(self)) {
                continue;
            }
            long cost = store.moveCost(id);
            if (cost >= 0) {
                long[] t = out.computeIfAbsent(owner, o -> new long[2]);
                t[0]++;
                t[1] += cost;
            }
        }
        ByteBuffer b = ByteBuffer.allocate(18 + out.size() * (1 + 255 + 16));
        b.putLong(Math.max(0, (long) store.limits().maxSessions() - store.sessionCount()));
        b.putLong(Math.max(0, store.budget().max() - store.budget().used()));
        b.putShort((short) out.size());
        out.forEach((name, t) -> {
            byte[] n = name.getBytes(StandardCharsets.US_ASCII);
            b.put((byte) n.length).put(n).putLong(t[0]).putLong(t[1]);
        });
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /**
     * Refuses, before it is committed, a move that would give a group more sessions or bytes than it has room for
     * (max-sessions, its memory budget): every group of either map says its room and what it would send where.
     * Sessions made meanwhile may still overshoot; the receiving leader then refuses the import, and those sessions
     * wait in their sender's outbox (MOVING) until there is room.
     */
    private void checkRoom(GroupMap map, GroupMap next) {
        Map<String, long[]> room = new LinkedHashMap<>();
        Map<String, long[]> incoming = new LinkedHashMap<>();
        List<List<String>> all = new ArrayList<>(map.groups());
        for (List<String> g : next.groups()) {
            if (!map.names().contains(g.get(0))) {
                all.add(g);
            }
        }
        byte[] body = applyBody(APPLY_ROOM, next);
        for (List<String> g : all) {
            ByteBuffer a = ByteBuffer.wrap(applyTo(g, body, CALL_TIMEOUT_MILLIS));
            room.put(g.get(0), new long[] {a.getLong(), a.getLong()});
            for (int i = a.getShort() & 0xFFFF; i > 0; i--) {
                byte[] n = new byte[a.get() & 0xFF];
                a.get(n);
                long[] t = incoming.computeIfAbsent(new String(n, StandardCharsets.US_ASCII), k -> new long[2]);
                t[0] += a.getLong();
                t[1] += a.getLong();
            }
        }
        incoming.forEach((target, t) -> {
            long[] r = room.get(target);
            if (r != null && (t[0] > r[0] || t[1] > r[1])) {
                // TOO_LARGE, not UNAVAILABLE: a caller's link would take UNAVAILABLE for a leader that does not answer
                throw new StoreException(Status.TOO_LARGE, "group " + target + " would receive " + t[0] + " sessions ("
                        + t[1] + " bytes of its memory budget) and has room for " + r[0] + " sessions and " + r[1]
                        + " bytes (max-sessions, max-store): nothing moved");
            }
        });
    }

    private Object propose(int kind, byte[] bytes) {
        return await(group.propose(new ReplicaCommand.Blob(kind, bytes), 0, anonymous));
    }

    private static Object await(CompletableFuture<Object> f) {
        try {
            return f.get(CALL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(Status.UNAVAILABLE, "interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreException se) {
                throw se;
            }
            throw new StoreException(Status.INTERNAL, String.valueOf(e.getCause()));
        } catch (TimeoutException e) {
            throw new StoreException(Status.TIMEOUT, "the group did not apply the entry in " + CALL_TIMEOUT_MILLIS + " ms");
        }
    }

    // ---- the handoff, on this group's leader

    /** Starts (or keeps running) the handoff for {@code map}; how many sessions are left (1 while not counted). */
    private synchronized long handOff(GroupMap map) {
        boolean done = handoffEpoch == map.epoch() && left == 0;
        if (handoffEpoch != map.epoch() || (!handoffRunning && !done)) {
            handoffEpoch = map.epoch();
            left = -1;
            handoffRunning = true;
            handoff.execute(() -> runHandOff(map));
        }
        long l = left;
        return l < 0 ? 1 : l;
    }

    private void runHandOff(GroupMap map) {
        String self = group.moves().selfName(map);
        long moved = 0;
        try {
            sendSchemas(map, self);
            while (!closed && group.leads() && sameMap(map)) {
                batchesTaken.incrementAndGet(); // before the batch is taken: see afterBatchesInFlight
                List<GroupMoves.Outgoing> out;
                try {
                    out = group.moves().nextOut(MAX_MOVE_SESSIONS, MAX_MOVE_BYTES);
                    if (!out.isEmpty()) {
                        waitWritesOpen();
                        send(map, out);
                        propose(ReplicaCommand.HANDED, out);
                    }
                } finally {
                    batchesDone.incrementAndGet();
                }
                if (!out.isEmpty()) {
                    moved += out.size();
                    movedSessions += out.size();
                    left = group.moves().outboxSize() + 1;
                    continue;
                }
                List<String> ids = misplaced(map, self, MAX_MOVE_SESSIONS);
                if (ids.isEmpty()) {
                    left = 0;
                    log.info("group {}: handoff for map {} done: {} sessions moved by this leader", self, map.epoch(), moved);
                    return;
                }
                left = ids.size() + 1;
                @SuppressWarnings("unchecked")
                List<Fence> fences = (List<Fence>) await(group.propose(
                        new ReplicaCommand.Sessions(ReplicaCommand.HANDOFF, ids), 0, anonymous));
                for (Fence f : fences) {
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    f.whenDone(() -> done.complete(null));
                    done.get(CALL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            log.warn("group {}: handoff for map {} stopped ({}); the directory asks again", self, map.epoch(), e.toString());
        } finally {
            synchronized (this) {
                handoffRunning = false;
            }
        }
    }

    /**
     * Completes once every batch the handoff began to take from the outbox before now is done with (at most one: the
     * handoff sends one at a time), or after {@link #CALL_TIMEOUT_MILLIS}, the longest one send may take. A LOGOUT
     * answers only then: any session of the principal that batch carried has reached its new group, which the same
     * "log out everywhere" asks after this one (PROTOCOL.md 3.11).
     */
    public CompletableFuture<Void> afterBatchesInFlight(ScheduledExecutorService timer) {
        long taken = batchesTaken.get();
        CompletableFuture<Void> done = new CompletableFuture<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_TIMEOUT_MILLIS);
        Runnable check = new Runnable() {
            @Override
            public void run() {
                if (batchesDone.get() >= taken || System.nanoTime() - deadline > 0 || closed) {
                    done.complete(null);
                } else {
                    timer.schedule(this, BATCH_POLL_MILLIS, TimeUnit.MILLISECONDS);
                }
            }
        };
        check.run();
        return done;
    }

    private boolean sameMap(GroupMap map) {
        GroupMap m = group.moves().map();
        return m != null && m.epoch() == map.epoch();
    }

    private void propose(int kind, List<GroupMoves.Outgoing> out) {
        await(group.propose(new ReplicaCommand.Sessions(kind, out.stream().map(GroupMoves.Outgoing::sessionId).toList()),
                0, anonymous));
    }

    /** A leader just elected waits out the old leader's leases before a session leaves: caches may still serve it. */
    private void waitWritesOpen() throws InterruptedException {
        long wait = group.writesOpenNanos() - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /** Sends a batch from the outbox to the groups that own its sessions now. */
    private void send(GroupMap map, List<GroupMoves.Outgoing> out) {
        Map<String, List<byte[]>> byTarget = new LinkedHashMap<>();
        for (GroupMoves.Outgoing o : out) {
            byTarget.computeIfAbsent(o.target(), t -> new ArrayList<>()).add(o.record());
        }
        byTarget.forEach((target, records) -> {
            List<String> replicas = map.group(target);
            if (replicas == null) {
                throw new StoreException(Status.INTERNAL, "map " + map.epoch() + " has no group " + target);
            }
            link(replicas).call(Opcodes.GROUP_IMPORT, StoreSnapshot.moveBody(map.epoch(), Map.of(), records),
                    CALL_TIMEOUT_MILLIS);
        });
    }

    /**
     * Copies every schema the map places on another group to it (schemas are kept here too: they never change), in
     * imports of about {@link #MAX_MOVE_BYTES} each, under any master's max-frame.
     */
    private void sendSchemas(GroupMap map, String self) {
        Map<String, List<Map<Long, byte[]>>> byTarget = new HashMap<>();
        Map<String, Long> bytesOfLast = new HashMap<>();
        store.schemas().forEach((uid, bytes) -> {
            String owner = map.owner("schema:" + Long.toHexString(uid));
            if (!owner.equals(self)) {
                List<Map<Long, byte[]>> parts = byTarget.computeIfAbsent(owner, o -> new ArrayList<>());
                long used = bytesOfLast.getOrDefault(owner, 0L);
                if (parts.isEmpty() || used + bytes.length > MAX_MOVE_BYTES) {
                    parts.add(new LinkedHashMap<>());
                    used = 0;
                }
                parts.get(parts.size() - 1).put(uid, bytes);
                bytesOfLast.put(owner, used + bytes.length + 12);
            }
        });
        byTarget.forEach((target, parts) -> {
            for (Map<Long, byte[]> schemas : parts) {
                link(map.group(target)).call(Opcodes.GROUP_IMPORT, StoreSnapshot.moveBody(map.epoch(), schemas, List.of()),
                        CALL_TIMEOUT_MILLIS);
            }
        });
    }

    /** Up to {@code max} ids of live sessions the map gives to another group. */
    private List<String> misplaced(GroupMap map, String self, int max) {
        List<String> ids = new ArrayList<>();
        for (Iterator<String> it = store.sessionIds(); it.hasNext() && ids.size() < max; ) {
            String id = it.next();
            // an expired session does not move: the leader's EXPIRE removes it here, as the registry is told
            if (!map.owner(id).equals(self) && store.times(id) != null) {
                ids.add(id);
            }
        }
        return ids;
    }

    // ---- the directory, on the leader of the first group

    private void drive() {
        try {
            GroupMap map = group.moves().map();
            if (closed || map == null || !group.leads() || !map.names().get(0).equals(group.moves().selfName(map))) {
                return;
            }
            if (map.moving()) {
                move(map);
            } else {
                tellAll(map);
            }
        } catch (RuntimeException e) {
            log.warn("directory: {}; trying again", e.toString());
        }
    }

    private void move(GroupMap map) {
        byte[] plain = applyBody(0, map);
        for (List<String> g : map.allGroups()) {
            applyTo(g, plain, CALL_TIMEOUT_MILLIS);
            confirmed.put(g.get(0), map.epoch());
        }
        byte[] handOff = applyBody(APPLY_HAND_OFF, map);
        while (!closed && group.leads()) {
            long left = 0;
            for (List<String> g : map.previous()) {
                left += ByteBuffer.wrap(applyTo(g, handOff, CALL_TIMEOUT_MILLIS)).getLong();
            }
            if (left == 0) {
                break;
            }
            try {
                Thread.sleep(DRIVE_INTERVAL_MILLIS / 2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (closed || !group.leads()) {
            return;
        }
        GroupMap settled = map.settled();
        List<List<String>> gone = new ArrayList<>(map.allGroups());
        gone.removeIf(g -> settled.names().contains(g.get(0)));
        removed = gone;
        propose(ReplicaCommand.MAP, settled.encode());
        log.info("directory: move done, {}", settled);
        tellAll(settled);
    }

    /** Passes a stable map on to every group that has not confirmed it (and to the groups just removed, while they answer). */
    private void tellAll(GroupMap map) {
        byte[] body = applyBody(0, map);
        List<List<String>> all = new ArrayList<>(map.groups());
        all.addAll(removed);
        for (List<String> g : all) {
            Long at = confirmed.get(g.get(0));
            if (at != null && at >= map.epoch()) {
                continue;
            }
            try {
                applyTo(g, body, removed.contains(g) ? 1_000 : CALL_TIMEOUT_MILLIS);
                confirmed.put(g.get(0), map.epoch());
            } catch (StoreException e) {
                if (removed.contains(g)) {
                    confirmed.put(g.get(0), map.epoch()); // gone already: nobody asks it any more
                } else {
                    log.warn("directory: group {} did not take map {}: {}", g.get(0), map.epoch(), e.getMessage());
                }
            }
        }
    }

    private static byte[] applyBody(int flags, GroupMap map) {
        byte[] m = map.encode();
        byte[] body = new byte[1 + m.length];
        body[0] = (byte) flags;
        System.arraycopy(m, 0, body, 1, m.length);
        return body;
    }

    /**
     * GROUP_APPLY to a group's leader; to this replica's own group (the directory's) on this thread, not through a
     * connection to itself, which would wait for the single thread of GROUP_CHANGE while that thread waits for it.
     */
    private byte[] applyTo(List<String> replicas, byte[] body, long timeoutMillis) {
        GroupMap map = group.moves().map();
        if (map != null && replicas.get(0).equals(group.moves().selfName(map)) && group.leads()) {
            return apply(body, null);
        }
        return link(replicas).call(Opcodes.GROUP_APPLY, body, timeoutMillis);
    }

    private GroupLink link(List<String> replicas) {
        return links.computeIfAbsent(String.join("|", replicas), k -> new GroupLink(replicas, loop, linkOptions));
    }

    @Override
    public void close() {
        closed = true;
        directory.shutdownNow();
        handoff.shutdownNow();
        requests.shutdownNow();
        links.values().forEach(GroupLink::close);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
