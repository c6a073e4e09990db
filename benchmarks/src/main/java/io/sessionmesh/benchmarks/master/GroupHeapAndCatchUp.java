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
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValueSizes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a master group costs in memory and how fast a replica catches up (issue 15; benchmarks/RESULTS.md 9.3). Three
 * replicas in this one JVM (each a Ratis server on loopback, its log forced to its own directory), filled with
 * {@code sessions} sessions of docs/WORKLOAD.md (12 sections of 5 attributes, log-normal values, as
 * {@link HeapPerSession}) through the leader's {@link ReplicaGroup#propose}. Heap is measured after full GCs before
 * and after filling: all three replicas' stores and Ratis's log caches together, so the figure is the heap per
 * session counted across the replicas. Then, while a writer keeps proposing, a follower is closed and started again
 * on its own Raft directory (its snapshot, then its log, then what it missed from the leader), timed from the start
 * until it has applied the leader's commit index of that moment. (A replacement on an empty directory cannot be
 * measured in one JVM: the closed server's Raft port is released only when Ratis finishes closing;
 * MasterFaultsIT restarts real processes.)
 *
 * <pre>java -Xms8g -Xmx8g -cp benchmarks.jar io.sessionmesh.benchmarks.master.GroupHeapAndCatchUp [--sessions 10000]</pre>
 */
public final class GroupHeapAndCatchUp {
    private GroupHeapAndCatchUp() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        int sessions = flags.integer("sessions", 10_000, 1, 10_000_000);
        int snapshotEvery = flags.integer("snapshot-every", 5_000, 1, 100_000_000);
        flags.checkAllUsed();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        Path dir = Files.createTempDirectory("sessionmesh-group-heap-");
        List<GroupConfig.Replica> replicas = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            replicas.add(new GroupConfig.Replica("h" + i, "127.0.0.1", freePort(), freePort()));
        }
        long before = usedAfterGc(memory);
        ReplicaGroup[] groups = new ReplicaGroup[3];
        SessionStore[] stores = new SessionStore[3];
        for (int i = 0; i < 3; i++) {
            start(i, replicas, dir.resolve("r" + i), groups, stores, snapshotEvery);
        }
        int leader = awaitLeader(groups);
        ReplicaGroup lead = groups[leader];

        byte[] source = new byte[ValueSizes.MAX_BYTES];
        new Random(1).nextBytes(source);
        ValueSizes sizes = new ValueSizes(42);
        long valueBytes = fill(lead, stores[leader], sessions, source, sizes);
        awaitApplied(groups, lead.commitIndex());
        long heap = usedAfterGc(memory) - before;
        System.out.printf("sessions                       %,d on each of 3 replicas (in one JVM, log forced)%n", sessions);
        System.out.printf("value bytes (one copy)         %,d (%,d a session)%n", valueBytes, valueBytes / sessions);
        System.out.printf("heap of the 3 replicas         %,d%n", heap);
        System.out.printf("heap per session, 3 replicas   %,d B (%.2f x one copy of the values)%n", heap / sessions,
                (double) heap / valueBytes);
        System.out.printf("Raft directories on disk       %,d B%n", sizeOf(dir));

        int follower = (leader + 1) % 3;
        for (String how : List.of("restart on its own directory")) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            Thread writer = new Thread(() -> keepWriting(lead, stores[leader], source, sizes, stop, written), "writer");
            writer.start();
            Thread.sleep(1_000);
            groups[follower].close();
            Thread.sleep(2_000); // it misses what is written meanwhile
            Path followerDir = dir.resolve("r" + follower);
            long startNanos = System.nanoTime();
            start(follower, replicas, followerDir, groups, stores, snapshotEvery);
            long target = lead.commitIndex();
            while (groups[follower].appliedIndex() < target) {
                Thread.sleep(5);
            }
            long caughtUp = System.nanoTime() - startNanos;
            stop.set(true);
            writer.join();
            awaitApplied(groups, lead.commitIndex());
            System.out.printf("catch-up, %s: %,d ms to apply the leader's commit index %,d (%,d sessions, %,d writes "
                            + "while it ran)%n", how, TimeUnit.NANOSECONDS.toMillis(caughtUp), target,
                    stores[follower].sessionCount(), written.get());
            if (stores[follower].sessionCount() != stores[leader].sessionCount()) {
                throw new IllegalStateException("the follower holds " + stores[follower].sessionCount()
                        + " sessions, the leader " + stores[leader].sessionCount());
            }
        }
        for (ReplicaGroup g : groups) {
            g.close();
        }
        System.exit(0);
    }

    private static void start(int i, List<GroupConfig.Replica> replicas, Path dir, ReplicaGroup[] groups,
                              SessionStore[] stores, int snapshotEvery) throws IOException {
        stores[i] = new SessionStore(StoreLimits.builder().maxStoreBytes(Long.MAX_VALUE / 2).build(), Ticker.WALL);
        groups[i] = ReplicaGroup.start(new GroupConfig("group-heap", replicas, replicas.get(i), dir, true, 500, 50,
                snapshotEvery, GroupConfig.TRANSPORTS.get(0)), stores[i], new BinaryTransportCodec(), Invalidator.NONE, 300);
    }

    /** Creates and writes {@code sessions} whole workload sessions, 64 in flight; returns the value bytes written. */
    private static long fill(ReplicaGroup lead, SessionStore store, int sessions, byte[] source, ValueSizes sizes)
            throws Exception {
        Semaphore inFlight = new Semaphore(64);
        List<CompletableFuture<Object>> pending = new ArrayList<>();
        long valueBytes = 0;
        for (int i = 0; i < sessions; i++) {
            String id = createSession(lead, store);
            List<SectionDelta> deltas = session(source, sizes);
            for (SectionDelta d : deltas) {
                for (byte[] v : d.set().values()) {
                    valueBytes += v.length;
                }
            }
            inFlight.acquire();
            CompletableFuture<Object> f = lead.propose(new ReplicaCommand.Write(new WriteRequest(id, deltas)), 0, Invalidator.NONE);
            f.whenComplete((ok, failure) -> inFlight.release());
            pending.add(f);
        }
        for (CompletableFuture<Object> f : pending) {
            f.get(60, TimeUnit.SECONDS);
        }
        return valueBytes;
    }

    private static String createSession(ReplicaGroup lead, SessionStore store) throws Exception {
        return ((SessionStore.CreatedSession) lead.propose(new ReplicaCommand.Create(store.newId(), 0), 0, Invalidator.NONE)
                .get(60, TimeUnit.SECONDS)).id();
    }

    private static List<SectionDelta> session(byte[] source, ValueSizes sizes) {
        List<SectionDelta> deltas = new ArrayList<>(SessionShape.SECTIONS);
        for (String section : SessionShape.uniformSectionNames()) {
            Map<String, byte[]> set = new LinkedHashMap<>();
            for (int a = 0; a < SessionShape.ATTRIBUTES; a++) {
                set.put(HeapPerSession.ATTRIBUTE_PREFIX + a, java.util.Arrays.copyOf(source, sizes.next()));
            }
            deltas.add(new SectionDelta(section, set, List.of()));
        }
        return deltas;
    }

    /** New sessions, one after another, until told to stop: the load a catching-up replica has to follow. */
    private static void keepWriting(ReplicaGroup lead, SessionStore store, byte[] source, ValueSizes sizes,
                                    AtomicBoolean stop, AtomicLong written) {
        try {
            while (!stop.get()) {
                String id = createSession(lead, store);
                lead.propose(new ReplicaCommand.Write(new WriteRequest(id, session(source, sizes))), 0, Invalidator.NONE)
                        .get(60, TimeUnit.SECONDS);
                written.addAndGet(2);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the writer failed", e);
        }
    }

    private static void awaitApplied(ReplicaGroup[] groups, long index) throws InterruptedException {
        for (ReplicaGroup g : groups) {
            while (g.appliedIndex() < index) {
                Thread.sleep(5);
            }
        }
    }

    private static int awaitLeader(ReplicaGroup[] groups) throws InterruptedException {
        for (int tries = 0; tries < 3_000; tries++) {
            for (int i = 0; i < groups.length; i++) {
                if (groups[i].leads()) {
                    return i;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no replica leads after 60 s");
    }

    private static long sizeOf(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
