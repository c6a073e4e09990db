package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.TransportFixtures.assertSameMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Sections kept in wire form: the same bytes as the model's encoding, merges that match the model's. */
class EncodedSectionTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    static ReadResult randomReadResult(Random r) {
        List<SectionData> sections = new ArrayList<>();
        for (String name : TransportFixtures.distinctNames(r, r.nextInt(5))) {
            sections.add(new SectionData(name, TransportFixtures.version(r), TransportFixtures.attributes(r)));
        }
        return new ReadResult(TransportFixtures.sessionId(r), sections);
    }

    @Test
    void encodeReadResult_sameBytesAsTheModelsEncoding_andDecodesBack() {
        Random r = new Random(11);
        for (int i = 0; i < 1000; i++) {
            ReadResult m = randomReadResult(r);
            byte[] expected = codec.encode(m);
            EncodedReadResult encoded = EncodedReadResult.of(m);
            assertArrayEquals(expected, codec.encodeReadResult(encoded));
            assertEquals(expected.length, codec.readResultSize(m.sessionId(), encoded.sections()));
            EncodedReadResult back = codec.decodeEncodedReadResult(expected, 0, expected.length);
            assertSameMessage(m, back.toReadResult());
            assertEquals(encoded, back);
        }
    }

    @Test
    void encodeReadResult_intoADirectBuffer_sameBytes() {
        ReadResult m = TransportFixtures.fiveKilobyteAttributes();
        ByteBuffer direct = ByteBuffer.allocateDirect(10_000);
        int n = codec.encodeReadResult(m.sessionId(), EncodedReadResult.of(m).sections(), direct);
        byte[] got = new byte[n];
        direct.flip().get(got);
        assertArrayEquals(codec.encode(m), got);
    }

    @Test
    void apply_randomDeltas_matchTheModelsMerge() {
        Random r = new Random(12);
        for (int i = 0; i < 2000; i++) {
            String name = TransportFixtures.name(r);
            Map<String, byte[]> before = TransportFixtures.attributes(r);
            List<String> known = new ArrayList<>(before.keySet());
            Map<String, byte[]> set = new LinkedHashMap<>();
            List<String> remove = new ArrayList<>();
            for (String k : known) {
                switch (r.nextInt(3)) {
                    case 0 -> set.put(k, TransportFixtures.filled(r.nextInt(50), r.nextInt()));
                    case 1 -> remove.add(k);
                    default -> { }
                }
            }
            for (String k : TransportFixtures.distinctNames(r, r.nextInt(4))) {
                if (!before.containsKey(k) && !set.containsKey(k) && !remove.contains(k)) {
                    if (r.nextBoolean()) {
                        set.put(k, TransportFixtures.filled(r.nextInt(2000), r.nextInt()));
                    } else {
                        remove.add(k); // removing what is not there is no error
                    }
                }
            }
            Map<String, byte[]> expected = new LinkedHashMap<>(before);
            expected.putAll(set);
            remove.forEach(expected::remove);
            long version = TransportFixtures.version(r);

            EncodedSection merged = EncodedSection.of(new SectionData(name, 3, before))
                    .apply(new SectionDelta(name, set, remove), version);
            SectionData want = new SectionData(name, version, expected);
            assertEquals(want, merged.toData());
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(merged.toData().attributes().keySet()));
            assertEquals(EncodedSection.of(want), merged);
            assertEquals(expected.size(), merged.attributeCount());
            assertEquals(expected.values().stream().mapToInt(v -> v.length).sum(), merged.valueBytes());
        }
    }

    @Test
    void apply_manyNames_takeTheHashedPath() {
        Map<String, byte[]> before = new LinkedHashMap<>();
        Map<String, byte[]> set = new LinkedHashMap<>();
        List<String> remove = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            before.put("a" + i, new byte[] {(byte) i});
        }
        for (int i = 0; i < 40; i += 2) {
            set.put("a" + i, new byte[] {(byte) -i});
            remove.add("a" + (i + 1));
        }
        set.put("new", new byte[0]);
        EncodedSection s = EncodedSection.of(new SectionData("s", 1, before)).apply(new SectionDelta("s", set, remove), 2);
        assertEquals(21, s.attributeCount());
        assertArrayEquals(new byte[] {-4}, s.attribute("a4"));
        assertNull(s.attribute("a5"));
        assertArrayEquals(new byte[0], s.attribute("new"));
    }

    @Test
    void empty_isVersionZeroWithoutAttributes_andApplyGrowsIt() {
        EncodedSection e = EncodedSection.empty("clientInfo");
        assertEquals(new SectionData("clientInfo", 0, Map.of()), e.toData());
        EncodedSection s = e.apply(new SectionDelta("clientInfo", Map.of("k", new byte[] {7}), List.of()), 1);
        assertEquals(1, s.version());
        assertArrayEquals(new byte[] {7}, s.attribute("k"));
        assertEquals(Map.of("k", 1), s.attributeSizes());
        assertThrows(IllegalArgumentException.class, () -> s.apply(new SectionDelta("other", Map.of(), List.of()), 2));
    }

    /** Every corruption and truncation: both decoders fail alike, or decode the same thing. */
    @Test
    void decodeEncodedReadResult_corruptInput_behavesLikeTheModelDecoder() {
        Random r = new Random(13);
        for (int i = 0; i < 30; i++) {
            ReadResult m = randomReadResult(r);
            byte[] good = codec.encode(m);
            if (good.length > 3000) {
                continue;
            }
            for (int at = 0; at < good.length; at++) {
                byte[] bad = good.clone();
                bad[at] ^= (byte) (1 + r.nextInt(255));
                same(bad, bad.length);
                same(good, at);
            }
        }
    }

    private void same(byte[] input, int length) {
        TransportMessage model;
        try {
            model = codec.decode(input, 0, length);
        } catch (MalformedMessageException e) {
            try {
                codec.decodeEncodedReadResult(input, 0, length);
                if (input[5] == MessageTypes.READ_RESULT) {
                    fail("the model decoder refused (" + e.getMessage() + ") but the encoded decoder accepted");
                }
            } catch (MalformedMessageException expected) {
                assertEquals(e.status(), expected.status(), expected.getMessage());
            }
            return;
        }
        if (model instanceof ReadResult rr) {
            assertSameMessage(rr, codec.decodeEncodedReadResult(input, 0, length).toReadResult());
        }
    }
}
