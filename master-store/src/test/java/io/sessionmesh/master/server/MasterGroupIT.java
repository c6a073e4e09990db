package io.sessionmesh.master.server;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A group of three master processes (PROTOCOL.md 3.8), driven over TCP: SIGKILL of the leader loses no acknowledged
 * write, a follower names the leader, and the killed replica restarts from its directory and catches up.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MasterGroupIT {
    private static final Duration FAILOVER = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<int[]> ports = new ArrayList<>();
    private final List<ServerProcess> replicas = new ArrayList<>();
    private EventLoopGroup loop;
    private String spec;

    @BeforeEach
    void start() throws IOException {
        loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int[] p = {FreePorts.next(), FreePorts.next()};
            ports.add(p);
            parts.add("m" + i + "=127.0.0.1:" + p[0] + "/" + p[1]);
        }
        spec = String.join(",", parts);
        for (int i = 0; i < 3; i++) {
            replicas.add(startReplica(i));
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (ServerProcess p : replicas) {
            if (p != null) {
                p.close();
            }
        }
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    private ServerProcess startReplica(int i) throws IOException {
        return ServerProcess.start(ServerProcess.command(MasterServerIT.jar(), "--port", String.valueOf(ports.get(i)[0]),
                "--replicas", spec, "--replica-id", "m" + i, "--raft-dir", dir.resolve("m" + i).toString(),
                "--io-threads", "1", "--lease", "500ms", "--election-timeout", "300ms"));
    }

    private MasterConnection connect(int i) {
        return MasterConnection.connect(loop, new InetSocketAddress("127.0.0.1", ports.get(i)[0]),
                MasterConnectionOptions.DEFAULT, null).join();
    }

    /** The replica that leads (its STATS say so), among the live ones. */
    private int awaitLeader() {
        int[] found = {-1};
        Await.until("a replica that leads", FAILOVER, () -> {
            for (int i = 0; i < replicas.size(); i++) {
                if (replicas.get(i) == null) {
                    continue;
                }
                try (MasterConnection c = connect(i)) {
                    if (c.stats().get(5, TimeUnit.SECONDS).contains("\"replica_leads\":1")) {
                        found[0] = i;
                        return true;
                    }
                } catch (Exception e) {
                    // not up yet, or just killed
                }
            }
            return false;
        });
        return found[0];
    }

    @Test
    void killingTheLeaderLosesNoAcknowledgedWrite() throws Exception {
        int leader = awaitLeader();
        String id;
        try (MasterConnection c = connect(leader)) {
            id = c.create(null).join().sessionId();
            List<java.util.concurrent.CompletableFuture<MasterAnswer.Write>> writes = new ArrayList<>();
            for (int i = 1; i <= 50; i++) {
                writes.add(c.write(write(id, "a" + i, "v" + i)));
            }
            for (var w : writes) {
                w.join(); // every one acknowledged: a majority has it
            }
        }

        replicas.get(leader).kill();
        replicas.set(leader, null);
        long killed = System.nanoTime();
        int next = awaitLeader();
        assertNotEquals(leader, next);
        try (MasterConnection c = connect(next)) {
            ReadResult read = c.read(new ReadRequest(id, List.of("cart"))).join().result().toReadResult();
            assertEquals(50, read.sections().get(0).version(), "every acknowledged write survived the leader");
            for (int i = 1; i <= 50; i++) {
                assertArrayEquals(utf8("v" + i), read.sections().get(0).attributes().get("a" + i));
            }
            assertEquals(Map.of("cart", 51L), c.write(write(id, "after", "failover")).join().result().versions());
        }
        System.out.printf("failover: %d ms from SIGKILL of the leader to the new leader's first acknowledged write%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));

        replicas.set(leader, startReplica(leader));
        int restarted = leader;
        Await.until("the restarted replica applied the group's log", FAILOVER, () -> {
            try (MasterConnection c = connect(restarted)) {
                return c.stats().get(5, TimeUnit.SECONDS).contains("\"writes\":51");
            }
        });
    }

    @Test
    void principalSessions_onTheLeader_findsASessionRightAfterItsCreateIsAcknowledged() {
        int leader = awaitLeader();
        try (MasterConnection c = connect(leader)) {
            for (int round = 0; round < 20; round++) {
                String principal = "user-" + round;
                // pipelined: the list is sent as soon as the CREATE is answered, on the same connection
                String id = c.send(new MasterRequest.Create(null, null, principal)).join().sessionId();
                MasterAnswer.SessionsOfPrincipal listed = c.send(new MasterRequest.PrincipalSessions(principal)).join();
                assertEquals(List.of(id), listed.sessionIds(), "round " + round);
                assertEquals(false, listed.truncated());
            }
        }
        int follower = (leader + 1) % replicas.size();
        try (MasterConnection c = connect(follower)) {
            CompletionException e = assertThrows(CompletionException.class,
                    () -> c.send(new MasterRequest.PrincipalSessions("user-0")).join());
            assertEquals(Status.NOT_LEADER, assertInstanceOf(MasterException.class, e.getCause()).status());
        }
    }

    @Test
    void aFollowerAnswersNotLeaderWithTheLeadersAddress() {
        int leader = awaitLeader();
        int follower = (leader + 1) % 3;
        try (MasterConnection c = connect(follower)) {
            Await.until("the follower knows the leader", FAILOVER, () -> {
                CompletionException e = assertThrows(CompletionException.class,
                        () -> c.read(new ReadRequest("nobody", List.of("cart"))).join());
                MasterException refused = assertInstanceOf(MasterException.class, e.getCause());
                assertEquals(Status.NOT_LEADER, refused.status());
                return refused.getMessage().endsWith("127.0.0.1:" + ports.get(leader)[0]);
            });
        }
    }

    private static WriteRequest write(String id, String attribute, String value) {
        return new WriteRequest(id, List.of(new SectionDelta("cart", Map.of(attribute, utf8(value)), List.of())));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
