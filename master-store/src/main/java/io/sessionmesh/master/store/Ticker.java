package io.sessionmesh.master.store;

/**
 * The store's clock for expiry: monotonic milliseconds. {@link #SYSTEM} in production; tests move a manual
 * one by hand, so expiry can be tested without sleeping.
 */
@FunctionalInterface
public interface Ticker {
    /** Monotonic time ({@link System#nanoTime()} in milliseconds). */
    Ticker SYSTEM = () -> System.nanoTime() / 1_000_000L;

    /** Milliseconds from an arbitrary origin; never goes back. */
    long millis();
}
