package io.sessionmesh.master.replication;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Linearizable reads in batches, as etcd's read loop does: one read index at a time is in flight; every read that
 * arrives meanwhile waits for the next one, which starts when the current one completes. A read is answered only
 * after a read index asked for after it arrived, so it sees every write acknowledged before it; and a burst of reads
 * costs two read indexes, not one each. Thread-safe.
 */
final class ReadBarrier {
    private final Supplier<CompletableFuture<Void>> readIndex;
    /** Where the next read index is asked for when the previous one completes (not on the thread completing it). */
    private final java.util.concurrent.Executor followingRuns;
    /** The barrier in flight, or null. */
    private CompletableFuture<Void> inFlight;
    /** The barrier that reads arriving now wait for: starts when {@link #inFlight} completes. */
    private CompletableFuture<Void> next;

    ReadBarrier(Supplier<CompletableFuture<Void>> readIndex, java.util.concurrent.Executor following) {
        this.readIndex = readIndex;
        this.followingRuns = following;
    }

    /** Completes when a read index asked for after this call has completed (exceptionally if it failed). */
    CompletableFuture<Void> next() {
        CompletableFuture<Void> start;
        synchronized (this) {
            if (inFlight != null) {
                if (next == null) {
                    next = new CompletableFuture<>();
                }
                return next;
            }
            start = new CompletableFuture<>();
            inFlight = start;
        }
        run(start);
        return start;
    }

    private void run(CompletableFuture<Void> barrier) {
        CompletableFuture<Void> index;
        try {
            index = readIndex.get();
        } catch (RuntimeException e) {
            index = CompletableFuture.failedFuture(e);
        }
        index.whenComplete((ok, failure) -> {
            CompletableFuture<Void> following;
            synchronized (this) {
                following = next;
                next = null;
                inFlight = following;
            }
            if (failure != null) {
                barrier.completeExceptionally(failure);
            } else {
                barrier.complete(null);
            }
            if (following != null) {
                followingRuns.execute(() -> run(following));
            }
        });
    }
}
