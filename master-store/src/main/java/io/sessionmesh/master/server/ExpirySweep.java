package io.sessionmesh.master.server;

import io.sessionmesh.master.replication.ReplicaCommand;
import io.sessionmesh.master.store.SessionIds;
import io.sessionmesh.master.store.SessionStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The group leader's expiry (every second, {@link MasterServer}): the sessions expired by its clock and its view come
 * off the store's expiry wheel and are proposed as EXPIRE entries of at most {@link ReplicaCommand#MAX_IDS} ids. A
 * proposal that fails (the leader stepped down, the log timed out) puts its sessions back on the wheel, so the next
 * sweep proposes them again until an EXPIRE commits, or a new leader's wheel (refilled when it starts to lead) finds
 * them: an expired session never stays, holding memory and counted active, because one proposal was lost.
 */
final class ExpirySweep {
    private static final Logger log = LoggerFactory.getLogger(ExpirySweep.class);

    private final SessionStore store;
    private final Function<List<String>, CompletableFuture<?>> propose;
    private final LongSupplier clock;

    /** @param propose proposes one EXPIRE entry of these ids; completes once it is applied, exceptionally if not */
    ExpirySweep(SessionStore store, Function<List<String>, CompletableFuture<?>> propose, LongSupplier clock) {
        this.store = store;
        this.propose = propose;
        this.clock = clock;
    }

    /** One sweep; returns how many sessions it proposed to expire. */
    int run() {
        List<String> expired = store.expiredBy(clock.getAsLong());
        for (int from = 0; from < expired.size(); from += ReplicaCommand.MAX_IDS) {
            List<String> part = List.copyOf(expired.subList(from, Math.min(expired.size(), from + ReplicaCommand.MAX_IDS)));
            CompletableFuture<?> proposed;
            try {
                proposed = propose.apply(part);
            } catch (RuntimeException e) {
                proposed = CompletableFuture.failedFuture(e);
            }
            proposed.whenComplete((outcome, failure) -> {
                if (failure != null) {
                    int back = store.scheduleExpiryAgain(part);
                    log.warn("an EXPIRE of {} sessions (first {}) was not applied ({}); {} go back on the expiry wheel",
                            part.size(), SessionIds.redact(part.get(0)), failure.toString(), back);
                }
            });
        }
        return expired.size();
    }
}
