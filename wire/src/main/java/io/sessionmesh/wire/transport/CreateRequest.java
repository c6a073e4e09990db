package io.sessionmesh.wire.transport;

import java.util.Objects;
import java.util.Optional;

/**
 * A request for a new, empty session, with its own idle timeout or the master's default ({@code 0}), and the
 * principal it belongs to, or none. The master makes the id. Immutable.
 *
 * <p>{@link #toString()} never shows the principal: it names a user.
 */
public final class CreateRequest implements TransportMessage {
    /** The largest idle timeout a request may ask for: what fits the master protocol's 32-bit milliseconds. */
    public static final long MAX_IDLE_TIMEOUT_SECONDS = 0xFFFF_FFFFL / 1000;
    /** A request for the master's default idle timeout, and no principal. */
    public static final CreateRequest DEFAULT = new CreateRequest(0);

    private final long idleTimeoutSeconds;
    private final String principal;

    /** @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default */
    public CreateRequest(long idleTimeoutSeconds) {
        this(idleTimeoutSeconds, null);
    }

    /**
     * @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default
     * @param principal the user the session belongs to ({@link TransportLimits#checkPrincipal}), or null for none
     * @throws IllegalArgumentException for a timeout out of range or a principal that breaks its rules (the message
     *     never repeats it)
     */
    public CreateRequest(long idleTimeoutSeconds, String principal) {
        this.idleTimeoutSeconds = checkTimeout(idleTimeoutSeconds, "idle timeout");
        this.principal = principal == null ? null : TransportLimits.checkPrincipal(principal);
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

    @Override
    public boolean equals(Object o) {
        return o instanceof CreateRequest c && c.idleTimeoutSeconds == idleTimeoutSeconds && Objects.equals(c.principal, principal);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(idleTimeoutSeconds) * 31 + Objects.hashCode(principal);
    }

    @Override
    public String toString() {
        return "create a session, idle timeout " + (idleTimeoutSeconds == 0 ? "default" : idleTimeoutSeconds + " s")
                + (principal == null ? "" : ", with a principal of " + Utf8.textLength(principal) + " bytes");
    }
}
