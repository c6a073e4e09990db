package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The data operations against the real store: typed requests in, typed answers out, errors as statuses. */
class DataHandlerTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HolderRegistry holders = new HolderRegistry(10_000, timer);
    private final SessionStore store = new SessionStore(StoreLimits.DEFAULT, Ticker.SYSTEM);
    private final ServerCounters counters = new ServerCounters();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private EmbeddedChannel channel(ConnectionRegistration registration) {
        return new EmbeddedChannel(new DataHandler(store, registration, counters, () -> "{\"x\":1}".getBytes(StandardCharsets.UTF_8)));
    }

    private static Object call(EmbeddedChannel ch, int id, MasterRequest<?> request) {
        ch.writeInbound(new Received(id, request));
        ch.flushOutbound(); // answers are written, not flushed: the encoder flushes at the end of each read
        return ch.readOutbound();
    }

    private static SectionDelta set(String section, String name, byte[] value) {
        return new SectionDelta(section, Map.of(name, value), List.of());
    }

    @Test
    void createWriteReadTouchDelete_answerTyped_withTheSessionsTimes() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        MasterAnswer.Created created = (MasterAnswer.Created) call(ch, 1, new MasterRequest.Create(Duration.ofMinutes(2), null));
        String id = created.sessionId();
        assertEquals(Duration.ofMinutes(2), created.idleTimeout());
        MasterAnswer.Write w = (MasterAnswer.Write) call(ch, 2, new MasterRequest.Write(new WriteRequest(id,
                List.of(set("cart", "n", new byte[] {42})))));
        assertEquals(Map.of("cart", 1L), w.result().versions());
        assertEquals(120_000, w.times().idleTimeoutMillis());
        MasterAnswer.Read r = (MasterAnswer.Read) call(ch, 3, new MasterRequest.Read(new ReadRequest(id, List.of("cart", "none"))));
        assertEquals(3, r.requestId());
        assertArrayEquals(new byte[] {42}, r.result().toReadResult().sections().get(0).attributes().get("n"));
        assertEquals(0, r.result().sections().get(1).version());
        MasterAnswer.Touched t = (MasterAnswer.Touched) call(ch, 4, new MasterRequest.Touch(id));
        assertTrue(t.times().lifetimeLeftMillis() > 0);
        MasterAnswer.Bytes deleted = (MasterAnswer.Bytes) call(ch, 5, new MasterRequest.Delete(id));
        assertEquals(Opcodes.DELETE, deleted.opcode());
        MasterAnswer.Error gone = (MasterAnswer.Error) call(ch, 6, new MasterRequest.Touch(id));
        assertEquals(Status.NOT_FOUND, gone.status());
        assertEquals(Opcodes.TOUCH, gone.opcode());
        assertEquals(1, counters.errors.sum());
    }

    @Test
    void createWithIdAndRename_answerTyped_conflictAndNotFoundAsStatuses() {
        String requested = "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c";
        String renamedTo = "9f3a6c1e-7b2d-4e8f-a0c5-1d2e3f4a5b6c";
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        MasterAnswer.Created created = (MasterAnswer.Created) call(ch, 1,
                new MasterRequest.Create(Duration.ofMinutes(2), null, "alice", requested));
        assertEquals(requested, created.sessionId());
        MasterAnswer.Error taken = (MasterAnswer.Error) call(ch, 2, new MasterRequest.Create(null, null, null, requested));
        assertEquals(Status.CONFLICT, taken.status());
        assertEquals(Opcodes.CREATE, taken.opcode());
        call(ch, 3, new MasterRequest.Write(new WriteRequest(requested, List.of(set("cart", "n", new byte[] {42})))));
        MasterAnswer.Renamed renamed = (MasterAnswer.Renamed) call(ch, 4,
                new MasterRequest.Rename(requested, renamedTo, Duration.ofMinutes(5)));
        assertEquals(Opcodes.RENAME, renamed.opcode());
        assertEquals(300_000, renamed.times().idleTimeoutMillis());
        MasterAnswer.Read r = (MasterAnswer.Read) call(ch, 5, new MasterRequest.Read(new ReadRequest(renamedTo, List.of("cart"))));
        assertEquals(1, r.result().sections().get(0).version());
        MasterAnswer.Error again = (MasterAnswer.Error) call(ch, 6, new MasterRequest.Rename(requested, store.newId(), null));
        assertEquals(Status.NOT_FOUND, again.status());
        assertEquals(Opcodes.RENAME, again.opcode());
    }

    @Test
    void principalSessions_answersTheLiveIdsTyped() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        String a = ((MasterAnswer.Created) call(ch, 1, new MasterRequest.Create(null, null, "alice"))).sessionId();
        String b = ((MasterAnswer.Created) call(ch, 2, new MasterRequest.Create(null, null, "alice"))).sessionId();
        call(ch, 3, new MasterRequest.Create(null, null, "bob"));
        MasterAnswer.SessionsOfPrincipal listed = (MasterAnswer.SessionsOfPrincipal) call(ch, 4,
                new MasterRequest.PrincipalSessions("alice"));
        assertEquals(Opcodes.PRINCIPAL_SESSIONS, listed.opcode());
        assertEquals(4, listed.requestId());
        assertEquals(java.util.Set.of(a, b), java.util.Set.copyOf(listed.sessionIds()));
        assertEquals(false, listed.truncated());
        call(ch, 5, new MasterRequest.Delete(a));
        assertEquals(List.of(b), ((MasterAnswer.SessionsOfPrincipal) call(ch, 6, new MasterRequest.PrincipalSessions("alice")))
                .sessionIds());
    }

    @Test
    void writeWithWholeSections_answersTheWrittenSectionsAboveVersion1Whole_andOnlyWhenAsked() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        String id = ((MasterAnswer.Created) call(ch, 1, new MasterRequest.Create(null, null))).sessionId();
        MasterAnswer.Write first = (MasterAnswer.Write) call(ch, 2, new MasterRequest.Write(new WriteRequest(id,
                List.of(set("cart", "a", new byte[] {1}), set("user", "u", new byte[] {9}))), true));
        assertTrue(first.sections().isEmpty(), "version 1 is the delta itself: " + first.sections());
        MasterAnswer.Write second = (MasterAnswer.Write) call(ch, 3, new MasterRequest.Write(new WriteRequest(id,
                List.of(set("cart", "b", new byte[] {2}), set("new", "x", new byte[] {3}))), true));
        assertEquals(Map.of("cart", 2L, "new", 1L), second.result().versions());
        assertEquals(1, second.sections().size());
        assertEquals("cart", second.sections().get(0).name());
        assertEquals(2, second.sections().get(0).version());
        assertArrayEquals(new byte[] {1}, second.sections().get(0).attribute("a"), "the whole section, not the delta");
        assertArrayEquals(new byte[] {2}, second.sections().get(0).attribute("b"));
        MasterAnswer.Write plain = (MasterAnswer.Write) call(ch, 4, new MasterRequest.Write(new WriteRequest(id,
                List.of(set("cart", "c", new byte[] {4})))));
        assertTrue(plain.sections().isEmpty(), "whole sections without the flag");
    }

    @Test
    void createWithAPlacement_makesAnIdThatTheRingPutsOnThisMaster() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        Placement placement = new Placement(List.of("created-m1:7400", "created-m2:7400", "created-m3:7400"), 64, 2);
        // the first CREATE with a placement this master has no ring of is answered once the ring is built off the loop
        DeferredAnswer first = assertInstanceOf(DeferredAnswer.class, call(ch, 0, new MasterRequest.Create(null, placement)));
        while (!first.answer().isDone()) {
            ch.runPendingTasks(); // the answer is made on the channel's loop, once the builder thread has the ring
            Thread.onSpinWait();
        }
        assertEquals(2, placement.ring().indexFor(((MasterAnswer.Created) first.answer().join()).sessionId()));
        for (int i = 1; i < 20; i++) {
            String id = ((MasterAnswer.Created) call(ch, i, new MasterRequest.Create(null, placement))).sessionId();
            assertEquals(2, placement.ring().indexFor(id));
        }
    }

    @Test
    void writeOfASectionAnotherCacheHolds_isAnsweredFenced() {
        ConnectionRegistration cache = new ConnectionRegistration(holders);
        cache.registered(io.sessionmesh.master.coherence.Holders.connect(holders, UUID.randomUUID()), holders.invalidatorFor(null));
        EmbeddedChannel reader = channel(cache);
        EmbeddedChannel writer = channel(new ConnectionRegistration(holders));
        String id = store.create().id();
        call(reader, 1, new MasterRequest.Read(new ReadRequest(id, List.of("cart"))));
        cache.holder().granted(System.nanoTime() + 5_000_000_000L);
        Object answer = call(writer, 2, new MasterRequest.Write(new WriteRequest(id, List.of(set("cart", "n", new byte[1])))));
        FencedAnswer fenced = assertInstanceOf(FencedAnswer.class, answer);
        assertFalse(fenced.fence().isDone(), "the cache holds 'cart' and has no control connection: it is waited for");
        assertEquals(2, fenced.answer().requestId());
    }

    @Test
    void schemasAndStats() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        assertInstanceOf(MasterAnswer.Bytes.class, call(ch, 1, new MasterRequest.PublishSchema(0x42, new byte[] {1, 2})));
        assertArrayEquals(new byte[] {1, 2}, ((MasterAnswer.Bytes) call(ch, 2, new MasterRequest.FetchSchema(0x42))).body());
        MasterAnswer.Error missing = (MasterAnswer.Error) call(ch, 3, new MasterRequest.FetchSchema(0x43));
        assertEquals(Status.NOT_FOUND, missing.status());
        assertEquals("no schema 43", missing.message());
        assertEquals("{\"x\":1}", new String(((MasterAnswer.Bytes) call(ch, 4, new MasterRequest.Stats())).body(),
                StandardCharsets.UTF_8));
    }

    @Test
    void rejected_isAnswered_andAFatalOneClosesAfterTheAnswer() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        MasterAnswer.Error bad = new MasterAnswer.Error(Opcodes.READ, 1, Status.BAD_REQUEST, "READ: cut short");
        ch.writeInbound(new Rejected(bad, false));
        ch.flushOutbound();
        assertEquals(bad, ch.readOutbound());
        assertTrue(ch.isActive());
        MasterAnswer.Error broken = new MasterAnswer.Error(0, 0, Status.BAD_REQUEST, "not a SessionMesh master frame");
        ch.writeInbound(new Rejected(broken, true));
        assertEquals(broken, ch.readOutbound());
        assertFalse(ch.config().isAutoRead());
        assertFalse(ch.isActive());
    }

    @Test
    void registrationRequests_areNotDataOperations() {
        EmbeddedChannel ch = channel(new ConnectionRegistration(holders));
        MasterAnswer.Error e = (MasterAnswer.Error) call(ch, 1, new MasterRequest.Ping(new byte[0]));
        assertEquals(Status.UNSUPPORTED_VERSION, e.status());
    }
}
