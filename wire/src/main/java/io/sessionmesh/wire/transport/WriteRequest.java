package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A write: one {@link SectionDelta} per section (distinct section names) of one session. Immutable, apart
 * from the shared value arrays (see {@link TransportMessage}).
 */
public final class WriteRequest implements TransportMessage {
    private final String sessionId;
    private final List<SectionDelta> deltas;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param deltas copied; distinct section names
     */
    public WriteRequest(String sessionId, List<SectionDelta> deltas) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        Objects.requireNonNull(deltas, "deltas");
        List<SectionDelta> copy = new ArrayList<>(deltas.size());
        Set<String> seen = new HashSet<>(ModelSupport.capacity(deltas.size()));
        for (SectionDelta d : deltas) {
            Objects.requireNonNull(d, "delta");
            if (!seen.add(d.section())) {
                throw new IllegalArgumentException("write request: two deltas of section " + Utf8.quote(d.section()));
            }
            copy.add(d);
        }
        this.deltas = Collections.unmodifiableList(copy);
    }

    private WriteRequest(String sessionId, List<SectionDelta> deltas, Void trusted) {
        this.sessionId = sessionId;
        this.deltas = deltas;
    }

    static WriteRequest trusted(String sessionId, List<SectionDelta> unmodifiableDeltas) {
        return new WriteRequest(sessionId, unmodifiableDeltas, null);
    }

    @Override
    public int type() {
        return MessageTypes.WRITE_REQUEST;
    }

    public String sessionId() {
        return sessionId;
    }

    /** Unmodifiable, in the order given. */
    public List<SectionDelta> deltas() {
        return deltas;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteRequest w && w.sessionId.equals(sessionId) && w.deltas.equals(deltas);
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + deltas.hashCode();
    }

    @Override
    public String toString() {
        return "write to " + ModelSupport.sessionTag(sessionId) + ": " + deltas;
    }
}
