package io.sessionmesh.wire.transport;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The answer to a {@link WriteRequest}: the new version of every written section. Immutable. */
public final class WriteResult implements TransportMessage {
    private final String sessionId;
    private final Map<String, Long> versions;

    /**
     * @param sessionId a session id ({@link TransportLimits} rules)
     * @param versions section name to its new version (&gt;= 0), copied in iteration order
     */
    public WriteResult(String sessionId, Map<String, Long> versions) {
        this.sessionId = TransportLimits.checkSessionId(sessionId);
        Objects.requireNonNull(versions, "versions");
        Map<String, Long> copy = new LinkedHashMap<>(ModelSupport.capacity(versions.size()));
        for (Map.Entry<String, Long> e : versions.entrySet()) {
            String name = TransportLimits.checkSectionName(e.getKey());
            Long v = e.getValue();
            if (v == null || v < 0) {
                throw new IllegalArgumentException("write result: section " + Utf8.quote(name) + " has version " + v
                        + "; must be >= 0");
            }
            copy.put(name, v);
        }
        this.versions = Collections.unmodifiableMap(copy);
    }

    private WriteResult(String sessionId, Map<String, Long> versions, Void trusted) {
        this.sessionId = sessionId;
        this.versions = versions;
    }

    /**
     * The answer to a write request that was applied: the request's session id, and for each of its deltas (in
     * order) the section's new version. Nothing is checked again: the request's constructor or decoder already
     * checked the id and the names.
     *
     * @param versions one per delta, &gt;= 0
     */
    public static WriteResult of(WriteRequest request, long[] versions) {
        List<SectionDelta> deltas = request.deltas();
        if (versions.length != deltas.size()) {
            throw new IllegalArgumentException(versions.length + " versions for " + deltas.size() + " deltas");
        }
        Map<String, Long> map = new LinkedHashMap<>(ModelSupport.capacity(versions.length));
        for (int i = 0; i < versions.length; i++) {
            if (versions[i] < 0) {
                throw new IllegalArgumentException("version " + versions[i] + " is negative");
            }
            map.put(deltas.get(i).section(), versions[i]);
        }
        return new WriteResult(request.sessionId(), Collections.unmodifiableMap(map), null);
    }

    static WriteResult trusted(String sessionId, Map<String, Long> unmodifiableVersions) {
        return new WriteResult(sessionId, unmodifiableVersions, null);
    }

    @Override
    public int type() {
        return MessageTypes.WRITE_RESULT;
    }

    public String sessionId() {
        return sessionId;
    }

    /** Section name to new version; unmodifiable, in insertion order. */
    public Map<String, Long> versions() {
        return versions;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteResult w && w.sessionId.equals(sessionId) && w.versions.equals(versions);
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + versions.hashCode();
    }

    @Override
    public String toString() {
        return "write result of " + ModelSupport.sessionTag(sessionId) + ": " + versions;
    }
}
