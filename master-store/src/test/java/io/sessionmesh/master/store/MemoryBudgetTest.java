package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The store's one memory budget (max-store): what it counts, what it refuses, what it always serves. */
class MemoryBudgetTest {
    static final long BUDGET = 1 << 20;

    private final ManualTicker ticker = new ManualTicker();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(BUDGET).build(), ticker);

    static SectionDelta set(String section, String attribute, int size) {
        return new SectionDelta(section, Map.of(attribute, new byte[size]), List.of());
    }

    private void write(String id, SectionDelta... deltas) {
        store.write(new WriteRequest(id, List.of(deltas)));
    }

    /** The status a call is refused with, or 0. */
    static int refusal(Runnable call) {
        try {
            call.run();
            return 0;
        } catch (StoreException e) {
            return e.status();
        }
    }

    @Test
    void publish_distinctSchemasPastTheBudget_unavailableNamingTheBudget() {
        byte[] schema = new byte[1024];
        for (int i = 0; i < 10_000; i++) {
            schema[0] = (byte) i;
            schema[1] = (byte) (i >> 8);
            try {
                store.schemas().publish(i, schema);
            } catch (StoreException e) {
                assertEquals(Status.UNAVAILABLE, e.status(), e.getMessage());
                assertTrue(e.getMessage().contains("max-store"), e.getMessage());
                // each schema costs its bytes and its overhead: a budget of 1 MiB holds fewer than 1024 of them
                assertTrue(i < BUDGET / 1024, "refused only after " + i + " schemas");
                assertTrue(i > BUDGET / 2 / 1024, "refused already after " + i + " schemas");
                assertNotNull(store.schemas().fetch(0), "the schemas held stay readable");
                return;
            }
        }
        fail("10,000 schemas of 1 KiB were all taken under a budget of 1 MiB");
    }

    @Test
    void create_emptySessionsPastTheBudget_unavailable() {
        for (int i = 0; i < 100_000; i++) {
            int status = refusal(store::create);
            if (status != 0) {
                assertEquals(Status.UNAVAILABLE, status);
                // sessions without a single attribute are charged their own heap
                assertTrue(i <= BUDGET / 200, "refused only after " + i + " empty sessions");
                return;
            }
        }
        fail("100,000 empty sessions were all taken under a budget of 1 MiB");
    }

    @Test
    void fullBudget_deletesReadsAndShrinkingWritesStillServed_growthRefused() {
        List<String> ids = new ArrayList<>();
        int status = 0;
        while (status == 0) {
            String id;
            try {
                id = store.create().id();
            } catch (StoreException e) {
                status = e.status();
                break;
            }
            ids.add(id);
            status = refusal(() -> write(id, set("cart", "items", 4000)));
        }
        assertEquals(Status.UNAVAILABLE, status);
        String first = ids.get(0);

        assertEquals(4000, store.read(new ReadRequest(first, List.of("cart"))).toReadResult().sections().get(0)
                .attributes().get("items").length);
        assertEquals(Status.UNAVAILABLE, refusal(() -> write(first, set("cart", "items", 8000))), "growth");
        assertEquals(Status.UNAVAILABLE, refusal(() -> write(first, set("other", "items", 4000))), "a new section");
        write(first, set("cart", "items", 100)); // shrinks
        write(first, new SectionDelta("cart", Map.of(), List.of("items"))); // shrinks
        store.delete(ids.get(1));
        store.delete(ids.get(2));
        store.create(); // the deleted sessions' room is back
        assertTrue(store.budget().used() <= BUDGET);
    }

    @Test
    void stats_budgetByCategory_sumsToUsed() {
        String id = store.create().id();
        write(id, set("cart", "items", 100), set("profile", "name", 10));
        store.schemas().publish(7, new byte[50]);
        store.delete(store.create().id());
        Map<String, Long> stats = store.stats();

        assertEquals(BUDGET, stats.get("budget_max_bytes"));
        assertEquals(MemoryBudget.SESSION_OVERHEAD, stats.get("budget_session_bytes"));
        assertEquals(stats.get("store_bytes"), stats.get("budget_section_bytes"));
        assertEquals(2L * MemoryBudget.SECTION_OVERHEAD, stats.get("budget_section_overhead_bytes"));
        assertEquals(2L * MemoryBudget.NAME_OVERHEAD + 2L * ("cart".length() + "profile".length()), stats.get("budget_name_bytes"));
        assertEquals(MemoryBudget.SCHEMA_OVERHEAD + 50L, stats.get("budget_schema_bytes"));
        assertEquals((long) MemoryBudget.REMOVED_ENTRY_OVERHEAD, stats.get("budget_removed_bytes"));
        assertEquals(stats.get("budget_session_bytes") + stats.get("budget_section_bytes")
                        + stats.get("budget_section_overhead_bytes") + stats.get("budget_name_bytes")
                        + stats.get("budget_schema_bytes") + stats.get("budget_removed_bytes"),
                stats.get("budget_used_bytes"));
    }

    @Test
    void sweep_removedSessionsPastTheirShareOfTheBudget_purged() {
        // 1 MiB / 16 = 65,536 bytes: 373 removed sessions, far below PURGE_MIN_ENTRIES
        for (int i = 0; i < 1000; i++) {
            store.delete(store.create().id());
        }
        assertTrue(store.budget().used() > 1000 * MemoryBudget.REMOVED_ENTRY_OVERHEAD - 1);
        ticker.advance(Duration.ofSeconds(1));
        store.expireDue();
        assertEquals(0, store.wheelEntries());
        assertEquals(0, store.budget().used());
    }

    @Test
    void replica_appliesOnWhatEveryReplicaCounts_leaderChecksEverything() {
        SessionStore replica = new SessionStore(StoreLimits.builder().maxStoreBytes(BUDGET).build(), ticker);
        replica.removeOnlyThroughTheLog();
        // removed sessions in this replica's wheel are its own: a follower's wheel differs from its leader's
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            ids.add(replica.newId());
            replica.create(ids.get(i), null, ticker.millis());
        }
        for (String id : ids) {
            replica.delete(id, 0, io.sessionmesh.master.coherence.Invalidator.NONE, ticker.millis());
        }
        long replicated = replica.budget().replicated();
        assertEquals(0, replicated);
        assertTrue(replica.budget().used() > BUDGET / 2);
        String id = replica.newId();
        replica.create(id, null, ticker.millis()); // applied: the same on every replica
        StoreException refused = assertThrows(StoreException.class,
                () -> replica.budget().checkBeforeProposing(BUDGET / 2, "CREATE"));
        assertEquals(Status.UNAVAILABLE, refused.status());
    }
}
