package io.sessionmesh.master.store;

import io.sessionmesh.serialization.transport.SectionData;
import io.sessionmesh.serialization.transport.SectionDelta;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One section as the store holds it: immutable, laid out for memory (two parallel arrays instead of a map:
 * about 40 bytes a section and 8 an attribute on top of the values, against about 100 a section and 40 an
 * attribute for a LinkedHashMap). A write never changes a Section: it builds the next one, so a reader holding
 * the old one sees a whole, consistent section.
 */
final class Section {
    final String name;
    final long version;
    final String[] names;
    final byte[][] values;
    /** Payload bytes: the UTF-8 bytes of the section's and the attributes' names, and the values. */
    final int bytes;

    private Section(String name, long version, String[] names, byte[][] values, int bytes) {
        this.name = name;
        this.version = version;
        this.names = names;
        this.values = values;
        this.bytes = bytes;
    }

    /** The section before its first write: version 0, no attributes. */
    static Section empty(String name) {
        return new Section(name, 0, new String[0], new byte[0][], utf8Length(name));
    }

    /**
     * The next version of this section with the delta applied. Checks the section's limits (the caller
     * checks ifVersion and the session's); throws {@link StoreException} and changes nothing if one is broken.
     */
    Section apply(SectionDelta delta, NamePool pool, StoreLimits limits) {
        Map<String, byte[]> set = delta.set();
        List<String> remove = delta.remove();
        int n = names.length;
        String[] nextNames = new String[n + set.size()];
        byte[][] nextValues = new byte[n + set.size()][];
        System.arraycopy(names, 0, nextNames, 0, n);
        System.arraycopy(values, 0, nextValues, 0, n);
        int size = n;
        long nextBytes = bytes;
        for (Map.Entry<String, byte[]> e : set.entrySet()) {
            byte[] value = e.getValue();
            if (value.length > limits.maxAttributeBytes()) {
                throw StoreException.tooLarge("attribute \"" + e.getKey() + "\" of section \"" + name + "\" is "
                        + value.length + " bytes, above the limit of " + limits.maxAttributeBytes());
            }
            int i = indexOf(nextNames, size, e.getKey());
            if (i >= 0) {
                nextBytes += value.length - nextValues[i].length;
                nextValues[i] = value;
            } else {
                String attribute = pool.intern(e.getKey());
                nextNames[size] = attribute;
                nextValues[size] = value;
                size++;
                nextBytes += utf8Length(attribute) + value.length;
            }
        }
        for (String gone : remove) {
            int i = indexOf(nextNames, size, gone);
            if (i >= 0) {
                nextBytes -= utf8Length(nextNames[i]) + nextValues[i].length;
                size--;
                System.arraycopy(nextNames, i + 1, nextNames, i, size - i);
                System.arraycopy(nextValues, i + 1, nextValues, i, size - i);
            }
        }
        if (size > limits.maxAttributesPerSection()) {
            throw StoreException.tooLarge("section \"" + name + "\" would hold " + size
                    + " attributes, above the limit of " + limits.maxAttributesPerSection());
        }
        if (nextBytes > limits.maxSectionBytes()) {
            throw StoreException.tooLarge("section \"" + name + "\" would be " + nextBytes
                    + " bytes, above the limit of " + limits.maxSectionBytes());
        }
        if (size != nextNames.length) {
            nextNames = java.util.Arrays.copyOf(nextNames, size);
            nextValues = java.util.Arrays.copyOf(nextValues, size);
        }
        return new Section(name, version + 1, nextNames, nextValues, (int) nextBytes);
    }

    /** The section as a transport message part; the value arrays are shared, never modified. */
    SectionData toData() {
        Map<String, byte[]> attributes = new LinkedHashMap<>(names.length * 2);
        for (int i = 0; i < names.length; i++) {
            attributes.put(names[i], values[i]);
        }
        return new SectionData(name, version, attributes);
    }

    int attributeCount() {
        return names.length;
    }

    private static int indexOf(String[] names, int size, String name) {
        for (int i = 0; i < size; i++) {
            String n = names[i];
            if (n == name || n.equals(name)) {
                return i;
            }
        }
        return -1;
    }

    static int utf8Length(String s) {
        int n = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return n;
    }
}
