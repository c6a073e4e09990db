package io.sessionmesh.wire.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A WRITE_REQUEST body kept in its binary wire form (PROTOCOL.md 2.1): the checked bytes, and where each delta's
 * parts start. What a store needs to apply a write ({@link EncodedSection#apply(EncodedWrite, int, long)}) without
 * the model in between: no map, no {@code byte[]} per value, no name re-encoded; a value is copied once, from these
 * bytes into the section's next version.
 *
 * <pre>
 * [session id: string][n: varint][n x (section: string, ifVersion + 1: varint,
 *                                      m: varint, m x (name: string, length: varint, value bytes),
 *                                      r: varint, r x (name: string))]
 * </pre>
 *
 * Built only from checked bytes: by the binary decoder, which checked every field as it checks the model's
 * ({@link WriteRequest#encoded()} of a decoded request), or by encoding a model ({@link #of}). Immutable and the owner
 * of its array.
 */
public final class EncodedWrite {
    /** Per delta, in {@link #index}: where its set count starts, the set count, the remove count starts, the remove count. */
    private static final int SET_AT = 0;
    private static final int SET_COUNT = 1;
    private static final int REMOVE_AT = 2;
    private static final int REMOVE_COUNT = 3;
    /** Per delta, in {@link #index}: the largest value of its set attributes, in bytes. */
    private static final int MAX_VALUE = 4;
    /** Per delta, in {@link #index}: where its section name starts (its length, then its bytes). */
    private static final int NAME_AT = 5;
    private static final int FIELDS = 6;

    private final String sessionId;
    /** Where the session id starts in {@link #b} (its length, then its bytes); the delta count follows it. */
    private final int idAt;
    /** The wire form. */
    private final byte[] b;
    private final String[] sections;
    private final long[] ifVersions;
    /** {@link #FIELDS} ints per delta. */
    private final int[] index;

    EncodedWrite(String sessionId, int idAt, byte[] b, String[] sections, long[] ifVersions, int[] index) {
        this.sessionId = sessionId;
        this.idAt = idAt;
        this.b = b;
        this.sections = sections;
        this.ifVersions = ifVersions;
        this.index = index;
    }

    /** The wire form of a request of the model (its values are copied once). */
    public static EncodedWrite of(WriteRequest request) {
        EncodedWrite encoded = request.encodedIfDecoded();
        if (encoded != null) {
            return encoded;
        }
        List<SectionDelta> deltas = request.deltas();
        int n = deltas.size();
        long size = BinaryWriter.varintSize(request.sessionId().length()) + request.sessionId().length()
                + BinaryWriter.varintSize(n);
        for (SectionDelta d : deltas) {
            size += BinaryWriter.stringSize(d.section()) + BinaryWriter.varintSize(d.ifVersion() + 1)
                    + BinaryWriter.varintSize(d.set().size()) + BinaryWriter.varintSize(d.remove().size());
            for (Map.Entry<String, byte[]> e : d.set().entrySet()) {
                size += BinaryWriter.stringSize(e.getKey()) + BinaryWriter.varintSize(e.getValue().length) + e.getValue().length;
            }
            for (String name : d.remove()) {
                size += BinaryWriter.stringSize(name);
            }
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new MalformedMessageException(Status.TOO_LARGE, "write of " + size + " bytes");
        }
        byte[] b = new byte[(int) size];
        int end = BinaryWriter.writeBody(request, b, 0);
        assert end == b.length : "sized " + b.length + ", wrote " + end;
        // Index it as the decoder would (the model has checked every field).
        String[] sections = new String[n];
        long[] ifVersions = new long[n];
        int[] index = new int[n * FIELDS];
        int pos = skip(b, 0);
        pos += BinaryWriter.varintSize(n);
        for (int i = 0; i < n; i++) {
            SectionDelta d = deltas.get(i);
            sections[i] = d.section();
            ifVersions[i] = d.ifVersion();
            index[i * FIELDS + NAME_AT] = pos;
            pos = skip(b, pos);
            pos += BinaryWriter.varintSize(d.ifVersion() + 1);
            int m = d.set().size();
            index[i * FIELDS + SET_AT] = pos;
            index[i * FIELDS + SET_COUNT] = m;
            pos += BinaryWriter.varintSize(m);
            int max = 0;
            for (int a = 0; a < m; a++) {
                pos = skip(b, pos);
                int len = readVarint(b, pos);
                max = Math.max(max, len);
                pos += BinaryWriter.varintSize(len) + len;
            }
            index[i * FIELDS + MAX_VALUE] = max;
            int r = d.remove().size();
            index[i * FIELDS + REMOVE_AT] = pos;
            index[i * FIELDS + REMOVE_COUNT] = r;
            pos += BinaryWriter.varintSize(r);
            for (int a = 0; a < r; a++) {
                pos = skip(b, pos);
            }
        }
        return new EncodedWrite(request.sessionId(), 0, b, sections, ifVersions, index);
    }

    /** Per-delta bookkeeping for the decoder: {@link #FIELDS} ints per delta. */
    static int[] newIndex(int deltas) {
        return new int[deltas * FIELDS];
    }

    /** Records, for the decoder, where delta {@code d}'s parts are. */
    static void index(int[] index, int d, int nameAt, int setAt, int setCount, int maxValue, int removeAt, int removeCount) {
        int i = d * FIELDS;
        index[i + NAME_AT] = nameAt;
        index[i + SET_AT] = setAt;
        index[i + SET_COUNT] = setCount;
        index[i + MAX_VALUE] = maxValue;
        index[i + REMOVE_AT] = removeAt;
        index[i + REMOVE_COUNT] = removeCount;
    }

    /**
     * A digest of the write's wire form (the body, from its session id on): its length in the high 32 bits and the
     * CRC-32C of its bytes in the low ones. The same write encoded again has the same digest on every JVM; a master uses
     * it to tell a write sent again from another write under the same write id (PROTOCOL.md 3.12).
     */
    public long digest() {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b, idAt, b.length - idAt);
        return (long) (b.length - idAt) << 32 | crc.getValue();
    }

    public String sessionId() {
        return sessionId;
    }

    /** The number of deltas (distinct sections). */
    public int deltaCount() {
        return sections.length;
    }

    /** The section of delta {@code d}. */
    public String section(int d) {
        return sections[d];
    }

    /** The names of every delta's section, in order: this write's own array, for this package; never to be changed. */
    String[] sectionArray() {
        return sections;
    }

    /** The names of every delta's section, in order (a copy). */
    public String[] sections() {
        return sections.clone();
    }

    /** The version delta {@code d}'s section must have, or {@link SectionDelta#NO_VERSION}. */
    public long ifVersion(int d) {
        return ifVersions[d];
    }

    /** The size of delta {@code d}'s largest value, in bytes (0 when it sets nothing). */
    public int maxValueBytes(int d) {
        return index[d * FIELDS + MAX_VALUE];
    }

    /** The attributes delta {@code d} sets. */
    public int setCount(int d) {
        return index[d * FIELDS + SET_COUNT];
    }

    /** The attributes delta {@code d} removes. */
    public int removeCount(int d) {
        return index[d * FIELDS + REMOVE_COUNT];
    }

    /** Delta {@code d} in the model (values copied): for the paths that need it, never the store's write. */
    public SectionDelta delta(int d) {
        byte[] b = bytes();
        int pos = index[d * FIELDS + SET_AT];
        int m = readVarint(b, pos);
        pos += BinaryWriter.varintSize(m);
        Map<String, byte[]> set;
        if (m == 0) {
            set = Collections.emptyMap();
        } else {
            Map<String, byte[]> attributes = new LinkedHashMap<>(ModelSupport.capacity(m));
            for (int a = 0; a < m; a++) {
                int nameLen = readVarint(b, pos);
                int nameAt = pos + BinaryWriter.varintSize(nameLen);
                pos = nameAt + nameLen;
                int len = readVarint(b, pos);
                pos += BinaryWriter.varintSize(len);
                byte[] value = new byte[len];
                System.arraycopy(b, pos, value, 0, len);
                pos += len;
                attributes.put(Utf8.decode(b, nameAt, nameLen, false), value);
            }
            set = Collections.unmodifiableMap(attributes);
        }
        int r = readVarint(b, pos);
        pos += BinaryWriter.varintSize(r);
        List<String> remove;
        if (r == 0) {
            remove = Collections.emptyList();
        } else {
            List<String> names = new ArrayList<>(r);
            for (int a = 0; a < r; a++) {
                int nameLen = readVarint(b, pos);
                int nameAt = pos + BinaryWriter.varintSize(nameLen);
                names.add(Utf8.decode(b, nameAt, nameLen, false));
                pos = nameAt + nameLen;
            }
            remove = Collections.unmodifiableList(names);
        }
        return SectionDelta.trusted(sections[d], ifVersions[d], set, remove);
    }

    /** Every delta in the model (values copied). */
    List<SectionDelta> deltas() {
        List<SectionDelta> deltas = new ArrayList<>(sections.length);
        for (int d = 0; d < sections.length; d++) {
            deltas.add(delta(d));
        }
        return Collections.unmodifiableList(deltas);
    }

    // ---- for EncodedSection.apply: the bytes and where things are ----

    byte[] bytes() {
        return b;
    }

    /** Where delta {@code d}'s first set attribute starts (just after the set count). */
    int firstSetAt(int d) {
        int at = index[d * FIELDS + SET_AT];
        return at + BinaryWriter.varintSize(index[d * FIELDS + SET_COUNT]);
    }

    /** Where delta {@code d}'s set attributes end (its remove count starts). */
    int setEndAt(int d) {
        return index[d * FIELDS + REMOVE_AT];
    }

    /** Where delta {@code d}'s first removed name starts (just after the remove count). */
    int firstRemoveAt(int d) {
        int at = index[d * FIELDS + REMOVE_AT];
        return at + BinaryWriter.varintSize(index[d * FIELDS + REMOVE_COUNT]);
    }

    /** Skips a string (length and bytes) at {@code pos}; returns the position after it. */
    static int skip(byte[] b, int pos) {
        int len = readVarint(b, pos);
        return pos + BinaryWriter.varintSize(len) + len;
    }

    /** A varint of checked bytes. */
    static int readVarint(byte[] b, int pos) {
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

    @Override
    public String toString() {
        return "encoded write to " + ModelSupport.sessionTag(sessionId) + ": " + sections.length + " deltas, "
                + b.length + " bytes";
    }
}
