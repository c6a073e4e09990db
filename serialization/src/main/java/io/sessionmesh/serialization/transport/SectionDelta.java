package io.sessionmesh.serialization.transport;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The change to one section in a write: attributes to set (name -> new value bytes) and attribute names to
 * remove, applied together; with {@code ifVersion} other than {@link #NO_VERSION} the write applies only if
 * the section is at that version (optimistic concurrency). A name may not be both set and removed.
 */
public record SectionDelta(String section, long ifVersion, Map<String, byte[]> set, List<String> remove) {
    /** No version condition. */
    public static final long NO_VERSION = -1;

    public SectionDelta {
        Names.checkName(section, "section name");
        if (ifVersion < NO_VERSION) {
            throw MalformedMessageException.badRequest("section " + Names.describe(section) + " has ifVersion "
                    + ifVersion + "; use a version >= 0, or none");
        }
        set = Bytes.copyAttributes(set, "the delta of section " + Names.describe(section));
        Objects.requireNonNull(remove, "remove");
        Set<String> removed = new HashSet<>();
        for (String name : remove) {
            Names.checkName(name, "attribute name");
            if (!removed.add(name)) {
                throw MalformedMessageException.badRequest("attribute " + Names.describe(name) + " is removed twice in section "
                        + Names.describe(section));
            }
            if (set.containsKey(name)) {
                throw MalformedMessageException.badRequest("attribute " + Names.describe(name) + " is both set and removed in section "
                        + Names.describe(section));
            }
        }
        remove = List.copyOf(remove);
    }

    /** A delta without a version condition. */
    public static SectionDelta of(String section, Map<String, byte[]> set, List<String> remove) {
        return new SectionDelta(section, NO_VERSION, set, remove);
    }

    /** Whether this delta carries a version condition. */
    public boolean hasIfVersion() {
        return ifVersion != NO_VERSION;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SectionDelta)) {
            return false;
        }
        SectionDelta d = (SectionDelta) o;
        return section.equals(d.section) && ifVersion == d.ifVersion && Bytes.equal(set, d.set) && remove.equals(d.remove);
    }

    @Override
    public int hashCode() {
        return Objects.hash(section, ifVersion, Bytes.hash(set), remove);
    }

    @Override
    public String toString() {
        return "SectionDelta[" + section + (hasIfVersion() ? " if v" + ifVersion : "") + " set " + Bytes.toString(set)
                + " remove " + remove + "]";
    }
}
