package io.sessionmesh.master.server;

import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** REGISTER, INVALIDATE and the write's wait, over real TCP against an in-process master (lease 400 ms). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvalidationProtocolIT {
    static final long LEASE_MS = 400;
    static final AtomicLong SEQUENCE = new AtomicLong();
    static MasterServer master;
    static EventLoopGroup group;

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "io-threads", "2", "lease", LEASE_MS + "ms")));
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() {
        master.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** A connection whose pushes land in a queue, confirmed only when the test says so. */
    static final class Holder {
        record Push(int id, Invalidation invalidation) {
        }

        final BlockingQueue<Push> pushes = new LinkedBlockingQueue<>();
        final MasterConnection connection;
        final MasterAnswer.Registered registration;
        private Push last;

        Holder(UUID id, boolean control) throws Exception {
            this(id, control, control ? SEQUENCE.incrementAndGet() : 0);
        }

        Holder(UUID id, boolean control, long sequence) throws Exception {
            connection = MasterConnection.connect(group, master.address(), MasterConnectionOptions.DEFAULT,
                    (c, pushId, invalidation) -> pushes.add(new Push(pushId, invalidation))).get(5, TimeUnit.SECONDS);
            registration = connection.register(id, control, sequence).get(5, TimeUnit.SECONDS);
        }

        Invalidation nextPush() throws InterruptedException {
            last = pushes.poll(5, TimeUnit.SECONDS);
            assertNotNull(last, "no invalidation came");
            return last.invalidation();
        }

        void confirm() {
            connection.confirmPush(last.id());
        }
    }

    static MasterConnection anonymous() throws Exception {
        return MasterConnection.connect(group, master.address(), MasterConnectionOptions.DEFAULT, null).get(5, TimeUnit.SECONDS);
    }

    static SectionDelta set(String section, String value) {
        return new SectionDelta(section, Map.of("k", value.getBytes(StandardCharsets.UTF_8)), List.of());
    }

    @Test
    void aWriteIsAcknowledged_onlyAfterTheOtherHolderConfirms() throws Exception {
        Holder a = new Holder(UUID.randomUUID(), true);
        assertEquals(LEASE_MS, a.registration.leaseMillis());
        try (MasterConnection writer = anonymous()) {
            String id = writer.create(null).get().sessionId();
            writer.write(new WriteRequest(id, List.of(set("cart", "1")))).get();
            a.connection.read(new ReadRequest(id, List.of("cart"))).get(5, TimeUnit.SECONDS);

            a.connection.ping(new byte[] {1}).get(5, TimeUnit.SECONDS); // renews: the lease runs 400 ms from here
            long start = System.nanoTime();
            CompletableFuture<WriteResult> w = writer.write(new WriteRequest(id, List.of(set("cart", "2")))).thenApply(MasterAnswer.Write::result);
            Invalidation inv = a.nextPush();
            assertEquals(id, inv.sessionId());
            assertEquals(List.of("cart"), inv.sections());
            assertEquals(2, inv.versions()[0]);
            // A holds a valid lease and has not confirmed: the write must not be acknowledged yet
            Thread.sleep(LEASE_MS / 4);
            assertFalse(w.isDone(), "acknowledged before the holder confirmed or its lease ran out");
            a.confirm();
            w.get(5, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < LEASE_MS, "the confirmation, not the lease, released the write (" + ms + " ms)");
            assertEquals(2L, w.get(5, TimeUnit.SECONDS).versions().get("cart"));
        } finally {
            a.connection.close();
        }
    }

    @Test
    void aHolderThatNeverConfirms_holdsTheWriteUntilItsLeaseRunsOut() throws Exception {
        Holder silent = new Holder(UUID.randomUUID(), true);
        try (MasterConnection writer = anonymous()) {
            String id = writer.create(null).get().sessionId();
            silent.connection.read(new ReadRequest(id, List.of("cart"))).get(5, TimeUnit.SECONDS);
            long before = master.stats().get("invalidation_lease_expiries");
            long start = System.nanoTime();
            WriteResult r = writer.write(new WriteRequest(id, List.of(set("cart", "1")))).get(5, TimeUnit.SECONDS).result();
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1L, r.versions().get("cart"));
            assertNotNull(silent.nextPush(), "it was told all the same");
            assertTrue(ms < LEASE_MS + 1000, "waited " + ms + " ms, past the lease");
            assertEquals(before + 1, master.stats().get("invalidation_lease_expiries"));
        } finally {
            silent.connection.close();
        }
    }

    @Test
    void readsOnADataConnection_makeTheSidecarAHolder_andItsOwnWritesDoNotTellIt() throws Exception {
        UUID id = UUID.randomUUID();
        Holder control = new Holder(id, true);
        Holder data = new Holder(id, false);
        assertEquals(control.registration.slot(), data.registration.slot());
        try (MasterConnection other = anonymous()) {
            String sid = other.create(null).get().sessionId();
            data.connection.read(new ReadRequest(sid, List.of("a"))).get(5, TimeUnit.SECONDS);
            data.connection.write(new WriteRequest(sid, List.of(set("a", "mine")))).get(5, TimeUnit.SECONDS);
            assertNull(control.pushes.poll(200, TimeUnit.MILLISECONDS), "told of its own write");
            CompletableFuture<MasterAnswer.Write> w = other.write(new WriteRequest(sid, List.of(set("a", "theirs"))));
            Invalidation inv = control.nextPush();
            assertEquals(2, inv.versions()[0]);
            control.confirm();
            w.get(5, TimeUnit.SECONDS);
            // a delete is a push with no sections, and waits too
            data.connection.read(new ReadRequest(sid, List.of("a"))).get(5, TimeUnit.SECONDS);
            CompletableFuture<Void> d = other.delete(sid);
            assertTrue(control.nextPush().sessionGone());
            control.confirm();
            d.get(5, TimeUnit.SECONDS);
        } finally {
            control.connection.close();
            data.connection.close();
        }
    }

    @Test
    void registerErrors_areAnsweredAndTheConnectionGoesOn() throws Exception {
        try (MasterConnection c = anonymous()) {
            ExecutionException bad = assertThrows(ExecutionException.class, () -> c.send(new MasterRequest.Prepared(Opcodes.REGISTER, new byte[3])).get(5, TimeUnit.SECONDS));
            assertEquals(Status.BAD_REQUEST, MasterException.statusOf(bad));
            c.register(UUID.randomUUID(), false, 0).get(5, TimeUnit.SECONDS);
            ExecutionException other = assertThrows(ExecutionException.class,
                    () -> c.register(UUID.randomUUID(), false, 0).get(5, TimeUnit.SECONDS));
            assertEquals(Status.BAD_REQUEST, MasterException.statusOf(other));
            assertTrue(other.getCause().getMessage().contains("already registered"), other.getMessage());
            assertEquals(2, c.ping(new byte[] {1, 2}).get(5, TimeUnit.SECONDS).payload().length, "the connection still works");
        }
    }

    @Test
    void aLateRegisterOfAControlConnectionGivenUp_isRefused_andThePushesStayWithTheNewest() throws Exception {
        UUID id = UUID.randomUUID();
        Holder newest = new Holder(id, true, 7);
        try (MasterConnection late = anonymous(); MasterConnection writer = anonymous()) {
            // the REGISTER of control connection 6, which the sidecar gave up, arrives after that of 7
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> late.register(id, true, 6).get(5, TimeUnit.SECONDS));
            assertEquals(Status.BAD_REQUEST, MasterException.statusOf(refused));
            assertTrue(refused.getCause().getMessage().contains("superseded"), refused.getMessage());
            ExecutionException zero = assertThrows(ExecutionException.class,
                    () -> writer.register(UUID.randomUUID(), true, 0).get(5, TimeUnit.SECONDS));
            assertEquals(Status.BAD_REQUEST, MasterException.statusOf(zero));

            String sid = writer.create(null).get().sessionId();
            newest.connection.read(new ReadRequest(sid, List.of("a"))).get(5, TimeUnit.SECONDS);
            CompletableFuture<MasterAnswer.Write> w = writer.write(new WriteRequest(sid, List.of(set("a", "1"))));
            assertEquals(sid, newest.nextPush().sessionId());
            newest.confirm();
            w.get(5, TimeUnit.SECONDS);
        } finally {
            newest.connection.close();
        }
    }
}
