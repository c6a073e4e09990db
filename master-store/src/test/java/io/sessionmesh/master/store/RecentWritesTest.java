package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static io.sessionmesh.master.store.SessionStoreTest.set;
import static io.sessionmesh.master.store.SessionStoreTest.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write ids a store remembers (PROTOCOL.md 3.12): a write sent again is answered, not applied; another write under
 * the same id is refused; the window, the limits, and the table in a snapshot, bounded by its bytes.
 */
class RecentWritesTest {
    private final ManualTicker ticker = new ManualTicker();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
    private final io.sessionmesh.wire.transport.BinaryTransportCodec codec = new io.sessionmesh.wire.transport.BinaryTransportCodec();

    private SessionStore.Written once(WriteId id, WriteRequest w) {
        long now = store.now();
        return store.recentWrites().write(id, w, now, () -> store.write(w, 0, Invalidator.NONE, now),
                () -> store.times(w.sessionId()));
    }

    private SectionData read(String id, String section) {
        return store.read(new io.sessionmesh.wire.transport.ReadRequest(id, List.of(section))).toReadResult().sections().get(0);
    }

    @Test
    void writeSentAgain_afterAnotherWriteOfTheSameAttribute_isAnsweredWithItsVersions_andDoesNotPutTheOldValueBack() {
        String s = store.create().id();
        WriteId id = WriteId.next();
        WriteRequest mine = new WriteRequest(s, List.of(set("cart", "n", "2")));
        assertEquals(1, once(id, mine).versions()[0]);
        store.write(new WriteRequest(s, List.of(set("cart", "n", "3")))); // another client, in between
        SessionStore.Written again = once(id, mine);
        assertArrayEquals(new long[] {1}, again.versions(), "the first write's answer");
        assertEquals("3", text(read(s, "cart"), "n"), "the later write stays");
        assertEquals(2, read(s, "cart").version());
        assertEquals(1, store.recentWrites().duplicates());
        // a new id is a new write
        assertEquals(3, once(WriteId.next(), mine).versions()[0]);
    }

    @Test
    void sameIdForAnotherWrite_isConflict_andNothingIsApplied() {
        String s = store.create().id();
        WriteId id = WriteId.next();
        once(id, new WriteRequest(s, List.of(set("cart", "n", "1"))));
        StoreException e = assertThrows(StoreException.class, () -> once(id, new WriteRequest(s, List.of(set("cart", "n", "9")))));
        assertEquals(Status.CONFLICT, e.status());
        assertEquals("1", text(read(s, "cart"), "n"));
        // ids are per session: the same id on another session is another write
        String t = store.create().id();
        assertEquals(1, once(id, new WriteRequest(t, List.of(set("cart", "n", "9")))).versions()[0]);
    }

    @Test
    void refusedWrite_isNotRemembered_soSendingItAgainAppliesIt() {
        String s = store.create().id();
        WriteId id = WriteId.next();
        WriteRequest conditional = new WriteRequest(s, List.of(new SectionDelta("cart", 0, java.util.Map.of("n",
                new byte[] {1}), List.of())));
        store.write(new WriteRequest(s, List.of(set("cart", "n", "0"))));
        assertEquals(Status.CONFLICT, assertThrows(StoreException.class, () -> once(id, conditional)).status());
        assertEquals(0, store.recentWrites().size());
    }

    @Test
    void idOlderThanTheWindow_isForgotten() {
        String s = store.create(Duration.ofHours(1)).id();
        WriteId id = WriteId.next();
        WriteRequest w = new WriteRequest(s, List.of(set("cart", "n", "1")));
        once(id, w);
        ticker.advance(Duration.ofMillis(RecentWrites.WINDOW_MILLIS - 1));
        assertEquals(1, once(id, w).versions()[0], "still inside the window");
        ticker.advance(Duration.ofMillis(1));
        assertEquals(2, once(id, w).versions()[0], "past the window: a new write");
    }

    @Test
    void table_inASnapshot_comesBackWhole_andAnswersTheSameAfterTheLoad() throws IOException {
        String s = store.create().id();
        WriteId id = WriteId.next();
        WriteRequest w = new WriteRequest(s, List.of(set("cart", "n", "1"), set("user", "x", "2")));
        once(id, w);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        StoreSnapshot.write(store, new DataOutputStream(file), codec, new byte[0], store.recentWrites().encode());

        SessionStore restarted = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
        byte[][] writes = {null};
        StoreSnapshot.read(restarted, new DataInputStream(new ByteArrayInputStream(file.toByteArray())), codec, b -> { },
                b -> writes[0] = b);
        restarted.recentWrites().load(writes[0]);
        assertArrayEquals(store.recentWrites().encode(), restarted.recentWrites().encode());
        long now = restarted.now();
        SessionStore.Written again = restarted.recentWrites().write(id, w, now,
                () -> restarted.write(w, 0, Invalidator.NONE, now), () -> restarted.times(s));
        assertArrayEquals(new long[] {1, 1}, again.versions());
        assertEquals(1, restarted.read(new io.sessionmesh.wire.transport.ReadRequest(s, List.of("cart"))).toReadResult()
                .sections().get(0).version(), "not applied again");
    }

    @Test
    void encodedTable_isAsDocumented_andEveryLengthIsCheckedAgainstTheBytesLeft() {
        String s = "s1";
        store.create(s, null, store.now());
        once(new WriteId(1, 2), new WriteRequest(s, List.of(set("cart", "n", "1"))));
        byte[] b = store.recentWrites().encode();
        // format 1 | n = 1 | id "s1" | write id | digest | applied at | 1 section | version 1
        assertEquals(1 + 4 + 1 + 2 + 16 + 8 + 8 + 2 + 8, b.length);
        assertEquals(1, b[0]);
        assertEquals(1, java.nio.ByteBuffer.wrap(b, 1, 4).getInt());
        assertEquals(2, b[5]);
        RecentWrites table = new RecentWrites();
        // a count the bytes cannot hold, an id length over 128, bytes left over, a cut: refused before allocating
        byte[] lying = b.clone();
        lying[1] = 0x7f;
        assertThrows(IllegalArgumentException.class, () -> table.load(lying));
        byte[] longId = b.clone();
        longId[5] = (byte) 200;
        assertThrows(IllegalArgumentException.class, () -> table.load(longId));
        byte[] trailing = java.util.Arrays.copyOf(b, b.length + 1);
        assertThrows(IllegalArgumentException.class, () -> table.load(trailing));
        for (int cut = 1; cut < b.length; cut++) {
            byte[] shorter = java.util.Arrays.copyOf(b, cut);
            assertThrows(IllegalArgumentException.class, () -> table.load(shorter), "cut at " + cut);
        }
        assertEquals(0, table.size(), "a refused table leaves the old one");
        table.load(b);
        assertEquals(1, table.size());
        table.load(new byte[0]);
        assertEquals(0, table.size(), "a snapshot of an earlier build has none");
    }

    @Test
    void overTheCount_theOldestGoFirst_countedAsEvictedEarly() {
        RecentWrites table = new RecentWrites();
        String s = store.create(Duration.ofHours(1)).id();
        WriteRequest w = new WriteRequest(s, List.of(set("c", "n", "1")));
        SessionStore.Written written = store.write(w, 0, Invalidator.NONE, store.now());
        for (int i = 0; i < RecentWrites.MAX_ENTRIES + 10; i++) {
            table.write(new WriteId(0, i), w, store.now(), () -> written, () -> null);
        }
        assertEquals(RecentWrites.MAX_ENTRIES, table.size());
        assertEquals(10, table.evictedEarly());
        assertTrue(table.bytes() <= RecentWrites.MAX_BYTES, table.bytes() + " bytes");
        int[] applied = {0};
        table.write(new WriteId(0, 0), w, store.now(), () -> {
            applied[0]++;
            return written;
        }, () -> null);
        assertEquals(1, applied[0], "the oldest id was forgotten");
    }
}
