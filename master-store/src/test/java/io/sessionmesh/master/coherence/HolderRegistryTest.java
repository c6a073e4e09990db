package io.sessionmesh.master.coherence;

import io.sessionmesh.wire.protocol.Invalidation;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HolderRegistryTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void sixtyThreeHoldersGetABitOfTheirOwn_theRestShareOne() {
        HolderRegistry r = new HolderRegistry(2000, timer);
        Set<Long> bits = new HashSet<>();
        for (int i = 0; i < HolderRegistry.OWN_SLOTS; i++) {
            bits.add(Holders.connect(r, UUID.randomUUID()).bit());
        }
        assertEquals(HolderRegistry.OWN_SLOTS, bits.size());
        assertFalse(bits.contains(HolderRegistry.SHARED_BIT));
        Holder extra = Holders.connect(r, UUID.randomUUID());
        assertEquals(HolderRegistry.SHARED_BIT, extra.bit());
        assertEquals(64, r.holders().size());
    }

    @Test
    void aHolderKeepsItsSlotAcrossConnections_andLosesItOnlyWithoutConnectionOrLease() {
        HolderRegistry r = new HolderRegistry(2000, timer);
        UUID id = UUID.randomUUID();
        Holder h = Holders.connect(r, id);
        assertSame(h, Holders.connect(r, id), "a second connection of the same sidecar");
        r.disconnect(h);
        r.disconnect(h);
        h.granted(System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
        for (int i = 0; i < HolderRegistry.OWN_SLOTS - 1; i++) {
            Holders.connect(r, UUID.randomUUID());
        }
        Holder next = Holders.connect(r, UUID.randomUUID());
        assertEquals(HolderRegistry.SHARED_SLOT, next.slot(), "the slot of a holder whose lease runs is not given away");

        HolderRegistry r2 = new HolderRegistry(2000, timer);
        Holder gone = Holders.connect(r2, UUID.randomUUID());
        r2.disconnect(gone); // no connection, and its lease (none granted) is over
        Holder reuse = Holders.connect(r2, UUID.randomUUID());
        assertEquals(gone.slot(), reuse.slot());
        assertNotEquals(gone, reuse);
    }

    @Test
    void aHolderWithoutControlConnection_isWaitedForUntilItsLeaseRunsOut() throws Exception {
        HolderRegistry r = new HolderRegistry(2000, timer);
        Holder writer = Holders.connect(r, UUID.randomUUID());
        Holder cutOff = Holders.connect(r, UUID.randomUUID());
        Holder neverLeased = Holders.connect(r, UUID.randomUUID());
        long grantedFor = TimeUnit.MILLISECONDS.toNanos(300);
        cutOff.granted(System.nanoTime() + grantedFor);
        long start = System.nanoTime();
        Fence f = r.invalidatorFor(writer).invalidate("s", writer.bit() | cutOff.bit() | neverLeased.bit(),
                new String[] {"a"}, new long[] {2}, null);
        CountDownLatch done = new CountDownLatch(1);
        f.whenDone(done::countDown);
        assertTrue(done.await(5, TimeUnit.SECONDS));
        long waited = System.nanoTime() - start;
        assertTrue(waited >= grantedFor - TimeUnit.MILLISECONDS.toNanos(5), "acknowledged before the lease ran out: "
                + waited / 1000 + " us");
        assertEquals(2, f.leaseExpiries(), "the writer itself is not waited for");
    }

    @Test
    void invalidation_roundTripsThroughItsWireForm() {
        Invalidation inv = new Invalidation("Qm9vdHN0cmFwU2Vzc2lvbg", 1_700_000_000_000_000L, List.of("cart", "préférences"),
                new long[] {3, 9});
        io.netty.buffer.ByteBuf frame = io.netty.buffer.Unpooled.buffer();
        inv.writeTo(frame);
        assertEquals(inv.encodedSize(), frame.readableBytes());
        Invalidation back = Invalidation.readFrom(frame);
        assertEquals(inv.sessionId(), back.sessionId());
        assertEquals(inv.writeTimeMicros(), back.writeTimeMicros());
        assertEquals(inv.sections(), back.sections());
        assertEquals(List.of(3L, 9L), new ArrayList<>(java.util.Arrays.stream(back.versions()).boxed().toList()));
        frame.release();
    }

    @Test
    void aHolderIdIsBoundToThePeerThatRegisteredItFirst() throws Exception {
        HolderRegistry r = new HolderRegistry(2000, timer);
        UUID id = UUID.randomUUID();
        Holder h = r.connect(id, "cert CN=sidecar-a");
        assertSame(h, r.connect(id, "cert CN=sidecar-a"), "the same peer's second connection");
        HolderRegistry.Refused refused = org.junit.jupiter.api.Assertions.assertThrows(HolderRegistry.Refused.class,
                () -> r.connect(id, "cert CN=sidecar-b"));
        assertEquals(io.sessionmesh.wire.transport.Status.FORBIDDEN, refused.status());
        assertEquals(2, h.connections(), "the refused registration counts no connection");
        r.disconnect(h);
        r.disconnect(h);
        org.junit.jupiter.api.Assertions.assertThrows(HolderRegistry.Refused.class, () -> r.connect(id, "cert CN=sidecar-b"),
                "not even once the holder has no connection left");
    }
}
