package io.sessionmesh.wire.transport;

import java.util.List;

/** A batch read: sections of one session, by name (no duplicates). Immutable. */
public final class ReadRequest implements TransportMessage {
    private final String sessionId;
    private final List<String> sectionNames;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param sectionNames copied; valid, distinct section names
     */
    public ReadRequest(String sessionId, List<String> sectionNames) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        this.sectionNames = ModelSupport.copyNames(sectionNames, () -> "read request", true);
    }

    private ReadRequest(String sessionId, List<String> sectionNames, Void trusted) {
        this.sessionId = sessionId;
        this.sectionNames = sectionNames;
    }

    static ReadRequest trusted(String sessionId, List<String> unmodifiableNames) {
        return new ReadRequest(sessionId, unmodifiableNames, null);
    }

    @Override
    public int type() {
        return MessageTypes.READ_REQUEST;
    }

    public String sessionId() {
        return sessionId;
    }

    /** Unmodifiable. */
    public List<String> sectionNames() {
        return sectionNames;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadRequest r && r.sessionId.equals(sessionId) && r.sectionNames.equals(sectionNames);
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + sectionNames.hashCode();
    }

    @Override
    public String toString() {
        return "read " + sectionNames.size() + " sections of " + ModelSupport.sessionTag(sessionId);
    }
}
