package io.sessionmesh.master.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand. */
final class ManualTicker implements Ticker {
    private final AtomicLong now = new AtomicLong(1_000_000);

    @Override
    public long millis() {
        return now.get();
    }

    void advance(Duration d) {
        now.addAndGet(d.toMillis());
    }
}
