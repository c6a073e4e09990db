package io.sessionmesh.master.replication;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A group of three replicas in this JVM, each a real Ratis server on its own loopback port with its log on disk:
 * changes go through the leader and reach every replica; the loss of the leader loses no acknowledged change; a
 * replica restarted from its directory catches up from the others (the log, or a snapshot when the log is purged).
 */
class ReplicaGroupIT {
    private static final Duration ELECTION = Duration.ofSeconds(20);
    private static final long LEASE_MILLIS = 300;
    /** A session's idle timeout where a test outlives it with reads on the leader alone. */
    private static final long SHORT_IDLE_MILLIS = 3_000;

    @TempDir
    Path dir;

    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private List<GroupConfig.Replica> replicas;
    private final List<Node> nodes = new ArrayList<>();

    /** One replica: its store and its Ratis server (null while stopped). */
    private final class Node {
        final GroupConfig.Replica replica;
        SessionStore store;
        ReplicaGroup group;

        Node(GroupConfig.Replica replica) {
            this.replica = replica;
        }

        void start() throws IOException {
            store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 28).build(), System::currentTimeMillis);
            GroupConfig config = new GroupConfig("test", replicas, replica, dir.resolve(replica.id()), false, 300, 50, 64);
            group = ReplicaGroup.start(config, store, codec, Invalidator.NONE, LEASE_MILLIS);
        }

        void stop() throws IOException {
            if (group != null) {
                group.close();
                group = null;
            }
        }
    }

    @BeforeEach
    void start() throws IOException {
        replicas = List.of(replica("a"), replica("b"), replica("c"));
        for (GroupConfig.Replica r : replicas) {
            Node node = new Node(r);
            node.start();
            nodes.add(node);
        }
    }

    @AfterEach
    void stop() throws IOException {
        for (Node node : nodes) {
            node.stop();
        }
    }

    @Test
    void aChangeReachesEveryReplicaAndSurvivesTheLeadersLoss() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader);
        assertEquals(Map.of("cart", 1L), write(leader, id, "cart", "item", "one"));

        for (Node node : nodes) {
            Await.until("replica " + node.replica.id() + " applied the write", ELECTION,
                    () -> version(node.store, id, "cart") == 1);
        }

        leader.stop();
        List<Node> rest = new ArrayList<>(nodes);
        rest.remove(leader);
        Node next = awaitLeader(rest);
        assertArrayEquals(bytes("one"), section(next.store, id, "cart").attribute("item"));
        assertEquals(Map.of("cart", 2L), write(next, id, "cart", "item", "two"));

        leader.start();
        Await.until("the restarted replica caught up", ELECTION, () -> version(leader.store, id, "cart") == 2);
        assertArrayEquals(bytes("two"), section(leader.store, id, "cart").attribute("item"));
    }

    @Test
    void aRenameReachesEveryReplicaAndSurvivesTheLeadersLoss() throws Exception {
        String requested = "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c";
        String renamedTo = "9f3a6c1e-7b2d-4e8f-a0c5-1d2e3f4a5b6c";
        Node leader = awaitLeader(nodes);
        Object created = leader.group.propose(new ReplicaCommand.Create(requested, 0, "alice", "10.0.0.7"), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS);
        assertEquals(requested, assertInstanceOf(SessionStore.CreatedSession.class, created).id());
        write(leader, requested, "cart", "item", "one");
        Object renamed = leader.group.propose(new ReplicaCommand.Rename(requested, renamedTo, 60_000), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS);
        assertEquals(60_000, assertInstanceOf(SessionStore.Renamed.class, renamed).times().idleTimeoutMillis());
        ExecutionException second = assertThrows(ExecutionException.class, () -> leader.group.propose(
                new ReplicaCommand.Rename(requested, leader.store.newId(), 0), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        assertEquals(Status.NOT_FOUND, assertInstanceOf(StoreException.class, second.getCause()).status(), "the first rename won");

        for (Node node : nodes) {
            Await.until("replica " + node.replica.id() + " applied the rename", ELECTION,
                    () -> node.store.describe(renamedTo) != null && node.store.describe(requested) == null);
            assertEquals("alice", node.store.describe(renamedTo).principal());
            assertEquals(60_000, node.store.describe(renamedTo).idleTimeout());
        }

        leader.stop();
        List<Node> rest = new ArrayList<>(nodes);
        rest.remove(leader);
        Node next = awaitLeader(rest);
        assertArrayEquals(bytes("one"), section(next.store, renamedTo, "cart").attribute("item"));
        assertEquals(Map.of("cart", 2L), write(next, renamedTo, "cart", "item", "two"));
        assertEquals(-1, version(next.store, requested, "cart"), "the old id is gone on the new leader too");
    }

    @Test
    void aReplicaThatMissedMoreThanTheLogKeepsCatchesUpFromASnapshot() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader);
        Node follower = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
        follower.stop();
        for (int i = 1; i <= 200; i++) { // beyond the snapshot threshold (64 entries): the log before it is purged
            write(leader, id, "cart", "item", "v" + i);
        }
        follower.start();
        Await.until("the restarted replica caught up", ELECTION, () -> version(follower.store, id, "cart") == 200);
        assertArrayEquals(bytes("v200"), section(follower.store, id, "cart").attribute("item"));
    }

    @Test
    void aFollowerRefusesAndNamesTheLeader() throws Exception {
        Node leader = awaitLeader(nodes);
        Node follower = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
        Await.until("the follower knows the leader", ELECTION, () -> !follower.group.leaderAddress().isEmpty());

        ExecutionException e = assertThrows(ExecutionException.class, () -> follower.group.propose(
                new ReplicaCommand.Create(follower.store.newId(), 0), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        StoreException refused = assertInstanceOf(StoreException.class, e.getCause());
        assertEquals(Status.NOT_LEADER, refused.status());
        assertEquals("127.0.0.1:" + leader.replica.dataPort(), refused.getMessage());
        assertThrows(ExecutionException.class, () -> follower.group.readBarrier().get(10, TimeUnit.SECONDS));
        leader.group.readBarrier().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aStoreErrorIsTheOutcomeOnEveryReplica() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader);
        write(leader, id, "cart", "item", "one");
        WriteRequest stale = new WriteRequest(id, List.of(new SectionDelta("cart", 0, Map.of("item", bytes("x")), List.of())));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> leader.group.propose(new ReplicaCommand.Write(stale), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        assertEquals(Status.CONFLICT, assertInstanceOf(StoreException.class, e.getCause()).status());
        write(leader, id, "cart", "item", "two");
        for (Node node : nodes) {
            Await.until("replica " + node.replica.id() + " skipped the conflicting write", ELECTION,
                    () -> version(node.store, id, "cart") == 2);
        }
    }

    @Test
    void aWriteToASessionKeptAliveByReadsAloneSurvivesTheLeadersLoss() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader, SHORT_IDLE_MILLIS, null);
        write(leader, id, "cart", "item", "one");
        keepAliveByReads(leader, id);

        // the leader has seen the reads, its followers only the first write: the write must still reach them all
        assertEquals(Map.of("cart", 2L), write(leader, id, "cart", "item", "two"));
        for (Node node : nodes) {
            Await.until("replica " + node.replica.id() + " applied the second write", ELECTION,
                    () -> version(node.store, id, "cart") == 2);
        }
        Node next = failOver(leader);
        assertArrayEquals(bytes("two"), section(next.store, id, "cart").attribute("item"));
    }

    @Test
    void aLogoutOfASessionKeptAliveByReadsAloneSurvivesTheLeadersLoss() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader, SHORT_IDLE_MILLIS, "alice");
        keepAliveByReads(leader, id);

        SessionStore.LoggedOut out = assertInstanceOf(SessionStore.LoggedOut.class,
                leader.group.propose(new ReplicaCommand.Logout("alice"), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        assertEquals(1, out.sessions());
        Node next = failOver(leader);
        // a new leader counts every session it holds as used now: one the logout missed would be back
        assertEquals(0, next.store.sessionCount(), "the logged-out session is gone on the new leader");
    }

    /**
     * Entries that cannot be applied: a GROUP_IMPORT whose session record declares 2 GiB (and then 1 GiB) of sections
     * it does not carry, and a cluster map that does not decode. Each is refused alike on every replica: none runs out
     * of memory or stops applying, all three hold the same state (digest), and they still do after every replica
     * restarts and replays the log.
     */
    @Test
    void entriesThatCannotBeApplied_leaveEveryReplicaAliveAndAlike_alsoAfterTheLogIsReplayed() throws Exception {
        Node leader = awaitLeader(nodes);
        String id = create(leader);
        write(leader, id, "cart", "item", "one");
        for (int declared : new int[] {Integer.MAX_VALUE, 1 << 30}) {
            ExecutionException lying = assertThrows(ExecutionException.class, () -> leader.group.propose(
                    new ReplicaCommand.Import(null, lyingImport(declared)), 0, Invalidator.NONE).get(30, TimeUnit.SECONDS));
            StoreException refused = assertInstanceOf(StoreException.class, lying.getCause());
            assertEquals(Status.BAD_REQUEST, refused.status());
            assertTrue(refused.getMessage().contains("sections of " + declared + " bytes"), refused.getMessage());
        }
        ExecutionException badMap = assertThrows(ExecutionException.class, () -> leader.group.propose(
                new ReplicaCommand.Blob(ReplicaCommand.MAP, new byte[] {9, 9, 9}), 0, Invalidator.NONE)
                .get(30, TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, badMap.getCause());
        assertEquals(Map.of("cart", 2L), write(leader, id, "cart", "item", "two"), "the group goes on");
        long digest = awaitSameState("after the refusals", id, 2);
        assertEquals(3, leader.group.moves().refusedEntries(), "each refusal is counted in the replicated state");

        for (Node node : nodes) {
            node.stop();
        }
        for (Node node : nodes) {
            node.start();
        }
        Node next = awaitLeader(nodes);
        assertEquals(digest, awaitSameState("after every replica replayed its log", id, 2));
        assertEquals(Map.of("cart", 3L), write(next, id, "cart", "item", "three"));
        awaitSameState("after a write on the replayed group", id, 3);
    }

    /**
     * An import is sent again when its answer was lost: it must not bring back a session this group adopted from it and
     * has deleted, renamed away or logged out since (tombstones for the move), and an import of another move, or of a
     * move that is over, is refused; every replica holds the same state after each.
     */
    @Test
    void anImportSentAgain_bringsBackNoSessionRemovedSince_andOneOfAnotherMoveIsRefused() throws Exception {
        Node leader = awaitLeader(nodes);
        List<String> self = replicas.stream().map(r -> "127.0.0.1:" + r.dataPort()).toList();
        io.sessionmesh.wire.placement.GroupMap moving = io.sessionmesh.wire.placement.GroupMap.first(
                List.of(List.of("10.9.9.9:7400")), 64).adding(self); // epoch 2: this group gains sessions
        leader.group.propose(new ReplicaCommand.Blob(ReplicaCommand.MAP, moving.encode()), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS);
        SessionStore donor = new SessionStore(StoreLimits.DEFAULT, System::currentTimeMillis);
        String deleted = ownedHere(moving, self.get(0), donor);
        String renamed = ownedHere(moving, self.get(0), donor);
        String loggedOut = ownedHere(moving, self.get(0), donor);
        String renamedTo = ownedHere(moving, self.get(0), new SessionStore(StoreLimits.DEFAULT, System::currentTimeMillis));
        long now = System.currentTimeMillis();
        donor.create(deleted, null, now, null, "h");
        donor.create(renamed, null, now, null, "h");
        donor.create(loggedOut, null, now, "pat", "h");
        List<byte[]> records = new ArrayList<>();
        for (String id : List.of(deleted, renamed, loggedOut)) {
            records.add(io.sessionmesh.master.store.StoreSnapshot.record(donor.takeForMove(id, Invalidator.NONE, now), codec));
        }
        byte[] body = io.sessionmesh.master.store.StoreSnapshot.Import.of(
                io.sessionmesh.master.store.StoreSnapshot.moveBody(2, Map.of(), records)).records();

        assertEquals(3, leader.group.propose(new ReplicaCommand.Import(2L, body), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        leader.group.propose(new ReplicaCommand.Delete(deleted), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS);
        leader.group.propose(new ReplicaCommand.Rename(renamed, renamedTo, 0), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS);
        leader.group.propose(new ReplicaCommand.Logout("pat"), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS);
        assertEquals(0, leader.group.propose(new ReplicaCommand.Import(2L, body), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS), "the import sent again adopts nothing");
        for (Node node : nodes) {
            Await.until("replica " + node.replica.id() + " applied the second import", ELECTION,
                    () -> node.group.appliedIndex() == leader.group.appliedIndex());
            for (String id : List.of(deleted, renamed, loggedOut)) {
                assertEquals(null, node.store.describe(id), "no revived session on replica " + node.replica.id());
            }
            assertEquals(1, node.store.sessionCount(), "only the renamed session, under its new id");
        }
        ExecutionException other = assertThrows(ExecutionException.class, () -> leader.group.propose(
                new ReplicaCommand.Import(1L, body), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        assertEquals(Status.CONFLICT, assertInstanceOf(StoreException.class, other.getCause()).status());
        leader.group.propose(new ReplicaCommand.Blob(ReplicaCommand.MAP, moving.settled().encode()), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS);
        ExecutionException over = assertThrows(ExecutionException.class, () -> leader.group.propose(
                new ReplicaCommand.Import(2L, body), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS));
        assertTrue(over.getCause().getMessage().contains("that move is over"), over.getCause().getMessage());
        Await.until("one state digest on every replica", ELECTION, () -> nodes.stream()
                .map(n -> n.group.appliedIndex() + ":" + n.group.stateDigest()).distinct().count() == 1);
    }

    /** A new id that {@code map} gives to the group named {@code group}. */
    private static String ownedHere(io.sessionmesh.wire.placement.GroupMap map, String group, SessionStore ids) {
        while (true) {
            String id = ids.newId();
            if (map.owner(id).equals(group)) {
                return id;
            }
        }
    }

    /**
     * Waits until every replica applied the session's {@code version} of "cart" and the same index, then until all
     * have one digest; returns it.
     */
    private long awaitSameState(String when, String id, long version) {
        long[] digest = {0};
        Await.until("every replica at version " + version + " with one state digest, " + when, ELECTION, () -> {
            java.util.Set<Long> digests = new java.util.HashSet<>();
            java.util.Set<Long> applied = new java.util.HashSet<>();
            for (Node node : nodes) {
                if (version(node.store, id, "cart") != version) {
                    return false;
                }
                applied.add(node.group.appliedIndex());
                digests.add(node.group.stateDigest());
            }
            digest[0] = digests.iterator().next();
            return applied.size() == 1 && digests.size() == 1;
        });
        return digest[0];
    }

    /** An import body (as an earlier build sent it) of one session whose sections' length says {@code declared}. */
    private static byte[] lyingImport(int declared) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 + 1 + 1 + 22 + 32 + 4 + 16);
        b.putInt(0); // no schemas
        b.put((byte) 1).put((byte) 22).put("AAAAAAAAAAAAAAAAAAAAAA".getBytes(StandardCharsets.US_ASCII));
        long now = System.currentTimeMillis();
        b.putLong(now).putLong(60_000).putLong(now + 3_600_000).putLong(now);
        b.putInt(declared); // ... and 16 bytes follow, not 2 GiB
        return b.array();
    }

    /** Reads on the leader alone (they are not in the log) for longer than the session's idle timeout. */
    private static void keepAliveByReads(Node leader, String id) throws InterruptedException {
        long until = System.currentTimeMillis() + SHORT_IDLE_MILLIS * 3 / 2;
        while (System.currentTimeMillis() < until) {
            assertTrue(version(leader.store, id, "cart") >= 0, "the leader still has the session");
            Thread.sleep(SHORT_IDLE_MILLIS / 8);
        }
    }

    /** Stops {@code leader}; the replica elected among the rest. */
    private Node failOver(Node leader) throws IOException {
        leader.stop();
        List<Node> rest = new ArrayList<>(nodes);
        rest.remove(leader);
        return awaitLeader(rest);
    }

    private Node awaitLeader(List<Node> candidates) {
        Node[] found = {null};
        Await.until("a leader among " + candidates.size() + " replicas", ELECTION, () -> {
            for (Node n : candidates) {
                if (n.group != null && n.group.leads()) {
                    found[0] = n;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private String create(Node leader) throws Exception {
        Object created = leader.group.propose(new ReplicaCommand.Create(leader.store.newId(), 0), 0, Invalidator.NONE)
                .get(10, TimeUnit.SECONDS);
        return assertInstanceOf(SessionStore.CreatedSession.class, created).id();
    }

    private String create(Node leader, long idleTimeoutMillis, String principal) throws Exception {
        Object created = leader.group.propose(new ReplicaCommand.Create(leader.store.newId(), idleTimeoutMillis, principal, "127.0.0.1"),
                0, Invalidator.NONE).get(10, TimeUnit.SECONDS);
        return assertInstanceOf(SessionStore.CreatedSession.class, created).id();
    }

    private Map<String, Long> write(Node leader, String id, String section, String attribute, String value) throws Exception {
        WriteRequest request = new WriteRequest(id, List.of(new SectionDelta(section, Map.of(attribute, bytes(value)), List.of())));
        Object outcome = leader.group.propose(new ReplicaCommand.Write(request), 0, Invalidator.NONE).get(10, TimeUnit.SECONDS);
        return assertInstanceOf(SessionStore.Written.class, outcome).result().versions();
    }

    private static long version(SessionStore store, String id, String section) {
        try {
            return section(store, id, section).version();
        } catch (StoreException e) {
            return -1;
        }
    }

    private static EncodedSection section(SessionStore store, String id, String section) {
        return store.read(new ReadRequest(id, List.of(section))).sections().get(0);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static GroupConfig.Replica replica(String id) throws IOException {
        return new GroupConfig.Replica(id, "127.0.0.1", FreePorts.next(), FreePorts.next());
    }
}
