package io.sessionmesh.wire.transport;

import java.util.Objects;
import java.util.Optional;

/**
 * A request for a new, empty session, with its own idle timeout or the master's default ({@code 0}), the principal it
 * belongs to, or none, and the id the application chose for it, or none (then the master makes the id). Immutable.
 *
 * <p>{@link #toString()} never shows the principal or the requested id: the one names a user, the other is a bearer
 * secret.
 */
public final class CreateRequest implements TransportMessage {
    /** The largest idle timeout a request may ask for: what fits the master protocol's 32-bit milliseconds. */
    public static final long MAX_IDLE_TIMEOUT_SECONDS = 0xFFFF_FFFFL / 1000;
    /** A request for the master's default idle timeout, and no principal. */
    public static final CreateRequest DEFAULT = new CreateRequest(0);

    private final long idleTimeoutSeconds;
    private final String principal;
    private final String sessionId;

    /** @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default */
    public CreateRequest(long idleTimeoutSeconds) {
        this(idleTimeoutSeconds, null, null);
    }

    /**
     * @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default
     * @param principal the user the session belongs to ({@link TransportLimits#checkPrincipal}), or null for none
     * @throws IllegalArgumentException for a timeout out of range or a principal that breaks its rules (the message
     *     never repeats it)
     */
    public CreateRequest(long idleTimeoutSeconds, String principal) {
        this(idleTimeoutSeconds, principal, null);
    }

    /**
     * @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default
     * @param principal the user the session belongs to ({@link TransportLimits#checkPrincipal}), or null for none
     * @param sessionId the id the session must have ({@link TransportLimits#checkRequestedSessionId}: at least
     *     {@value TransportLimits#MIN_REQUESTED_ID_CHARS} chars), or null for one the master makes
     * @throws IllegalArgumentException for a value that breaks its rules (the message never repeats a principal or id)
     */
    public CreateRequest(long idleTimeoutSeconds, String principal, String sessionId) {
        this.idleTimeoutSeconds = checkTimeout(idleTimeoutSeconds, "idle timeout");
        this.principal = principal == null ? null : TransportLimits.checkPrincipal(principal);
        this.sessionId = sessionId == null ? null : TransportLimits.checkRequestedSessionId(sessionId);
    }

    static long checkTimeout(long seconds, String what) {
        if (seconds < 0 || seconds > MAX_IDLE_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException(what + " of " + seconds + " s is outside 0.." + MAX_IDLE_TIMEOUT_SECONDS + " s");
        }
        return seconds;
    }

    @Override
    public int type() {
        return MessageTypes.CREATE_REQUEST;
    }

    /** Seconds, or 0 for the master's default. */
    public long idleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    /** The principal the new session belongs to; empty for none. */
    public Optional<String> principal() {
        return Optional.ofNullable(principal);
    }

    /** The principal, or null: for encoders. */
    String principalOrNull() {
        return principal;
    }

    /** The id the new session must have; empty when the master makes it. */
    public Optional<String> sessionId() {
        return Optional.ofNullable(sessionId);
    }

    /** The requested id, or null: for encoders. */
    String sessionIdOrNull() {
        return sessionId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CreateRequest c && c.idleTimeoutSeconds == idleTimeoutSeconds && Objects.equals(c.principal, principal)
                && Objects.equals(c.sessionId, sessionId);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(idleTimeoutSeconds) * 31 + Objects.hashCode(principal)) * 31 + Objects.hashCode(sessionId);
    }

    @Override
    public String toString() {
        return "create a session, idle timeout " + (idleTimeoutSeconds == 0 ? "default" : idleTimeoutSeconds + " s")
                + (principal == null ? "" : ", with a principal of " + Utf8.textLength(principal) + " bytes")
                + (sessionId == null ? "" : ", with a requested id " + ModelSupport.sessionTag(sessionId));
    }
}
