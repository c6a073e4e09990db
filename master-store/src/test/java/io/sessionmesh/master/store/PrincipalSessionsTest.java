package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.wire.transport.ReadRequest;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live sessions of a principal (PRINCIPAL_SESSIONS, PROTOCOL.md 3.2, 3.11): every live session of the principal and
 * no other, none deleted, logged out or expired, a renamed session under its new id only, a session whose principal
 * changed under its new principal only, at most the limit and then flagged as cut; listing uses no session.
 */
class PrincipalSessionsTest {
    private static final String ID = "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c";
    private static final String NEW = "9f3a6c1e-7b2d-4e8f-a0c5-1d2e3f4a5b6c";

    private final ManualTicker ticker = new ManualTicker();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);

    private Set<String> sessionsOf(String principal) {
        SessionStore.PrincipalSessionIds found = store.sessionsOf(principal, 1_000);
        assertFalse(found.truncated());
        Set<String> ids = new HashSet<>(found.ids());
        assertEquals(found.ids().size(), ids.size(), "no id twice");
        return ids;
    }

    private String create(String principal) {
        return store.create(Duration.ofMinutes(10), id -> true, principal, null).id();
    }

    @Test
    void sessionsOf_listsEveryLiveSessionOfThePrincipalAndNoOther() {
        String a1 = create("alice");
        String a2 = create("alice");
        String b = create("bob");
        create(null);
        assertEquals(Set.of(a1, a2), sessionsOf("alice"));
        assertEquals(Set.of(b), sessionsOf("bob"));
        assertEquals(Set.of(), sessionsOf("carol"));
        assertEquals(Set.of(), sessionsOf("Alice"), "principals are compared exactly");
    }

    @Test
    void sessionsOf_rightAfterACreateWithARequestedId_listsIt() {
        store.createWithId(ID, null, "alice", "10.0.0.7");
        assertEquals(Set.of(ID), sessionsOf("alice"));
    }

    @Test
    void sessionsOf_leavesOutDeletedAndLoggedOutSessions() {
        String kept = create("alice");
        String deleted = create("alice");
        store.delete(deleted, 0, Invalidator.NONE);
        assertEquals(Set.of(kept), sessionsOf("alice"));
        create("bob");
        store.logout("bob", 0, Invalidator.NONE);
        assertEquals(Set.of(), sessionsOf("bob"));
    }

    @Test
    void sessionsOf_leavesOutExpiredSessionsBeforeTheyAreSwept() {
        String shortLived = store.create(Duration.ofSeconds(5), id -> true, "alice", null).id();
        String longLived = create("alice");
        ticker.advance(Duration.ofSeconds(6)); // expired, not swept
        assertEquals(Set.of(longLived), sessionsOf("alice"));
        assertFalse(sessionsOf("alice").contains(shortLived));
    }

    @Test
    void sessionsOf_usesNoSession_theIdleClockGoesOn() {
        String id = store.create(Duration.ofSeconds(10), x -> true, "alice", null).id();
        long lastUse = store.describe(id).lastAccess();
        ticker.advance(Duration.ofSeconds(6));
        assertEquals(Set.of(id), sessionsOf("alice"));
        assertEquals(lastUse, store.describe(id).lastAccess(), "listing is not a use");
        ticker.advance(Duration.ofSeconds(6)); // 12 s after the last use: expired, as if never listed
        assertEquals(Set.of(), sessionsOf("alice"));
    }

    @Test
    void sessionsOf_afterARename_listsTheNewIdAndNotTheOld() {
        store.createWithId(ID, null, "alice", null);
        store.rename(ID, NEW, null, 0, Invalidator.NONE);
        assertEquals(Set.of(NEW), sessionsOf("alice"));
    }

    @Test
    void sessionsOf_afterAPrincipalChange_listsItUnderTheNewPrincipalOnly() {
        String id = create("anonymous-7");
        store.setPrincipal(id, "alice");
        assertEquals(Set.of(), sessionsOf("anonymous-7"));
        assertEquals(Set.of(id), sessionsOf("alice"));
        store.setPrincipal(id, null);
        assertEquals(Set.of(), sessionsOf("alice"));
    }

    @Test
    void sessionsOf_overTheLimit_cutsAndSaysSo() {
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            all.add(create("alice"));
        }
        SessionStore.PrincipalSessionIds cut = store.sessionsOf("alice", 3);
        assertTrue(cut.truncated());
        assertEquals(3, cut.ids().size());
        assertTrue(all.containsAll(cut.ids()));
        SessionStore.PrincipalSessionIds exact = store.sessionsOf("alice", 5);
        assertFalse(exact.truncated(), "exactly the limit is not cut");
        assertEquals(all, Set.copyOf(exact.ids()));
    }

    @Test
    void sessionsOf_isCountedInStats() {
        store.sessionsOf("alice", 10);
        assertEquals(1L, store.stats().get("principal_lists"));
    }

    @Test
    void sessionsOf_aReadOfTheSession_doesNotChangeWhatIsListed() {
        String id = create("alice");
        store.read(new ReadRequest(id, List.of("cart")));
        assertEquals(Set.of(id), sessionsOf("alice"));
    }
}
