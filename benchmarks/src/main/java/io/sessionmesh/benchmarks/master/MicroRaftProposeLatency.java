package io.sessionmesh.benchmarks.master;

import io.sessionmesh.settings.Settings;

import io.microraft.RaftConfig;
import io.microraft.RaftEndpoint;
import io.microraft.RaftNode;
import io.microraft.model.RaftModelFactory;
import io.microraft.model.impl.DefaultRaftModelFactory;
import io.microraft.model.log.LogEntry;
import io.microraft.model.log.RaftGroupMembersView;
import io.microraft.model.log.SnapshotChunk;
import io.microraft.model.message.AppendEntriesFailureResponse;
import io.microraft.model.message.AppendEntriesRequest;
import io.microraft.model.message.AppendEntriesSuccessResponse;
import io.microraft.model.message.PreVoteRequest;
import io.microraft.model.message.PreVoteResponse;
import io.microraft.model.message.RaftMessage;
import io.microraft.model.message.TriggerLeaderElectionRequest;
import io.microraft.model.message.VoteRequest;
import io.microraft.model.message.VoteResponse;
import io.microraft.model.persistence.RaftEndpointPersistentState;
import io.microraft.model.persistence.RaftTermPersistentState;
import io.microraft.persistence.NopRaftStore;
import io.microraft.persistence.RaftStore;
import io.microraft.persistence.RaftStoreSerializer;
import io.microraft.store.sqlite.RaftSqliteStore;
import io.microraft.statemachine.StateMachine;
import io.microraft.transport.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The floor of another consensus library on this machine, beside {@link ReplicaProposeLatency} (Ratis) for
 * benchmarks/RESULTS.md 9.6: a group of MicroRaft nodes in this one JVM, each on loopback TCP (Netty, one frame per
 * Raft message), with its log appended to a file in a temporary directory and forced before it counts (the leader
 * forces before it counts itself, a follower before it answers), and 1 KB writes proposed one after another straight to
 * the leader's {@code RaftNode.replicate}, timed to the leader's apply. MicroRaft runs each node on one thread, run to
 * completion (append, send, force, commit and apply on that thread), where Ratis hands an entry between its client
 * executor, log worker, appenders and state-machine updater.
 *
 * <p>{@code --store sqlite} takes MicroRaft's own durable store instead ({@code microraft-store-sqlite}: SQLite in WAL
 * mode with {@code synchronous=EXTRA}, which a node restores its state from); {@code file} is the floor of a forced
 * append.
 *
 * <p>{@code --processes true} runs every node but the first in a JVM of its own (the first, which measures, is made to
 * lead by a shorter election timeout), as the replicas of a master group run.
 *
 * <p>This measures the library, not a store on it: no session store, no snapshots, no restart (the file log is
 * written and forced, never read back; truncation is ignored), and the messages' codec covers what a group without
 * membership changes or snapshots sends.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.MicroRaftProposeLatency [--replicas 3] [--writes 2000]
 *     [--warmup 500] [--sync-log true] [--clients 1]
 * </pre>
 */
public final class MicroRaftProposeLatency {
    /** Largest Raft message a node accepts: the batch of entries MicroRaft sends at once, 1 KB each, and headroom. */
    static final int MAX_FRAME_BYTES = 16 << 20;
    static final String GROUP = "floor";

    private MicroRaftProposeLatency() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        int count = flags.integer("replicas", 3, 1, 9);
        int writes = flags.integer("writes", 2000, 1, 10_000_000);
        int warmup = flags.integer("warmup", 500, 0, 10_000_000);
        boolean sync = flags.bool("sync-log", true);
        String storeKind = flags.choice("store", "file", List.of("file", "sqlite"));
        int clients = flags.integer("clients", 1, 1, 1024);

        boolean processes = flags.bool("processes", false);
        int member = flags.integer("member", -1, -1, 8); // set only in a node process this benchmark starts
        List<Integer> ports = flags.integers("ports", List.of(), 1, 65_535);
        flags.checkAllUsed();

        Path dir = Files.createTempDirectory("sessionmesh-microraft-");
        if (member < 0) {
            ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ports.add(ConsensusFloor.freePort());
            }
        }
        Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
        List<Endpoint> members = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            Endpoint e = new Endpoint("r" + i, ports.get(i));
            members.add(e);
            endpoints.put(e.id(), e);
        }
        if (member >= 0) {
            serveMember(member, members, endpoints, dir, sync, storeKind);
            return;
        }
        List<Process> others = new ArrayList<>();
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(processes ? 1 : count, NioIoHandler.newFactory());
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < (processes ? 1 : members.size()); i++) {
                // in one JVM every node elects at the same pace; with processes, this one (r0) elects sooner and starts
                // first (its election timer runs before the others' do), so that it leads
                nodes.add(new Node(members.get(i), members, endpoints, loops, store(members.get(i), dir, sync, storeKind, endpoints),
                        processes ? ConsensusFloor.LEADER_ELECTION_MILLIS : ConsensusFloor.MEMBER_ELECTION_MILLIS));
            }
            for (Node n : nodes) {
                n.raft.start();
            }
            for (int i = 1; processes && i < members.size(); i++) {
                others.add(startMember(i, ports, sync, storeKind));
            }
            RaftNode leader = awaitLeader(nodes);
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            Histogram micros = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            proposeFrom(clients, warmup, leader, null);
            long cpuStart = os.getProcessCpuTime() + ConsensusFloor.cpuNanos(others);
            long wallStart = System.nanoTime();
            proposeFrom(clients, writes, leader, micros);
            long cpu = os.getProcessCpuTime() + ConsensusFloor.cpuNanos(others) - cpuStart;
            long wall = System.nanoTime() - wallStart;
            System.out.printf("MicroRaft: %d node(s) %s, Netty on loopback, log %s, %d client(s): %d writes proposed "
                            + "-> applied: %.0f/s, p50 %d us, p90 %d, p99 %d, max %d, mean %.0f; CPU of all nodes %.0f us per "
                            + "write (%.2f of a core)%n", count, processes ? "in their own processes" : "in one JVM",
                    sync ? "forced (" + storeKind + ")" : "not forced", clients,
                    micros.getTotalCount(), micros.getTotalCount() * 1e9 / wall, micros.getValueAtPercentile(50),
                    micros.getValueAtPercentile(90), micros.getValueAtPercentile(99), micros.getMaxValue(), micros.getMean(),
                    cpu / 1000.0 / micros.getTotalCount(), (double) cpu / wall);
        } finally {
            for (Node n : nodes) {
                n.raft.terminate().get(10, TimeUnit.SECONDS);
                n.close();
            }
            ConsensusFloor.stopMembers(others);
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static RaftStore store(Endpoint e, Path dir, boolean sync, String kind, Map<String, Endpoint> endpoints)
            throws IOException {
        return !sync ? new NopRaftStore() : kind.equals("file") ? new FileLog(dir.resolve(e.id() + ".log"))
                : RaftSqliteStore.create(dir.resolve(e.id() + ".db").toFile(), new DefaultRaftModelFactory(),
                new StoreSerializer(endpoints));
    }

    /** Starts node {@code index} in a JVM of its own, with this one's class path; it stops when its stdin closes. */
    private static Process startMember(int index, List<Integer> ports, boolean sync, String kind) throws IOException {
        return ConsensusFloor.startMember(MicroRaftProposeLatency.class, index, List.of("--ports",
                ports.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")), "--sync-log",
                String.valueOf(sync), "--store", kind, "--replicas", String.valueOf(ports.size())));
    }

    /** A node process: serves until its stdin closes. */
    private static void serveMember(int index, List<Endpoint> members, Map<String, Endpoint> endpoints, Path dir, boolean sync,
                                    String kind) throws Exception {
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Node node = new Node(members.get(index), members, endpoints, loops, store(members.get(index), dir, sync, kind, endpoints),
                ConsensusFloor.MEMBER_ELECTION_MILLIS);
        node.raft.start();
        // r0 measures, so it must lead: a member that won an election (it started before r0 could win one) hands over
        var handOver = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hand-over");
            t.setDaemon(true);
            return t;
        });
        handOver.scheduleWithFixedDelay(() -> {
            if (node.self.equals(node.raft.getTerm().getLeaderEndpoint())) {
                node.raft.transferLeadership(members.get(0));
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        ConsensusFloor.serveUntilStdinCloses();
        handOver.shutdownNow();
        node.raft.terminate().get(10, TimeUnit.SECONDS);
        node.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    private static void proposeFrom(int clients, int writes, RaftNode leader, Histogram micros) throws InterruptedException {
        ConsensusFloor.proposeFrom(clients, writes,
                () -> leader.replicate(new byte[1000]).get(ConsensusFloor.PROPOSAL_TIMEOUT_SECONDS, TimeUnit.SECONDS), micros);
    }

    private static RaftNode awaitLeader(List<Node> nodes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (Node n : nodes) {
                RaftEndpoint leader = n.raft.getTerm().getLeaderEndpoint();
                if (leader != null && leader.equals(n.raft.getLocalEndpoint())) {
                    return n.raft;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no node of this process leads after 60 s; the leader is "
                + nodes.get(0).raft.getTerm().getLeaderEndpoint() + " in term " + nodes.get(0).raft.getTerm().getTerm());
    }

    /** A node's name and port. */
    record Endpoint(String id, int port) implements RaftEndpoint {
        @Override
        public Object getId() {
            return id;
        }
    }

    /** One MicroRaft node: its server socket, its connections to the others, and the node itself. */
    static final class Node implements Transport, StateMachine {
        private final Endpoint self;
        private final Map<String, Endpoint> endpoints;
        private final RaftModelFactory model = new DefaultRaftModelFactory();
        private final Map<String, Channel> peers = new ConcurrentHashMap<>();
        private final EventLoopGroup loops;
        private final Channel server;
        private final RaftStore store;
        final RaftNode raft;

        Node(Endpoint self, List<Endpoint> members, Map<String, Endpoint> endpoints, EventLoopGroup loops, RaftStore store,
             long electionMillis) throws InterruptedException {
            this.self = self;
            this.endpoints = endpoints;
            this.loops = loops;
            this.store = store;
            RaftConfig config = RaftConfig.newBuilder().setLeaderElectionTimeoutMillis(electionMillis).setLeaderHeartbeatPeriodSecs(1)
                    .setLeaderHeartbeatTimeoutSecs(10).setCommitCountToTakeSnapshot(10_000_000).build();
            this.raft = RaftNode.newBuilder().setGroupId(GROUP).setLocalEndpoint(self)
                    .setInitialGroupMembers(List.copyOf(members)).setConfig(config).setTransport(this).setStateMachine(this)
                    .setStore(store).setModelFactory(model).build();
            this.server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4),
                                    new SimpleChannelInboundHandler<ByteBuf>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                            raft.handle(MessageCodec.decode(frame, model, Node.this.endpoints));
                                        }
                                    });
                        }
                    }).bind("127.0.0.1", self.port()).sync().channel();
        }

        // ---- Transport: one connection to each peer, opened on first use; a message to a peer not reachable is dropped
        // (Raft resends) ----

        @Override
        public void send(RaftEndpoint target, RaftMessage message) {
            Channel c = peers.computeIfAbsent(((Endpoint) target).id(), id -> connect(endpoints.get(id)));
            if (c == null || !c.isActive()) {
                peers.remove(((Endpoint) target).id());
                return;
            }
            ByteBuf out = c.alloc().buffer(64);
            MessageCodec.encode(message, out);
            c.writeAndFlush(out, c.voidPromise());
        }

        @Override
        public boolean isReachable(RaftEndpoint endpoint) {
            Channel c = peers.get(((Endpoint) endpoint).id());
            return c != null && c.isActive();
        }

        private Channel connect(Endpoint to) {
            try {
                return new Bootstrap().group(loops).channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true)
                        .handler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel ch) {
                                ch.pipeline().addLast(new LengthFieldPrepender(4));
                            }
                        }).connect("127.0.0.1", to.port()).sync().channel();
            } catch (Exception e) {
                return null;
            }
        }

        // ---- StateMachine: counts the bytes it applies ----

        private long applied;

        @Override
        public Object runOperation(long commitIndex, Object operation) {
            applied += operation == null ? 0 : ((byte[]) operation).length;
            return applied;
        }

        @Override
        public void takeSnapshot(long commitIndex, Consumer<Object> chunks) {
            chunks.accept(new byte[0]);
        }

        @Override
        public void installSnapshot(long commitIndex, List<Object> chunks) {
        }

        @Override
        public Object getNewTermOperation() {
            return new byte[0];
        }

        void close() throws IOException {
            server.close().syncUninterruptibly();
            peers.values().forEach(Channel::close);
            if (store instanceof FileLog f) {
                f.close();
            }
        }
    }

    /**
     * An append-only file: each entry's index, term and operation, forced to disk by {@link #flush} (the term and vote
     * at once). Written, never read back: this benchmark does not restart a node.
     */
    static final class FileLog implements RaftStore {
        private final FileChannel file;
        private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);

        FileLog(Path path) throws IOException {
            file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }

        @Override
        public void persistAndFlushLocalEndpoint(RaftEndpointPersistentState state) throws IOException {
            record(0, state.isVoting() ? 1 : 0, new byte[0]);
            flush();
        }

        @Override
        public void persistAndFlushInitialGroupMembers(RaftGroupMembersView members) throws IOException {
            record(1, members.getMembers().size(), new byte[0]);
            flush();
        }

        @Override
        public void persistAndFlushTerm(RaftTermPersistentState term) throws IOException {
            record(2, term.getTerm(), new byte[0]);
            flush();
        }

        @Override
        public void persistLogEntries(List<LogEntry> entries) throws IOException {
            for (LogEntry e : entries) {
                record(e.getIndex(), e.getTerm(), e.getOperation() instanceof byte[] b ? b : new byte[0]);
            }
        }

        private void record(long index, int term, byte[] operation) throws IOException {
            int size = 16 + operation.length;
            if (buffer.capacity() < size) {
                buffer = ByteBuffer.allocateDirect(size);
            }
            buffer.clear();
            buffer.putLong(index).putInt(term).putInt(operation.length).put(operation).flip();
            while (buffer.hasRemaining()) {
                file.write(buffer);
            }
        }

        @Override
        public void persistSnapshotChunk(SnapshotChunk chunk) {
        }

        @Override
        public void truncateLogEntriesFrom(long index) {
        }

        @Override
        public void truncateLogEntriesUntil(long index) {
        }

        @Override
        public void deleteSnapshotChunks(long index, int count) {
        }

        @Override
        public void flush() throws IOException {
            file.force(false);
        }

        void close() throws IOException {
            file.close();
        }
    }

    /** What the SQLite store writes: endpoints by name, operations as byte arrays. */
    static final class StoreSerializer implements RaftStoreSerializer {
        private final Map<String, Endpoint> endpoints;
        private final RaftModelFactory model = new DefaultRaftModelFactory();

        StoreSerializer(Map<String, Endpoint> endpoints) {
            this.endpoints = endpoints;
        }

        private static byte[] bytes(IoWriter w) {
            var bytes = new java.io.ByteArrayOutputStream();
            try (var out = new java.io.DataOutputStream(bytes)) {
                w.write(out);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        private static <T> T read(byte[] b, IoReader<T> r) {
            try {
                return r.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(b)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        interface IoWriter {
            void write(java.io.DataOutputStream out) throws IOException;
        }

        interface IoReader<T> {
            T read(java.io.DataInputStream in) throws IOException;
        }

        private static <T> Serializer<T> of(java.util.function.Function<T, byte[]> w, java.util.function.Function<byte[], T> r) {
            return new Serializer<>() {
                @Override
                public byte[] serialize(T t) {
                    return w.apply(t);
                }

                @Override
                public T deserialize(byte[] b) {
                    return r.apply(b);
                }
            };
        }

        private static void writeMembers(java.io.DataOutputStream out, java.util.Collection<RaftEndpoint> members) throws IOException {
            out.writeInt(members.size());
            for (RaftEndpoint e : members) {
                out.writeUTF(((Endpoint) e).id());
            }
        }

        private List<RaftEndpoint> readMembers(java.io.DataInputStream in) throws IOException {
            int n = in.readInt();
            List<RaftEndpoint> members = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                members.add(endpoints.get(in.readUTF()));
            }
            return members;
        }

        private void writeView(java.io.DataOutputStream out, RaftGroupMembersView v) throws IOException {
            out.writeLong(v.getLogIndex());
            writeMembers(out, v.getMembers());
            writeMembers(out, v.getVotingMembers());
        }

        private RaftGroupMembersView readView(java.io.DataInputStream in) throws IOException {
            return model.createRaftGroupMembersViewBuilder().setLogIndex(in.readLong()).setMembers(readMembers(in))
                    .setVotingMembers(readMembers(in)).build();
        }

        private static void writeOperation(java.io.DataOutputStream out, Object op) throws IOException {
            byte[] b = op instanceof byte[] a ? a : new byte[0];
            out.writeInt(b.length);
            out.write(b);
        }

        private static byte[] readOperation(java.io.DataInputStream in) throws IOException {
            byte[] b = new byte[in.readInt()];
            in.readFully(b);
            return b;
        }

        @Override
        public Serializer<RaftGroupMembersView> raftGroupMembersViewSerializer() {
            return of(v -> bytes(out -> writeView(out, v)), b -> read(b, this::readView));
        }

        @Override
        public Serializer<RaftEndpoint> raftEndpointSerializer() {
            return of(e -> bytes(out -> out.writeUTF(((Endpoint) e).id())), b -> read(b, in -> endpoints.get(in.readUTF())));
        }

        @Override
        public Serializer<LogEntry> logEntrySerializer() {
            return of(e -> bytes(out -> {
                out.writeLong(e.getIndex());
                out.writeInt(e.getTerm());
                writeOperation(out, e.getOperation());
            }), b -> read(b, in -> model.createLogEntryBuilder().setIndex(in.readLong()).setTerm(in.readInt())
                    .setOperation(readOperation(in)).build()));
        }

        @Override
        public Serializer<SnapshotChunk> snapshotChunkSerializer() {
            return of(c -> bytes(out -> {
                out.writeLong(c.getIndex());
                out.writeInt(c.getTerm());
                writeOperation(out, c.getOperation());
                out.writeInt(c.getSnapshotChunkIndex());
                out.writeInt(c.getSnapshotChunkCount());
                writeView(out, c.getGroupMembersView());
            }), b -> read(b, in -> model.createSnapshotChunkBuilder().setIndex(in.readLong()).setTerm(in.readInt())
                    .setOperation(readOperation(in)).setSnapshotChunkIndex(in.readInt()).setSnapshotChunkCount(in.readInt())
                    .setGroupMembersView(readView(in)).build()));
        }

        @Override
        public Serializer<RaftEndpointPersistentState> raftEndpointPersistentStateSerializer() {
            return of(s -> bytes(out -> {
                out.writeUTF(((Endpoint) s.getLocalEndpoint()).id());
                out.writeBoolean(s.isVoting());
            }), b -> read(b, in -> model.createRaftEndpointPersistentStateBuilder()
                    .setLocalEndpoint(endpoints.get(in.readUTF())).setVoting(in.readBoolean()).build()));
        }

        @Override
        public Serializer<RaftTermPersistentState> raftTermPersistentState() {
            return of(s -> bytes(out -> {
                out.writeInt(s.getTerm());
                out.writeUTF(s.getVotedFor() == null ? "" : ((Endpoint) s.getVotedFor()).id());
            }), b -> read(b, in -> {
                int term = in.readInt();
                String voted = in.readUTF();
                return model.createRaftTermPersistentStateBuilder().setTerm(term)
                        .setVotedFor(voted.isEmpty() ? null : endpoints.get(voted)).build();
            }));
        }
    }

    /** Raft messages as bytes: a type, the sender, the term, then the type's fields; operations are byte arrays. */
    static final class MessageCodec {
        static final int APPEND = 1;
        static final int APPEND_OK = 2;
        static final int APPEND_FAILED = 3;
        static final int VOTE = 4;
        static final int VOTE_ANSWER = 5;
        static final int PRE_VOTE = 6;
        static final int PRE_VOTE_ANSWER = 7;
        static final int TRIGGER_ELECTION = 8;

        private MessageCodec() {
        }

        static void encode(RaftMessage m, ByteBuf out) {
            int type = m instanceof AppendEntriesRequest ? APPEND : m instanceof AppendEntriesSuccessResponse ? APPEND_OK
                    : m instanceof AppendEntriesFailureResponse ? APPEND_FAILED : m instanceof VoteRequest ? VOTE
                    : m instanceof VoteResponse ? VOTE_ANSWER : m instanceof PreVoteRequest ? PRE_VOTE
                    : m instanceof PreVoteResponse ? PRE_VOTE_ANSWER : m instanceof TriggerLeaderElectionRequest ? TRIGGER_ELECTION : 0;
            if (type == 0) {
                throw new IllegalArgumentException("no codec for " + m.getClass().getName() + " (snapshots and membership changes are not sent here)");
            }
            out.writeByte(type);
            byte[] sender = ((Endpoint) m.getSender()).id().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.writeByte(sender.length).writeBytes(sender);
            out.writeInt(m.getTerm());
            if (m instanceof AppendEntriesRequest r) {
                out.writeInt(r.getPreviousLogTerm()).writeLong(r.getPreviousLogIndex()).writeLong(r.getCommitIndex())
                        .writeLong(r.getQuerySequenceNumber()).writeLong(r.getFlowControlSequenceNumber());
                out.writeInt(r.getLogEntries().size());
                for (LogEntry e : r.getLogEntries()) {
                    out.writeLong(e.getIndex()).writeInt(e.getTerm());
                    if (!(e.getOperation() instanceof byte[] b)) {
                        throw new IllegalArgumentException("operation " + e.getOperation());
                    }
                    out.writeInt(b.length).writeBytes(b);
                }
            } else if (m instanceof AppendEntriesSuccessResponse r) {
                out.writeLong(r.getLastLogIndex()).writeLong(r.getQuerySequenceNumber()).writeLong(r.getFlowControlSequenceNumber());
            } else if (m instanceof AppendEntriesFailureResponse r) {
                out.writeLong(r.getExpectedNextIndex()).writeLong(r.getQuerySequenceNumber()).writeLong(r.getFlowControlSequenceNumber());
            } else if (m instanceof VoteRequest r) {
                out.writeInt(r.getLastLogTerm()).writeLong(r.getLastLogIndex()).writeBoolean(r.isSticky());
            } else if (m instanceof VoteResponse r) {
                out.writeBoolean(r.isGranted());
            } else if (m instanceof PreVoteRequest r) {
                out.writeInt(r.getLastLogTerm()).writeLong(r.getLastLogIndex());
            } else if (m instanceof PreVoteResponse r) {
                out.writeBoolean(r.isGranted());
            } else if (m instanceof TriggerLeaderElectionRequest r) {
                out.writeInt(r.getLastLogTerm()).writeLong(r.getLastLogIndex());
            }
        }

        static RaftMessage decode(ByteBuf in, RaftModelFactory f, Map<String, Endpoint> endpoints) {
            int type = in.readByte();
            byte[] id = new byte[in.readByte()];
            in.readBytes(id);
            Endpoint sender = endpoints.get(new String(id, java.nio.charset.StandardCharsets.US_ASCII));
            int term = in.readInt();
            return switch (type) {
                case APPEND -> {
                    var b = f.createAppendEntriesRequestBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                            .setPreviousLogTerm(in.readInt()).setPreviousLogIndex(in.readLong()).setCommitIndex(in.readLong())
                            .setQuerySequenceNumber(in.readLong()).setFlowControlSequenceNumber(in.readLong());
                    int n = in.readInt();
                    List<LogEntry> entries = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        long index = in.readLong();
                        int entryTerm = in.readInt();
                        byte[] op = new byte[in.readInt()];
                        in.readBytes(op);
                        entries.add(f.createLogEntryBuilder().setIndex(index).setTerm(entryTerm).setOperation(op).build());
                    }
                    yield b.setLogEntries(entries).build();
                }
                case APPEND_OK -> f.createAppendEntriesSuccessResponseBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setLastLogIndex(in.readLong()).setQuerySequenceNumber(in.readLong())
                        .setFlowControlSequenceNumber(in.readLong()).build();
                case APPEND_FAILED -> f.createAppendEntriesFailureResponseBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setExpectedNextIndex(in.readLong()).setQuerySequenceNumber(in.readLong())
                        .setFlowControlSequenceNumber(in.readLong()).build();
                case VOTE -> f.createVoteRequestBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setLastLogTerm(in.readInt()).setLastLogIndex(in.readLong()).setSticky(in.readBoolean()).build();
                case VOTE_ANSWER -> f.createVoteResponseBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setGranted(in.readBoolean()).build();
                case PRE_VOTE -> f.createPreVoteRequestBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setLastLogTerm(in.readInt()).setLastLogIndex(in.readLong()).build();
                case PRE_VOTE_ANSWER -> f.createPreVoteResponseBuilder().setGroupId(GROUP).setSender(sender).setTerm(term)
                        .setGranted(in.readBoolean()).build();
                case TRIGGER_ELECTION -> f.createTriggerLeaderElectionRequestBuilder().setGroupId(GROUP).setSender(sender)
                        .setTerm(term).setLastLogTerm(in.readInt()).setLastLogIndex(in.readLong()).build();
                default -> throw new IllegalArgumentException("unknown Raft message type " + type);
            };
        }
    }
}
