package io.sessionmesh.benchmarks.master;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.replication.GroupConfig;
import io.sessionmesh.master.replication.ReplicaCommand;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The floor of the consensus library on this machine (benchmarks/RESULTS.md 9): a group of replicas in this one JVM,
 * each a Ratis server on loopback with its log in a temporary directory, and writes of one 1 KB attribute proposed
 * one after another straight to {@link ReplicaGroup#propose}, timed from the proposal to the leader's apply. No
 * SessionMesh client, no master protocol, no Netty answer path: what remains is Ratis's own pipeline (and the store's
 * apply, a fraction of a microsecond). {@code --processes true} runs every replica but the first in a JVM of its own
 * (the first, which measures, is made to lead by a shorter election timeout), as a master group's replicas run.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.ReplicaProposeLatency [--replicas 3] [--writes 2000]
 *     [--warmup 500] [--transport netty|grpc] [--sync-log false] [--clients 1] [--processes false]
 * </pre>
 */
public final class ReplicaProposeLatency {
    private ReplicaProposeLatency() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        int count = flags.integer("replicas", 3, 1, GroupConfig.MAX_REPLICAS);
        int writes = flags.integer("writes", 2000, 1, 10_000_000);
        int warmup = flags.integer("warmup", 500, 0, 10_000_000);
        String transport = flags.choice("transport", GroupConfig.TRANSPORTS.get(0), GroupConfig.TRANSPORTS);
        boolean sync = flags.bool("sync-log", false);
        int clients = flags.integer("clients", 1, 1, 1024);
        boolean processes = flags.bool("processes", false);
        int member = flags.integer("member", -1, -1, GroupConfig.MAX_REPLICAS - 1); // set only in a replica process
        List<Integer> ports = flags.integers("ports", List.of(), 1, 65_535);
        flags.checkAllUsed();

        Path dir = Files.createTempDirectory("sessionmesh-propose-");
        if (member < 0) {
            ports = new ArrayList<>();
            for (int i = 0; i < 2 * count; i++) {
                ports.add(ConsensusFloor.freePort());
            }
        }
        List<GroupConfig.Replica> replicas = new ArrayList<>();
        for (int i = 0; i < ports.size() / 2; i++) {
            replicas.add(new GroupConfig.Replica("r" + i, "127.0.0.1", ports.get(2 * i), ports.get(2 * i + 1)));
        }
        if (member >= 0) {
            ReplicaGroup g = startReplica(replicas, member, dir, sync, transport, ConsensusFloor.MEMBER_ELECTION_MILLIS,
                    new SessionStore(StoreLimits.DEFAULT, Ticker.WALL));
            ConsensusFloor.serveUntilStdinCloses();
            g.close();
            return;
        }
        List<ReplicaGroup> groups = new ArrayList<>();
        List<SessionStore> stores = new ArrayList<>();
        List<Process> others = new ArrayList<>();
        try {
            for (int i = 0; i < replicas.size(); i++) {
                if (processes && i > 0) {
                    others.add(ConsensusFloor.startMember(ReplicaProposeLatency.class, i, List.of("--ports",
                            ports.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")),
                            "--sync-log", String.valueOf(sync), "--transport", transport)));
                } else {
                    SessionStore store = new SessionStore(StoreLimits.DEFAULT, Ticker.WALL);
                    stores.add(store);
                    // with processes, this replica (r0) elects first, so that it leads and measures
                    groups.add(startReplica(replicas, i, dir, sync, transport, processes ? ConsensusFloor.LEADER_ELECTION_MILLIS : 500, store));
                }
            }
            int leader = awaitLeader(groups);
            SessionStore store = stores.get(leader);
            ReplicaGroup group = groups.get(leader);
            String id = ((SessionStore.CreatedSession) group.propose(new ReplicaCommand.Create(store.newId(), 0), 0,
                    Invalidator.NONE).get(10, TimeUnit.SECONDS)).id();
            WriteRequest write = new WriteRequest(id, List.of(new SectionDelta("s", Map.of("a", new byte[1000]), List.of())));
            Histogram micros = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            proposeFrom(clients, warmup, group, write, null);
            long cpuStart = os.getProcessCpuTime() + ConsensusFloor.cpuNanos(others);
            long wallStart = System.nanoTime();
            proposeFrom(clients, writes, group, write, micros);
            long cpu = os.getProcessCpuTime() + ConsensusFloor.cpuNanos(others) - cpuStart;
            long wall = System.nanoTime() - wallStart;
            System.out.printf("Ratis: %d replica(s) %s, %s, log %s, %d client(s): %d writes proposed -> applied: "
                            + "%.0f/s, p50 %d us, p90 %d, p99 %d, max %d, mean %.0f; CPU of all replicas %.0f us per write "
                            + "(%.2f of a core); %.1f writes per Raft entry%n", count,
                    processes ? "in their own processes" : "in one JVM", transport, sync ? "forced" : "not forced",
                    clients, micros.getTotalCount(), micros.getTotalCount() * 1e9 / wall, micros.getValueAtPercentile(50),
                    micros.getValueAtPercentile(90), micros.getValueAtPercentile(99), micros.getMaxValue(), micros.getMean(),
                    cpu / 1000.0 / micros.getTotalCount(), (double) cpu / wall, group.changesPerEntry());
        } finally {
            for (ReplicaGroup g : groups) {
                g.close();
            }
            ConsensusFloor.stopMembers(others);
        }
    }

    private static ReplicaGroup startReplica(List<GroupConfig.Replica> replicas, int index, Path dir, boolean sync,
                                             String transport, long electionMillis, SessionStore store) throws IOException {
        GroupConfig.Replica r = replicas.get(index);
        return ReplicaGroup.start(new GroupConfig("propose-latency", replicas, r, dir.resolve(r.id()), sync, electionMillis, 50,
                1_000_000_000L, transport), store, new BinaryTransportCodec(), Invalidator.NONE, 300);
    }

    private static void proposeFrom(int clients, int writes, ReplicaGroup group, WriteRequest write, Histogram micros)
            throws InterruptedException {
        ConsensusFloor.proposeFrom(clients, writes, () -> group.propose(new ReplicaCommand.Write(write), 0, Invalidator.NONE)
                .get(ConsensusFloor.PROPOSAL_TIMEOUT_SECONDS, TimeUnit.SECONDS), micros);
    }

    private static int awaitLeader(List<ReplicaGroup> groups) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < groups.size(); i++) {
                if (groups.get(i).leads()) {
                    return i;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no replica leads after 60 s");
    }
}
