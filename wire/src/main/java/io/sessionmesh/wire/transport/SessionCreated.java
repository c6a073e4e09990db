package io.sessionmesh.wire.transport;

/** The answer to a {@link CreateRequest}: the new session's id and its timeouts, in seconds. Immutable. */
public final class SessionCreated implements TransportMessage {
    private final String sessionId;
    private final long idleTimeoutSeconds;
    private final long maxLifetimeSeconds;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param idleTimeoutSeconds the session's idle timeout, &gt;= 0
     * @param maxLifetimeSeconds how long the session may live at most, &gt;= 0
     */
    public SessionCreated(String sessionId, long idleTimeoutSeconds, long maxLifetimeSeconds) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        if (idleTimeoutSeconds < 0 || maxLifetimeSeconds < 0) {
            throw new IllegalArgumentException("negative timeout: idle " + idleTimeoutSeconds + " s, lifetime "
                    + maxLifetimeSeconds + " s");
        }
        this.idleTimeoutSeconds = idleTimeoutSeconds;
        this.maxLifetimeSeconds = maxLifetimeSeconds;
    }

    @Override
    public int type() {
        return MessageTypes.SESSION_CREATED;
    }

    public String sessionId() {
        return sessionId;
    }

    public long idleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    public long maxLifetimeSeconds() {
        return maxLifetimeSeconds;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionCreated s && s.sessionId.equals(sessionId) && s.idleTimeoutSeconds == idleTimeoutSeconds
                && s.maxLifetimeSeconds == maxLifetimeSeconds;
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + Long.hashCode(idleTimeoutSeconds * 31 + maxLifetimeSeconds);
    }

    @Override
    public String toString() {
        return "created " + ModelSupport.sessionTag(sessionId) + ", idle " + idleTimeoutSeconds + " s, lifetime "
                + maxLifetimeSeconds + " s";
    }
}
