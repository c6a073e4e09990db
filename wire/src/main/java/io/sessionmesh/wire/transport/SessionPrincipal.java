package io.sessionmesh.wire.transport;

import java.util.Objects;
import java.util.Optional;

/**
 * A session's principal, the user it belongs to, or none: the body of {@code PUT /v1/sessions/{id}/principal} and the
 * answer of {@code GET} on that path (PROTOCOL.md 2.2, message type 8). Immutable.
 *
 * <p>{@link #toString()} never shows the principal or the id: the one names a user, the other is a bearer secret.
 */
public final class SessionPrincipal implements TransportMessage {
    private final String sessionId;
    private final String principal;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param principal a principal ({@link TransportLimits#checkPrincipal}), or null for none
     * @throws IllegalArgumentException if either breaks its rules (the message never repeats them)
     */
    public SessionPrincipal(String sessionId, String principal) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        this.principal = principal == null ? null : TransportLimits.checkPrincipal(principal);
    }

    @Override
    public int type() {
        return MessageTypes.SESSION_PRINCIPAL;
    }

    public String sessionId() {
        return sessionId;
    }

    /** The principal; empty when the session belongs to no one. */
    public Optional<String> principal() {
        return Optional.ofNullable(principal);
    }

    /** The principal, or null: for encoders. */
    String principalOrNull() {
        return principal;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionPrincipal s && s.sessionId.equals(sessionId) && Objects.equals(s.principal, principal);
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + Objects.hashCode(principal);
    }

    @Override
    public String toString() {
        return "principal of " + ModelSupport.sessionTag(sessionId) + ": "
                + (principal == null ? "none" : Utf8.textLength(principal) + " bytes");
    }
}
