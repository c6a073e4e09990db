package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.SectionNameCache;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Shares one String per section name across all sessions. Every session of the workload uses the same dozen
 * section names; without sharing, each session would hold its own copies (about 50 bytes each). Bounded at
 * {@code capacity} names: past it, names are simply not shared, so a client inventing names cannot grow the
 * pool without limit. A name shared is charged to the store's {@link MemoryBudget}; one that does not fit in it is
 * not shared either (the write that brings it is then refused for its own growth). (Attribute names live inside each
 * section's bytes.)
 */
final class NamePool {
    private final ConcurrentHashMap<String, String> names = new ConcurrentHashMap<>();
    private final int capacity;
    private final MemoryBudget budget;

    NamePool(int capacity, MemoryBudget budget) {
        this.capacity = capacity;
        this.budget = budget;
    }

    /**
     * The shared instance of {@code name}, also offered to the {@link SectionNameCache} so that requests decode the
     * name to this instance and the store finds the section by reference ({@link SessionStore}'s indexOf).
     */
    String intern(String name) {
        String shared = names.get(name);
        if (shared == null) {
            long cost = MemoryBudget.nameCost(name);
            if (names.size() >= capacity || !budget.fits(cost)) {
                return name;
            }
            shared = names.putIfAbsent(name, name);
            if (shared == null) {
                budget.namesChanged(cost);
                shared = name;
            }
        }
        SectionNameCache.offer(shared);
        return shared;
    }

    int size() {
        return names.size();
    }
}
