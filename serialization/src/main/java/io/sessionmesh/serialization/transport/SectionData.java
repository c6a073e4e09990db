package io.sessionmesh.serialization.transport;

import java.util.Map;

/**
 * One section as read: its name, its version (0 for a section that does not exist yet) and its attributes,
 * name -> value bytes exactly as the client stored them, in insertion order. Values are not copied: the
 * arrays must not be changed after they are handed over.
 */
public record SectionData(String name, long version, Map<String, byte[]> attributes) {

    public SectionData {
        Names.checkName(name, "section name");
        if (version < 0) {
            throw MalformedMessageException.badRequest("section " + Names.describe(name) + " has negative version " + version);
        }
        attributes = Bytes.copyAttributes(attributes, "section " + Names.describe(name));
    }

    /** A section that does not exist yet: version 0, no attributes. */
    public static SectionData empty(String name) {
        return new SectionData(name, 0, Map.of());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SectionData && name.equals(((SectionData) o).name) && version == ((SectionData) o).version
                && Bytes.equal(attributes, ((SectionData) o).attributes);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + Long.hashCode(version)) * 31 + Bytes.hash(attributes);
    }

    @Override
    public String toString() {
        return "SectionData[" + name + " v" + version + " " + Bytes.toString(attributes) + "]";
    }
}
