package io.sessionmesh.wire.transport;

/**
 * A request for a new, empty session, with its own idle timeout or the master's default ({@code 0}). The master
 * makes the id. Immutable.
 */
public final class CreateRequest implements TransportMessage {
    /** The largest idle timeout a request may ask for: what fits the master protocol's 32-bit milliseconds. */
    public static final long MAX_IDLE_TIMEOUT_SECONDS = 0xFFFF_FFFFL / 1000;
    /** A request for the master's default idle timeout. */
    public static final CreateRequest DEFAULT = new CreateRequest(0);

    private final long idleTimeoutSeconds;

    /** @param idleTimeoutSeconds 1..{@value #MAX_IDLE_TIMEOUT_SECONDS}, or 0 for the master's default */
    public CreateRequest(long idleTimeoutSeconds) {
        this.idleTimeoutSeconds = checkTimeout(idleTimeoutSeconds, "idle timeout");
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

    @Override
    public boolean equals(Object o) {
        return o instanceof CreateRequest c && c.idleTimeoutSeconds == idleTimeoutSeconds;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(idleTimeoutSeconds);
    }

    @Override
    public String toString() {
        return "create a session, idle timeout " + (idleTimeoutSeconds == 0 ? "default" : idleTimeoutSeconds + " s");
    }
}
