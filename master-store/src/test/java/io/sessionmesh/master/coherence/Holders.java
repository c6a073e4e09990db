package io.sessionmesh.master.coherence;

import java.util.UUID;

/** Registers holders in tests, each as a peer of its own (so the per-peer limit plays no part). */
public final class Holders {
    private Holders() {
    }

    public static Holder connect(HolderRegistry registry, UUID id) {
        try {
            return registry.connect(id, "address test-" + id);
        } catch (HolderRegistry.Refused e) {
            throw new AssertionError("refused: " + e.getMessage(), e);
        }
    }
}
