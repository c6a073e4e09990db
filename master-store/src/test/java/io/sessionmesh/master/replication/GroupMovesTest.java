package io.sessionmesh.master.replication;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.StoreSnapshot;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A session taken out of one store for a move, carried as a record, adopted by another; the group state in snapshots. */
class GroupMovesTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private SessionStore store() {
        return new SessionStore(StoreLimits.builder().build(), Ticker.WALL);
    }

    @Test
    void aSessionTakenForAMoveIsAdoptedWholeAndOnlyOnce() throws Exception {
        SessionStore from = store();
        String id = from.create(Duration.ofMinutes(5)).id();
        from.write(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[]{42}), List.of()))));
        from.schemas().publish(7L, new byte[]{1, 2});
        long now = System.currentTimeMillis();

        SessionStore.Taken taken = from.takeForMove(id, Invalidator.NONE, now);
        assertEquals(id, taken.id());
        assertEquals(0, from.sessionCount(), "the session left the old store");
        assertNull(from.takeForMove(id, Invalidator.NONE, now), "taken once");
        assertThrows(io.sessionmesh.master.store.StoreException.class, () -> from.read(new ReadRequest(id, List.of("cart"))));

        SessionStore to = store();
        byte[] body = StoreSnapshot.Import.of(StoreSnapshot.moveBody(2, Map.of(7L, new byte[]{1, 2}),
                List.of(StoreSnapshot.record(taken, codec)))).records();
        assertEquals(1, StoreSnapshot.adoptAll(to, body, codec, now));
        assertArrayEquals(new byte[]{42}, to.read(new ReadRequest(id, List.of("cart"))).toReadResult().section("cart").orElseThrow()
                .attributes().get("n"));
        assertEquals(1, to.read(new ReadRequest(id, List.of("cart"))).toReadResult().section("cart").orElseThrow().version());
        assertArrayEquals(new byte[]{1, 2}, to.schemas().fetch(7L));

        // the same batch again (a new leader of the old group sends it again) changes nothing: later writes stay
        to.write(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[]{43}), List.of()))));
        assertEquals(0, StoreSnapshot.adoptAll(to, body, codec, now));
        assertArrayEquals(new byte[]{43}, to.read(new ReadRequest(id, List.of("cart"))).toReadResult().section("cart").orElseThrow()
                .attributes().get("n"));
        assertEquals(2, to.read(new ReadRequest(id, List.of("cart"))).toReadResult().section("cart").orElseThrow().version());
    }

    @Test
    void theMapAndTheOutboxSurviveASnapshot() throws Exception {
        GroupMoves moves = new GroupMoves(Set.of("10.0.0.1:7400"));
        GroupMap map = GroupMap.first(List.of(List.of("10.0.0.1:7400")), 64).adding(List.of("10.0.0.2:7400"));
        assertTrue(moves.apply(map));
        assertFalse(moves.apply(GroupMap.first(List.of(List.of("10.0.0.1:7400")), 64)), "an older map is not taken");
        moves.add(new GroupMoves.Outgoing("s1", "10.0.0.2:7400", "record".getBytes(StandardCharsets.UTF_8)));
        assertEquals("10.0.0.1:7400", moves.selfName(map));
        assertTrue(moves.isLeaving("s1"));

        SessionStore store = store();
        store.create(Duration.ofMinutes(5));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            StoreSnapshot.write(store, out, codec, moves.encode());
        }
        GroupMoves loaded = new GroupMoves(Set.of("10.0.0.1:7400"));
        byte[][] state = {null};
        SessionStore restored = store();
        assertEquals(1, StoreSnapshot.read(restored, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), codec,
                b -> state[0] = b));
        loaded.load(state[0]);
        assertEquals(map, loaded.map());
        assertTrue(loaded.isLeaving("s1"));
        assertEquals("10.0.0.2:7400", loaded.nextOut(10, 1 << 20).get(0).target());
        loaded.handed(List.of("s1"));
        assertEquals(0, loaded.outboxSize());
    }
}
