package io.sessionmesh.master.server;

import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.wire.transport.Status;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The group leader's expiry is retried until it is applied: an EXPIRE proposal that fails puts its sessions back on
 * the wheel, the next sweep proposes them again, and they expire. (Before, the sweep took them off the wheel and a
 * lost proposal left them in the store for good: they held memory, counted as active, and came back on a failover.)
 */
class ExpirySweepTest {
    @Test
    void anExpiryWhoseProposalFails_isProposedAgain_andTheSessionExpires() {
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 24).build(), now::get);
        store.removeOnlyThroughTheLog(); // as on a replica of a group
        String id = store.create(Duration.ofSeconds(2)).id();
        List<List<String>> proposed = new ArrayList<>();
        AtomicBoolean logDown = new AtomicBoolean(true);
        ExpirySweep sweep = new ExpirySweep(store, ids -> {
            proposed.add(ids);
            if (logDown.get()) {
                return CompletableFuture.failedFuture(new StoreException(Status.TIMEOUT, "the log did not answer"));
            }
            store.expire(ids, now.get()); // what every replica does when the EXPIRE entry is applied
            return CompletableFuture.completedFuture(null);
        }, now::get);

        now.addAndGet(5_000);
        assertEquals(1, sweep.run());
        assertEquals(1, store.sessionCount(), "the failed proposal removed nothing");

        now.addAndGet(1_000);
        logDown.set(false);
        assertEquals(1, sweep.run(), "the next sweep proposes it again");
        assertEquals(0, store.sessionCount(), "and the session expires");
        assertEquals(List.of(List.of(id), List.of(id)), proposed);

        now.addAndGet(1_000);
        assertEquals(0, sweep.run(), "nothing is proposed twice once applied");
    }
}
