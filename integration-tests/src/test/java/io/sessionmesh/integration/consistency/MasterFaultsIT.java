package io.sessionmesh.integration.consistency;

import io.sessionmesh.integration.consistency.HistoryChecker.Verdict;

import io.sessionmesh.testing.Await;

import io.sessionmesh.wire.placement.GroupMap;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The consistency checker against a replicated master group (issue 15): three master replicas and three sidecars
 * that follow the leader, clients on every sidecar reading and writing the same hot sessions, while the test, in
 * cycles, adds a second group of three with the admin command (half the hot sessions move to it) and removes it
 * again (they move back), kills the leader (SIGKILL) and restarts it, kills a follower and restarts it, and pauses
 * the leader (SIGSTOP) for 2.5 leases, so that the others elect a new leader while the old one still believes it
 * leads, then lets it run again. {@link HistoryChecker} verifies that no read was older than a write acknowledged before it began and that no
 * acknowledged write was lost; the report gives failover times: from a leader's SIGKILL or SIGSTOP to the first write
 * acknowledged after it.
 *
 * <p>{@code -Dconsistency.operations=N} as for {@link ConsistencyIT}: cycles until N operations are recorded. The
 * short run in {@code mvn verify} ({@code 0}, the default) is one cycle of every fault, about a minute
 * ({@code -Dconsistency.masterFaults=false} skips it). Report in {@code target/consistency/master-faults-*}.
 *
 * <p>It did not pass until the replicas stopped calling into Ratis from Ratis's own apply thread: the next
 * read barrier, started there when the previous one completed, waited for the thread it was running on, and the group
 * kept a leader that never became ready.
 */
@EnabledIfSystemProperty(named = "consistency.masterFaults", matches = "true")
class MasterFaultsIT {
    static final int SIDECARS = 3;
    static final int CLIENTS_PER_SIDECAR = 3;
    static final int SESSIONS = 4;
    /** The short run's operations: fewer than one cycle records, so that it is one cycle of every fault. */
    static final long SHORT_RUN_OPERATIONS = 2_000;

    @TempDir
    Path raftDirs;

    @Test
    void noStaleReadsNoLostWritesNoLostSessions_underLeaderAndFollowerKillsAndALeaderPause() throws Exception {
        long target = ConsistencyIT.operations(SHORT_RUN_OPERATIONS);
        Duration lease = ConsistencyIT.lease();
        Path reportDir = ConsistencyIT.reportDir();
        History history = new History();
        HotSessionClient.Tally tally = new HotSessionClient.Tally(SIDECARS);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> phases = new ArrayList<>();
        Histogram failoverMillis = new Histogram(600_000, 3);
        Histogram catchUpMillis = new Histogram(600_000, 3);
        Histogram groupMoveMillis = new Histogram(600_000, 3);
        List<Long> faultTimes = new ArrayList<>();
        long started = System.nanoTime();

        try (GroupCluster cluster = new GroupCluster(SIDECARS, lease, raftDirs)) {
            List<String> sessions = sessionsHalfMoving(cluster);
            ExecutorService pool = Executors.newFixedThreadPool(SIDECARS * CLIENTS_PER_SIDECAR);
            List<Future<?>> clients = ConsistencyIT.startClients(pool,
                    IntStream.range(0, SIDECARS).mapToObj(cluster::api).toList(), CLIENTS_PER_SIDECAR, sessions, history, tally, stop);
            int cycles = 0;
            try {
                while (cycles == 0 || history.size() < target) {
                    groupCycle(cluster, phases, tally, groupMoveMillis);
                    faultCycle(cluster, phases, tally, faultTimes, catchUpMillis, history);
                    cycles++;
                }
            } catch (Throwable t) {
                cluster.saveOutputs(reportDir.resolve("master-faults-logs-failed"));
                System.out.println("phases so far: " + phases);
                throw t;
            } finally {
                stop.set(true);
                pool.shutdown();
            }
            for (Future<?> f : clients) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            long runNanos = System.nanoTime() - started;

            for (long fault : faultTimes) {
                long first = history.writes().stream().filter(w -> w.version() != History.UNKNOWN && w.invoked() >= fault)
                        .mapToLong(History.Write::completed).min().orElse(-1);
                assertTrue(first > 0, "no write was acknowledged after the fault at t=" + fault);
                failoverMillis.recordValue((first - fault) / 1_000_000);
            }
            assertEquals(cycles, catchUpMillis.getTotalCount(), "a restarted follower's catch-up per cycle");
            assertEquals(2L * cycles, groupMoveMillis.getTotalCount(), "a group added and one removed per cycle");
            for (int s = 0; s < SIDECARS; s++) {
                cluster.awaitLease(s);
            }
            List<History.Read> finals = ConsistencyIT.finalReads(IntStream.range(0, SIDECARS).mapToObj(cluster::api).toList(),
                    cluster.masterPort(cluster.leader()), sessions);
            Verdict verdict = HistoryChecker.check(history.writes(), history.reads(), finals, HotSessionClient.SECTIONS,
                    HotSessionClient.ATTRIBUTES);
            int leader = cluster.leader();
            Map<String, Long> master = ConsistencyIT.numbers(cluster.stats(leader));
            List<Map<String, Long>> sidecars = new ArrayList<>();
            Files.createDirectories(reportDir);
            long leaderChanges = 0;
            for (int s = 0; s < SIDECARS; s++) {
                String json = cluster.admin(s, "/admin/stats").body();
                Files.writeString(reportDir.resolve("master-faults-sidecar-" + s + "-stats-" + target + ".json"), json);
                Map<String, Long> numbers = ConsistencyIT.numbers(json);
                sidecars.add(numbers);
                leaderChanges += numbers.getOrDefault("master_leader_changes", 0L);
            }
            String report = ConsistencyIT.report(target, lease, cycles, runNanos, verdict, tally, master, sidecars, phases);
            report = report.substring(0, report.lastIndexOf('}')).stripTrailing()
                    + String.format(",\n  \"failovers\": %d,\n  \"failover_ms\": {\"p50\": %d, \"max\": %d},"
                            + "\n  \"follower_catch_up_ms\": {\"restarts\": %d, \"p50\": %d, \"max\": %d},"
                            + "\n  \"group_moves\": {\"count\": %d, \"p50_ms\": %d, \"max_ms\": %d},"
                    + "\n  \"sidecar_leader_changes\": %d\n}\n", failoverMillis.getTotalCount(),
                    failoverMillis.getValueAtPercentile(50), failoverMillis.getMaxValue(), catchUpMillis.getTotalCount(),
                    catchUpMillis.getValueAtPercentile(50), catchUpMillis.getMaxValue(), groupMoveMillis.getTotalCount(),
                    groupMoveMillis.getValueAtPercentile(50), groupMoveMillis.getMaxValue(), leaderChanges);
            Files.writeString(reportDir.resolve("master-faults-report-" + target + ".json"), report);
            System.out.println(report);
            cluster.saveOutputs(reportDir.resolve("master-faults-logs-" + target));

            assertTrue(verdict.passed(), "the checker found violations: " + verdict);
            assertEquals(SESSIONS * (SIDECARS + 1), verdict.finalReads(), "every session, through every sidecar and the "
                    + "leader, is still there: " + verdict);
            assertTrue(verdict.reads() + verdict.writes() >= target, "ran " + verdict);
            assertTrue(verdict.acknowledgedWrites() > 0 && verdict.reads() > 0, "nothing to check: " + verdict);
            assertTrue(sidecars.stream().mapToLong(m -> m.getOrDefault("reads_from_cache", 0L)).sum() > 0,
                    "no read was answered from a cache: the checker proved nothing about caches");
            assertTrue(leaderChanges >= SIDECARS, "the sidecars never followed a new leader: " + leaderChanges);
            assertEquals(List.of(), cluster.troubles(), "a server reported leaks");
        }
    }

    /**
     * The checker's hot sessions: half of them on the part of the ring the second group takes when it is added (so each
     * addition and each removal moves them under traffic), half staying on the first group.
     */
    static List<String> sessionsHalfMoving(GroupCluster cluster) {
        GroupMap moving = GroupMap.first(GroupMap.parseGroups(cluster.groupSpec()), GroupCluster.VNODES)
                .adding(GroupMap.parseGroups(cluster.extraGroupSpec()).get(0));
        String second = moving.names().get(1);
        List<String> move = new ArrayList<>();
        List<String> stay = new ArrayList<>();
        while (move.size() < SESSIONS / 2 || stay.size() < SESSIONS - SESSIONS / 2) {
            for (String id : ConsistencyIT.createSessions(cluster.api(1))) {
                List<String> to = moving.owner(id).equals(second) ? move : stay;
                if (to.size() < (to == move ? SESSIONS / 2 : SESSIONS - SESSIONS / 2)) {
                    to.add(id);
                }
            }
        }
        List<String> sessions = new ArrayList<>(move);
        sessions.addAll(stay);
        return sessions;
    }

    /**
     * A second group of three is started and added with the admin command while the clients run (half the hot sessions
     * move to it), then removed with it (they move back) and stopped; records how long each move took.
     */
    static void groupCycle(GroupCluster cluster, List<String> phases, HotSessionClient.Tally tally, Histogram moveMillis)
            throws Exception {
        ConsistencyIT.phase(phases, tally, "add a group of three under traffic", () -> {
            cluster.startExtraGroup();
            moveMillis.recordValue(doneIn(cluster.groups("add", cluster.extraGroupSpec())));
        });
        ConsistencyIT.phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        ConsistencyIT.phase(phases, tally, "remove that group under traffic", () -> {
            String name = GroupMap.parseGroups(cluster.extraGroupSpec()).get(0).get(0);
            moveMillis.recordValue(doneIn(cluster.groups("remove", name)));
            cluster.stopExtraGroup();
        });
    }

    /** The move's duration the admin command printed ("done in N ms"); fails the test if it did not finish. */
    private static long doneIn(GroupCluster.GroupsRun run) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("done in (\\d+) ms").matcher(run.output());
        assertTrue(run.exit() == 0 && m.find(), "the admin command failed (" + run.exit() + "): " + run.output());
        return Long.parseLong(m.group(1));
    }

    /** Longest wait, after a leader's fault, for the first write acknowledged after it (a failover that never ends). */
    static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    /**
     * One round of faults, each followed by steady traffic; records when each leader fault began. A cycle ends only once
     * a write begun after its last fault is acknowledged (at most {@link #FAILOVER_TIMEOUT}): on a loaded machine a
     * failover can outlast the steady phase, and the run's end must not leave that fault without its failover.
     */
    static void faultCycle(GroupCluster cluster, List<String> phases, HotSessionClient.Tally tally, List<Long> faultTimes,
                           Histogram catchUpMillis, History history) throws Exception {
        long leaseMs = cluster.lease.toMillis();
        ConsistencyIT.phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        ConsistencyIT.phase(phases, tally, "SIGKILL the leader, restart it", () -> {
            int leader = cluster.leader();
            faultTimes.add(System.nanoTime());
            cluster.kill(leader);
            Thread.sleep(2_000);
            cluster.restart(leader);
        });
        ConsistencyIT.phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        ConsistencyIT.phase(phases, tally, "SIGKILL a follower, restart it", () -> {
            int follower = (cluster.leader() + 1) % GroupCluster.REPLICAS;
            cluster.kill(follower);
            Thread.sleep(1_000);
            long restarted = System.nanoTime();
            long target = cluster.statOf(cluster.leader(), "replica_commit_index");
            cluster.restart(follower);
            Await.until("the restarted replica applies the leader's commit index " + target, Duration.ofSeconds(60),
                    () -> cluster.statOf(follower, "replica_applied_index") >= target);
            catchUpMillis.recordValue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted));
        });
        ConsistencyIT.phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        ConsistencyIT.phase(phases, tally, "SIGSTOP the leader for 2.5 leases, then SIGCONT", () -> {
            int leader = cluster.leader();
            faultTimes.add(System.nanoTime());
            cluster.pause(leader);
            Thread.sleep(leaseMs * 5 / 2);
            cluster.resume(leader);
        });
        // traffic after the last fault too, so that its failover is measured even when the run ends with this cycle
        ConsistencyIT.phase(phases, tally, "steady", () -> Thread.sleep(2_000));
        long lastFault = faultTimes.get(faultTimes.size() - 1);
        Await.until("a write acknowledged after the leader's pause", FAILOVER_TIMEOUT, () -> history.writes().stream()
                .anyMatch(w -> w.version() != History.UNKNOWN && w.invoked() >= lastFault));
    }
}
