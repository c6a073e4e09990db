package io.sessionmesh.testing.hosts;

/**
 * A fault that {@link Faults} put in place, lifted by {@link #close()} (idempotent), or by {@link TestHosts#close()}
 * with every other one still in place.
 */
public interface Fault extends AutoCloseable {
    /** What the fault is, for messages: "partition [a] | [b]", say. */
    String description();

    /** Lifts the fault.
     *
     * @throws IllegalStateException naming the command that failed to lift it
     */
    @Override
    void close();
}
