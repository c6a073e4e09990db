package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.registry.LifecycleEvent;
import io.sessionmesh.registry.LifecycleEvent.Kind;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session's principal and the lifecycle events the store sends the registry: one per step, versions rising by one,
 * kept through snapshots and moves; "log out everywhere" on one store.
 */
class SessionLifecycleTest {
    private final ManualTicker ticker = new ManualTicker();
    /** The wall clock just before the store reads it (its creation times are its ticker's plus that offset). */
    private final long wallBeforeStore = System.currentTimeMillis();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
    private final List<LifecycleEvent> events = new ArrayList<>();
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    SessionLifecycleTest() {
        store.recordLifecycle(events::add, "m1");
    }

    private String create(String principal) {
        return store.create(null, id -> true, principal, "10.0.0.7").id();
    }

    private List<String> kindsAndVersions() {
        return events.stream().map(e -> e.kind() + "@" + e.version()).toList();
    }

    @Test
    void everyStepIsOneEventWithTheNextVersion() {
        // Taken when the store was made, not here: a loaded machine may run this method well after the constructor,
        // and the store's clock is its manual ticker (unmoved) plus the wall clock's offset at construction.
        long before = wallBeforeStore;
        String id = create("alice");
        store.setPrincipal(id, "bob");
        store.setPrincipal(id, null);
        store.delete(id);
        assertEquals(List.of("CREATED@1", "PRINCIPAL_CHANGED@2", "PRINCIPAL_CHANGED@3", "DELETED@4"), kindsAndVersions());
        LifecycleEvent created = events.get(0);
        assertEquals(id, created.sessionId());
        assertEquals("alice", created.principal());
        assertEquals("10.0.0.7", created.host());
        assertEquals("m1", created.owner());
        assertTrue(created.createdAtMillis() >= before - 5 && created.createdAtMillis() <= System.currentTimeMillis() + 5,
                "creation time is on the wall clock, though the store's ticker is not: " + created.createdAtMillis());
        assertEquals("bob", events.get(1).principal());
        assertNull(events.get(2).principal());
    }

    @Test
    void expiryIsRecordedAsExpired() {
        String id = store.create(Duration.ofSeconds(1), c -> true, "carol", null).id();
        ticker.advance(Duration.ofSeconds(5));
        store.expireDue();
        assertEquals(List.of("CREATED@1", "EXPIRED@2"), kindsAndVersions());
        assertEquals(id, events.get(1).sessionId());
        assertEquals("carol", events.get(1).principal());
    }

    @Test
    void logoutDeletesEverySessionOfThePrincipalAndNoOther() {
        String a1 = create("alice");
        String a2 = create("alice");
        String b = create("bob");
        String none = create(null);
        events.clear();
        SessionStore.LoggedOut out = store.logout("alice", 0, Invalidator.NONE);
        assertEquals(2, out.sessions());
        assertThrows(StoreException.class, () -> store.read(new ReadRequest(a1, List.of("x"))));
        assertThrows(StoreException.class, () -> store.read(new ReadRequest(a2, List.of("x"))));
        store.read(new ReadRequest(b, List.of("x")));
        store.read(new ReadRequest(none, List.of("x")));
        assertEquals(2, events.size());
        assertTrue(events.stream().allMatch(e -> e.kind() == Kind.LOGGED_OUT && e.version() == 2 && e.principal().equals("alice")));
        assertEquals(0, store.logout("alice", 0, Invalidator.NONE).sessions(), "a second logout finds nothing");
    }

    @Test
    void describeNeitherUsesTheSessionNorRecordsAnything() {
        String id = create("dave");
        ticker.advance(Duration.ofSeconds(10));
        SessionStore.Description d = store.describe(id);
        assertEquals("dave", d.principal());
        assertEquals(1, d.registryVersion());
        assertEquals(d.createdAt(), d.lastAccess(), "describing a session is not a use of it");
        assertEquals(1, events.size());
        assertNull(store.describe("nosuchsession"));
    }

    @Test
    void principalsCountInTheMemoryBudget() {
        long before = store.budget().used();
        String id = create("x".repeat(100));
        long withLong = store.budget().used();
        assertEquals(MemoryBudget.SESSION_OVERHEAD + MemoryBudget.principalCost("x".repeat(100)), withLong - before);
        store.setPrincipal(id, "y");
        assertEquals(MemoryBudget.SESSION_OVERHEAD + MemoryBudget.principalCost("y"), store.budget().used() - before);
        store.delete(id);
        assertEquals(0L, store.stats().get("budget_principal_bytes"), "a removed session's principal is given back");
    }

    @Test
    void aPrincipalThatDoesNotFitIsRefusedAndNothingChanges() {
        SessionStore small = new SessionStore(StoreLimits.builder().maxStoreBytes(MemoryBudget.SESSION_OVERHEAD + 100).build(), ticker);
        String id = small.create(null, c -> true, null, null).id();
        StoreException e = assertThrows(StoreException.class, () -> small.setPrincipal(id, "z".repeat(200)));
        assertEquals(Status.UNAVAILABLE, e.status());
        assertNull(small.describe(id).principal());
    }

    @Test
    void snapshotsKeepPrincipalHostAndVersion() throws Exception {
        String id = create("erin");
        store.setPrincipal(id, "frank");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StoreSnapshot.write(store, new DataOutputStream(bytes), codec);
        SessionStore copy = new SessionStore(StoreLimits.DEFAULT, ticker);
        List<LifecycleEvent> copied = new ArrayList<>();
        copy.recordLifecycle(copied::add, "m1");
        StoreSnapshot.read(copy, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), codec);
        assertEquals("frank", copy.describe(id).principal());
        assertEquals(2, copy.describe(id).registryVersion());
        assertTrue(copied.isEmpty(), "loading a snapshot records nothing");
        List<LifecycleEvent> active = new ArrayList<>();
        copy.activeSessions().forEach(active::add);
        assertEquals(1, active.size());
        assertEquals(Kind.ACTIVE, active.get(0).kind());
        assertEquals("10.0.0.7", active.get(0).host());
        assertEquals(2, active.get(0).version());
    }

    @Test
    void aMovedSessionIsRecordedByItsNewOwnerWithTheNextVersion() throws Exception {
        String id = create("gina");
        store.write(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[]{1}), List.of()))));
        events.clear();
        SessionStore.Taken taken = store.takeForMove(id, Invalidator.NONE, ticker.millis());
        assertTrue(events.isEmpty(), "leaving for another group is not the end of the session");
        SessionStore to = new SessionStore(StoreLimits.DEFAULT, ticker);
        List<LifecycleEvent> arrived = new ArrayList<>();
        to.recordLifecycle(arrived::add, "group:b");
        byte[] body = StoreSnapshot.Import.of(StoreSnapshot.moveBody(2, Map.of(), List.of(StoreSnapshot.record(taken, codec))))
                .records();
        assertEquals(1, StoreSnapshot.adoptAll(to, body, codec, ticker.millis()));
        assertEquals(1, arrived.size());
        assertEquals(Kind.MOVED, arrived.get(0).kind());
        assertEquals(2, arrived.get(0).version());
        assertEquals("group:b", arrived.get(0).owner());
        assertEquals("gina", arrived.get(0).principal());
        assertEquals("gina", to.describe(id).principal());
    }
}
