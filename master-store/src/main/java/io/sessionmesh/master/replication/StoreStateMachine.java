package io.sessionmesh.master.replication;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.master.store.StoreSnapshot;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.Status;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.server.storage.FileInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store as a Raft state machine: every replica applies the group's log ({@link ReplicaCommand}s) to its own
 * {@link SessionStore} in log order, at the leader's time written in each entry, so all replicas hold the same
 * sessions, versions, deadlines and schemas. Deterministic by construction: the leader chooses what is random (a new
 * session's id) and what is a clock (the entry's time) before it proposes; applying never reads a clock.
 *
 * <p>The memory budget (max-store, {@link io.sessionmesh.master.store.MemoryBudget}): applying an entry never grows
 * the store past it. A CREATE, WRITE or SCHEMA_PUBLISH that would is refused UNAVAILABLE when applied, by every replica
 * alike, because each checks the part of the budget that is the same on all of them (sessions, sections, schemas); the
 * leader refuses CREATE and new schemas before proposing them, on everything it counts, so the log does not grow with
 * them either. What a group takes in without a choice (a snapshot, a GROUP_IMPORT of moved sessions) is counted but
 * not refused: refusing would lose sessions.
 *
 * <p>The replica that proposed an entry also hands its outcome (the write's versions, a CONFLICT, the fence of its
 * invalidations) to the request waiting for it, through a {@link Pending} found by the entry's origin and ticket.
 * Invalidations are sent only by the replica that leads: its caches registered with it, and a LEAD entry clears
 * every replica's holders, so a replica that stops leading tells no one.
 *
 * <p>Snapshots: {@link StoreSnapshot} into Ratis's {@link SimpleStateMachineStorage} (one file per snapshot, named by
 * term and index, with an MD5 beside it), taken on the thread that applies the log.
 */
final class StoreStateMachine extends BaseStateMachine {
    private static final Logger log = LoggerFactory.getLogger(StoreStateMachine.class);

    /**
     * What a proposing replica's request waits for; completed once, on the thread that applies the log: with the store's
     * outcome, or exceptionally with the store's refusal ({@link StoreException}: CONFLICT, NOT_FOUND, ...).
     */
    static final class Pending {
        final long writerBit;
        final Invalidator invalidator;
        final CompletableFuture<Object> outcome = new CompletableFuture<>();

        Pending(long writerBit, Invalidator invalidator) {
            this.writerBit = writerBit;
            this.invalidator = invalidator;
        }
    }

    /** Told when this replica has applied its own LEAD entry (it may now serve), with the entry's term. */
    interface LeadershipListener {
        /** Ratis made this replica leader and committed its first entry: it may propose. */
        void leaderReady();

        /** This replica applied its own LEAD entry of {@code term}. */
        void ledFrom(long term);

        void leaderChanged(RaftPeerId leader);
    }

    private final SessionStore store;
    private final BinaryTransportCodec codec;
    private final Invalidator anonymous;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    /** This process's origin in the entries it proposes: random, so a restarted replica never completes old tickets. */
    private final long origin = new java.security.SecureRandom().nextLong();
    private final AtomicLong tickets = new AtomicLong();
    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private volatile LeadershipListener listener;
    /** The term of the last LEAD applied (on the thread that applies the log). */
    private long lastLeadTerm = -1;

    private final GroupMoves moves;
    /** How snapshots reach the disk: forced, file and directory, before the log behind them may be purged. */
    private final SnapshotFiles disk;

    StoreStateMachine(SessionStore store, BinaryTransportCodec codec, Invalidator anonymous, GroupMoves moves) {
        this(store, codec, anonymous, moves, new SnapshotFiles());
    }

    StoreStateMachine(SessionStore store, BinaryTransportCodec codec, Invalidator anonymous, GroupMoves moves,
                      SnapshotFiles disk) {
        this.disk = disk;
        this.moves = moves;
        this.store = store;
        this.codec = codec;
        this.anonymous = anonymous;
    }

    void listen(LeadershipListener listener) {
        this.listener = listener;
    }

    /** An entry to propose, and the ticket its {@link Pending} waits under. */
    record Proposal(long ticket, byte[] entry) {
    }

    /** The entry for {@code command} at {@code time}, with a new ticket that {@code waiting} is registered under. */
    Proposal propose(ReplicaCommand command, long time, Pending waiting) {
        long ticket = tickets.incrementAndGet();
        byte[] entry = ReplicaCommand.encode(command, time, origin, ticket, codec);
        if (waiting != null) {
            pending.put(ticket, waiting);
        }
        return new Proposal(ticket, entry);
    }

    /** A proposal that failed: nobody waits for its ticket any more. */
    Pending withdraw(long ticket) {
        return pending.remove(ticket);
    }

    /** Requests waiting for entries this replica proposed. */
    int pendingCount() {
        return pending.size();
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        int partials = SnapshotFiles.removePartials(storage.getSnapshotFile(0, 0).toPath().getParent());
        if (partials > 0) {
            log.warn("removed {} snapshot(s) left half-written by a replica stopped while writing them", partials);
        }
        load(storage.getLatestSnapshot());
    }

    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        ByteBuffer data = entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer();
        List<ReplicaCommand.Entry> entries;
        try {
            entries = ReplicaCommand.decodeAll(data, codec);
        } catch (io.sessionmesh.wire.transport.MalformedMessageException e) {
            if (e.status() == Status.UNSUPPORTED_VERSION) {
                // a newer build's entry: skipping it would leave this replica unlike the ones that apply it
                throw e;
            }
            // malformed in a format this build reads: every replica of this build refuses it alike, and goes on
            moves.refused();
            log.error("log entry {} refused: {} (refused entries: {})", entry.getIndex(), e.getMessage(), moves.refusedEntries());
            entries = List.of();
        }
        for (ReplicaCommand.Entry e : entries) {
            applyOne(e, entry);
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    /** Applies one change of the log entry {@code entry} and hands its outcome to the request waiting here, if any. */
    private void applyOne(ReplicaCommand.Entry e, LogEntryProto entry) {
        Pending waiting = e.origin() == origin ? pending.remove(e.ticket()) : null;
        Object outcome;
        try {
            outcome = apply(e, waiting, entry.getTerm());
        } catch (StoreException ex) {
            outcome = ex;
        } catch (RuntimeException ex) {
            moves.refused();
            log.error("log entry {} ({}) failed to apply", entry.getIndex(), e.command().getClass().getSimpleName(), ex);
            outcome = new StoreException(Status.INTERNAL, e.command().getClass().getSimpleName() + " failed: " + ex);
        }
        if (waiting != null) {
            if (outcome instanceof StoreException refused) {
                waiting.outcome.completeExceptionally(refused);
            } else {
                waiting.outcome.complete(outcome);
            }
        }
    }

    private Object apply(ReplicaCommand.Entry e, Pending waiting, long term) {
        long bit = waiting == null ? 0 : waiting.writerBit;
        Invalidator invalidator = waiting == null ? anonymous : waiting.invalidator;
        long now = e.time();
        ReplicaCommand command = e.command();
        if (command instanceof ReplicaCommand.Write w) {
            return store.write(w.request(), bit, invalidator, now);
        }
        if (command instanceof ReplicaCommand.WriteOnce w) {
            // the table changes only here, in log order at leader times: every replica decides alike
            return store.recentWrites().write(w.writeId(), w.request(), now, () -> store.write(w.request(), bit, invalidator, now),
                    () -> store.times(w.request().sessionId()));
        }
        if (command instanceof ReplicaCommand.Create c) {
            GroupMap map = moves.map();
            if (map != null && !map.owner(c.sessionId()).equals(moves.selfName(map))) {
                // chosen on a ring this group no longer has (the map changed between the choice and now)
                throw new StoreException(Status.MOVED, Long.toString(map.epoch()));
            }
            return store.create(c.sessionId(), c.idleTimeoutMillis() == 0 ? null : Duration.ofMillis(c.idleTimeoutMillis()), now,
                    c.principal(), c.host());
        }
        if (command instanceof ReplicaCommand.Delete d) {
            return new ReplicaGroup.Deleted(store.delete(d.sessionId(), bit, invalidator, now));
        }
        if (command instanceof ReplicaCommand.Rename r) {
            GroupMap map = moves.map();
            if (!r.newId().equals(r.oldId()) && map != null && !map.owner(r.newId()).equals(moves.selfName(map))) {
                // an atomic rename across groups is not possible: the caller picks another id
                throw new StoreException(Status.CONFLICT, io.sessionmesh.wire.transport.RenameRequest.NEW_ID_ON_ANOTHER_MASTER + " group");
            }
            return store.rename(r.oldId(), r.newId(), r.idleTimeoutMillis() == 0 ? null : Duration.ofMillis(r.idleTimeoutMillis()),
                    bit, invalidator, now);
        }
        if (command instanceof ReplicaCommand.Principal p) {
            store.setPrincipal(p.sessionId(), p.principal(), now);
            return Boolean.TRUE;
        }
        if (command instanceof ReplicaCommand.Logout l) {
            SessionStore.LoggedOut out = store.logout(l.principal(), bit, invalidator, now);
            int leaving = moves.dropLeavingOf(l.principal()); // in flight out of this group: they go too
            return leaving == 0 ? out : new SessionStore.LoggedOut(out.sessions() + leaving, out.fence());
        }
        if (command instanceof ReplicaCommand.Sessions s && s.kind() == ReplicaCommand.TOUCH) {
            StoreException first = null;
            for (String id : s.sessionIds()) {
                try {
                    store.touch(id, now);
                } catch (StoreException ex) {
                    first = first == null ? ex : first;
                }
            }
            if (first != null) {
                throw first;
            }
            return Boolean.TRUE;
        }
        if (command instanceof ReplicaCommand.Sessions s && s.kind() == ReplicaCommand.HANDOFF) {
            return handOff(s.sessionIds(), invalidator, now);
        }
        if (command instanceof ReplicaCommand.Sessions s && s.kind() == ReplicaCommand.HANDED) {
            moves.handed(s.sessionIds());
            return Boolean.TRUE;
        }
        if (command instanceof ReplicaCommand.Sessions s) {
            return store.expire(s.sessionIds(), now);
        }
        if (command instanceof ReplicaCommand.Blob b) {
            GroupMap next = GroupMap.decode(b.bytes());
            boolean taken = moves.apply(next);
            if (taken) {
                log.info("group map {} applied", next);
            }
            return taken;
        }
        if (command instanceof ReplicaCommand.Import i) {
            try {
                if (i.epoch() == null) { // an earlier build's entry, applied as it applied it
                    return StoreSnapshot.adoptAll(store, i.records(), codec, now);
                }
                String refusal = moves.importRefusal(i.epoch());
                if (refusal != null) {
                    throw new StoreException(Status.CONFLICT, "GROUP_IMPORT refused: " + refusal);
                }
                return StoreSnapshot.adoptAll(store, i.records(), codec, now, id -> !moves.adoptedInThisMove(id),
                        moves::adopted);
            } catch (IOException ex) {
                moves.refused(); // the leader checked the body: this is an earlier build's entry, or a bug
                throw new StoreException(Status.BAD_REQUEST, "GROUP_IMPORT body: " + ex.getMessage());
            }
        }
        if (command instanceof ReplicaCommand.Schema s) {
            return store.schemas().publish(s.uid(), s.schema());
        }
        if (term == lastLeadTerm) {
            // A second LEAD of one term (its leader proposed it again after a reply it took for a failure): the first
            // already started the term; forgetting holders again would drop caches that read since (stale reads).
            return Boolean.FALSE;
        }
        lastLeadTerm = term;
        store.lead(now);
        LeadershipListener l = listener;
        if (e.origin() == origin && l != null) { // this process's LEAD, even one whose proposal looked failed
            l.ledFrom(term);
        }
        return Boolean.TRUE;
    }

    /**
     * HANDOFF: each session the map now gives to another group leaves the store for the outbox; every cache that held
     * it is told (the fences, for the leader that sends it on). A session the map still gives to this group stays.
     */
    private List<Fence> handOff(List<String> ids, Invalidator invalidator, long now) {
        GroupMap map = moves.map();
        List<Fence> fences = new ArrayList<>();
        if (map == null) {
            return fences;
        }
        String self = moves.selfName(map);
        for (String id : ids) {
            String target = map.owner(id);
            if (target.equals(self)) {
                continue;
            }
            SessionStore.Taken taken = store.takeForMove(id, invalidator, now);
            if (taken != null) {
                moves.add(new GroupMoves.Outgoing(id, target, StoreSnapshot.record(taken, codec)));
                if (taken.fence() != null) {
                    fences.add(taken.fence());
                }
            }
        }
        return fences;
    }

    /** The digest of this replica's replicated state: its store's ({@link SessionStore#digest}) and its group's. */
    long digest() {
        return io.sessionmesh.master.store.Digest.mix(store.digest(), moves.digest());
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeader) {
        LeadershipListener l = listener;
        if (l != null) {
            l.leaderChanged(newLeader);
        }
    }

    @Override
    public void notifyLeaderReady() {
        LeadershipListener l = listener;
        if (l != null) {
            l.leaderReady();
        }
    }

    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        int[] sessions = {0};
        disk.write(file.toPath(), out -> sessions[0] = StoreSnapshot.write(store, out, codec, moves.encode()));
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        disk.forceWritten(MD5FileUtil.getDigestFileForFile(file).toPath());
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
        log.info("snapshot at {}: {} sessions, {} bytes", last, sessions[0], file.length());
        return last.getIndex();
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        File file = snapshot.getFile().getPath().toFile();
        if (!file.exists()) {
            log.warn("snapshot file {} is missing", file);
            return;
        }
        MD5Hash md5 = snapshot.getFile().getFileDigest();
        if (md5 != null) {
            MD5FileUtil.verifySavedMD5(file, md5);
        }
        int sessions;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file.toPath()), 1 << 16))) {
            byte[][] state = {new byte[0], new byte[0]};
            sessions = StoreSnapshot.read(store, in, codec, b -> state[0] = b, b -> state[1] = b);
            moves.load(state[0]);
            store.recentWrites().load(state[1]);
        }
        updateLastAppliedTermIndex(snapshot.getTermIndex());
        log.info("loaded snapshot {}: {} sessions", snapshot.getTermIndex(), sessions);
    }
}
