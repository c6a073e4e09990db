package io.sessionmesh.master.store;

/**
 * The store's clock for expiry: monotonic milliseconds. {@link #SYSTEM} in production; tests move a manual
 * one by hand, so expiry can be tested without sleeping.
 */
@FunctionalInterface
public interface Ticker {
    /** Monotonic time ({@link System#nanoTime()} in milliseconds). */
    Ticker SYSTEM = () -> System.nanoTime() / 1_000_000L;

    /**
     * The wall clock ({@link System#currentTimeMillis()}), for the replicas of a group: their log carries the leader's
     * time, which every replica, and the next leader, must read on one scale. It may step back a little when the host's
     * clock is set; expiry then runs that much late, never early by more than the step.
     */
    Ticker WALL = System::currentTimeMillis;

    /** Milliseconds from an arbitrary origin; never goes back. */
    long millis();
}
