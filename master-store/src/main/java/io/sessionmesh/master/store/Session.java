package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.SessionHolders;
import io.sessionmesh.wire.transport.EncodedSection;

/**
 * One session: its sections and its clock. The sections array is copy-on-write: a write builds a new array
 * (sharing the untouched sections) and publishes it with one volatile store, so a reader always sees every
 * delta of a write or none. Writers of one session take its monitor; anonymous readers take nothing, readers that
 * cache what they read (sidecars) take the monitor too, to note themselves as holders in step with the sections
 * they see.
 */
final class Session {
    static final EncodedSection[] NO_SECTIONS = {};

    final String id;
    final long createdAt;
    /** Changed only by a RENAME that sets a new idle timeout, under this; read without it (deadline checks). */
    volatile long idleTimeout;
    /** createdAt + the store's maximum lifetime: the session dies then, used or not. */
    final long hardDeadline;
    volatile long lastAccess;
    /**
     * In a replica of a group ({@link SessionStore#removeOnlyThroughTheLog}): the time of the last entry of the group's
     * log that used the session (its creation, a write, a touch, a rename, a new leader's start). Every replica agrees
     * on it, where the leader's {@link #lastAccess} also counts the reads it served, which are not in the log; so a
     * replica's EXPIRE and its snapshots judge by this. Written by the log's applier only. Unused by a master alone.
     */
    long loggedAccess;
    volatile EncodedSection[] sections = NO_SECTIONS;
    /** Bytes of all sections in their wire form; guarded by this. */
    long bytes;
    /** Set once, under this, when the session leaves the store (deleted or expired). */
    volatile boolean removed;
    /**
     * The session this one became by a RENAME, set before {@link #removed} (so a reader that sees it removed sees
     * this): what a pass over the store follows, so that a rename racing with the pass cannot hide the session.
     */
    volatile Session renamedTo;
    /** The user the session belongs to, or null; written under this. */
    volatile String principal;
    /** The peer that created it (certificate subject or address), or null when not known (an older snapshot). */
    String host;
    /** Steps of its life recorded for the registry: 1 at creation, one more at each later step; guarded by this. */
    long registryVersion = 1;
    /** Which caches hold which sections, and the write waiting for their invalidations; null until a cache reads or writes. Guarded by this. */
    SessionHolders holders;

    Session(String id, long now, long idleTimeout, long maxLifetime) {
        this(id, now, idleTimeout, now + maxLifetime, now);
    }

    /** A session as a snapshot recorded it. */
    Session(String id, long createdAt, long idleTimeout, long hardDeadline, long lastAccess) {
        this.id = id;
        this.createdAt = createdAt;
        this.idleTimeout = idleTimeout;
        this.hardDeadline = hardDeadline;
        this.lastAccess = lastAccess;
        this.loggedAccess = lastAccess;
    }

    private static final java.lang.invoke.VarHandle LAST_ACCESS;

    static {
        try {
            LAST_ACCESS = java.lang.invoke.MethodHandles.lookup().findVarHandle(Session.class, "lastAccess", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Records a use. A release store, not a volatile one: the time only has to become visible, not ordered
     * against later loads, and a volatile store costs a full fence on every read of the session. Skipped when
     * the millisecond has not changed, to spare the cache line, and when {@code now} is older than the last use
     * (another event loop may have read the clock later and touched it first): the last use never goes back.
     */
    void touch(long now) {
        if (now > lastAccess) {
            LAST_ACCESS.setRelease(this, now);
        }
    }

    /**
     * Records a use by an entry of the group's log at the entry's time; the last access never goes back (the leader
     * may have served a read after the entry was stamped).
     */
    void touchByLog(long now) {
        touch(now);
        if (now > loggedAccess) {
            loggedAccess = now;
        }
    }

    /** The coherence bookkeeping, made on first use; under this. */
    SessionHolders holders() {
        if (holders == null) {
            holders = new SessionHolders();
        }
        return holders;
    }

    /** When the session expires unless it is used again. */
    long deadline() {
        return Math.min(lastAccess + idleTimeout, hardDeadline);
    }

    boolean isExpired(long now) {
        return now >= deadline();
    }

    /** Whether the session has expired by {@code now} as the group's log alone sees it ({@link #loggedAccess}). */
    boolean isExpiredByLog(long now) {
        return now >= Math.min(loggedAccess + idleTimeout, hardDeadline);
    }
}
