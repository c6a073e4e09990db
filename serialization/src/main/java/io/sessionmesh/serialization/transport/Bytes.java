package io.sessionmesh.serialization.transport;

import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Helpers for the model's maps of name -> bytes: copying with checks, content equality, short text. */
final class Bytes {
    private Bytes() {
    }

    /** An unmodifiable copy in the same order, with checked names and non-null values. */
    static Map<String, byte[]> copyAttributes(Map<String, byte[]> attributes, String what) {
        Objects.requireNonNull(attributes, what);
        Map<String, byte[]> copy = new LinkedHashMap<>(Math.max(4, attributes.size() * 4 / 3 + 1));
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            Names.checkName(e.getKey(), "attribute name");
            if (e.getValue() == null) {
                throw MalformedMessageException.badRequest("attribute " + Names.describe(e.getKey()) + " of " + what
                        + " has no value");
            }
            copy.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(copy);
    }

    static boolean equal(Map<String, byte[]> a, Map<String, byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<Map.Entry<String, byte[]>> ia = a.entrySet().iterator();
        Iterator<Map.Entry<String, byte[]>> ib = b.entrySet().iterator();
        while (ia.hasNext()) {
            Map.Entry<String, byte[]> ea = ia.next();
            Map.Entry<String, byte[]> eb = ib.next();
            if (!ea.getKey().equals(eb.getKey()) || !Arrays.equals(ea.getValue(), eb.getValue())) {
                return false;
            }
        }
        return true;
    }

    static int hash(Map<String, byte[]> map) {
        int h = 1;
        for (Map.Entry<String, byte[]> e : map.entrySet()) {
            h = 31 * h + e.getKey().hashCode();
            h = 31 * h + Arrays.hashCode(e.getValue());
        }
        return h;
    }

    static String toString(Map<String, byte[]> map) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, byte[]> e : map.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(e.getKey()).append('=').append(e.getValue().length).append(" B");
        }
        return sb.append('}').toString();
    }
}
