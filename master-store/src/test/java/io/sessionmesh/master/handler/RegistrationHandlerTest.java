package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** REGISTER and PING: who a connection belongs to, control connections, and lease grants. */
class RegistrationHandlerTest {
    static final long LEASE_MS = 2000;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HolderRegistry holders = new HolderRegistry(LEASE_MS, timer);
    private final ConnectionRegistration registration = new ConnectionRegistration(holders);
    private final ServerCounters counters = new ServerCounters();
    private final EmbeddedChannel ch = new EmbeddedChannel(new RegistrationHandler(holders, registration,
            new PushHandler(registration, holders.counters(), counters), counters));

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private MasterAnswer call(int id, MasterRequest<?> request) {
        ch.writeInbound(new Received(id, request));
        ch.flushOutbound(); // answers are written, not flushed: the encoder flushes at the end of each read
        return ch.readOutbound();
    }

    @Test
    void controlRegister_answersTheLeaseAndSlot_andGrantsTheLease() {
        UUID id = UUID.randomUUID();
        long before = System.nanoTime();
        MasterAnswer.Registered r = (MasterAnswer.Registered) call(1, new MasterRequest.Register(id, true, 1));
        assertEquals(1, r.requestId());
        assertEquals(LEASE_MS, r.leaseMillis());
        assertEquals(registration.holder().slot(), r.slot());
        assertNotNull(registration.pushes(), "a control connection gets a push table");
        long granted = registration.holder().grantedUntil() - before;
        assertTrue(granted >= TimeUnit.MILLISECONDS.toNanos(LEASE_MS), "granted " + granted + " ns");
    }

    @Test
    void pingOnTheControlConnection_renewsTheLease_andEchoes() {
        call(1, new MasterRequest.Register(UUID.randomUUID(), true, 1));
        long beforePing = System.nanoTime();
        MasterAnswer.Pong pong = (MasterAnswer.Pong) call(2, new MasterRequest.Ping(new byte[] {7, 8}));
        assertArrayEquals(new byte[] {7, 8}, pong.payload());
        assertEquals(LEASE_MS, pong.grantedMillis(), "the answer says it granted the lease");
        assertTrue(registration.holder().grantedUntil() - beforePing >= TimeUnit.MILLISECONDS.toNanos(LEASE_MS),
                "the ping's answer grants the lease from when it was handled");
    }

    @Test
    void pingOnAnotherConnection_onlyEchoes_andSaysItGrantedNothing() {
        call(1, new MasterRequest.Register(UUID.randomUUID(), false, 0));
        long granted = registration.holder().grantedUntil();
        MasterAnswer.Pong pong = (MasterAnswer.Pong) call(2, new MasterRequest.Ping(new byte[0]));
        assertEquals(0, pong.grantedMillis());
        assertFalse(pong.granted());
        assertEquals(granted, registration.holder().grantedUntil());
        assertNull(registration.pushes());
    }

    /**
     * A connection whose control registration a newer one superseded (the sidecar reconnected, or someone else
     * registered as this holder) must not take its ping answers for lease renewals: the pushes go elsewhere now.
     */
    @Test
    void pingsOnASupersededControlConnection_grantNothing_andSaySo() {
        UUID id = UUID.randomUUID();
        call(1, new MasterRequest.Register(id, true, 1));
        ConnectionRegistration newer = new ConnectionRegistration(holders);
        EmbeddedChannel newerChannel = new EmbeddedChannel(new RegistrationHandler(holders, newer,
                new PushHandler(newer, holders.counters(), counters), counters));
        newerChannel.writeInbound(new Received(1, new MasterRequest.Register(id, true, 2)));
        newerChannel.flushOutbound();
        assertInstanceOf(MasterAnswer.Registered.class, newerChannel.readOutbound());
        MasterAnswer.Pong pong = (MasterAnswer.Pong) call(2, new MasterRequest.Ping(new byte[] {1}));
        assertEquals(0, pong.grantedMillis(), "the old control connection is told it renewed nothing");
    }

    @Test
    void onePeerMayHoldAtMostMaxHoldersPerPeer_thenRegisterIsUnavailable() {
        HolderRegistry two = new HolderRegistry(LEASE_MS, 2, timer);
        List<MasterAnswer> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ConnectionRegistration r = new ConnectionRegistration(two);
            EmbeddedChannel c = new EmbeddedChannel(new RegistrationHandler(two, r,
                    new PushHandler(r, two.counters(), counters), counters));
            c.writeInbound(new Received(1, new MasterRequest.Register(UUID.randomUUID(), false, 0)));
            c.flushOutbound();
            answers.add(c.readOutbound());
        }
        assertInstanceOf(MasterAnswer.Registered.class, answers.get(0));
        assertInstanceOf(MasterAnswer.Registered.class, answers.get(1));
        MasterAnswer.Error third = (MasterAnswer.Error) answers.get(2);
        assertEquals(Status.UNAVAILABLE, third.status());
        assertTrue(third.message().contains("already has 2 holders registered"), third.message());
    }

    @Test
    void registerErrors_nameTheProblem() {
        UUID id = UUID.randomUUID();
        call(1, new MasterRequest.Register(id, true, 5));
        MasterAnswer.Error other = (MasterAnswer.Error) call(2, new MasterRequest.Register(UUID.randomUUID(), false, 0));
        assertEquals(Status.BAD_REQUEST, other.status());
        assertEquals("REGISTER: this connection is already registered as another holder", other.message());
        MasterAnswer.Error again = (MasterAnswer.Error) call(3, new MasterRequest.Register(id, true, 6));
        assertEquals("REGISTER: this connection is already a control connection", again.message());

        assertEquals(2, counters.errors.sum(), "refused REGISTERs count as errors");
        ConnectionRegistration late = new ConnectionRegistration(holders);
        EmbeddedChannel lateChannel = new EmbeddedChannel(new RegistrationHandler(holders, late,
                new PushHandler(late, holders.counters(), counters), counters));
        lateChannel.writeInbound(new Received(1, new MasterRequest.Register(id, true, 4)));
        lateChannel.flushOutbound();
        MasterAnswer.Error superseded = lateChannel.readOutbound();
        assertTrue(superseded.message().contains("control sequence 4 is superseded"), superseded.message());
    }

    @Test
    void otherRequestsPassOn_andClosingDisconnectsTheHolder() {
        call(1, new MasterRequest.Register(UUID.randomUUID(), true, 1));
        ch.writeInbound(new Received(2, new MasterRequest.Stats()));
        assertInstanceOf(Received.class, ch.readInbound());
        var holder = registration.holder();
        assertEquals(1, holder.connections());
        assertTrue(holder.isControl(registration.pushes()));
        ch.close();
        assertEquals(0, holder.connections());
        assertTrue(!holder.isControl(registration.pushes()), "its control connection is gone");
    }
}
