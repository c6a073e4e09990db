package io.sessionmesh.master.server;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGKILL of a replica while it writes snapshots (one every 16 entries, of a store of a few tens of MiB, so most of its
 * time goes to them): it restarts from its directory every time, with every acknowledged write, and the half-written
 * snapshot a kill left is removed at start, never read. The kills are repeated until at least one left such a file.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SnapshotKillIT {
    /** Kills at most; the test needs one of them to land in a snapshot's write. */
    private static final int MAX_KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void aReplicaKilledWhileWritingASnapshot_restartsWithEveryAcknowledgedWrite() throws Exception {
        int[] p = {FreePorts.next(), FreePorts.next()};
        Path raft = dir.resolve("m0");
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        long acknowledged = 0;
        int inSnapshot = 0;
        String counter = null;
        try {
            for (int kill = 0; kill < MAX_KILLS && inSnapshot < 1; kill++) {
                ServerProcess replica = ServerProcess.start(ServerProcess.command(MasterServerIT.jar(), "--port",
                        String.valueOf(p[0]), "--replicas", "m0=127.0.0.1:" + p[0] + "/" + p[1], "--replica-id", "m0",
                        "--raft-dir", raft.toString(), "--io-threads", "1", "--lease", "500ms", "--snapshot-every", "16"));
                try (MasterConnection c = awaitLeading(loop, p[0])) {
                    try (Stream<Path> files = Files.walk(raft)) {
                        assertTrue(files.noneMatch(f -> f.toString().endsWith(".partial")),
                                "a half-written snapshot is removed at start");
                    }
                    if (counter == null) {
                        counter = c.create(null).get(30, TimeUnit.SECONDS).sessionId();
                        byte[] bulk = new byte[32 << 10];
                        for (int i = 0; i < 1_000; i++) { // about 32 MiB in the store: each snapshot takes a while
                            String id = c.create(null).get(30, TimeUnit.SECONDS).sessionId();
                            c.write(new WriteRequest(id, List.of(new SectionDelta("bulk", Map.of("b", bulk), List.of()))))
                                    .get(30, TimeUnit.SECONDS);
                        }
                    }
                    long found = count(c, counter);
                    assertTrue(found >= acknowledged, "after " + kill + " kills the counter is " + found
                            + ", below the last acknowledged " + acknowledged);
                    acknowledged = found;
                    // writes go on in the background, and the kill comes in the middle of them (and of a snapshot)
                    java.util.concurrent.atomic.AtomicLong acked = new java.util.concurrent.atomic.AtomicLong(acknowledged);
                    String id = counter;
                    Thread writer = new Thread(() -> {
                        try {
                            while (true) {
                                long next = acked.get() + 1;
                                c.write(new WriteRequest(id, List.of(new SectionDelta("c", Map.of("n",
                                        ByteBuffer.allocate(8).putLong(next).array()), List.of())))).get(30, TimeUnit.SECONDS);
                                acked.set(next);
                            }
                        } catch (Exception killed) {
                            // the replica is gone
                        }
                    });
                    writer.start();
                    Thread.sleep(400 + 137L * kill % 900);
                    replica.kill();
                    writer.join(35_000);
                    acknowledged = acked.get();
                }
                try (Stream<Path> files = Files.walk(raft)) {
                    if (files.anyMatch(f -> f.toString().endsWith(".partial"))) {
                        inSnapshot++;
                    }
                }
            }
            assertTrue(inSnapshot >= 1, "no kill of " + MAX_KILLS + " landed in a snapshot's write");
            ServerProcess last = ServerProcess.start(ServerProcess.command(MasterServerIT.jar(), "--port",
                    String.valueOf(p[0]), "--replicas", "m0=127.0.0.1:" + p[0] + "/" + p[1], "--replica-id", "m0",
                    "--raft-dir", raft.toString(), "--io-threads", "1", "--lease", "500ms", "--snapshot-every", "16"));
            try (MasterConnection c = awaitLeading(loop, p[0])) {
                long found = count(c, counter);
                assertTrue(found >= acknowledged, "the counter is " + found + ", below the last acknowledged " + acknowledged);
            } finally {
                last.close();
            }
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static long count(MasterConnection c, String id) throws Exception {
        var sections = c.read(new ReadRequest(id, List.of("c"))).get(30, TimeUnit.SECONDS).result().toReadResult().sections();
        byte[] n = sections.isEmpty() ? null : sections.get(0).attributes().get("n");
        return n == null ? 0 : ByteBuffer.wrap(n).getLong();
    }

    private static MasterConnection awaitLeading(EventLoopGroup loop, int port) {
        MasterConnection[] found = {null};
        Await.until("the replica leads", Duration.ofSeconds(60), () -> {
            try {
                MasterConnection c = MasterConnection.connect(loop, new InetSocketAddress("127.0.0.1", port),
                        MasterConnectionOptions.DEFAULT, null).get(5, TimeUnit.SECONDS);
                if (c.stats().get(5, TimeUnit.SECONDS).contains("\"replica_leads\":1")) {
                    c.ping(new byte[0]).get(5, TimeUnit.SECONDS);
                    found[0] = c;
                    return true;
                }
                c.close();
            } catch (Exception e) {
                // not up yet
            }
            return false;
        });
        return found[0];
    }
}
