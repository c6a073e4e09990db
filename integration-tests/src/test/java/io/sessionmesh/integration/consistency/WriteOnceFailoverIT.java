package io.sessionmesh.integration.consistency;

import io.sessionmesh.client.ClientMetrics;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.internal.SidecarApi;
import io.sessionmesh.client.internal.SidecarHttp;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A write sent again across a leader's failover is applied once (PROTOCOL.md 3.12, "In a group"): a group of three
 * replicas and a sidecar, real processes. A write with an id is acknowledged by the leader, the leader is killed
 * (SIGKILL) as if the answer had been lost with it, another client writes the same attribute through the new leader,
 * and then the first write is sent again under its id. The new leader must answer it as the old one would have (the
 * first write's versions) and apply nothing: the later value stays, and no version moves. The table of write ids is
 * replicated state; had it lived only on the old leader, the retry would put the older value back.
 */
class WriteOnceFailoverIT {
    /** How long the new leader may take to be elected and to take writes. */
    static final Duration FAILOVER_WAIT = Duration.ofSeconds(30);

    @TempDir
    Path raftDirs;

    @Test
    void aWriteSentAgainAfterTheLeaderDied_isAnsweredAsTheFirst_andAppliedOnce() throws Exception {
        try (GroupCluster cluster = new GroupCluster(1, ConsistencyIT.lease(), raftDirs);
             SidecarHttp http = new SidecarHttp(cluster.api(0), Duration.ofSeconds(1), Duration.ofSeconds(10), 1, 1 << 20)) {
            SidecarApi api = new SidecarApi(http, new BinaryTransportCodec(), ClientMetrics.NONE);
            String id = api.create(3600).sessionId();
            WriteId first = WriteId.next();
            byte[] firstBody = api.encodeWrite(set(id, "first"));
            WriteResult firstAnswer = api.write(firstBody, id, first);

            int oldLeader = cluster.leader();
            cluster.kill(oldLeader);

            // the other client's write, through the new leader, once there is one
            WriteResult later = untilAccepted(() -> api.write(set(id, "later")));
            int newLeader = cluster.leader();
            assertNotEquals(oldLeader, newLeader);
            long duplicatesBefore = cluster.statOf(newLeader, "write_id_duplicates");

            WriteResult again = api.write(firstBody, id, first);

            assertEquals(firstAnswer.versions(), again.versions(), "the retry is answered with the first write's versions");
            SectionData c = api.read(id, List.of("c")).section("c").orElseThrow();
            assertEquals("later", new String(c.attributes().get("v"), StandardCharsets.UTF_8),
                    "the retry did not put the older value back");
            assertEquals(later.versions().get("c"), c.version(), "no version moved");
            assertEquals(duplicatesBefore + 1, cluster.statOf(newLeader, "write_id_duplicates"),
                    "the new leader knew the write id from the log");
        }
    }

    private static WriteRequest set(String id, String value) {
        return new WriteRequest(id, List.of(new SectionDelta("c", Map.of("v", value.getBytes(StandardCharsets.UTF_8)),
                List.of())));
    }

    /** Runs {@code write} until it is acknowledged (503 and 504 while the group elects), up to {@link #FAILOVER_WAIT}. */
    private static WriteResult untilAccepted(java.util.function.Supplier<WriteResult> write) throws InterruptedException {
        long deadline = System.nanoTime() + FAILOVER_WAIT.toNanos();
        while (true) {
            try {
                return write.get();
            } catch (SessionMeshException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
