package io.sessionmesh.master.store;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Shares one String per section name across all sessions. Every session of the workload uses the same dozen
 * section names; without sharing, each session would hold its own copies (about 50 bytes each). Bounded at
 * {@code capacity} names: past it, names are simply not shared, so a client inventing names cannot grow the
 * pool without limit. (Attribute names live inside each section's bytes.)
 */
final class NamePool {
    private final ConcurrentHashMap<String, String> names = new ConcurrentHashMap<>();
    private final int capacity;

    NamePool(int capacity) {
        this.capacity = capacity;
    }

    String intern(String name) {
        String shared = names.get(name);
        if (shared != null) {
            return shared;
        }
        if (names.size() >= capacity) {
            return name;
        }
        shared = names.putIfAbsent(name, name);
        return shared == null ? name : shared;
    }

    int size() {
        return names.size();
    }
}
