package io.sessionmesh.testing;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * The one way a test waits for something another thread or process does: polls a condition until it holds or the
 * time runs out, then fails with a message that says what was awaited, for how long, and the last thing that went
 * wrong while polling (a refused connection, say). Never a bare {@code Thread.sleep} standing in for a wait.
 */
public final class Await {
    /** How often the condition is asked. */
    public static final Duration POLL = Duration.ofMillis(20);

    private Await() {
    }

    /**
     * Waits until {@code condition} answers true; an exception it throws counts as false (and is reported if the wait
     * fails).
     *
     * @throws AssertionError "waited N ms for {what}" with the last exception, when it never held
     */
    public static void until(String what, Duration timeout, Callable<Boolean> condition) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
                last = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                AssertionError failure = new AssertionError("waited " + (System.nanoTime() - start) / 1_000_000 + " ms for "
                        + what + (last == null ? "" : "; last: " + last));
                if (last != null) {
                    failure.initCause(last);
                }
                throw failure;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
