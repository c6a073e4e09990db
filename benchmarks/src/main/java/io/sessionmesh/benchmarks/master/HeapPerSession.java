package io.sessionmesh.benchmarks.master;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValueSizes;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Heap bytes per session of the master's store against the payload it holds, at the scale of a real master:
 * {@code sessions} sessions of docs/WORKLOAD.md (12 sections of 5 attributes, log-normal value sizes),
 * written through the store's own write path. Heap is measured after full GCs, before and after filling.
 *
 * <pre>java -Xmx12g -cp benchmarks.jar io.sessionmesh.benchmarks.master.HeapPerSession [--sessions N]</pre>
 */
public final class HeapPerSession {
    /**
     * Attribute names are "attr0".."attr4" here, not the workload's "a0".., because RESULTS.md 2.3 was measured with
     * them (they sit in every section's wire form). Section names are interned by the store: theirs cost nothing a
     * session.
     */
    static final String ATTRIBUTE_PREFIX = "attr";

    private HeapPerSession() {
    }

    public static void main(String[] args) {
        Settings flags = Settings.fromArgs(args);
        int sessions = flags.integer("sessions", 100_000, 1, 100_000_000);
        flags.checkAllUsed();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        // Values as the client sends them: compressed bytes, so random content. Shared source, distinct arrays.
        byte[] source = new byte[ValueSizes.MAX_BYTES];
        new Random(1).nextBytes(source);
        ValueSizes sizes = new ValueSizes(42);

        long before = usedAfterGc(memory);
        SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(Long.MAX_VALUE / 2).build(), Ticker.SYSTEM);
        long valueBytes = 0;
        long attributes = 0;
        for (int i = 0; i < sessions; i++) {
            String id = store.create().id();
            List<SectionDelta> deltas = new ArrayList<>(SessionShape.SECTIONS);
            for (String section : SessionShape.uniformSectionNames()) {
                Map<String, byte[]> set = new LinkedHashMap<>();
                for (int a = 0; a < SessionShape.ATTRIBUTES; a++) {
                    byte[] value = java.util.Arrays.copyOf(source, sizes.next());
                    valueBytes += value.length;
                    attributes++;
                    set.put(ATTRIBUTE_PREFIX + a, value);
                }
                deltas.add(new SectionDelta(section, set, List.of()));
            }
            store.write(new WriteRequest(id, deltas));
        }
        long after = usedAfterGc(memory);
        long heap = after - before;
        long payload = store.storeBytes();
        System.out.printf("sessions                  %,d%n", store.sessionCount());
        System.out.printf("attributes                %,d (%,d a session)%n", attributes, attributes / sessions);
        System.out.printf("value bytes               %,d (mean value %,d B)%n", valueBytes, valueBytes / attributes);
        System.out.printf("stored bytes (sections in wire form: names, values, lengths) %,d%n", payload);
        System.out.printf("heap used by the store    %,d%n", heap);
        System.out.printf("heap per session          %,d B, value bytes per session %,d B%n", heap / sessions, valueBytes / sessions);
        System.out.printf("heap / value bytes (the payload) %.3f%n", (double) heap / valueBytes);
        System.out.printf("heap / stored bytes       %.3f%n", (double) heap / payload);
        System.out.printf("overhead per session      %,d B%n", (heap - valueBytes) / sessions);
        if (store.sessionCount() != sessions) {
            throw new IllegalStateException("store lost sessions");
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 4; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
