package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Measures the heap behind {@link MemoryBudget}'s overhead constants (their javadoc cites these figures) and fails if
 * one grows past its constant: a field added to {@code Session} must be paid for in the budget. Heap used after four
 * {@code System.gc()} before and after 100,000 of each thing; the figures are printed.
 */
class StoreOverheadsTest {
    static final int N = 100_000;
    /** Noise of a heap figure after GC, per thing measured. */
    static final double SLACK = 8;

    static long usedAfterGc() {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void measuredHeap_perSessionSectionSchemaNameAndRemovedSession_withinTheBudgetsConstants() {
        ManualTicker ticker = new ManualTicker();
        SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1L << 40).build(), ticker);
        String[] ids = new String[N];
        long before = usedAfterGc();
        for (int i = 0; i < N; i++) {
            ids[i] = store.create().id();
        }
        long afterCreate = usedAfterGc();
        // less the test's own array of references to the ids
        double session = (afterCreate - before) / (double) N - 4;

        int sections = 12;
        for (String id : ids) {
            List<SectionDelta> deltas = new ArrayList<>(sections);
            for (int s = 0; s < sections; s++) {
                deltas.add(new SectionDelta("section" + s, Map.of("a", new byte[1]), List.of()));
            }
            store.write(new WriteRequest(id, deltas));
        }
        long afterWrite = usedAfterGc();
        double section = (afterWrite - afterCreate - store.storeBytes()) / (double) (N * sections);

        for (String id : ids) {
            store.delete(id);
        }
        ids = null;
        long afterDelete = usedAfterGc();
        double removed = (afterDelete - before) / (double) N;

        long beforeSchemas = usedAfterGc();
        for (int i = 0; i < N; i++) {
            store.schemas().publish(i * 7919L + 1, new byte[100]);
        }
        double schema = (usedAfterGc() - beforeSchemas) / (double) N - 100;

        NamePool pool = new NamePool(N, store.budget());
        long beforeNames = usedAfterGc();
        for (int i = 0; i < N; i++) {
            pool.intern("name-" + (1_000_000 + i)); // 12 Latin-1 characters
        }
        double name = (usedAfterGc() - beforeNames) / (double) N - 12;

        System.out.printf("heap per empty session %.1f B, per section beyond its wire form %.1f B, per removed session "
                + "%.1f B, per schema beyond its bytes %.1f B, per name beyond its characters %.1f B%n",
                session, section, removed, schema, name);
        assertTrue(session <= MemoryBudget.SESSION_OVERHEAD + SLACK, "session " + session);
        assertTrue(section <= MemoryBudget.SECTION_OVERHEAD + SLACK, "section " + section);
        assertTrue(removed <= MemoryBudget.REMOVED_ENTRY_OVERHEAD + SLACK, "removed session " + removed);
        assertTrue(schema <= MemoryBudget.SCHEMA_OVERHEAD + SLACK, "schema " + schema);
        assertTrue(name <= MemoryBudget.NAME_OVERHEAD + SLACK, "name " + name);
        assertTrue(store.sessionCount() == 0 && pool.size() == N);
    }

    /**
     * A principal's cost, its index entry included, against {@link MemoryBudget#principalCost}, at the two worst
     * shapes of {@link PrincipalIndex}: one session a principal (an entry of its own) and {@code MAX_ARRAY_SESSIONS + 1}
     * (the smallest set); and the index holds nothing once the sessions are gone.
     */
    @Test
    void measuredHeap_perPrincipal_withinTheBudgetsConstant_andTheIndexEmptiesWithTheStore() {
        String name = "user-1000000"; // 12 characters, as every principal below
        double budget = MemoryBudget.principalCost(name);
        double withoutPrincipal = perSession(0);
        for (int perPrincipal : new int[] {1, PrincipalIndex.MAX_ARRAY_SESSIONS + 1}) {
            double principal = perSession(perPrincipal) - withoutPrincipal;
            System.out.printf("heap per principal, %d session(s) each: %.1f B, budget %.0f B%n", perPrincipal, principal, budget);
            assertTrue(principal <= budget + SLACK, perPrincipal + " a principal: " + principal);
        }
    }

    /** Heap per session of a store of N sessions, {@code perPrincipal} of them to a principal (0: none); emptied after. */
    private static double perSession(int perPrincipal) {
        SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1L << 40).build(), new ManualTicker());
        long before = usedAfterGc();
        for (int i = 0; i < N; i++) {
            String principal = perPrincipal == 0 ? null : "user-" + (1_000_000 + i / perPrincipal);
            store.create(null, id -> true, principal, null);
        }
        double perSession = (usedAfterGc() - before) / (double) N;
        assertEquals(perPrincipal == 0 ? 0 : (N + perPrincipal - 1) / perPrincipal, store.indexedPrincipals());
        List<String> ids = new ArrayList<>();
        store.sessionIds().forEachRemaining(ids::add);
        for (String id : ids) {
            store.delete(id);
        }
        assertEquals(0, store.indexedPrincipals(), "the index kept entries of principals with no session");
        return perSession;
    }
}
