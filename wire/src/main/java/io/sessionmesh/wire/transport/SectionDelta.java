package io.sessionmesh.wire.transport;

import java.util.List;
import java.util.Map;

/**
 * The change of one section in a write: attributes to set (name to new value bytes) and attribute names to
 * remove; a name may not be in both. With an {@link #ifVersion()} the write applies only if the section is
 * still at that version ({@link Status#CONFLICT} otherwise). Immutable, apart from the shared value arrays
 * (see {@link TransportMessage}).
 *
 * <p>"No condition" is the sentinel {@link #NO_VERSION} rather than a nullable {@code Long}: the hot path
 * stays free of boxing and the binary form stores {@code ifVersion + 1} as one varint (0 = none).
 */
public final class SectionDelta {
    /** {@link #ifVersion()} of an unconditional write. */
    public static final long NO_VERSION = -1;

    private final String section;
    private final long ifVersion;
    private final Map<String, byte[]> set;
    private final List<String> remove;

    /**
     * @param section a section name ({@link TransportLimits} name rules)
     * @param ifVersion the version the section must have, &gt;= 0, or {@link #NO_VERSION}
     * @param set attributes to set, copied in iteration order; the {@code byte[]} values are not copied
     * @param remove attribute names to remove, copied; no duplicates, none of them in {@code set}
     */
    public SectionDelta(String section, long ifVersion, Map<String, byte[]> set, List<String> remove) {
        this.section = TransportLimits.checkSectionName(section);
        if (ifVersion < NO_VERSION) {
            throw new IllegalArgumentException(owner(section) + ": ifVersion " + ifVersion + " is neither >= 0 nor NO_VERSION (-1)");
        }
        this.ifVersion = ifVersion;
        this.set = ModelSupport.copyAttributes(set, () -> owner(section));
        this.remove = ModelSupport.copyNames(remove, () -> owner(section) + " remove", false);
        for (String name : this.remove) {
            if (this.set.containsKey(name)) {
                throw new IllegalArgumentException(owner(section) + ": attribute " + Utf8.quote(name) + " is both set and removed");
            }
        }
    }

    /** An unconditional delta. */
    public SectionDelta(String section, Map<String, byte[]> set, List<String> remove) {
        this(section, NO_VERSION, set, remove);
    }

    private SectionDelta(String section, long ifVersion, Map<String, byte[]> set, List<String> remove, Void trusted) {
        this.section = section;
        this.ifVersion = ifVersion;
        this.set = set;
        this.remove = remove;
    }

    /** For decoders that have already checked everything and own unmodifiable collections. */
    static SectionDelta trusted(String section, long ifVersion, Map<String, byte[]> set, List<String> remove) {
        return new SectionDelta(section, ifVersion, set, remove, null);
    }

    public String section() {
        return section;
    }

    /** The required current version, or {@link #NO_VERSION}. */
    public long ifVersion() {
        return ifVersion;
    }

    public boolean hasIfVersion() {
        return ifVersion != NO_VERSION;
    }

    /** Unmodifiable, in insertion order; the arrays are shared. */
    public Map<String, byte[]> set() {
        return set;
    }

    /** Unmodifiable. */
    public List<String> remove() {
        return remove;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SectionDelta d && d.ifVersion == ifVersion && d.section.equals(section)
                && d.remove.equals(remove) && ModelSupport.equalAttributes(d.set, set);
    }

    @Override
    public int hashCode() {
        return ((section.hashCode() * 31 + Long.hashCode(ifVersion)) * 31 + ModelSupport.hashAttributes(set)) * 31
                + remove.hashCode();
    }

    private static String owner(String section) {
        return "delta of section " + Utf8.quote(section);
    }

    @Override
    public String toString() {
        return "delta of section " + Utf8.quote(section) + (hasIfVersion() ? " if v" + ifVersion : "") + " set "
                + ModelSupport.describe(set) + " remove " + remove.size();
    }
}
