package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One section kept in its binary wire form, the bytes it takes inside a READ_RESULT (PROTOCOL.md 2.1):
 *
 * <pre>
 * [name: string][version: varint][m: varint][m x (name: string, length: varint, value bytes)]
 * </pre>
 *
 * The master's store and the sidecar's cache hold sections this way. A read answer is then a copy of these bytes
 * (no object per attribute, no encoding), the section costs one array instead of two per attribute, and a delta
 * is merged ({@link #apply}) by copying the untouched attributes' bytes. Immutable: {@link #apply} makes a new
 * one. Built only from checked input (the model's constructors, or a decoder that checked every byte).
 */
public final class EncodedSection {
    /** Deltas with more names than this match names through a hash map rather than by scanning. */
    private static final int SCAN_LIMIT = 8;
    private static final int[] NO_ACTIONS = {};

    private final String name;
    private final long version;
    private final byte[] bytes;
    /** Offset of the first attribute (just after the count). */
    private final int attributesAt;
    private final int attributeCount;
    /** Sum of the value lengths. */
    private final int valueBytes;

    private EncodedSection(String name, long version, byte[] bytes, int attributesAt, int attributeCount, int valueBytes) {
        this.name = name;
        this.version = version;
        this.bytes = bytes;
        this.attributesAt = attributesAt;
        this.attributeCount = attributeCount;
        this.valueBytes = valueBytes;
    }

    /**
     * A section whose {@code size} bytes its maker fills before it hands the section on. The array is allocated in here,
     * right after the object, so that the two sit next to each other in memory: a write reaches a section's bytes
     * through the section, and a cache miss on each costs the master's write more than the merge's instructions
     * (benchmarks/RESULTS.md 12.20 at 1f3fa7a). The bytes are written after the constructor, so its maker ends with
     * {@link #filled}, which orders them before any later store of the section as a final field's freeze would.
     */
    private EncodedSection(String name, long version, int size, int attributesAt, int attributeCount, int valueBytes) {
        this.name = name;
        this.version = version;
        this.bytes = new byte[size];
        this.attributesAt = attributesAt;
        this.attributeCount = attributeCount;
        this.valueBytes = valueBytes;
    }

    /**
     * The next version of this section, {@code size} bytes, with its header written (this section's name, its
     * {@code prefix} bytes as they are, then {@code newVersion} and {@code count}); the caller writes its attributes
     * from {@link #attributesAt} on, then hands it on through {@link #filled}.
     */
    private EncodedSection headed(int prefix, long newVersion, int size, int count, int values) {
        int at = prefix + BinaryWriter.varintSize(newVersion) + BinaryWriter.varintSize(count);
        EncodedSection next = new EncodedSection(name, newVersion, size, at, count, values);
        System.arraycopy(bytes, 0, next.bytes, 0, prefix);
        int w = BinaryWriter.writeVarint(count, next.bytes, BinaryWriter.writeVarint(newVersion, next.bytes, prefix));
        assert w == at : "attributes at " + w + ", not " + at;
        return next;
    }

    /**
     * A section made by the constructor that allocates its bytes, once they are written: a store-store fence (free on
     * x86, a compiler barrier), so that a thread that finds the section through a data race still sees its bytes, as
     * it would have through the final field had they been written before the constructor ended.
     */
    private static EncodedSection filled(EncodedSection section) {
        java.lang.invoke.VarHandle.storeStoreFence();
        return section;
    }

    /** The section before its first write: version 0, no attributes. */
    public static EncodedSection empty(String name) {
        TransportLimits.checkSectionName(name);
        int nameLen = Utf8.textLength(name);
        byte[] b = new byte[BinaryWriter.varintSize(nameLen) + nameLen + 2];
        int pos = BinaryWriter.writeVarint(nameLen, b, 0);
        pos = Utf8.encode(name, b, pos);
        b[pos++] = 0; // version
        b[pos++] = 0; // no attributes
        return new EncodedSection(name, 0, b, pos, 0, 0);
    }

    /** A section of the model, encoded. */
    public static EncodedSection of(SectionData section) {
        Map<String, byte[]> attributes = section.attributes();
        String[] names = attributes.keySet().toArray(new String[0]);
        byte[][] values = attributes.values().toArray(new byte[0][]);
        return build(section.name(), section.version(), names, values, names.length);
    }

    /** Wraps bytes a decoder has checked: the caller vouches for every field. */
    static EncodedSection trusted(String name, long version, byte[] bytes, int attributesAt, int attributeCount, int valueBytes) {
        return new EncodedSection(name, version, bytes, attributesAt, attributeCount, valueBytes);
    }

    public String name() {
        return name;
    }

    public long version() {
        return version;
    }

    public int attributeCount() {
        return attributeCount;
    }

    /** Bytes of the wire form (what this section adds to a READ_RESULT body). */
    public int encodedSize() {
        return bytes.length;
    }

    /** Sum of the attribute values' lengths. */
    public int valueBytes() {
        return valueBytes;
    }

    /** Copies the wire form into {@code dst} at {@code pos}; returns the position after it. */
    public int writeTo(byte[] dst, int pos) {
        System.arraycopy(bytes, 0, dst, pos, bytes.length);
        return pos + bytes.length;
    }

    /** Puts the wire form into {@code dst} (a direct buffer, say); its position advances. */
    public void writeTo(java.nio.ByteBuffer dst) {
        dst.put(bytes);
    }

    /**
     * The section with {@code delta} merged: set attributes replace old values in place or are appended in the
     * delta's order, removed ones disappear (a name that is not there is ignored), the others keep their bytes
     * and order. The version becomes {@code newVersion}. Limits are the caller's to check on the result
     * ({@link #attributeCount()}, {@link #encodedSize()}) and on the delta's values.
     */
    public EncodedSection apply(SectionDelta delta, long newVersion) {
        if (!delta.section().equals(name)) {
            throw new IllegalArgumentException("delta of section " + Utf8.quote(delta.section()) + " applied to "
                    + Utf8.quote(name));
        }
        if (newVersion < 0) {
            throw new IllegalArgumentException("version " + newVersion + " is negative");
        }
        Map<String, byte[]> set = delta.set();
        List<String> remove = delta.remove();
        String[] setNames = set.keySet().toArray(new String[0]);
        byte[][] setValues = set.values().toArray(new byte[0][]);
        byte[][] setKeys = utf8(setNames);
        byte[][] removeKeys = utf8(remove.toArray(new String[0]));
        Map<String, Integer> setIndex = setNames.length > SCAN_LIMIT ? indexOf(setNames) : null;
        java.util.Set<String> removeSet = removeKeys.length > SCAN_LIMIT ? new java.util.HashSet<>(remove) : null;

        // Pass 1: decide for each old attribute (keep, replace by set entry i, drop); size the result.
        int[] action = new int[attributeCount];
        boolean[] used = new boolean[setNames.length];
        int nameLen = Utf8.textLength(name);
        long size = BinaryWriter.varintSize(nameLen) + nameLen + BinaryWriter.varintSize(newVersion);
        int count = 0;
        int values = 0;
        int pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int keyAt = pos + BinaryWriter.varintSize(keyLen);
            int lenAt = keyAt + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            int end = lenAt + BinaryWriter.varintSize(valueLen) + valueLen;
            int i = setIndex != null ? lookup(setIndex, bytes, keyAt, keyLen) : find(setKeys, bytes, keyAt, keyLen);
            if (i >= 0) {
                action[a] = i;
                used[i] = true;
                size += (lenAt - pos) + BinaryWriter.varintSize(setValues[i].length) + setValues[i].length;
                values += setValues[i].length;
                count++;
            } else if (removeSet != null ? removeSet.contains(Utf8.decode(bytes, keyAt, keyLen, false))
                    : find(removeKeys, bytes, keyAt, keyLen) >= 0) {
                action[a] = -1;
            } else {
                action[a] = -2;
                size += end - pos;
                values += valueLen;
                count++;
            }
            pos = end;
        }
        for (int i = 0; i < setNames.length; i++) {
            if (!used[i]) {
                size += BinaryWriter.varintSize(setKeys[i].length) + setKeys[i].length
                        + BinaryWriter.varintSize(setValues[i].length) + setValues[i].length;
                values += setValues[i].length;
                count++;
            }
        }
        size += BinaryWriter.varintSize(count);
        if (size > Integer.MAX_VALUE - 16) {
            throw new MalformedMessageException(Status.TOO_LARGE, "section " + Utf8.quote(name) + " would be " + size + " bytes");
        }

        // Pass 2: write.
        byte[] out = new byte[(int) size];
        int w = BinaryWriter.writeVarint(nameLen, out, 0);
        w = Utf8.encode(name, out, w);
        w = BinaryWriter.writeVarint(newVersion, out, w);
        w = BinaryWriter.writeVarint(count, out, w);
        int outAttributesAt = w;
        pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int lenAt = pos + BinaryWriter.varintSize(keyLen) + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            int end = lenAt + BinaryWriter.varintSize(valueLen) + valueLen;
            if (action[a] == -2) {
                System.arraycopy(bytes, pos, out, w, end - pos);
                w += end - pos;
            } else if (action[a] >= 0) {
                System.arraycopy(bytes, pos, out, w, lenAt - pos);
                w += lenAt - pos;
                w = writeValue(setValues[action[a]], out, w);
            }
            pos = end;
        }
        for (int i = 0; i < setNames.length; i++) {
            if (!used[i]) {
                w = BinaryWriter.writeVarint(setKeys[i].length, out, w);
                System.arraycopy(setKeys[i], 0, out, w, setKeys[i].length);
                w += setKeys[i].length;
                w = writeValue(setValues[i], out, w);
            }
        }
        assert w == out.length : "sized " + out.length + ", wrote " + w;
        return new EncodedSection(name, newVersion, out, outAttributesAt, count, values);
    }

    /**
     * The section with delta {@code d} of {@code write} merged, straight from the request's bytes: the same result as
     * {@link #apply(SectionDelta, long)} with that delta in the model, byte for byte, with one copy of each value (from
     * the request into the new section) and no map, string or array per attribute on the way for deltas of up to
     * {@value #SCAN_LIMIT} names. A set attribute is its request entry as it is (name, length, value: the same form,
     * both checked and in shortest form), in place of the old one or appended in the delta's order. Limits are the
     * caller's to check, as for {@link #apply(SectionDelta, long)}.
     */
    public EncodedSection apply(EncodedWrite write, int d, long newVersion) {
        if (!write.section(d).equals(name)) {
            throw new IllegalArgumentException("delta of section " + Utf8.quote(write.section(d)) + " applied to "
                    + Utf8.quote(name));
        }
        if (newVersion < 0) {
            throw new IllegalArgumentException("version " + newVersion + " is negative");
        }
        byte[] src = write.bytes();
        int m = write.setCount(d);
        int setFrom = write.firstSetAt(d);
        int r = write.removeCount(d);
        if (m == 1 && r == 0) {
            return setOne(src, setFrom, write.setEndAt(d), newVersion);
        }
        int removeFrom = write.firstRemoveAt(d);
        // More names than a scan suits: where each set entry starts, and hashed names (as apply(SectionDelta) does).
        int[] setAt = null;
        Map<String, Integer> setIndex = null;
        if (m > SCAN_LIMIT) {
            setAt = new int[m];
            setIndex = new HashMap<>(ModelSupport.capacity(m));
            int p = setFrom;
            for (int j = 0; j < m; j++) {
                setAt[j] = p;
                int keyLen = readVarint(src, p);
                int keyAt = p + BinaryWriter.varintSize(keyLen);
                setIndex.put(Utf8.decode(src, keyAt, keyLen, false), j);
                p = skipValue(src, keyAt + keyLen);
            }
        }
        java.util.Set<String> removeSet = null;
        if (r > SCAN_LIMIT) {
            removeSet = new java.util.HashSet<>(ModelSupport.capacity(r));
            int p = removeFrom;
            for (int j = 0; j < r; j++) {
                int keyLen = readVarint(src, p);
                int keyAt = p + BinaryWriter.varintSize(keyLen);
                removeSet.add(Utf8.decode(src, keyAt, keyLen, false));
                p = keyAt + keyLen;
            }
        }

        // Pass 1: for each old attribute, keep (-2), drop (-1) or the offset of the set entry that replaces it.
        int[] action = attributeCount == 0 ? NO_ACTIONS : new int[attributeCount];
        long usedBits = 0;
        boolean[] used = m > 64 ? new boolean[m] : null;
        int prefix = skipString(bytes, 0); // the section name, as it is
        long size = prefix + BinaryWriter.varintSize(newVersion);
        int count = 0;
        long values = 0;
        int pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int keyAt = pos + BinaryWriter.varintSize(keyLen);
            int lenAt = keyAt + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            int end = lenAt + BinaryWriter.varintSize(valueLen) + valueLen;
            int j;
            int entryAt = -1;
            if (m == 0) {
                j = -1;
            } else if (setIndex != null) {
                Integer found = setIndex.get(Utf8.decode(bytes, keyAt, keyLen, false));
                j = found == null ? -1 : found;
                entryAt = j < 0 ? -1 : setAt[j];
            } else {
                long found = find(src, setFrom, m, true, bytes, keyAt, keyLen);
                j = (int) (found >> 32);
                entryAt = (int) found;
            }
            if (j >= 0) {
                action[a] = entryAt;
                if (used != null) {
                    used[j] = true;
                } else {
                    usedBits |= 1L << j;
                }
                int entryEnd = skipValue(src, skipString(src, entryAt));
                size += entryEnd - entryAt;
                values += valueLength(src, entryAt);
                count++;
            } else if (r > 0 && (removeSet != null ? removeSet.contains(Utf8.decode(bytes, keyAt, keyLen, false))
                    : find(src, removeFrom, r, false, bytes, keyAt, keyLen) >= 0)) {
                action[a] = -1;
            } else {
                action[a] = -2;
                size += end - pos;
                values += valueLen;
                count++;
            }
            pos = end;
        }
        int appendFrom = -1; // the first set entry not used, if any
        int p = setFrom;
        for (int j = 0; j < m; j++) {
            int entryEnd = skipValue(src, skipString(src, p));
            if (used != null ? !used[j] : (usedBits & 1L << j) == 0) {
                if (appendFrom < 0) {
                    appendFrom = p;
                }
                size += entryEnd - p;
                values += valueLength(src, p);
                count++;
            }
            p = entryEnd;
        }
        size += BinaryWriter.varintSize(count);
        if (size > Integer.MAX_VALUE - 16) {
            throw new MalformedMessageException(Status.TOO_LARGE, "section " + Utf8.quote(name) + " would be " + size + " bytes");
        }

        // Pass 2: write, one copy per attribute.
        EncodedSection merged = headed(prefix, newVersion, (int) size, count, (int) values);
        byte[] out = merged.bytes;
        int w = merged.attributesAt;
        pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int end = skipValue(bytes, skipString(bytes, pos));
            int act = action[a];
            if (act == -2) {
                System.arraycopy(bytes, pos, out, w, end - pos);
                w += end - pos;
            } else if (act >= 0) {
                int entryEnd = skipValue(src, skipString(src, act));
                System.arraycopy(src, act, out, w, entryEnd - act);
                w += entryEnd - act;
            }
            pos = end;
        }
        if (appendFrom >= 0) {
            p = setFrom;
            for (int j = 0; j < m; j++) {
                int entryEnd = skipValue(src, skipString(src, p));
                if (used != null ? !used[j] : (usedBits & 1L << j) == 0) {
                    System.arraycopy(src, p, out, w, entryEnd - p);
                    w += entryEnd - p;
                }
                p = entryEnd;
            }
        }
        assert w == out.length : "sized " + out.length + ", wrote " + w;
        return filled(merged);
    }

    /**
     * {@link #apply(EncodedWrite, int, long)} for the usual delta, one attribute set and none removed: the same bytes,
     * made with one walk up to the old attribute of that name and three copies (the attributes before it, the request's
     * entry, the attributes after it), where the general merge walks both sides twice and keeps an action per attribute.
     * The entry is {@code src[entryAt, entryEnd)}: name, length, value, as checked by the decoder.
     */
    private EncodedSection setOne(byte[] src, int entryAt, int entryEnd, long newVersion) {
        int keyLen = readVarint(src, entryAt);
        int keyAt = entryAt + BinaryWriter.varintSize(keyLen);
        int newValueLen = readVarint(src, keyAt + keyLen);
        // the attribute the entry replaces, [oldAt, oldEnd), or none (-1): the entry is appended
        int oldAt = (int) find(bytes, attributesAt, attributeCount, true, src, keyAt, keyLen);
        int oldEnd = oldAt < 0 ? -1 : skipValue(bytes, skipString(bytes, oldAt));
        int oldValueLen = oldAt < 0 ? 0 : valueLength(bytes, oldAt);
        int prefix = skipString(bytes, 0); // the section name, as it is
        int count = oldAt < 0 ? attributeCount + 1 : attributeCount;
        int entryLen = entryEnd - entryAt;
        long size = (long) prefix + BinaryWriter.varintSize(newVersion) + BinaryWriter.varintSize(count)
                + (bytes.length - attributesAt) - (oldAt < 0 ? 0 : oldEnd - oldAt) + entryLen;
        if (size > Integer.MAX_VALUE - 16) {
            throw new MalformedMessageException(Status.TOO_LARGE, "section " + Utf8.quote(name) + " would be " + size + " bytes");
        }
        EncodedSection merged = headed(prefix, newVersion, (int) size, count, valueBytes - oldValueLen + newValueLen);
        byte[] out = merged.bytes;
        int w = merged.attributesAt;
        int before = (oldAt < 0 ? bytes.length : oldAt) - attributesAt;
        System.arraycopy(bytes, attributesAt, out, w, before);
        w += before;
        System.arraycopy(src, entryAt, out, w, entryLen);
        w += entryLen;
        if (oldAt >= 0) {
            System.arraycopy(bytes, oldEnd, out, w, bytes.length - oldEnd);
            w += bytes.length - oldEnd;
        }
        assert w == out.length : "sized " + out.length + ", wrote " + w;
        return filled(merged);
    }

    /**
     * Among {@code count} entries at {@code from} in {@code src} (attributes with values, or bare names), the one whose
     * name is {@code key}'s {@code len} bytes at {@code at}: its index in the high half, its offset in the low half; -1
     * when there is none. Equal UTF-8 is equal text: both sides were checked.
     */
    private static long find(byte[] src, int from, int count, boolean withValues, byte[] key, int at, int len) {
        int p = from;
        for (int j = 0; j < count; j++) {
            int nameLen = readVarint(src, p);
            int nameAt = p + BinaryWriter.varintSize(nameLen);
            if (nameLen == len && Arrays.equals(src, nameAt, nameAt + len, key, at, at + len)) {
                return (long) j << 32 | p;
            }
            p = withValues ? skipValue(src, nameAt + nameLen) : nameAt + nameLen;
        }
        return -1;
    }

    /** The position after a string (length and bytes) at {@code p}. */
    private static int skipString(byte[] b, int p) {
        int len = readVarint(b, p);
        return p + BinaryWriter.varintSize(len) + len;
    }

    /** The position after a value (length and bytes) at {@code p}. */
    private static int skipValue(byte[] b, int p) {
        int len = readVarint(b, p);
        return p + BinaryWriter.varintSize(len) + len;
    }

    /** The value length of the attribute entry at {@code p}. */
    private static int valueLength(byte[] b, int p) {
        return readVarint(b, skipString(b, p));
    }

    /** The value of an attribute (a copy), or null. */
    public byte[] attribute(String attributeName) {
        byte[] key = Utf8.nameLength(attributeName) < 0 ? null : utf8(new String[] {attributeName})[0];
        if (key == null) {
            return null;
        }
        int pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int keyAt = pos + BinaryWriter.varintSize(keyLen);
            int lenAt = keyAt + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            int valueAt = lenAt + BinaryWriter.varintSize(valueLen);
            if (keyLen == key.length && Arrays.equals(bytes, keyAt, lenAt, key, 0, key.length)) {
                return Arrays.copyOfRange(bytes, valueAt, valueAt + valueLen);
            }
            pos = valueAt + valueLen;
        }
        return null;
    }

    /** Attribute names and value sizes, in order (for operators: never the values). */
    public Map<String, Integer> attributeSizes() {
        Map<String, Integer> sizes = new LinkedHashMap<>(ModelSupport.capacity(attributeCount));
        int pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int keyAt = pos + BinaryWriter.varintSize(keyLen);
            int lenAt = keyAt + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            sizes.put(Utf8.decode(bytes, keyAt, keyLen, false), valueLen);
            pos = lenAt + BinaryWriter.varintSize(valueLen) + valueLen;
        }
        return sizes;
    }

    /** The section as the model (values copied). */
    public SectionData toData() {
        Map<String, byte[]> attributes = new LinkedHashMap<>(ModelSupport.capacity(attributeCount));
        int pos = attributesAt;
        for (int a = 0; a < attributeCount; a++) {
            int keyLen = readVarint(bytes, pos);
            int keyAt = pos + BinaryWriter.varintSize(keyLen);
            int lenAt = keyAt + keyLen;
            int valueLen = readVarint(bytes, lenAt);
            int valueAt = lenAt + BinaryWriter.varintSize(valueLen);
            attributes.put(Utf8.decode(bytes, keyAt, keyLen, false), Arrays.copyOfRange(bytes, valueAt, valueAt + valueLen));
            pos = valueAt + valueLen;
        }
        return SectionData.trusted(name, version, java.util.Collections.unmodifiableMap(attributes));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EncodedSection s && s.version == version && s.name.equals(name) && Arrays.equals(s.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "EncodedSection[" + name + " v" + version + ", " + attributeCount + " attributes, " + bytes.length + " bytes]";
    }

    // ---- helpers ----

    private static EncodedSection build(String name, long version, String[] names, byte[][] values, int n) {
        int nameLen = Utf8.textLength(name);
        long size = BinaryWriter.varintSize(nameLen) + nameLen + BinaryWriter.varintSize(version) + BinaryWriter.varintSize(n);
        byte[][] keys = utf8(names);
        int valueBytes = 0;
        for (int i = 0; i < n; i++) {
            size += BinaryWriter.varintSize(keys[i].length) + keys[i].length + BinaryWriter.varintSize(values[i].length)
                    + values[i].length;
            valueBytes += values[i].length;
        }
        byte[] b = new byte[Math.toIntExact(size)];
        int pos = BinaryWriter.writeVarint(nameLen, b, 0);
        pos = Utf8.encode(name, b, pos);
        pos = BinaryWriter.writeVarint(version, b, pos);
        pos = BinaryWriter.writeVarint(n, b, pos);
        int attributesAt = pos;
        for (int i = 0; i < n; i++) {
            pos = BinaryWriter.writeVarint(keys[i].length, b, pos);
            System.arraycopy(keys[i], 0, b, pos, keys[i].length);
            pos += keys[i].length;
            pos = writeValue(values[i], b, pos);
        }
        return new EncodedSection(name, version, b, attributesAt, n, valueBytes);
    }

    private static int writeValue(byte[] value, byte[] out, int w) {
        w = BinaryWriter.writeVarint(value.length, out, w);
        System.arraycopy(value, 0, out, w, value.length);
        return w + value.length;
    }

    private static byte[][] utf8(String[] names) {
        byte[][] keys = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            String s = Objects.requireNonNull(names[i], "name");
            byte[] k = new byte[Utf8.textLength(s)];
            Utf8.encode(s, k, 0);
            keys[i] = k;
        }
        return keys;
    }

    private static Map<String, Integer> indexOf(String[] names) {
        Map<String, Integer> index = new HashMap<>(ModelSupport.capacity(names.length));
        for (int i = 0; i < names.length; i++) {
            index.put(names[i], i);
        }
        return index;
    }

    private static int lookup(Map<String, Integer> index, byte[] b, int at, int len) {
        Integer i = index.get(Utf8.decode(b, at, len, false));
        return i == null ? -1 : i;
    }

    private static int find(byte[][] keys, byte[] b, int at, int len) {
        for (int i = 0; i < keys.length; i++) {
            byte[] k = keys[i];
            if (k.length == len && Arrays.equals(b, at, at + len, k, 0, len)) {
                return i;
            }
        }
        return -1;
    }

    /** A varint of bytes this class wrote or a decoder checked. */
    private static int readVarint(byte[] b, int pos) {
        int c = b[pos];
        if (c >= 0) {
            return c;
        }
        int v = c & 0x7F;
        for (int shift = 7; ; shift += 7) {
            c = b[++pos];
            v |= (c & 0x7F) << shift;
            if (c >= 0) {
                return v;
            }
        }
    }

    /** For {@link BinaryTransportCodec}: the names of several sections, for duplicate checks. */
    static List<String> names(List<EncodedSection> sections) {
        List<String> names = new ArrayList<>(sections.size());
        for (EncodedSection s : sections) {
            names.add(s.name);
        }
        return names;
    }
}
