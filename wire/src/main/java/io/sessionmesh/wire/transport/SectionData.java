package io.sessionmesh.wire.transport;

import java.util.Map;

/**
 * A whole section as read: its name, its version and its attributes (name to opaque value bytes, in the
 * order given). Immutable, apart from the value arrays, which are shared and must not be modified (see
 * {@link TransportMessage}). Equality compares value contents and ignores attribute order.
 */
public final class SectionData {
    private final String name;
    private final long version;
    private final Map<String, byte[]> attributes;

    /**
     * @param name a section name ({@link TransportLimits} name rules)
     * @param version the section's version, &gt;= 0
     * @param attributes copied, in iteration order; the {@code byte[]} values are not copied
     */
    public SectionData(String name, long version, Map<String, byte[]> attributes) {
        this.name = TransportLimits.checkSectionName(name);
        if (version < 0) {
            throw new IllegalArgumentException("section " + Utf8.quote(name) + ": version " + version + " is negative");
        }
        this.version = version;
        this.attributes = ModelSupport.copyAttributes(attributes, () -> "section " + Utf8.quote(name));
    }

    private SectionData(String name, long version, Map<String, byte[]> attributes, Void trusted) {
        this.name = name;
        this.version = version;
        this.attributes = attributes;
    }

    /** For decoders that have already checked everything and own an unmodifiable map. */
    static SectionData trusted(String name, long version, Map<String, byte[]> unmodifiableAttributes) {
        return new SectionData(name, version, unmodifiableAttributes, null);
    }

    public String name() {
        return name;
    }

    public long version() {
        return version;
    }

    /** Unmodifiable, in insertion order; the arrays are shared. */
    public Map<String, byte[]> attributes() {
        return attributes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SectionData s && s.version == version && s.name.equals(name)
                && ModelSupport.equalAttributes(s.attributes, attributes);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + Long.hashCode(version)) * 31 + ModelSupport.hashAttributes(attributes);
    }

    @Override
    public String toString() {
        return "section " + Utf8.quote(name) + " v" + version + " " + ModelSupport.describe(attributes);
    }
}
