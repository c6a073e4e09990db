package io.sessionmesh.master.replication;

import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.StoreSnapshot;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of every decoder of a group's replicated state (PROTOCOL.md 5.2, 5.3): what a replica reads
 * from its log, a snapshot, another group's GROUP_IMPORT and the directory's map. Each either reads its input or
 * refuses it with its own error (a {@link MalformedMessageException} of BAD_REQUEST, TOO_LARGE or UNSUPPORTED_VERSION, an
 * {@link IOException}, a {@link StoreException} of BAD_REQUEST or UNAVAILABLE), never anything else and never an
 * allocation beyond the bytes it was given; what it reads writes back as the same bytes. A GROUP_IMPORT body the leader's
 * check lets through is applied without an error. Seeds: ReplicatedStateFuzzTestInputs/&lt;method&gt;.
 */
class ReplicatedStateFuzzTest {
    private static final Set<Integer> REFUSALS = Set.of(Status.BAD_REQUEST, Status.UNSUPPORTED_VERSION, Status.TOO_LARGE);
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private static SessionStore store() {
        return new SessionStore(StoreLimits.builder().maxStoreBytes(64L << 20).build(), () -> 1_700_000_000_000L);
    }

    /** A log entry, single or batched ({@link ReplicaCommand#decodeAll}); each entry re-encoded reads back alike. */
    @FuzzTest(maxDuration = "2m")
    void logEntry(byte[] input) {
        List<ReplicaCommand.Entry> entries;
        try {
            entries = ReplicaCommand.decodeAll(ByteBuffer.wrap(input), codec);
        } catch (MalformedMessageException e) {
            assertTrue(REFUSALS.contains(e.status()), e::toString);
            return;
        }
        for (ReplicaCommand.Entry e : entries) {
            byte[] once = ReplicaCommand.encode(e.command(), e.time(), e.origin(), e.ticket(), codec);
            ReplicaCommand.Entry again = ReplicaCommand.decode(ByteBuffer.wrap(once), codec);
            assertArrayEquals(once, ReplicaCommand.encode(again.command(), again.time(), again.origin(), again.ticket(), codec),
                    () -> e.command().getClass().getSimpleName() + " does not read back as written");
        }
    }

    /**
     * A GROUP_IMPORT body (after its epoch): the leader's check ({@link StoreSnapshot#checkImport}) refuses it with
     * BAD_REQUEST or UNAVAILABLE, or applying it succeeds, on a store like the one that checked it.
     */
    @FuzzTest(maxDuration = "2m")
    void importBody(byte[] input) {
        SessionStore checked = store();
        try {
            StoreSnapshot.checkImport(checked, input, codec);
        } catch (StoreException e) {
            assertTrue(e.status() == Status.BAD_REQUEST || e.status() == Status.UNAVAILABLE, e::toString);
            return;
        }
        assertDoesNotThrow(() -> StoreSnapshot.adoptAll(checked, input, codec, 1_700_000_000_000L),
                "a body the leader's check let through fails when applied");
    }

    /** A snapshot file ({@link StoreSnapshot#read}) with its group state ({@link GroupMoves#load}). */
    @FuzzTest(maxDuration = "2m")
    void snapshot(byte[] input) {
        SessionStore store = store();
        GroupMoves moves = new GroupMoves(Set.of("127.0.0.1:7400"));
        try {
            byte[][] state = {new byte[0]};
            StoreSnapshot.read(store, new DataInputStream(new ByteArrayInputStream(input)), codec, b -> state[0] = b);
            moves.load(state[0]);
        } catch (IOException e) {
            return;
        } catch (MalformedMessageException e) {
            assertTrue(REFUSALS.contains(e.status()) || e.status() == Status.TOO_LARGE, e::toString);
        } catch (StoreException e) {
            // a schema or session the store's own limits refuse while loading
            assertTrue(e.status() == Status.BAD_REQUEST || e.status() == Status.UNAVAILABLE
                    || e.status() == Status.TOO_LARGE, e::toString);
        }
    }

    /** A cluster map ({@link GroupMap#decode}): refused, or written back as the same bytes. */
    @FuzzTest(maxDuration = "2m")
    void clusterMap(byte[] input) {
        GroupMap map;
        try {
            map = GroupMap.decode(input);
        } catch (MalformedMessageException e) {
            assertTrue(REFUSALS.contains(e.status()), e::toString);
            return;
        }
        assertArrayEquals(input, map.encode(), "a map does not write back as it read");
        assertEquals(map.epoch(), GroupMap.decode(map.encode()).epoch());
    }
}
