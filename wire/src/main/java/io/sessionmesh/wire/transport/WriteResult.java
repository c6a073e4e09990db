package io.sessionmesh.wire.transport;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The answer to a {@link WriteRequest}: the new version of every written section. Immutable. One a store makes
 * ({@link #of}) keeps the names and versions in two arrays and builds the map only when {@link #versions()} is asked
 * for: the binary encoder reads the arrays.
 */
public final class WriteResult implements TransportMessage {
    private final String sessionId;
    /** The map; built from the arrays when first asked for, for a result made by {@link #of}. */
    private volatile Map<String, Long> versions;
    private final String[] names;
    private final long[] versionArray;

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
        this.names = null;
        this.versionArray = null;
    }

    private WriteResult(String sessionId, Map<String, Long> versions, String[] names, long[] versionArray) {
        this.sessionId = sessionId;
        this.versions = versions;
        this.names = names;
        this.versionArray = versionArray;
    }

    /**
     * The answer to a write request that was applied: the request's session id, and for each of its deltas (in
     * order) the section's new version. Nothing is checked again: the request's constructor or decoder already
     * checked the id and the names.
     *
     * @param versions one per delta, &gt;= 0; kept, not copied
     */
    public static WriteResult of(WriteRequest request, long[] versions) {
        String[] names = new String[request.deltaCount()];
        for (int i = 0; i < names.length; i++) {
            names[i] = request.section(i);
        }
        return new WriteResult(request.sessionId(), null, names, checked(versions, names.length));
    }

    /** {@link #of(WriteRequest, long[])} from the request's wire form; shares its array of section names (never changed). */
    public static WriteResult of(EncodedWrite write, long[] versions) {
        String[] names = write.sectionArray();
        return new WriteResult(write.sessionId(), null, names, checked(versions, names.length));
    }

    /** {@code versions}, one per delta of {@code deltas} and none negative; kept, not copied. */
    static long[] checked(long[] versions, int deltas) {
        if (versions.length != deltas) {
            throw new IllegalArgumentException(versions.length + " versions for " + deltas + " deltas");
        }
        for (long version : versions) {
            if (version < 0) {
                throw new IllegalArgumentException("version " + version + " is negative");
            }
        }
        return versions;
    }

    static WriteResult trusted(String sessionId, Map<String, Long> unmodifiableVersions) {
        return new WriteResult(sessionId, unmodifiableVersions, null, null);
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
        Map<String, Long> m = versions;
        if (m == null) {
            Map<String, Long> built = new LinkedHashMap<>(ModelSupport.capacity(names.length));
            for (int i = 0; i < names.length; i++) {
                built.put(names[i], versionArray[i]);
            }
            m = Collections.unmodifiableMap(built);
            versions = m;
        }
        return m;
    }

    /** For the binary encoder: the sections, in order, without building the map. */
    int sectionCount() {
        return names != null ? names.length : versions.size();
    }

    /** For the binary encoder: the names, in order (null: use {@link #versions()}). */
    String[] namesOrNull() {
        return names;
    }

    /** For the binary encoder: the versions, index for index with {@link #namesOrNull()}. */
    long[] versionsOrNull() {
        return versionArray;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriteResult w && w.sessionId.equals(sessionId) && w.versions().equals(versions());
    }

    @Override
    public int hashCode() {
        return sessionId.hashCode() * 31 + versions().hashCode();
    }

    @Override
    public String toString() {
        return "write result of " + ModelSupport.sessionTag(sessionId) + ": " + versions();
    }
}
