package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which caches the store remembers as holders of which sections, and whom a write or delete tells. */
class HolderTrackingTest {
    static final long A = 1L << 1;
    static final long B = 1L << 2;
    static final long C = 1L << 3;

    private final SessionStore store = new SessionStore(StoreLimits.DEFAULT, new ManualTicker());

    /** One call of the invalidator. */
    record Told(long holders, List<String> sections, List<Long> versions, Fence previous) {
    }

    /** Records every call; its fences never finish unless the test says so. */
    static final class Recorder implements Invalidator {
        final List<Told> calls = new ArrayList<>();
        boolean pending = true;

        @Override
        public Fence invalidate(String sessionId, long holders, String[] sections, long[] versions, Fence previous) {
            calls.add(new Told(holders, List.of(sections), Arrays.stream(versions).boxed().toList(), previous));
            Fence f = new Fence();
            if (!pending) {
                f.arm();
            }
            return f;
        }
    }

    private final Recorder told = new Recorder();

    static SectionDelta set(String section, String key, String value) {
        return new SectionDelta(section, Map.of(key, value.getBytes(StandardCharsets.UTF_8)), List.of());
    }

    SessionStore.Written write(String id, long writer, SectionDelta... deltas) {
        return store.write(new WriteRequest(id, List.of(deltas)), writer, told);
    }

    void read(String id, long reader, String... sections) {
        store.read(new ReadRequest(id, List.of(sections)), reader);
    }

    @Test
    void aWrite_tellsTheOtherReadersOfItsSections_once() {
        told.pending = false;
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"));
        read(id, A, "cart");
        read(id, C, "cart");
        SessionStore.Written w = write(id, B, set("cart", "k", "2"));
        assertEquals(1, told.calls.size());
        assertEquals(A | C, told.calls.get(0).holders());
        assertEquals(List.of("cart"), told.calls.get(0).sections());
        assertEquals(List.of(2L), told.calls.get(0).versions());
        assertTrue(w.fence().isDone());
        // A and C were told and are no holders any more; B, the writer, is the only one
        assertNull(write(id, B, set("cart", "k", "3")).fence(), "the writer alone holds it: nothing to wait for");
        assertEquals(1, told.calls.size());
        write(id, A, set("cart", "k", "4"));
        assertEquals(B, told.calls.get(1).holders(), "the last writer holds what it wrote");
    }

    @Test
    void holdersOfOtherSections_andAnonymousReaders_areNotTold() {
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"), set("profile", "k", "1"));
        read(id, A, "profile");
        store.read(new ReadRequest(id, List.of("cart")));
        assertNull(write(id, B, set("cart", "k", "2")).fence());
        assertTrue(told.calls.isEmpty());
    }

    @Test
    void aReaderOfAnAbsentSection_isToldWhenItIsCreated() {
        told.pending = false;
        String id = store.create().id();
        read(id, A, "offer");
        write(id, B, set("offer", "rate", "7.5"));
        assertEquals(A, told.calls.get(0).holders());
        assertEquals(List.of(1L), told.calls.get(0).versions());
    }

    @Test
    void aTouch_tellsNobody() {
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"));
        read(id, A, "cart");
        store.touch(id);
        assertTrue(told.calls.isEmpty());
    }

    @Test
    void aDelete_tellsEveryHolderButTheDeleter_thatTheSessionIsGone() {
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"), set("profile", "k", "1"));
        read(id, A, "cart");
        read(id, B, "profile");
        read(id, C, "absent");
        Fence f = store.delete(id, B, told);
        assertEquals(A | C, told.calls.get(0).holders());
        assertTrue(told.calls.get(0).sections().isEmpty());
        assertTrue(f != null && !f.isDone(), "the delete waits for A and C");
    }

    @Test
    void aWriteAfterOneStillWaiting_waitsForIt_evenWithNobodyToTell() {
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"));
        read(id, A, "cart");
        Fence first = write(id, B, set("cart", "k", "2")).fence();
        assertTrue(first != null && !first.isDone());
        // nobody else holds "profile", but the cart write is not acknowledged yet: this one must not overtake it
        write(id, B, set("profile", "k", "1"));
        assertEquals(2, told.calls.size());
        assertEquals(0, told.calls.get(1).holders());
        assertSame(first, told.calls.get(1).previous());
    }

    @Test
    void aWriterInTheSharedSlot_tellsTheRestOfTheSharedGroup() {
        told.pending = false;
        String id = store.create().id();
        write(id, 0, set("cart", "k", "1"));
        read(id, HolderRegistry.SHARED_BIT, "cart");
        write(id, HolderRegistry.SHARED_BIT, set("cart", "k", "2"));
        assertEquals(HolderRegistry.SHARED_BIT, told.calls.get(0).holders(),
                "another member of the shared group may hold it: the registry skips the writer itself");
    }
}
