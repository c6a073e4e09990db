package io.sessionmesh.master.replication;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.Status;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import io.sessionmesh.wire.tls.TlsFiles;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This master's replica of its group: an Apache Ratis server (Raft over Netty, the log in Ratis's segmented files on
 * local disk) whose state machine is the {@link SessionStore} ({@link StoreStateMachine}). Every change is proposed
 * here and acknowledged only once a majority of the group has it in its log and this replica has applied it; reads
 * are served by the leader only, after a {@link ReadBarrier} (Ratis's linearizable read, on its leader lease).
 *
 * <h2>Leading</h2>
 * A replica that Ratis makes leader first proposes a LEAD entry and serves nothing until it has applied it (so it
 * holds every entry of earlier terms, and every replica has dropped the holders of the old leader's caches). Then it
 * answers reads at once, but keeps each write's and delete's acknowledgement back until {@link #writesOpenNanos()}:
 * one cache lease ({@code leaseMillis}) and a margin after that moment. A cache that read from the old leader holds a
 * lease the old leader granted while Ratis still counted it leader, so before this replica was elected: once that
 * lease has run out, the cache serves nothing it read from the old leader, and no write can be acknowledged while a
 * stale copy is still served (PROTOCOL.md 3.8 gives the whole argument).
 */
public final class ReplicaGroup implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(ReplicaGroup.class);

    private final GroupConfig config;
    private final RaftServer server;
    private final RaftGroup group;
    private final RaftPeerId self;
    private final StoreStateMachine machine;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final ReadBarrier reads;
    private final ProposalBatcher<StoreStateMachine.Proposal> proposals;
    private final long leaseNanos;
    /** The term this replica leads in once its LEAD entry is applied; -1 when it does not lead. */
    private volatile long ledTerm = -1;
    /** Run when this replica starts to lead ({@link #onLead}). */
    private final java.util.List<Runnable> leadHooks = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile long writesOpenNanos;
    private volatile RaftPeerId leader;
    private volatile boolean closed;
    /**
     * Calls into Ratis that would otherwise run on one of Ratis's own threads: the next batch or read barrier, started
     * when the previous one completes (on the thread that applies the log, which may hold Ratis's read-index queue),
     * LEAD when Ratis says this replica leads, and LEAD's retries. A call into Ratis from its own apply thread can
     * wait for that very thread (a deadlock seen in the consistency run with master faults), so none is made there.
     */
    private final java.util.concurrent.ScheduledExecutorService submitter = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "replica-submit");
                t.setDaemon(true);
                return t;
            });
    /** Longest wait for Ratis to close. */
    static final long CLOSE_WAIT_MILLIS = 5_000;
    /** Size of one file of the Raft log (a larger entry gets a file of its own). */
    static final String LOG_SEGMENT_BYTES = "8MB";
    /** Log files whose entries Ratis keeps in memory, at most. */
    static final int LOG_SEGMENTS_CACHED = 2;
    /** Bytes of log entries Ratis keeps in memory, at most (closed segments are dropped past it). */
    static final String LOG_CACHE_BYTES = "32MB";
    /** Pause before proposing LEAD again. */
    static final long LEAD_RETRY_MILLIS = 200;

    private final GroupMoves moves;

    private ReplicaGroup(GroupConfig config, RaftServer server, RaftGroup group, StoreStateMachine machine, long leaseMillis,
                         GroupMoves moves) {
        this.moves = moves;
        this.config = config;
        this.server = server;
        this.group = group;
        this.self = RaftPeerId.valueOf(config.self().id());
        this.machine = machine;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.reads = new ReadBarrier(this::readIndex, this::offRatisThreads);
        this.proposals = new ProposalBatcher<>(ProposalBatcher.DEFAULT_MAX_IN_FLIGHT, this::submitBatch, this::unconfirmed,
                this::offRatisThreads);
    }

    /**
     * Starts this replica: opens (or formats, on first start) its Ratis storage under {@code config.dir()}, loads the
     * latest snapshot and replays the log after it, then joins the group's elections.
     *
     * @param leaseMillis the longest lease this master grants a cache (its holders' registry)
     * @param anonymous the invalidator of writes made by no cache
     */
    public static ReplicaGroup start(GroupConfig config, SessionStore store, BinaryTransportCodec codec,
                                     Invalidator anonymous, long leaseMillis) throws IOException {
        return start(config, store, codec, anonymous, leaseMillis, null);
    }

    /**
     * @param tls mutual TLS between the replicas (null: none). Only Ratis's gRPC transport has TLS: with the netty
     *            transport it is refused.
     */
    public static ReplicaGroup start(GroupConfig config, SessionStore store, BinaryTransportCodec codec,
                                     Invalidator anonymous, long leaseMillis, TlsFiles tls) throws IOException {
        if (tls != null && !config.transport().equals("grpc")) {
            throw new IllegalArgumentException("TLS between replicas needs the grpc Raft transport (Ratis's netty transport"
                    + " has no TLS): --raft-transport grpc");
        }
        store.removeOnlyThroughTheLog();
        java.util.Set<String> self = new java.util.HashSet<>();
        for (GroupConfig.Replica r : config.replicas()) {
            self.add(r.host() + ":" + r.dataPort());
        }
        GroupMoves moves = new GroupMoves(self);
        StoreStateMachine machine = new StoreStateMachine(store, codec, anonymous, moves);
        RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(("sessionmesh-group:" + config.name()).getBytes(StandardCharsets.UTF_8))), peers(config));
        RaftProperties properties = properties(config);
        RaftServer server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(config.self().id()))
                .setGroup(group)
                .setStateMachine(machine)
                .setProperties(properties)
                .setParameters(parameters(tls, config))
                .setOption(isEmpty(config.dir()) ? RaftStorage.StartupOption.FORMAT : RaftStorage.StartupOption.RECOVER)
                .build();
        ReplicaGroup replica = new ReplicaGroup(config, server, group, machine, leaseMillis, moves);
        machine.listen(replica.new Leadership());
        server.start();
        log.info("replica {} of group {} started: {} replicas, Raft port {} ({}), log in {}", config.self().id(),
                config.name(), config.replicas().size(), config.self().raftPort(), config.transport(), config.dir());
        return replica;
    }

    private static boolean isEmpty(java.nio.file.Path dir) throws IOException {
        if (!java.nio.file.Files.isDirectory(dir)) {
            return true;
        }
        try (var entries = java.nio.file.Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static List<RaftPeer> peers(GroupConfig config) {
        List<RaftPeer> peers = new ArrayList<>();
        for (GroupConfig.Replica r : config.replicas()) {
            peers.add(RaftPeer.newBuilder().setId(r.id()).setAddress(r.host() + ":" + r.raftPort())
                    .setClientAddress(r.host() + ":" + r.dataPort()).build());
        }
        return peers;
    }

    /**
     * Ratis's gRPC TLS: this master's certificate and key; the peer's certificate required, signed by the trusted
     * authorities and naming a replica of this group ({@link ReplicaTrust}), both ways.
     */
    private static Parameters parameters(TlsFiles tls, GroupConfig config) {
        Parameters parameters = new Parameters();
        if (tls != null) {
            GrpcTlsConfig conf = new GrpcTlsConfig(tls.keyManager(), new ReplicaTrust(tls.trustManager(), config), true);
            GrpcConfigKeys.Server.setTlsConf(parameters, conf);
            GrpcConfigKeys.Client.setTlsConf(parameters, conf);
            GrpcConfigKeys.Admin.setTlsConf(parameters, conf);
        }
        return parameters;
    }

    private static RaftProperties properties(GroupConfig config) {
        RaftProperties p = new RaftProperties();
        if (config.transport().equals("grpc")) {
            RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
            GrpcConfigKeys.Server.setPort(p, config.self().raftPort());
            GrpcConfigKeys.Server.setHost(p, config.self().host());
        } else {
            RaftConfigKeys.Rpc.setType(p, SupportedRpcType.NETTY);
            NettyConfigKeys.Server.setPort(p, config.self().raftPort());
            NettyConfigKeys.Server.setHost(p, config.self().host());
        }
        RaftServerConfigKeys.setStorageDir(p, List.of(config.dir().toFile()));
        // Reads: linearizable, answered by the leader on its lease while it has one (one heartbeat round otherwise).
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, true);
        // Elections: Ratis's defaults (150-300 ms) are for a quiet LAN; on a loaded 2-core host a GC pause or a
        // scheduling delay would start needless elections.
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(config.electionTimeoutMillis(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2L * config.electionTimeoutMillis(), TimeUnit.MILLISECONDS));
        // The log: segmented files, each entry on disk (fsync) before it counts toward a majority, unless told not to.
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(LOG_SEGMENT_BYTES));
        // Ratis keeps recent log segments in memory (by default up to 6 of them and 200 MB): on top of the store's own
        // copy that doubled the heap of a replica (benchmarks/RESULTS.md 9.3 at 1f3fa7a). The followers' appends and a restarted
        // replica's catch-up read older entries from the files.
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, LOG_SEGMENTS_CACHED);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p, SizeInBytes.valueOf(LOG_CACHE_BYTES));
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(p, !config.syncLog());
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // No commit-index entry after each commit (Ratis's "log metadata"): it doubles the entries and the disk forces
        // of a write, and only speeds up a restart's replay (a replica learns the commit index from its leader).
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        // The leader's appender sleeps this long between two appends to batch them (Ratis's default 1 ms, a sleep that
        // is 1 to 2 ms on Linux, on every write's path); entries that arrive while an append is in flight batch anyway.
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(p, TimeDuration.ZERO);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, config.snapshotEveryEntries());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        return p;
    }

    /** A DELETE's outcome: the fence of its invalidations (null: nothing to wait for). */
    public record Deleted(io.sessionmesh.master.coherence.Fence fence) {
    }

    public GroupConfig config() {
        return config;
    }

    /** The cluster map this group applied and the sessions it is handing off (PROTOCOL.md 3.9). */
    public GroupMoves moves() {
        return moves;
    }

    /** Runs {@code hook} each time this replica starts to lead (its LEAD entry applied), on the applying thread. */
    public void onLead(Runnable hook) {
        leadHooks.add(hook);
    }

    /** Whether this replica leads and may serve: its LEAD entry is applied and it is still Raft's leader. */
    public boolean leads() {
        if (ledTerm < 0 || closed) {
            return false;
        }
        try {
            var info = server.getDivision(group.getGroupId()).getInfo();
            return info.isAlive() && info.isLeader() && info.getCurrentTerm() == ledTerm;
        } catch (IOException e) {
            return false;
        }
    }

    /** When writes may be acknowledged: {@link System#nanoTime()} from which no cache holds a lease of the old leader. */
    public long writesOpenNanos() {
        return writesOpenNanos;
    }

    /**
     * The leader's data address ({@code host:port}), or "" when none is known (the NOT_LEADER message): Ratis's current
     * view (it forgets the leader when an election starts), else the last leader it announced.
     */
    public String leaderAddress() {
        RaftPeerId l = leader;
        try {
            l = server.getDivision(group.getGroupId()).getInfo().getLeaderId();
        } catch (IOException | RuntimeException e) {
            // closed: the last one announced
        }
        if (l == null) {
            return "";
        }
        for (GroupConfig.Replica r : config.replicas()) {
            if (r.id().equals(l.toString())) {
                return r.host() + ":" + r.dataPort();
            }
        }
        return "";
    }

    /** NOT_LEADER, naming the leader when this replica knows it. */
    public StoreException notLeader() {
        return new StoreException(Status.NOT_LEADER, leaderAddress());
    }

    /**
     * Proposes a change; the future completes, on the thread that applies the log, with the store's outcome (what
     * {@link StoreStateMachine} returns for the command). It completes exceptionally with a {@link StoreException}:
     * the store's refusal (CONFLICT, NOT_FOUND, TOO_LARGE, ...), NOT_LEADER when this replica does not lead, TIMEOUT
     * when the outcome is unknown (the entry was proposed and may still be applied).
     */
    public CompletableFuture<Object> propose(ReplicaCommand command, long writerBit, Invalidator invalidator) {
        if (!leads()) {
            return CompletableFuture.failedFuture(notLeader());
        }
        StoreStateMachine.Pending waiting = new StoreStateMachine.Pending(writerBit, invalidator);
        StoreStateMachine.Proposal proposal = machine.propose(command, System.currentTimeMillis(), waiting);
        if (!proposals.add(new ProposalBatcher.Queued<>(proposal.entry(), proposal))) {
            machine.withdraw(proposal.ticket());
            return CompletableFuture.failedFuture(new StoreException(Status.UNAVAILABLE, ProposalBatcher.MAX_QUEUED
                    + " changes already wait for the group; retry later"));
        }
        return waiting.outcome;
    }

    /** A change of a batch that the group did not confirm: its request is answered TIMEOUT. */
    private void unconfirmed(ProposalBatcher.Queued<StoreStateMachine.Proposal> change, Throwable cause) {
        StoreStateMachine.Pending waiting = machine.withdraw(change.owner().ticket());
        if (waiting != null) {
            waiting.outcome.completeExceptionally(new StoreException(Status.TIMEOUT, "the group did not confirm the "
                    + "change; it may still be applied: " + cause));
        }
    }

    /** Proposes one Raft entry holding {@code batch}; completes exceptionally unless Ratis confirms it. */
    private CompletableFuture<RaftClientReply> submitBatch(List<ProposalBatcher.Queued<StoreStateMachine.Proposal>> batch) {
        List<byte[]> entries = new ArrayList<>(batch.size());
        for (ProposalBatcher.Queued<StoreStateMachine.Proposal> q : batch) {
            entries.add(q.entry());
        }
        return submit(batch.get(0).owner().ticket(), ReplicaCommand.batch(entries)).thenApply(reply -> {
            if (!reply.isSuccess()) {
                throw new java.util.concurrent.CompletionException(reply.getException());
            }
            return reply;
        });
    }

    private CompletableFuture<RaftClientReply> submit(long callId, byte[] entry) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId).setServerId(self).setGroupId(group.getGroupId()).setCallId(callId)
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(entry)))
                .setType(RaftClientRequest.writeRequestType())
                .build();
        return submitRequest(request);
    }

    /**
     * Hands {@code request} to this group's Ratis division on the calling thread. {@link RaftServer}'s own
     * {@code submitClientRequestAsync} passes it to Ratis's client executor and blocks the caller until that thread has
     * taken it (a hand-off and a blocked Netty loop per request); the division itself takes it at once. Never call
     * this on a Ratis thread ({@link #submitter}).
     */
    private CompletableFuture<RaftClientReply> submitRequest(RaftClientRequest request) {
        try {
            RaftServer.Division division = server.getDivision(group.getGroupId());
            if (division instanceof org.apache.ratis.protocol.RaftClientAsynchronousProtocol direct) {
                return direct.submitClientRequestAsync(request);
            }
            return server.submitClientRequestAsync(request);
        } catch (IOException | RuntimeException e) { // RejectedExecutionException once the server is closing
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Runs {@code task} on {@link #submitter}; dropped once this replica is closed. */
    private void offRatisThreads(Runnable task) {
        try {
            submitter.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed: nothing more is proposed
        }
    }

    /** Mean changes per Raft entry this replica proposed (a gauge of the batching). */
    public double changesPerEntry() {
        return proposals.changesPerEntry();
    }

    /** Raft entries of changes this replica proposed since it started (LEAD entries aside). */
    public long entriesProposed() {
        return proposals.entries();
    }

    /** Changes this replica proposed since it started, in {@link #entriesProposed()} entries. */
    public long changesProposed() {
        return proposals.changes();
    }

    /**
     * Completes once a linearizable read may run here: this replica leads, and has applied every entry committed
     * when the barrier was asked for. Reads that arrive while one barrier is in flight share the next one.
     */
    public CompletableFuture<Void> readBarrier() {
        if (!leads()) {
            return CompletableFuture.failedFuture(notLeader());
        }
        return reads.next();
    }

    private CompletableFuture<Void> readIndex() {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId).setServerId(self).setGroupId(group.getGroupId()).setCallId(callIds.incrementAndGet())
                .setMessage(Message.EMPTY).setType(RaftClientRequest.readRequestType())
                .build();
        return submitRequest(request).handle((reply, failure) -> {
            if (failure != null || !reply.isSuccess()) {
                throw notLeader();
            }
            return null;
        });
    }

    /** Whether Ratis counts this replica its group's leader (whether or not it has applied its LEAD yet). */
    private boolean raftLeader() {
        try {
            var info = server.getDivision(group.getGroupId()).getInfo();
            return info.isAlive() && info.isLeader();
        } catch (IOException e) {
            return false;
        }
    }

    /** The index of the last log entry this replica has applied (-1 before any). */
    /**
     * The digest of this replica's replicated state (sessions, schemas, map, outbox, tombstones, refused entries):
     * replicas at the same applied index have the same one. Walks the whole store.
     */
    public long stateDigest() {
        return machine.digest();
    }

    public long appliedIndex() {
        var last = machine.getLastAppliedTermIndex();
        return last == null ? -1 : last.getIndex();
    }

    /** The group's commit index as this replica knows it (-1 when it cannot tell). */
    public long commitIndex() {
        try {
            return server.getDivision(group.getGroupId()).getRaftLog().getLastCommittedIndex();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Requests waiting for entries this replica proposed (a gauge). */
    public int pendingProposals() {
        return machine.pendingCount();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        submitter.shutdownNow();
        // Ratis's close can wait a long time for appenders talking to replicas that are down; the log is on disk, so
        // a replica that does not finish closing in CLOSE_WAIT loses nothing by being left to the process's exit.
        Thread closer = new Thread(() -> {
            try {
                server.close();
            } catch (IOException e) {
                log.warn("replica {}: Ratis did not close cleanly: {}", self, e.toString());
            }
        }, "replica-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            log.warn("replica {}: Ratis still closing after {} ms; leaving it to the process's exit", self, CLOSE_WAIT_MILLIS);
        }
    }

    /** Ratis's news of leaders, and the application of this replica's own LEAD entry. */
    private final class Leadership implements StoreStateMachine.LeadershipListener {
        @Override
        public void leaderChanged(RaftPeerId newLeader) {
            leader = newLeader;
            ledTerm = -1;
            log.info("replica {} of group {}: leader is now {}", self, config.name(), newLeader);
        }

        @Override
        public void leaderReady() {
            log.info("replica {} of group {} is elected; proposing LEAD", self, config.name());
            offRatisThreads(this::proposeLead);
        }

        /**
         * Proposes LEAD until it is applied or this replica stops leading: a leader whose LEAD never committed would
         * stay leader and answer every request NOT_LEADER.
         */
        private void proposeLead() {
            StoreStateMachine.Proposal proposal = machine.propose(new ReplicaCommand.Lead(), System.currentTimeMillis(), null);
            submit(proposal.ticket(), proposal.entry()).whenComplete((reply, failure) -> {
                if (failure == null && reply.isSuccess()) {
                    return;
                }
                if (closed || ledTerm >= 0 || !raftLeader()) {
                    return;
                }
                log.warn("replica {}: LEAD was not committed ({}); proposing it again", self,
                        failure != null ? failure.toString() : reply.getException());
                try {
                    submitter.schedule(this::proposeLead, LEAD_RETRY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // closed
                }
            });
        }

        @Override
        public void ledFrom(long term) {
            if (!raftLeader()) {
                return; // an old LEAD of this process, replayed or applied after leadership moved on
            }
            writesOpenNanos = System.nanoTime() + leaseNanos + TimeUnit.MILLISECONDS.toNanos(config.leaseMarginMillis());
            ledTerm = term;
            for (Runnable hook : leadHooks) {
                try {
                    hook.run();
                } catch (RuntimeException e) {
                    log.error("a hook on leading group {} failed", config.name(), e);
                }
            }
            log.info("replica {} leads group {} in term {}; writes acknowledged from {} ms on", self, config.name(), term,
                    TimeUnit.NANOSECONDS.toMillis(leaseNanos) + config.leaseMarginMillis());
        }
    }
}
