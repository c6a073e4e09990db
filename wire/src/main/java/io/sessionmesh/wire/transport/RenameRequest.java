package io.sessionmesh.wire.transport;

import java.util.Objects;
import java.util.Optional;

/**
 * The body of {@code POST /v1/sessions/{id}/rename} (PROTOCOL.md 2.2, message type 9): the id the session is to have
 * from now on, or none (keep it), and its new idle timeout, or 0 (keep it); at least one of the two. The session it
 * renames is the URL's. Immutable.
 *
 * <p>{@link #toString()} never shows the new id: it is a bearer secret.
 */
public final class RenameRequest implements TransportMessage {
    /**
     * What the message of a CONFLICT says when the new id is not on the old id's master (a hash ring of masters or a
     * cluster map of groups): an atomic rename across masters is not possible, so the caller picks another id.
     */
    public static final String NEW_ID_ON_ANOTHER_MASTER = "the new session id belongs to another master";

    private final String newId;
    private final long idleTimeoutSeconds;

    /**
     * @param newId the new id ({@link TransportLimits#checkRequestedSessionId}), or null to keep the id
     * @param idleTimeoutSeconds 1..{@value CreateRequest#MAX_IDLE_TIMEOUT_SECONDS}, or 0 to keep the idle timeout
     * @throws IllegalArgumentException for a value that breaks its rules, or neither given (the message never repeats
     *     the id)
     */
    public RenameRequest(String newId, long idleTimeoutSeconds) {
        this.newId = newId == null ? null : TransportLimits.checkRequestedSessionId(newId);
        this.idleTimeoutSeconds = CreateRequest.checkTimeout(idleTimeoutSeconds, "idle timeout");
        if (newId == null && idleTimeoutSeconds == 0) {
            throw new IllegalArgumentException("a rename needs a new id or an idle timeout, or both");
        }
    }

    @Override
    public int type() {
        return MessageTypes.RENAME_REQUEST;
    }

    /** The id the session is to have; empty to keep its id. */
    public Optional<String> newId() {
        return Optional.ofNullable(newId);
    }

    /** The new id, or null: for encoders. */
    String newIdOrNull() {
        return newId;
    }

    /** Seconds, or 0 to keep the session's idle timeout. */
    public long idleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RenameRequest r && Objects.equals(r.newId, newId) && r.idleTimeoutSeconds == idleTimeoutSeconds;
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(newId) * 31 + Long.hashCode(idleTimeoutSeconds);
    }

    @Override
    public String toString() {
        return "rename to " + (newId == null ? "the same id" : ModelSupport.sessionTag(newId)) + ", idle timeout "
                + (idleTimeoutSeconds == 0 ? "kept" : idleTimeoutSeconds + " s");
    }
}
