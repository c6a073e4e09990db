package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.replication.GroupConfig;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.testing.Await;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GroupDataHandler} and the group side of {@link RegistrationHandler} in an EmbeddedChannel, in front of a real
 * one-replica group (a Ratis server on loopback, its log in a temporary directory): changes answered once applied,
 * reads after a barrier, the new leader's wait before the first write's acknowledgement, NOT_LEADER once it is gone.
 */
class GroupDataHandlerIT {
    private static final long LEASE_MILLIS = 400;
    private static final long MARGIN_MILLIS = 100;

    @TempDir
    Path dir;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HolderRegistry holders = new HolderRegistry(LEASE_MILLIS, timer);
    private final SessionStore store = new SessionStore(StoreLimits.DEFAULT, Ticker.WALL);
    private final ServerCounters counters = new ServerCounters();
    private ReplicaGroup group;

    @BeforeEach
    void start() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        GroupConfig.Replica self = new GroupConfig.Replica("solo", "127.0.0.1", 7400, port);
        group = ReplicaGroup.start(new GroupConfig("handler-test", List.of(self), self, dir, false, 200, MARGIN_MILLIS, 1000),
                store, new BinaryTransportCodec(), holders.invalidatorFor(null), LEASE_MILLIS);
        Await.until("the replica leads", Duration.ofSeconds(20), group::leads);
    }

    @AfterEach
    void stop() throws IOException {
        if (group != null) {
            group.close();
        }
        timer.shutdownNow();
    }

    private EmbeddedChannel channel(ConnectionRegistration registration) {
        // Deferred answers complete on Ratis's threads: the test takes them from the channel and waits for them itself
        // (PushHandlerTest covers how they are written); the push handler is only the control connection's sink.
        PushHandler pushes = new PushHandler(registration, holders.counters(), counters);
        return new EmbeddedChannel(new RegistrationHandler(holders, registration, pushes, counters, group),
                new GroupDataHandler(store, group, registration, counters, timer, null),
                new DataHandler(store, registration, counters, () -> "{}".getBytes(StandardCharsets.UTF_8)));
    }

    /** Sends one request and returns its answer, waiting for it when it is deferred. */
    private static Object call(EmbeddedChannel ch, int id, MasterRequest<?> request) throws Exception {
        ch.writeInbound(new Received(id, request));
        ch.flushOutbound();
        Object answer = ch.readOutbound();
        if (answer instanceof DeferredAnswer deferred) {
            return deferred.answer().get(10, TimeUnit.SECONDS);
        }
        return answer;
    }

    @Test
    void changesAreAnsweredOnceAppliedAndReadsSeeThem() throws Exception {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        MasterAnswer.Created created = (MasterAnswer.Created) call(ch, 1, new MasterRequest.Create(Duration.ofMinutes(2), null));
        String id = created.sessionId();
        assertEquals(Duration.ofMinutes(2), created.idleTimeout());
        long writeStarted = System.nanoTime();
        MasterAnswer.Write w = (MasterAnswer.Write) call(ch, 2, new MasterRequest.Write(new WriteRequest(id,
                List.of(new SectionDelta("cart", Map.of("n", new byte[]{42}), List.of())))));
        assertEquals(Map.of("cart", 1L), w.result().versions());
        assertTrue(System.nanoTime() >= group.writesOpenNanos(), "a write is acknowledged only once writes are open");
        assertTrue(group.writesOpenNanos() - writeStarted <= TimeUnit.MILLISECONDS.toNanos(LEASE_MILLIS + MARGIN_MILLIS));
        MasterAnswer.Read r = (MasterAnswer.Read) call(ch, 3, new MasterRequest.Read(new ReadRequest(id, List.of("cart"))));
        assertArrayEquals(new byte[]{42}, r.result().toReadResult().sections().get(0).attributes().get("n"));
        assertInstanceOf(MasterAnswer.Touched.class, call(ch, 4, new MasterRequest.Touch(id)));
        assertInstanceOf(MasterAnswer.Bytes.class, call(ch, 5, new MasterRequest.PublishSchema(7, new byte[]{1})));
        assertArrayEquals(new byte[]{1}, ((MasterAnswer.Bytes) call(ch, 6, new MasterRequest.FetchSchema(7))).body());
        assertEquals(Opcodes.DELETE, ((MasterAnswer.Bytes) call(ch, 7, new MasterRequest.Delete(id))).opcode());
        MasterAnswer.Error gone = (MasterAnswer.Error) call(ch, 8, new MasterRequest.Read(new ReadRequest(id, List.of("cart"))));
        assertEquals(Status.NOT_FOUND, gone.status());
        assertNull(store.times(id));
    }

    @Test
    void aStoreErrorIsTheAnswer() throws Exception {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        String id = ((MasterAnswer.Created) call(ch, 1, new MasterRequest.Create(null, null))).sessionId();
        MasterAnswer.Error conflict = (MasterAnswer.Error) call(ch, 2, new MasterRequest.Write(new WriteRequest(id,
                List.of(new SectionDelta("cart", 5, Map.of("n", new byte[1]), List.of())))));
        assertEquals(Status.CONFLICT, conflict.status());
        assertEquals(2, conflict.requestId());
        assertEquals(Opcodes.WRITE, conflict.opcode());
        // a schema uid published again with other bytes: CONFLICT through the log too, and the first bytes stay
        assertInstanceOf(MasterAnswer.Bytes.class, call(ch, 3, new MasterRequest.PublishSchema(77L, new byte[]{1, 2})));
        MasterAnswer.Error poisoned = (MasterAnswer.Error) call(ch, 4, new MasterRequest.PublishSchema(77L, new byte[]{3}));
        assertEquals(Status.CONFLICT, poisoned.status());
        assertArrayEquals(new byte[]{1, 2}, ((MasterAnswer.Bytes) call(ch, 5, new MasterRequest.FetchSchema(77L))).body());
    }

    /**
     * The leader decides whether a RENAME's session is live (it saw every read; the replicas apply a rename by the
     * log alone): an unknown or expired session is NOT_FOUND, never proposed, and its new id is never made.
     */
    @Test
    void aRenameOfAnUnknownOrExpiredSession_isNotFound_andMakesNothing() throws Exception {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        String newId = "renamed-to-this-id-0123456789";
        MasterAnswer.Error unknown = (MasterAnswer.Error) call(ch, 1,
                new MasterRequest.Rename("no-such-session-0123456789", newId, null));
        assertEquals(Status.NOT_FOUND, unknown.status());
        String id = ((MasterAnswer.Created) call(ch, 2, new MasterRequest.Create(Duration.ofSeconds(1), null))).sessionId();
        Thread.sleep(1_500); // past its idle timeout: expired, not yet swept
        MasterAnswer.Error expired = (MasterAnswer.Error) call(ch, 3, new MasterRequest.Rename(id, newId, null));
        assertEquals(Status.NOT_FOUND, expired.status());
        assertNull(store.times(newId), "the new id was made for an expired session");
    }

    @Test
    void theLeaderGrantsLeasesAfterABarrier_andNoReplicaThatIsGoneAnswersButNotLeader() throws Exception {
        ConnectionRegistration registration = new ConnectionRegistration(holders);
        EmbeddedChannel ch = channel(registration);
        MasterAnswer.Registered registered = (MasterAnswer.Registered) call(ch, 1,
                new MasterRequest.Register(UUID.randomUUID(), true, 1));
        assertEquals(LEASE_MILLIS, registered.leaseMillis());
        assertTrue(registration.isCurrentControl());
        assertArrayEquals(new byte[]{9}, ((MasterAnswer.Pong) call(ch, 2, new MasterRequest.Ping(new byte[]{9}))).payload());

        group.close();
        group = null;
        MasterAnswer.Error ping = (MasterAnswer.Error) call(ch, 3, new MasterRequest.Ping(new byte[]{9}));
        assertEquals(Status.NOT_LEADER, ping.status());
        MasterAnswer.Error read = (MasterAnswer.Error) call(ch, 4, new MasterRequest.Read(new ReadRequest("x", List.of("cart"))));
        assertEquals(Status.NOT_LEADER, read.status());
        assertEquals(Opcodes.READ, read.opcode());
        // STATS is answered by any replica, leading or not
        assertInstanceOf(MasterAnswer.Bytes.class, call(ch, 5, new MasterRequest.Stats()));
    }
}
