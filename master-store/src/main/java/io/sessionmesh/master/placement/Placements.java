package io.sessionmesh.master.placement;

import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.Status;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The rings of the placements a master has been sent, built once each: a ring of 32 masters at 65,535 virtual nodes
 * is 2 million tokens to hash and sort (about half a second), and every CREATE from the same sidecars carries the same
 * placement. A ring is built on this class's own thread ({@value #BUILDER_THREAD}), never on an I/O thread: a CREATE
 * whose ring is not built yet waits for it while the connection's loop goes on serving pings, invalidation
 * confirmations and other requests. Bounded: {@value #MAX_RINGS} rings kept (past that, the cache starts over: the
 * cluster changed many times), and at most {@value #MAX_PENDING_BUILDS} distinct placements waiting to be built, one
 * at a time; a CREATE with another new placement meanwhile is answered UNAVAILABLE.
 */
public final class Placements {
    /** Distinct placements kept. */
    public static final int MAX_RINGS = 4;
    /** Distinct placements waiting for their ring at once. */
    public static final int MAX_PENDING_BUILDS = 4;
    /** The thread rings are built on. */
    public static final String BUILDER_THREAD = "placement-rings";

    private static final ConcurrentHashMap<Placement, HashRing<Integer>> RINGS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<Placement, CompletableFuture<HashRing<Integer>>> PENDING = new ConcurrentHashMap<>();
    private static final ExecutorService BUILDER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, BUILDER_THREAD);
        t.setDaemon(true);
        return t;
    });

    private Placements() {
    }

    /** The ring of this placement if it is built, else null (then {@link #ring} builds it). */
    public static HashRing<Integer> cached(Placement placement) {
        return RINGS.get(placement);
    }

    /**
     * The ring of this placement: at once if it is built, else once the builder thread has built it. Fails with
     * UNAVAILABLE when {@value #MAX_PENDING_BUILDS} other placements are already waiting.
     */
    public static CompletableFuture<HashRing<Integer>> ring(Placement placement) {
        HashRing<Integer> ring = RINGS.get(placement);
        if (ring != null) {
            return CompletableFuture.completedFuture(ring);
        }
        CompletableFuture<HashRing<Integer>> pending = PENDING.get(placement);
        if (pending != null) {
            return pending;
        }
        synchronized (PENDING) {
            pending = PENDING.get(placement);
            if (pending != null) {
                return pending;
            }
            if (PENDING.size() >= MAX_PENDING_BUILDS) {
                return CompletableFuture.failedFuture(new StoreException(Status.UNAVAILABLE, "this master is building the "
                        + "rings of " + PENDING.size() + " other placements (at most " + MAX_PENDING_BUILDS + " at once): "
                        + "try the CREATE again"));
            }
            CompletableFuture<HashRing<Integer>> built = CompletableFuture.supplyAsync(() -> {
                HashRing<Integer> r = placement.ring();
                if (RINGS.size() >= MAX_RINGS) {
                    RINGS.clear();
                }
                RINGS.put(placement, r);
                return r;
            }, BUILDER);
            PENDING.put(placement, built);
            built.whenComplete((r, e) -> PENDING.remove(placement));
            return built;
        }
    }
}
