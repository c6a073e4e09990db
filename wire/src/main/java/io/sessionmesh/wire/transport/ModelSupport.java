package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/** Checks, copies and content equality shared by the model classes. */
final class ModelSupport {
    private ModelSupport() {
    }

    /**
     * An unmodifiable copy in iteration order; checks every name; values are shared, not copied. {@code owner} names
     * the map's holder in an error, and is called only then (every message on the wire is built through here).
     */
    static Map<String, byte[]> copyAttributes(Map<String, byte[]> attributes, Supplier<String> owner) {
        Objects.requireNonNull(attributes, owner);
        Map<String, byte[]> copy = new LinkedHashMap<>(capacity(attributes.size()));
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            String name = TransportLimits.checkAttributeName(e.getKey());
            if (e.getValue() == null) {
                throw new IllegalArgumentException(owner.get() + ": attribute " + Utf8.quote(name) + " has a null value");
            }
            copy.put(name, e.getValue());
        }
        return Collections.unmodifiableMap(copy);
    }

    /** An unmodifiable copy; checks every name and refuses duplicates; {@code owner} as for {@link #copyAttributes}. */
    static List<String> copyNames(List<String> names, Supplier<String> owner, boolean sectionNames) {
        Objects.requireNonNull(names, owner);
        if (names.isEmpty()) {
            return List.of();
        }
        List<String> copy = new ArrayList<>(names.size());
        Set<String> seen = names.size() == 1 ? null : new HashSet<>(capacity(names.size()));
        for (String name : names) {
            if (sectionNames) {
                TransportLimits.checkSectionName(name);
            } else {
                TransportLimits.checkAttributeName(name);
            }
            if (seen != null && !seen.add(name)) {
                throw new IllegalArgumentException(owner.get() + ": duplicate name " + Utf8.quote(name));
            }
            copy.add(name);
        }
        return Collections.unmodifiableList(copy);
    }

    static int capacity(int size) {
        return size < 3 ? size + 1 : (int) (size / 0.75f) + 1;
    }

    static boolean equalAttributes(Map<String, byte[]> a, Map<String, byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, byte[]> e : a.entrySet()) {
            byte[] other = b.get(e.getKey());
            if (other == null || !Arrays.equals(e.getValue(), other)) {
                return false;
            }
        }
        return true;
    }

    /** Order-independent, like {@link Map#hashCode()}, over value contents. */
    static int hashAttributes(Map<String, byte[]> m) {
        int h = 0;
        for (Map.Entry<String, byte[]> e : m.entrySet()) {
            h += e.getKey().hashCode() ^ Arrays.hashCode(e.getValue());
        }
        return h;
    }

    /** Names and value sizes, never value bytes. */
    static String describe(Map<String, byte[]> m) {
        StringBuilder sb = new StringBuilder("{");
        int i = 0;
        for (Map.Entry<String, byte[]> e : m.entrySet()) {
            if (i > 0) {
                sb.append(", ");
            }
            if (i++ == 8) {
                sb.append("... ").append(m.size()).append(" in all");
                break;
            }
            sb.append(Utf8.quote(e.getKey())).append(": ").append(e.getValue().length).append(" B");
        }
        return sb.append('}').toString();
    }

    /** A session for logs: a hash, never the id itself (ids are bearer secrets). */
    static String sessionTag(String sessionId) {
        int h = sessionId.hashCode();
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return String.format("session #%08x", h);
    }
}
