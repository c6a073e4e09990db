package io.sessionmesh.master.coherence;

/**
 * Tells the caches that hold sections of a session that those sections changed. The store calls it under the
 * session's lock, right after a write or delete is applied, so that invalidations of one session leave in the
 * order of its writes.
 */
@FunctionalInterface
public interface Invalidator {
    /** For stores without caches in front (tests, benchmarks): nothing to tell. */
    Invalidator NONE = (sessionId, holders, sections, versions, previous) -> previous;

    /**
     * Sends the invalidations and returns what the write's acknowledgement must wait for.
     *
     * @param holders {@link HolderRegistry} bits of the caches to tell (never the writer itself, except in the shared bit)
     * @param sections the sections changed; empty when the session is gone
     * @param versions their new versions
     * @param previous the session's previous write that is still waiting, or null
     * @return the fence to wait for (null when there is none)
     */
    Fence invalidate(String sessionId, long holders, String[] sections, long[] versions, Fence previous);
}
