package io.sessionmesh.master.placement;

import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The rings of the placements a master has been sent, built once each: a ring of 32 masters at 65,535 virtual nodes is 2 million tokens to
 * hash and sort, and every CREATE from the same sidecars carries the same placement. Bounded: past
 * {@value #MAX_RINGS} distinct placements (the cluster changed many times) the cache starts over.
 */
public final class Placements {
    /** Distinct placements kept. */
    public static final int MAX_RINGS = 4;

    private static final ConcurrentHashMap<Placement, HashRing<Integer>> RINGS = new ConcurrentHashMap<>();

    private Placements() {
    }

    public static HashRing<Integer> ring(Placement placement) {
        HashRing<Integer> ring = RINGS.get(placement);
        if (ring == null) {
            if (RINGS.size() >= MAX_RINGS) {
                RINGS.clear();
            }
            ring = RINGS.computeIfAbsent(placement, Placement::ring);
        }
        return ring;
    }
}
