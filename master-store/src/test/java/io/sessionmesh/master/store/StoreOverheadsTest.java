package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
}
