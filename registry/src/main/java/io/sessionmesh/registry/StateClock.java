package io.sessionmesh.registry;

/** A state and since when it holds: whoever observes a new state (the writer thread, a status call) starts its clock. */
final class StateClock {
    private String state;
    private long sinceNanos = System.nanoTime();

    StateClock(String initial) {
        this.state = initial;
    }

    /** Notes the state now; returns how long it has held, in milliseconds. */
    synchronized long observe(String now) {
        long t = System.nanoTime();
        if (!now.equals(state)) {
            state = now;
            sinceNanos = t;
        }
        return (t - sinceNanos) / 1_000_000;
    }
}
