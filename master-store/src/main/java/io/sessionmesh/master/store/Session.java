package io.sessionmesh.master.store;

/**
 * One session: its sections and its clock. The sections array is copy-on-write: a write builds a new array
 * (sharing the untouched sections) and publishes it with one volatile store, so a reader always sees every
 * delta of a write or none. Writers of one session take its monitor; readers take nothing.
 */
final class Session {
    static final Section[] NO_SECTIONS = {};

    final String id;
    final long createdAt;
    final long idleTimeout;
    /** createdAt + the store's maximum lifetime: the session dies then, used or not. */
    final long hardDeadline;
    volatile long lastAccess;
    volatile Section[] sections = NO_SECTIONS;
    /** Payload bytes of all sections; guarded by this. */
    long bytes;
    /** Set once, under this, when the session leaves the store (deleted or expired). */
    volatile boolean removed;

    Session(String id, long now, long idleTimeout, long maxLifetime) {
        this.id = id;
        this.createdAt = now;
        this.idleTimeout = idleTimeout;
        this.hardDeadline = now + maxLifetime;
        this.lastAccess = now;
    }

    /** When the session expires unless it is used again. */
    long deadline() {
        return Math.min(lastAccess + idleTimeout, hardDeadline);
    }

    boolean isExpired(long now) {
        return now >= deadline();
    }
}
