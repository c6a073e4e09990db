package io.sessionmesh.integration.consistency;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Master groups added and removed while traffic runs (PROTOCOL.md 3.9), with many sessions: three groups of one
 * replica each (real processes, Ratis with one peer), two sidecars that know only the first group, and writers that
 * each own some sessions and count in them, reading every session back through the other sidecar. Under traffic the
 * admin command adds the second group, adds the third, then removes the second. Every request must succeed (no 404
 * for a live session, no 503), every read must see the writer's last acknowledged count, and at the end every session
 * holds its last acknowledged count, on the group the map gives it to. The admin command's refusals are checked too,
 * among them a group too small for its share, refused before any session leaves.
 * ({@code MasterFaultsIT} moves the hot sessions of the checker between groups of three in every cycle.)
 */
class ElasticGroupsIT {
    static final int SESSIONS = 300;
    static final int WRITERS = 4;
    static final int VNODES = 256;
    /** Where a master behind a {@link LostAnswerProxy} listens; the proxy takes its address on 127.0.0.1. */
    static final String BEHIND_PROXY = "127.0.0.2";
    /** After an import's answer is lost, the receiving group refuses connections this long: the resend waits. */
    static final Duration RESEND_DELAY = Duration.ofMillis(1_500);

    @TempDir
    Path raftDirs;

    private final List<ServerProcess> processes = new ArrayList<>();
    /** The groups' data ports, for messages. */
    private final List<Integer> ports = new ArrayList<>();
    /** The lost-answer test's proxies, one in front of each group. */
    private final List<LostAnswerProxy> answers = new ArrayList<>();
    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

    @Test
    void groupsAddedAndRemovedUnderTrafficLoseNothingAndNeverAnswer404() throws Exception {
        int[][] groups = new int[3][];
        for (int g = 0; g < 3; g++) {
            groups[g] = new int[]{FreePorts.next(), FreePorts.next()};
        }
        try {
            for (int g = 0; g < 3; g++) {
                startMaster(g, groups[g]);
            }
            String directory = "127.0.0.1:" + groups[0][0];
            List<URI> sidecars = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                ServerProcess p = start(ServerProcess.command(ConsistencyCluster.jar("sidecar.jar",
                                "slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", directory, "--port", "0",
                        "--admin-port", "0", "--vnodes", String.valueOf(VNODES), "--master-timeout", "5s", "--io-threads", "1"));
                p.awaitHealthy("\"valid\":true");
                p.awaitHealthy(GroupCluster.ROUTED_BY_MAP); // the first sidecar up has given the directory its map
                sidecars.add(URI.create("http://127.0.0.1:" + p.port()));
            }

            // refusals, before any traffic
            Run directoryRemoved = groups(directory, "remove", directory);
            assertEquals(1, directoryRemoved.exit, directoryRemoved.output);
            assertTrue(directoryRemoved.output.contains("cannot be removed"), directoryRemoved.output);
            Run unknown = groups(directory, "remove", "127.0.0.1:1");
            assertTrue(unknown.exit == 1 && unknown.output.contains("NOT_FOUND"), unknown.output);
            Run notRunning = groups(directory, "add", "127.0.0.1:" + FreePorts.next());
            assertTrue(notRunning.exit == 1 && notRunning.output.contains("start its replicas first"), notRunning.output);

            List<String> ids = new ArrayList<>();
            try (SidecarHttp http = new SidecarHttp(sidecars.get(0), Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1 << 20)) {
                SidecarApi api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
                for (int i = 0; i < SESSIONS; i++) {
                    ids.add(api.create(3600).sessionId());
                }
            }
            // a group without room for its share is refused before anything moves
            int[] small = {FreePorts.next(), FreePorts.next()};
            startMaster(3, small, "--max-sessions", "10");
            long epoch = stat(groups[0][0], "group_map_epoch");
            Run noRoom = groups(directory, "add", "127.0.0.1:" + small[0]);
            assertEquals(1, noRoom.exit, noRoom.output);
            assertTrue(noRoom.output.contains("TOO_LARGE") && noRoom.output.contains("has room for 10 sessions")
                    && noRoom.output.contains("nothing moved"), noRoom.output);
            assertEquals(epoch, stat(groups[0][0], "group_map_epoch"), "no map was committed");
            assertEquals(SESSIONS, stat(groups[0][0], "sessions"), "no session left the first group");
            assertEquals(0, stat(small[0], "sessions"));

            Map<String, Long> acknowledged = new ConcurrentHashMap<>();
            Map<String, LongAdder> failures = new ConcurrentHashMap<>();
            AtomicLong stale = new AtomicLong();
            AtomicLong operations = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                List<String> own = new ArrayList<>();
                for (int i = w; i < SESSIONS; i += WRITERS) {
                    own.add(ids.get(i));
                }
                URI writeVia = sidecars.get(w % 2);
                URI readVia = sidecars.get((w + 1) % 2);
                writers.add(pool.submit(() -> write(own, writeVia, readVia, acknowledged, failures, stale, operations, stop)));
            }

            Thread.sleep(1_500);
            String second = "127.0.0.1:" + groups[1][0];
            String third = "127.0.0.1:" + groups[2][0];
            List<String> moves = new ArrayList<>();
            for (String[] change : List.of(new String[]{"add", second}, new String[]{"add", third},
                    new String[]{"remove", second})) {
                long before = operations.get();
                Run run = groups(directory, change);
                assertEquals(0, run.exit, String.join(" ", change) + ": " + run.output);
                Thread.sleep(1_500);
                moves.add(String.join(" ", change) + ": " + doneIn(run) + " ms, " + (operations.get() - before) + " operations");
            }
            stop.set(true);
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            System.out.println("ElasticGroupsIT: " + operations.get() + " operations; moves " + moves + "; failures "
                    + failures + "; stale " + stale.get());

            assertEquals(Map.of(), Map.copyOf(failures), "every request succeeds while groups move");
            assertEquals(0, stale.get(), "reads older than the reader's writer's last acknowledged write");
            assertTrue(operations.get() > SESSIONS, "traffic ran: " + operations.get());
            // every session, through both sidecars, holds its last acknowledged count
            for (URI via : sidecars) {
                try (SidecarHttp http = new SidecarHttp(via, Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1 << 20)) {
                    SidecarApi api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
                    for (String id : ids) {
                        assertEquals(acknowledged.getOrDefault(id, 0L), count(api.read(id, List.of("c"))), "session " + id);
                    }
                }
            }
            long first = stat(groups[0][0], "sessions");
            long removed = stat(groups[1][0], "sessions");
            long last = stat(groups[2][0], "sessions");
            assertEquals(0, removed, "the removed group handed off every session");
            assertEquals(SESSIONS, first + last, "every session is in the first or the third group");
            assertTrue(first > 0 && last > 0, "both groups hold sessions: " + first + " and " + last);
            assertTrue(stat(groups[1][0], "group_sessions_handed_off") > 0, "the removed group handed its sessions on");
        } finally {
            for (ServerProcess p : processes) {
                p.close();
            }
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * While sessions move (PROTOCOL.md 3.9, 3.11): a principal's list that says complete holds every session of the
     * principal; a "log out everywhere" that says complete leaves none readable anywhere; deletes and renames made
     * during a move stay done after it (no import brings a session back). Three moves (add, add, remove), each with
     * the principal's sessions, lists, a logout, deletes and renames running through it, and in each the answer to the
     * first import is lost ({@link LostAnswerProxy}): the sender sends it again 1.5 s later, while the steps go on, and
     * after the move the first copy arrives once more, late, and is refused.
     */
    @Test
    void duringMoves_completeListsMissNothing_aCompleteLogoutLeavesNothing_andNothingComesBack() throws Exception {
        int[][] groups = new int[3][];
        for (int g = 0; g < 3; g++) {
            groups[g] = new int[]{FreePorts.next(), FreePorts.next()};
            ports.add(groups[g][0]);
        }
        try {
            for (int g = 0; g < 3; g++) {
                // each master behind a proxy that keeps its address and can lose the answer of an import to it
                answers.add(LostAnswerProxy.start(new InetSocketAddress("127.0.0.1", groups[g][0]),
                        new InetSocketAddress(BEHIND_PROXY, groups[g][0]), RESEND_DELAY));
                startMaster(g, groups[g], "--bind", BEHIND_PROXY);
            }
            String directory = "127.0.0.1:" + groups[0][0];
            ServerProcess sidecar = start(ServerProcess.command(ConsistencyCluster.jar("sidecar.jar",
                            "slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", directory, "--port", "0",
                    "--admin-port", "0", "--vnodes", String.valueOf(VNODES), "--master-timeout", "5s", "--io-threads", "1"));
            sidecar.awaitHealthy(GroupCluster.ROUTED_BY_MAP);
            URI api = URI.create("http://127.0.0.1:" + sidecar.port());
            URI admin = URI.create("http://127.0.0.1:" + sidecar.port("admin"));
            io.sessionmesh.client.internal.SidecarAdmin lists = new io.sessionmesh.client.internal.SidecarAdmin(admin, null,
                    Duration.ofSeconds(1), Duration.ofSeconds(10));
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            List<String[]> moves = List.of(new String[]{"add", "127.0.0.1:" + groups[1][0]},
                    new String[]{"add", "127.0.0.1:" + groups[2][0]}, new String[]{"remove", "127.0.0.1:" + groups[1][0]});
            // the group that receives sessions in each move, whose first import's answer is lost
            List<LostAnswerProxy> receivers = List.of(answers.get(1), answers.get(2), answers.get(2));
            try (SidecarHttp h = new SidecarHttp(api, Duration.ofSeconds(1), Duration.ofSeconds(10), 4, 1 << 20)) {
                SidecarApi sessions = new SidecarApi(h, new BinaryTransportCodec(), ClientMetrics.NONE);
                int round = 0;
                for (String[] move : moves) {
                    round++;
                    String listed = "listed-" + round;
                    String loggedOut = "out-" + round;
                    java.util.Set<String> listedIds = new java.util.HashSet<>();
                    List<String> outIds = new ArrayList<>();
                    List<String> others = new ArrayList<>();
                    for (int i = 0; i < 120; i++) {
                        listedIds.add(written(sessions, sessions.create(3600, listed).sessionId()));
                        outIds.add(written(sessions, sessions.create(3600, loggedOut).sessionId()));
                        others.add(written(sessions, sessions.create(3600).sessionId()));
                    }
                    LostAnswerProxy receiver = receivers.get(round - 1);
                    long lostBefore = receiver.lost();
                    receiver.loseNext(io.sessionmesh.wire.protocol.Opcodes.GROUP_IMPORT);
                    java.util.concurrent.CompletableFuture<Run> moving = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return groups(directory, move);
                        } catch (Exception e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
                    int completeLists = 0;
                    int incompleteLists = 0;
                    Map<String, Object> logout = null;
                    List<String> deleted = new ArrayList<>();
                    Map<String, String> renamed = new java.util.LinkedHashMap<>();
                    int step = 0;
                    while (!moving.isDone() || step < 3) {
                        io.sessionmesh.wire.transport.PrincipalSessions list = lists.sessionsOf(listed);
                        if (list.complete()) {
                            completeLists++;
                            assertEquals(listedIds, java.util.Set.copyOf(list.sessionIds()), "a list that says complete, round "
                                    + round + ", step " + step);
                        } else {
                            incompleteLists++;
                            assertTrue(listedIds.containsAll(list.sessionIds()), "a list names only the principal's sessions");
                        }
                        if (logout == null || !Boolean.TRUE.equals(logout.get("complete"))) {
                            logout = logoutEverywhere(http, admin, loggedOut);
                        }
                        if (step < others.size() / 2) {
                            String d = others.get(step * 2);
                            sessions.delete(d);
                            deleted.add(d);
                            String r = others.get(step * 2 + 1);
                            String to = renameAway(sessions, r);
                            if (to != null) {
                                renamed.put(r, to);
                            }
                        }
                        step++;
                    }
                    Run run = moving.join();
                    assertEquals(lostBefore + 1, receiver.lost(), "round " + round + ": one import's answer was lost");
                    assertEquals(0, run.exit, String.join(" ", move) + ": " + run.output);
                    while (!Boolean.TRUE.equals(logout.get("complete"))) {
                        logout = logoutEverywhere(http, admin, loggedOut);
                    }
                    // and the first copy of the import whose answer was lost arrives once more, after all that
                    int late = receiver.replay();
                    assertEquals(io.sessionmesh.wire.transport.Status.CONFLICT, late, "round " + round
                            + ": an import of a finished move is refused");
                    System.out.println("ElasticGroupsIT round " + round + " (" + String.join(" ", move) + "): " + step
                            + " steps during the move, lists " + completeLists + " complete, " + incompleteLists
                            + " incomplete; logout " + logout.get("deleted") + " deleted; " + deleted.size() + " deleted, "
                            + renamed.size() + " renamed; the late import answered " + late);
                    assertTrue(completeLists + incompleteLists > 0, "lists ran during the move");
                    for (String id : outIds) {
                        assertNotReadable(sessions, id, "logged out, round " + round);
                    }
                    io.sessionmesh.wire.transport.PrincipalSessions after = lists.sessionsOf(loggedOut);
                    assertTrue(after.complete() && after.sessionIds().isEmpty(), "nothing of a logged-out principal: " + after);
                    for (String id : deleted) {
                        assertNotReadable(sessions, id, "deleted during the move, round " + round);
                    }
                    for (Map.Entry<String, String> r : renamed.entrySet()) {
                        assertNotReadable(sessions, r.getKey(), "renamed away during the move, round " + round);
                        assertEquals(1L, count(sessions.read(r.getValue(), List.of("c"))), "the renamed session keeps its data");
                    }
                    assertEquals(listedIds, java.util.Set.copyOf(lists.sessionsOf(listed).sessionIds()), "after the move");
                }
            }
        } finally {
            for (ServerProcess p : processes) {
                p.close();
            }
            for (LostAnswerProxy a : answers) {
                a.close();
            }
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * Renames {@code id} to a new random id on the same group (a rename across groups is CONFLICT: another id is
     * tried); the new id, or null when a few tries all fell on other groups.
     */
    private static String renameAway(SidecarApi api, String id) {
        java.security.SecureRandom random = new java.security.SecureRandom();
        for (int attempt = 0; attempt < 20; attempt++) {
            byte[] b = new byte[16];
            random.nextBytes(b);
            String to = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
            try {
                return api.rename(id, to, 3600).sessionId();
            } catch (io.sessionmesh.client.SessionConflictException onAnotherGroup) {
                // try another id
            }
        }
        return null;
    }

    /** Writes the count 1 into the session's section "c"; returns its id. */
    private static String written(SidecarApi api, String id) {
        api.write(new WriteRequest(id, List.of(new SectionDelta("c", Map.of("n", ByteBuffer.allocate(8).putLong(1).array()),
                List.of()))));
        return id;
    }

    private void assertNotReadable(SidecarApi api, String id, String why) {
        try {
            ReadResult found = api.read(id, List.of("c"));
            StringBuilder where = new StringBuilder();
            for (int port : ports) {
                where.append(port).append(": sessions ").append(stat(port, "sessions")).append("; ");
            }
            throw new AssertionError("readable: a session " + why + " (" + found + "; " + where + ")");
        } catch (io.sessionmesh.client.SessionNotFoundException expected) {
            // gone, as it must be
        }
    }

    /** POST /admin/principals/{p}/logout on the sidecar's admin port; its JSON answer. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> logoutEverywhere(java.net.http.HttpClient http, URI admin, String principal)
            throws IOException, InterruptedException {
        java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                        admin.resolve("/admin/principals/" + principal + "/logout"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return new com.fasterxml.jackson.databind.ObjectMapper().readValue(r.body(), Map.class);
    }

    private void startMaster(int g, int[] ports, String... flags) throws IOException {
        List<String> command = new ArrayList<>(ServerProcess.command(ConsistencyCluster.jar("master.jar",
                        "master-store/target/sessionmesh-master.jar"), "--port", String.valueOf(ports[0]),
                "--replicas", "g" + g + "=127.0.0.1:" + ports[0] + "/" + ports[1], "--replica-id", "g" + g,
                "--raft-dir", raftDirs.resolve("g" + g).toString(), "--lease", "1s", "--io-threads", "1"));
        command.addAll(List.of(flags));
        ServerProcess p = start(command);
        io.sessionmesh.testing.Await.until("group " + g + " leads", Duration.ofSeconds(30),
                () -> stat(ports[0], "replica_leads") == 1);
    }

    private ServerProcess start(List<String> command) throws IOException {
        ServerProcess p = ServerProcess.start(command);
        processes.add(p);
        return p;
    }

    /** One writer: counts in its own sessions (one attribute), and reads each back through the other sidecar. */
    private static void write(List<String> own, URI writeVia, URI readVia, Map<String, Long> acknowledged,
                              Map<String, LongAdder> failures, AtomicLong stale, AtomicLong operations, AtomicBoolean stop) {
        try (SidecarHttp w = new SidecarHttp(writeVia, Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1 << 20);
             SidecarHttp r = new SidecarHttp(readVia, Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1 << 20)) {
            SidecarApi writer = new SidecarApi(w, new BinaryTransportCodec(), ClientMetrics.NONE);
            SidecarApi reader = new SidecarApi(r, new BinaryTransportCodec(), ClientMetrics.NONE);
            int i = 0;
            while (!stop.get()) {
                String id = own.get(i++ % own.size());
                long next = acknowledged.getOrDefault(id, 0L) + 1;
                try {
                    writer.write(new WriteRequest(id, List.of(new SectionDelta("c", Map.of("n",
                            ByteBuffer.allocate(8).putLong(next).array()), List.of()))));
                    acknowledged.put(id, next);
                } catch (SessionMeshException e) {
                    failures.computeIfAbsent("write: " + e.getMessage(), k -> new LongAdder()).increment();
                }
                try {
                    long seen = count(reader.read(id, List.of("c")));
                    if (seen < acknowledged.getOrDefault(id, 0L)) {
                        stale.incrementAndGet();
                    }
                } catch (SessionMeshException e) {
                    failures.computeIfAbsent("read: " + e.getMessage(), k -> new LongAdder()).increment();
                }
                operations.addAndGet(2);
            }
        }
    }

    private static long count(ReadResult result) {
        SectionData c = result.section("c").orElseThrow();
        byte[] v = c.attributes().get("n");
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    record Run(int exit, String output) {
    }

    private static Run groups(String directory, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(ServerProcess.command(ConsistencyCluster.jar("master.jar",
                "master-store/target/sessionmesh-master.jar"), "groups", "--directory", directory, "--wait", "2m"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), "the admin command did not exit: " + output);
        return new Run(p.exitValue(), output);
    }

    private static long doneIn(Run run) {
        Matcher m = Pattern.compile("done in (\\d+) ms").matcher(run.output);
        assertTrue(m.find(), run.output);
        return Long.parseLong(m.group(1));
    }

    private long stat(int port, String name) {
        try (MasterConnection c = MasterConnection.connect(loop, new InetSocketAddress("127.0.0.1", port),
                MasterConnectionOptions.DEFAULT, null).get(2, TimeUnit.SECONDS)) {
            Matcher m = Pattern.compile("\"" + name + "\":(-?\\d+)").matcher(c.stats().get(2, TimeUnit.SECONDS));
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (Exception e) {
            return -1;
        }
    }
}
