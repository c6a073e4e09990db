package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.registry.LifecycleEvent;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sessionmesh.master.store.HolderTrackingTest.A;
import static io.sessionmesh.master.store.HolderTrackingTest.B;
import static io.sessionmesh.master.store.HolderTrackingTest.set;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CREATE with the application's id and RENAME (PROTOCOL.md 3.2): the id is made exactly, CONFLICT only while a live
 * session has it; a rename moves everything of the session atomically, the first of two renames of one id wins, the idle
 * clock restarts, the caches that hold the old id are told as for a DELETE, and "log out everywhere" follows the new id.
 */
class SessionRenameTest {
    private static final String ID = "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c";
    private static final String NEW = "9f3a6c1e-7b2d-4e8f-a0c5-1d2e3f4a5b6c";
    private static final String OTHER = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b";

    private final ManualTicker ticker = new ManualTicker();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
    private final List<LifecycleEvent> events = new ArrayList<>();
    private final HolderTrackingTest.Recorder told = new HolderTrackingTest.Recorder();

    SessionRenameTest() {
        store.recordLifecycle(events::add, "m1");
    }

    private StoreException refused(Runnable r) {
        return assertThrows(StoreException.class, r::run);
    }

    private EncodedReadResult read(String id, String... sections) {
        return store.read(new ReadRequest(id, List.of(sections)));
    }

    private SessionStore.Renamed rename(String oldId, String newId, Duration idle) {
        return store.rename(oldId, newId, idle, 0, Invalidator.NONE);
    }

    @Test
    void createWithId_makesExactlyThatId() {
        SessionStore.CreatedSession created = store.createWithId(ID, Duration.ofMinutes(10), "alice", "10.0.0.7");
        assertEquals(ID, created.id());
        assertEquals(Duration.ofMinutes(10), created.idleTimeout());
        assertEquals("alice", store.describe(ID).principal());
        assertEquals(LifecycleEvent.Kind.CREATED, events.get(0).kind());
        assertEquals(ID, events.get(0).sessionId());
    }

    @Test
    void createWithId_ofALiveSession_conflictWithoutTheId() {
        store.createWithId(ID, null, null, null);
        StoreException e = refused(() -> store.createWithId(ID, null, "mallory", null));
        assertEquals(Status.CONFLICT, e.status());
        assertFalse(e.getMessage().contains(ID), e.getMessage());
        assertNull(store.describe(ID).principal(), "the live session is untouched");
    }

    @Test
    void createWithId_ofAnExpiredOrDeletedSession_makesItAgain() {
        store.createWithId(ID, Duration.ofSeconds(1), "alice", null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        ticker.advance(Duration.ofSeconds(2)); // expired, not yet swept
        store.createWithId(ID, null, "bob", null);
        assertEquals(0, read(ID, "cart").sections().get(0).version(), "a new, empty session");
        assertEquals("bob", store.describe(ID).principal());
        store.delete(ID);
        assertEquals(ID, store.createWithId(ID, null, null, null).id());
    }

    /**
     * On a replica of a group, expiry decides nothing for CREATE with an id or RENAME: a session's last use differs
     * between replicas (reads reach the leader only), so only the log's removals count, and every replica applies an
     * entry alike. An expired session there keeps its id until the leader's EXPIRE.
     */
    @Test
    void onAReplica_theLogDecides_notExpiry() {
        store.removeOnlyThroughTheLog();
        store.create(ID, Duration.ofSeconds(1), ticker.millis(), "alice", null);
        store.create(OTHER, Duration.ofSeconds(1), ticker.millis(), null, null);
        ticker.advance(Duration.ofSeconds(2)); // both expired here; the leader may have seen them read since
        long later = ticker.millis();

        assertEquals(Status.CONFLICT, refused(() -> store.create(ID, null, later, "bob", null)).status(),
                "an expired session's id was taken over on a replica");
        store.rename(OTHER, NEW, null, 0, Invalidator.NONE, later); // the leader found OTHER live and proposed it
        assertEquals(0, read(NEW, "cart").sections().get(0).version(), "the renamed session is there (else NOT_FOUND)");
        assertEquals(Status.CONFLICT, refused(() -> store.rename(NEW, ID, null, 0, Invalidator.NONE, later)).status(),
                "a rename onto an expired session's id removed it on a replica");
        assertTrue(events.stream().noneMatch(e -> e.kind() == LifecycleEvent.Kind.EXPIRED),
                "a replica removed a session as expired outside the log: " + events);
    }

    @Test
    void rename_movesSectionsVersionsPrincipalAndTimes() {
        store.createWithId(ID, Duration.ofMinutes(10), "alice", null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "2"), set("user", "n", "x"))));
        SessionStore.Description before = store.describe(ID);

        SessionStore.Renamed renamed = rename(ID, NEW, null);

        assertEquals(Duration.ofMinutes(10).toMillis(), renamed.times().idleTimeoutMillis());
        EncodedReadResult r = read(NEW, "cart", "user");
        assertEquals(2, r.sections().get(0).version());
        assertEquals(1, r.sections().get(1).version());
        SessionStore.Description after = store.describe(NEW);
        assertEquals("alice", after.principal());
        assertEquals(before.createdAt(), after.createdAt());
        assertEquals(before.idleTimeout(), after.idleTimeout());
        assertNull(store.describe(ID));
        assertEquals(Status.NOT_FOUND, refused(() -> read(ID, "cart")).status());
        assertEquals(1, store.sessionCount());
    }

    @Test
    void secondRenameOfTheOldId_notFound_theFirstWins() {
        store.createWithId(ID, null, null, null);
        rename(ID, NEW, null);
        assertEquals(Status.NOT_FOUND, refused(() -> rename(ID, OTHER, null)).status());
        assertNotNull(store.describe(NEW));
        assertNull(store.describe(OTHER));
    }

    @Test
    void renameOntoALiveSession_conflict_andNothingMoves() {
        store.createWithId(ID, null, null, null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        store.createWithId(NEW, null, null, null);
        StoreException e = refused(() -> rename(ID, NEW, null));
        assertEquals(Status.CONFLICT, e.status());
        assertFalse(e.getMessage().contains(NEW), e.getMessage());
        assertEquals(1, read(ID, "cart").sections().get(0).version());
        assertEquals(0, read(NEW, "cart").sections().get(0).version());
    }

    @Test
    void renameOntoAnExpiredSession_takesTheId() {
        store.createWithId(NEW, Duration.ofSeconds(1), null, null);
        store.createWithId(ID, Duration.ofMinutes(5), null, null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        ticker.advance(Duration.ofSeconds(2));
        rename(ID, NEW, null);
        assertEquals(1, read(NEW, "cart").sections().get(0).version());
    }

    @Test
    void timeoutOnly_keepsTheIdAndData_andChangesTheIdleTimeout() {
        store.createWithId(ID, Duration.ofMinutes(5), null, null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        SessionStore.Renamed renamed = rename(ID, ID, Duration.ofSeconds(30));
        assertEquals(30_000, renamed.times().idleTimeoutMillis());
        assertEquals(30_000, store.describe(ID).idleTimeout());
        assertEquals(1, read(ID, "cart").sections().get(0).version());
        ticker.advance(Duration.ofSeconds(31));
        assertEquals(Status.NOT_FOUND, refused(() -> read(ID, "cart")).status(), "the master expires it by the new timeout");
    }

    @Test
    void rename_restartsTheIdleClock() {
        store.createWithId(ID, Duration.ofSeconds(10), null, null);
        ticker.advance(Duration.ofSeconds(8));
        rename(ID, NEW, null);
        ticker.advance(Duration.ofSeconds(8)); // 16 s after creation, 8 after the rename
        assertEquals(0, read(NEW, "cart").sections().get(0).version());
    }

    @Test
    void rename_timeoutOutOfRange_badRequest() {
        store.createWithId(ID, null, null, null);
        assertEquals(Status.BAD_REQUEST, refused(() -> rename(ID, NEW, Duration.ofDays(2))).status());
        assertNotNull(store.describe(ID), "nothing applied");
    }

    @Test
    void rename_tellsTheHoldersOfTheOldIdButTheRenamer_asADeleteDoes() {
        told.pending = false;
        store.createWithId(ID, null, null, null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        store.read(new ReadRequest(ID, List.of("cart")), A);
        store.read(new ReadRequest(ID, List.of("profile")), B);
        SessionStore.Renamed renamed = store.rename(ID, NEW, null, B, told);
        assertEquals(1, told.calls.size());
        assertEquals(A, told.calls.get(0).holders(), "every holder but the renamer");
        assertEquals(List.of(), told.calls.get(0).sections(), "no sections: the old id is gone");
        assertTrue(renamed.fence().isDone());
        // the renamed session has no holders yet: a write tells nobody
        assertNull(store.write(new WriteRequest(NEW, List.of(set("cart", "k", "2"))), A, told).fence());
    }

    @Test
    void rename_theAnswerWaitsForTheHolders() {
        store.createWithId(ID, null, null, null);
        store.read(new ReadRequest(ID, List.of("cart")), A);
        SessionStore.Renamed renamed = store.rename(ID, NEW, null, 0, told);
        assertNotNull(renamed.fence());
        assertFalse(renamed.fence().isDone(), "not acknowledged before A confirmed or lost its lease");
    }

    @Test
    void logoutAfterRename_deletesTheRenamedSession() {
        store.createWithId(ID, null, "alice", null);
        rename(ID, NEW, null);
        SessionStore.LoggedOut out = store.logout("alice", 0, Invalidator.NONE);
        assertEquals(1, out.sessions());
        assertNull(store.describe(NEW));
        assertEquals(0, store.sessionCount());
    }

    @Test
    void rename_theRegistrySeesTheOldIdEndAndTheNewOneStart() {
        store.createWithId(ID, null, "alice", "10.0.0.7");
        rename(ID, NEW, null);
        List<String> seen = events.stream().map(e -> e.kind() + "@" + e.version() + ":" + (e.sessionId().equals(ID) ? "old" : "new")).toList();
        assertEquals(List.of("CREATED@1:old", "DELETED@2:old", "CREATED@1:new"), seen);
        LifecycleEvent started = events.get(2);
        assertEquals("alice", started.principal());
        assertEquals("10.0.0.7", started.host());
        assertEquals(events.get(0).createdAtMillis(), started.createdAtMillis(), "the session's creation time");
    }

    @Test
    void rename_budgetUnchanged_andTheOldSessionPurgeable() {
        store.createWithId(ID, null, "alice", null);
        store.write(new WriteRequest(ID, List.of(set("cart", "k", "1"))));
        long sections = store.budget().sectionBytes();
        rename(ID, NEW, null);
        assertEquals(sections, store.budget().sectionBytes());
        store.delete(NEW);
        assertEquals(0, store.budget().sectionBytes());
        assertEquals(0, store.sessionCount());
    }
}
