package io.sessionmesh.benchmarks.workload;

import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.Scale;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValueSizes;
import io.sessionmesh.workload.Zipf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.random.RandomGenerator;

/**
 * {@link WorkloadDriver}'s active sessions: slot i holds the session of Zipf rank i. New sessions replace slots
 * round-robin (so they land on random ranks) at the workload's rate ({@link Scale}), each written whole through the
 * master first, as a login would. Values are opaque bytes of the workload's log-normal sizes (the sidecars and the
 * master never decode them), from a pool made once.
 */
final class DriverSessions {
    /** Opaque values in the pool. */
    static final int VALUES = 4096;
    /** Logins in flight at once while filling. */
    static final int FILL_BATCH = 64;
    static final long SIZE_SEED = 7;
    static final long CONTENT_SEED = 11;

    private final MasterConnection master;
    private final AtomicReferenceArray<String> slots;
    private final Zipf zipf;
    private final byte[][] values = new byte[VALUES][];
    private final AtomicInteger created = new AtomicInteger();

    DriverSessions(MasterConnection master, int n) {
        this.master = master;
        this.slots = new AtomicReferenceArray<>(n);
        this.zipf = Zipf.workload(n);
        ValueSizes sizes = new ValueSizes(SIZE_SEED);
        SplittableRandom r = new SplittableRandom(CONTENT_SEED);
        for (int i = 0; i < values.length; i++) {
            values[i] = new byte[sizes.next()];
            for (int j = 0; j < values[i].length; j++) {
                values[i][j] = (byte) ('a' + r.nextInt(26));
            }
        }
    }

    /** Logs a session into every slot. */
    void fill() throws Exception {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (int i = 0; i < slots.length(); i++) {
            pending.add(create(i));
            if (pending.size() >= FILL_BATCH) {
                CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    private CompletableFuture<Void> create(int slot) {
        int seed = created.incrementAndGet();
        return master.create(Scale.IDLE_TIMEOUT).thenCompose(c -> {
            List<String> names = SessionShape.uniformSectionNames();
            List<SectionDelta> deltas = new ArrayList<>();
            for (int s = 0; s < names.size(); s++) {
                Map<String, byte[]> set = new LinkedHashMap<>();
                for (int a = 0; a < SessionShape.ATTRIBUTES; a++) {
                    set.put(SessionShape.attribute(a), values[Math.floorMod(seed * 131 + s * 7 + a, values.length)]);
                }
                deltas.add(new SectionDelta(names.get(s), set, List.of()));
            }
            return master.write(new WriteRequest(c.sessionId(), deltas)).thenAccept(w -> slots.set(slot, c.sessionId()));
        });
    }

    /** Renews the set at the workload's rate until stopped. */
    void churn(AtomicBoolean stop) {
        long intervalNanos = Scale.newSessionIntervalNanos(slots.length());
        int next = 0;
        long due = System.nanoTime();
        while (!stop.get()) {
            due += intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            try {
                create(next).get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // counted by the users' errors if the master is gone
            }
            next = (next + 1) % slots.length();
        }
    }

    /** A session by Zipf rank. */
    String pick(SplittableRandom r) {
        return slots.get(zipf.next(r));
    }

    /** A value of the pool, at random. */
    byte[] value(RandomGenerator r) {
        return values[r.nextInt(values.length)];
    }
}
