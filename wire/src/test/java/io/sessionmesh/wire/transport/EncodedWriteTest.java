package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Writes kept in wire form: applied straight from the request's bytes, a delta gives the section the model's merge
 * ({@link EncodedSection#apply(SectionDelta, long)}) gives, byte for byte; a decoded request builds the same model.
 */
class EncodedWriteTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    /** A random delta of section {@code name} against the attributes {@code before}: replaces, removes, appends. */
    static SectionDelta randomDelta(Random r, String name, Map<String, byte[]> before, int extraNames) {
        Map<String, byte[]> set = new LinkedHashMap<>();
        List<String> remove = new ArrayList<>();
        for (String k : before.keySet()) {
            switch (r.nextInt(3)) {
                case 0 -> set.put(k, TransportFixtures.filled(r.nextInt(r.nextInt(5) == 0 ? 3000 : 50), r.nextInt()));
                case 1 -> remove.add(k);
                default -> { }
            }
        }
        for (String k : TransportFixtures.distinctNames(r, r.nextInt(extraNames + 1))) {
            if (!before.containsKey(k) && !set.containsKey(k) && !remove.contains(k)) {
                if (r.nextBoolean()) {
                    set.put(k, TransportFixtures.filled(r.nextInt(2000), r.nextInt()));
                } else {
                    remove.add(k); // removing what is not there is no error
                }
            }
        }
        return new SectionDelta(name, r.nextBoolean() ? SectionDelta.NO_VERSION : r.nextInt(5), set, remove);
    }

    /** Many attributes before, so that deltas pass the scan limit (hashed names) and 64 set names (the used bits). */
    static Map<String, byte[]> manyAttributes(Random r, int n) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (String k : TransportFixtures.distinctNames(r, n)) {
            m.put(k, TransportFixtures.filled(r.nextInt(300), r.nextInt()));
        }
        return m;
    }

    @Test
    void apply_randomDeltas_sameSectionAsTheModelsMerge() {
        Random r = new Random(18);
        for (int i = 0; i < 3000; i++) {
            String name = TransportFixtures.name(r);
            Map<String, byte[]> before = switch (i % 10) {
                case 0 -> Map.of();
                case 1 -> manyAttributes(r, 20 + r.nextInt(120));
                default -> TransportFixtures.attributes(r);
            };
            EncodedSection section = EncodedSection.of(new SectionData(name, TransportFixtures.version(r), before));
            List<SectionDelta> deltas = new ArrayList<>();
            deltas.add(new SectionDelta("other", Map.of("x", new byte[] {1}), List.of())); // the delta applied is not the first
            deltas.add(randomDelta(r, name, before, i % 10 == 1 ? 80 : 4));
            WriteRequest model = new WriteRequest(TransportFixtures.sessionId(r), deltas);
            long version = TransportFixtures.version(r);

            EncodedSection want = section.apply(deltas.get(1), version);
            WriteRequest decoded = codec.decode(codec.encode(model), WriteRequest.class);
            assertEquals(want, section.apply(decoded.encoded(), 1, version));
            assertEquals(want, section.apply(EncodedWrite.of(model), 1, version));
            assertEquals(want, section.apply(model.encoded(), 1, version));
            EncodedSection got = section.apply(decoded.encoded(), 1, version);
            assertEquals(want.toData(), got.toData());
            assertEquals(want.attributeCount(), got.attributeCount());
            assertEquals(want.valueBytes(), got.valueBytes());
            assertEquals(want.encodedSize(), got.encodedSize());
        }
    }

    /**
     * The usual delta, one attribute set and none removed, has its own merge (three copies): it must give the general
     * merge's bytes wherever the attribute is (first, middle, last, not there) and across every varint boundary (the
     * attribute count 127 -> 128, versions, name and value lengths).
     */
    @Test
    void apply_oneAttributeSet_sameSectionAsTheModelsMerge() {
        Random r = new Random(1818);
        int[] valueSizes = {0, 1, 127, 128, 200, 1100, 16383, 16384};
        long[] versions = {0, 1, 126, 127, 128, 16383, 16384, Long.MAX_VALUE - 1};
        for (int i = 0; i < 3000; i++) {
            String name = TransportFixtures.name(r);
            Map<String, byte[]> before = switch (i % 6) {
                case 0 -> Map.of();
                case 1 -> manyAttributes(r, 127); // appending makes the count's varint two bytes
                case 2 -> manyAttributes(r, 1 + r.nextInt(140));
                case 3 -> { // names of two-byte lengths, to be replaced too
                    Map<String, byte[]> m = new LinkedHashMap<>(TransportFixtures.attributes(r));
                    m.put("long".repeat(35) + i, TransportFixtures.filled(r.nextInt(300), r.nextInt()));
                    m.put("x", TransportFixtures.filled(r.nextInt(3), r.nextInt()));
                    yield m;
                }
                default -> TransportFixtures.attributes(r);
            };
            List<String> names = new ArrayList<>(before.keySet());
            String key;
            if (names.isEmpty() || r.nextInt(4) == 0) { // a new name, appended; some with a two-byte length
                key = "new" + i + (r.nextBoolean() ? "" : "x".repeat(130));
                while (before.containsKey(key)) {
                    key += "_";
                }
            } else {
                key = names.get(r.nextInt(names.size())); // replaces, wherever it is
            }
            byte[] value = TransportFixtures.filled(valueSizes[r.nextInt(valueSizes.length)], r.nextInt());
            long from = versions[r.nextInt(versions.length - 1)];
            long to = r.nextBoolean() ? from + 1 : versions[r.nextInt(versions.length)];
            EncodedSection section = EncodedSection.of(new SectionData(name, from, before));
            SectionDelta delta = new SectionDelta(name, Map.of(key, value), List.of());
            SectionDelta other = new SectionDelta(name.equals("other") ? "another" : "other", Map.of("x", new byte[] {1}), List.of("y"));
            int d = i % 3; // the delta alone, after another delta, or before one: where its set entries end differs
            List<SectionDelta> deltas = d == 0 ? List.of(delta) : d == 1 ? List.of(other, delta) : List.of(delta, other);
            int at = d == 1 ? 1 : 0;
            WriteRequest model = new WriteRequest(TransportFixtures.sessionId(r), deltas);

            EncodedSection want = section.apply(delta, to);
            WriteRequest decoded = codec.decode(codec.encode(model), WriteRequest.class);
            EncodedSection got = section.apply(decoded.encoded(), at, to);
            assertEquals(want, got);
            assertEquals(want, section.apply(model.encoded(), at, to));
            assertEquals(to, got.version());
            assertEquals(want.attributeCount(), got.attributeCount());
            assertEquals(before.size() + (before.containsKey(key) ? 0 : 1), got.attributeCount());
            assertEquals(want.valueBytes(), got.valueBytes());
            assertArrayEquals(value, got.attribute(key));
            assertEquals(want.toData(), got.toData());
        }
    }

    @Test
    void apply_ofAnotherSectionOrANegativeVersion_refused() {
        WriteRequest w = new WriteRequest("s1", List.of(new SectionDelta("a", Map.of("k", new byte[] {1}), List.of())));
        EncodedSection b = EncodedSection.empty("b");
        assertThrows(IllegalArgumentException.class, () -> b.apply(w.encoded(), 0, 1));
        assertThrows(IllegalArgumentException.class, () -> EncodedSection.empty("a").apply(w.encoded(), 0, -1));
    }

    @Test
    void apply_toEmpty_appendsInTheDeltasOrder() {
        Map<String, byte[]> set = new LinkedHashMap<>();
        set.put("z", new byte[] {1});
        set.put("a", new byte[200]);
        WriteRequest w = new WriteRequest("s1", List.of(new SectionDelta("sec", set, List.of("gone"))));
        EncodedSection s = EncodedSection.empty("sec").apply(codec.decode(codec.encode(w), WriteRequest.class).encoded(), 0, 1);
        assertEquals(List.of("z", "a"), new ArrayList<>(s.attributeSizes().keySet()));
        assertArrayEquals(new byte[] {1}, s.attribute("z"));
        assertNull(s.attribute("gone"));
        assertEquals(201, s.valueBytes());
    }

    @Test
    void decode_keepsTheWireForm_andBuildsTheSameModel() {
        Random r = new Random(19);
        for (int i = 0; i < 500; i++) {
            List<SectionDelta> deltas = new ArrayList<>();
            for (String name : TransportFixtures.distinctNames(r, 1 + r.nextInt(r.nextInt(4) == 0 ? 12 : 3))) {
                deltas.add(randomDelta(r, name, TransportFixtures.attributes(r), 12));
            }
            WriteRequest model = new WriteRequest(TransportFixtures.sessionId(r), deltas);
            byte[] bytes = codec.encode(model);
            WriteRequest decoded = codec.decode(bytes, WriteRequest.class);
            EncodedWrite e = decoded.encoded();
            assertEquals(model.sessionId(), e.sessionId());
            assertEquals(deltas.size(), e.deltaCount());
            assertEquals(deltas.size(), decoded.deltaCount());
            for (int d = 0; d < deltas.size(); d++) {
                SectionDelta want = deltas.get(d);
                assertEquals(want.section(), e.section(d));
                assertEquals(want.section(), decoded.section(d));
                assertEquals(want.ifVersion(), e.ifVersion(d));
                assertEquals(want.set().size(), e.setCount(d));
                assertEquals(want.remove().size(), e.removeCount(d));
                assertEquals(want.set().values().stream().mapToInt(v -> v.length).max().orElse(0), e.maxValueBytes(d));
                assertEquals(want, e.delta(d));
            }
            assertEquals(model, decoded);
            assertEquals(model.hashCode(), decoded.hashCode());
            assertArrayEquals(bytes, codec.encode(decoded));
            assertEquals(model, codec.decodeOwned(bytes.clone(), WriteRequest.class));
            // The model's own wire form indexes the same way.
            EncodedWrite of = EncodedWrite.of(model);
            for (int d = 0; d < deltas.size(); d++) {
                assertEquals(e.maxValueBytes(d), of.maxValueBytes(d));
                assertEquals(e.delta(d), of.delta(d));
            }
        }
    }

    @Test
    void decode_valuesAreCopies_theInputMayBeReused() {
        WriteRequest model = new WriteRequest("s1", List.of(new SectionDelta("a", Map.of("k", new byte[] {5, 6}), List.of())));
        byte[] bytes = codec.encode(model);
        WriteRequest decoded = codec.decode(bytes, WriteRequest.class);
        java.util.Arrays.fill(bytes, (byte) 0);
        assertEquals(model, decoded);
        assertArrayEquals(new byte[] {5, 6}, EncodedSection.empty("a").apply(decoded.encoded(), 0, 1).attribute("k"));
    }

    @Test
    void writeResult_ofARequest_keepsArrays_andEncodesAsTheModel() {
        WriteRequest w = codec.decode(codec.encode(new WriteRequest("s1", List.of(
                new SectionDelta("a", Map.of(), List.of()), new SectionDelta("bé", Map.of(), List.of())))), WriteRequest.class);
        WriteResult result = WriteResult.of(w, new long[] {3, 300});
        Map<String, Long> versions = new LinkedHashMap<>();
        versions.put("a", 3L);
        versions.put("bé", 300L);
        WriteResult model = new WriteResult("s1", versions);
        assertArrayEquals(codec.encode(model), codec.encode(result));
        assertEquals(model, result);
        assertEquals(versions, result.versions());
        assertEquals(model, codec.decode(codec.encode(result), WriteResult.class));
        assertThrows(IllegalArgumentException.class, () -> WriteResult.of(w, new long[] {1}));
        assertThrows(IllegalArgumentException.class, () -> WriteResult.of(w, new long[] {1, -1}));
        // from the wire form (the store's way): the same result, the same checks
        WriteResult fromWire = WriteResult.of(w.encoded(), new long[] {3, 300});
        assertArrayEquals(codec.encode(model), codec.encode(fromWire));
        assertEquals(model, fromWire);
        assertThrows(IllegalArgumentException.class, () -> WriteResult.of(w.encoded(), new long[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> WriteResult.of(w.encoded(), new long[] {-1, 2}));
    }
}
