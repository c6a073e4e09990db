package io.sessionmesh.registry;

import java.util.Objects;

/**
 * One step in a session's life as a master records it in the registry. Events of one session carry increasing
 * {@code version}s (1 at creation, one more at every later step, the same on every replica of a group, since each
 * applies the same log), so a row is only ever replaced by a newer version: writing an event twice, or an old event
 * after a new one, changes nothing.
 *
 * @param kind what happened
 * @param sessionId the session
 * @param version the session's registry version after this step, 1 or more
 * @param principal the user the session belongs to, or null for none
 * @param host the peer that created the session (its certificate subject with TLS, its address without)
 * @param owner the master, or the master group, that holds the session after this step
 * @param createdAtMillis when the session was created, epoch milliseconds
 * @param atMillis when this step happened, epoch milliseconds
 */
public record LifecycleEvent(Kind kind, String sessionId, long version, String principal, String host, String owner,
                             long createdAtMillis, long atMillis) {
    /** What happened to a session. */
    public enum Kind {
        /** Created, with its principal if it had one then. */
        CREATED(true),
        /** Its principal was set, changed or cleared. */
        PRINCIPAL_CHANGED(true),
        /** Another master group holds it now (an elastic move). */
        MOVED(true),
        /** As the store holds it now: a re-sync's row for an active session. */
        ACTIVE(true),
        /** It ran out of idle time or lifetime. */
        EXPIRED(false),
        /** Deleted by a client. */
        DELETED(false),
        /** Deleted by "log out everywhere". */
        LOGGED_OUT(false);

        private final boolean active;

        Kind(boolean active) {
            this.active = active;
        }

        /** Whether the session is still active after this step. */
        public boolean active() {
            return active;
        }
    }

    public LifecycleEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(owner, "owner");
        if (version < 1) {
            throw new IllegalArgumentException("version " + version + " of session #" + Integer.toHexString(sessionId.hashCode()
                    * 0x9E3779B9) + ": expected 1 or more"); // a hash, never the id (a bearer secret) in a message
        }
    }

    /** Every field but the session id, which shows as a short hash (an id is a bearer secret: never in a log). */
    @Override
    public String toString() {
        return "LifecycleEvent[" + kind + " #" + Integer.toHexString(sessionId.hashCode() * 0x9E3779B9) + " v" + version
                + ", principal " + (principal == null ? "none" : "set") + ", host " + host + ", owner " + owner
                + ", created " + createdAtMillis + ", at " + atMillis + "]";
    }
}
