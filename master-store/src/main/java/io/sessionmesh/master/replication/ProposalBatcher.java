package io.sessionmesh.master.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Group commit of a replica's proposals: at most {@code maxInFlight} Raft entries of this replica's are in flight at
 * once; changes that arrive meanwhile queue, and when an entry completes, everything queued (up to
 * {@link #MAX_BATCH_BYTES} and {@link ReplicaCommand#MAX_BATCH_ENTRIES}) goes as the next one, a batch
 * ({@link ReplicaCommand#batch}). One client alone waits for nothing: its change goes at once, as its own entry. Under
 * load a Raft entry carries many changes, so Ratis's cost per entry (its threads, its log record, its append to each
 * follower, its apply) is paid once per batch and not once per change: that is the whole point, measured in
 * benchmarks/RESULTS.md 9 at 1f3fa7a. The order of the queue is the order of the log. Thread-safe.
 *
 * @param <T> what the caller hands in: an entry and whatever it needs to answer (its ticket, its waiting request)
 */
final class ProposalBatcher<T> {
    /** Most bytes of changes in one batch; a single change above it goes alone. */
    static final int MAX_BATCH_BYTES = 1 << 20;
    /** Most changes queued behind the entries in flight; past it a change is refused at once (UNAVAILABLE). */
    static final int MAX_QUEUED = 100_000;
    /** This replica's entries in flight at once, by default: one, so that everything that arrives meanwhile is one. */
    static final int DEFAULT_MAX_IN_FLIGHT = 1;

    /** One change: its encoded entry and what its caller keeps. */
    record Queued<T>(byte[] entry, T owner) {
    }

    private final int maxInFlight;
    /** Proposes one Raft entry holding these changes; the future completes when Ratis has answered. */
    private final Function<List<Queued<T>>, CompletableFuture<?>> submit;
    /** Told of each change of an entry that Ratis did not confirm (its failure), so its caller can be answered. */
    private final BiConsumer<Queued<T>, Throwable> failed;
    /** Where the next batch is proposed when an entry completes: not on the thread that completes it (Ratis's). */
    private final java.util.concurrent.Executor followingSends;
    private final ArrayDeque<Queued<T>> queue = new ArrayDeque<>();
    private int inFlight;
    private long entries;
    private long changes;

    ProposalBatcher(int maxInFlight, Function<List<Queued<T>>, CompletableFuture<?>> submit,
                    BiConsumer<Queued<T>, Throwable> failed, java.util.concurrent.Executor followingSends) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
        this.submit = submit;
        this.failed = failed;
        this.followingSends = followingSends;
    }

    /**
     * Proposes {@code change} now if fewer than {@code maxInFlight} entries are in flight, else with the next batch.
     *
     * @return false if the queue is full ({@link #MAX_QUEUED}): nothing was proposed
     */
    boolean add(Queued<T> change) {
        List<Queued<T>> now;
        synchronized (this) {
            if (inFlight >= maxInFlight) {
                if (queue.size() >= MAX_QUEUED) {
                    return false;
                }
                queue.add(change);
                return true;
            }
            inFlight++;
            now = List.of(change);
        }
        send(now);
        return true;
    }

    private void send(List<Queued<T>> batch) {
        synchronized (this) {
            entries++;
            changes += batch.size();
        }
        CompletableFuture<?> sent;
        try {
            sent = submit.apply(batch);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((reply, failure) -> {
            if (failure != null) {
                for (Queued<T> q : batch) {
                    failed.accept(q, failure);
                }
            }
            List<Queued<T>> next = takeNext();
            if (next != null) {
                followingSends.execute(() -> send(next));
            }
        });
    }

    /** The next batch to send in place of an entry that completed, or null (one fewer in flight). */
    private synchronized List<Queued<T>> takeNext() {
        if (queue.isEmpty()) {
            inFlight--;
            return null;
        }
        List<Queued<T>> batch = new ArrayList<>(Math.min(queue.size(), 64));
        long bytes = 0;
        while (!queue.isEmpty() && batch.size() < ReplicaCommand.MAX_BATCH_ENTRIES) {
            int size = queue.peek().entry().length + 4;
            if (!batch.isEmpty() && bytes + size > MAX_BATCH_BYTES) {
                break;
            }
            bytes += size;
            batch.add(queue.poll());
        }
        return batch;
    }

    /** Changes queued now, behind the entries in flight. */
    synchronized int queued() {
        return queue.size();
    }

    /** Raft entries proposed since start. */
    synchronized long entries() {
        return entries;
    }

    /** Changes proposed since start (in {@link #entries()} entries). */
    synchronized long changes() {
        return changes;
    }

    /** Mean changes per Raft entry since start. */
    synchronized double changesPerEntry() {
        return entries == 0 ? 0 : (double) changes / entries;
    }
}
