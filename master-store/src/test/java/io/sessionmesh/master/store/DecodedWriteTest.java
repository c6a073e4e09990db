package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A WRITE as a connection decodes it (its wire form applied straight to the sections) and the same write in the model
 * (as the log and local callers make it) leave the store in the same state, answer the same, and fail the same.
 */
class DecodedWriteTest {
    private static final String[] SECTIONS = {"clientInfo", "cart", "prefs", "é"};
    private static final String[] NAMES = {"a", "b", "value", "ключ", "x1", "y", "z"};
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    @Test
    void write_decodedOrModel_sameSectionsVersionsAndBytes() {
        ManualTicker ticker = new ManualTicker();
        SessionStore viaModel = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
        SessionStore viaWire = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);
        String id = viaModel.newId();
        viaModel.create(id, null, ticker.millis());
        viaWire.create(id, null, ticker.millis());
        Random r = new Random(18);
        for (int i = 0; i < 2000; i++) {
            WriteRequest model = randomWrite(r, id);
            WriteRequest decoded = codec.decode(codec.encode(model), WriteRequest.class);
            WriteResult a = viaModel.write(model);
            WriteResult b = viaWire.write(decoded);
            assertEquals(a, b);
            assertArrayEquals(codec.encode(a), codec.encode(b));
            ReadRequest all = new ReadRequest(id, List.of(SECTIONS));
            EncodedReadResult x = viaModel.read(all);
            EncodedReadResult y = viaWire.read(all);
            assertEquals(x, y);
            assertArrayEquals(codec.encodeReadResult(x), codec.encodeReadResult(y));
        }
        assertEquals(viaModel.storeBytes(), viaWire.storeBytes());
        assertEquals(viaModel.budget().sectionBytes(), viaWire.budget().sectionBytes());
    }

    @Test
    void write_decodedOverALimit_sameRefusalAsTheModel() {
        ManualTicker ticker = new ManualTicker();
        StoreLimits limits = StoreLimits.builder().maxAttributeBytes(100).maxSectionBytes(300).maxAttributesPerSection(4)
                .build();
        for (SectionDelta delta : List.of(
                new SectionDelta("a", ordered("k", new byte[10], "big", new byte[101], "bigger", new byte[200]), List.of()),
                new SectionDelta("a", ordered("x", new byte[100], "y", new byte[100], "z", new byte[100]), List.of()),
                new SectionDelta("a", ordered("1", new byte[0], "2", new byte[0], "3", new byte[0], "4", new byte[0],
                        "5", new byte[0]), List.of()),
                new SectionDelta("a", 7, Map.of("k", new byte[1]), List.of()))) {
            SessionStore s = new SessionStore(limits, ticker);
            String id = s.create().id();
            WriteRequest model = new WriteRequest(id, List.of(delta));
            StoreException want = assertThrows(StoreException.class, () -> s.write(model));
            StoreException got = assertThrows(StoreException.class,
                    () -> s.write(codec.decode(codec.encode(model), WriteRequest.class)));
            assertEquals(want.status(), got.status());
            assertEquals(want.getMessage(), got.getMessage());
            assertEquals(delta.hasIfVersion() ? Status.CONFLICT : Status.TOO_LARGE, got.status());
        }
    }

    private static Map<String, byte[]> ordered(Object... nameValue) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            m.put((String) nameValue[i], (byte[]) nameValue[i + 1]);
        }
        return m;
    }

    private static WriteRequest randomWrite(Random r, String id) {
        List<String> sections = new ArrayList<>(List.of(SECTIONS));
        java.util.Collections.shuffle(sections, r);
        List<SectionDelta> deltas = new ArrayList<>();
        for (String section : sections.subList(0, 1 + r.nextInt(3))) {
            List<String> names = new ArrayList<>(List.of(NAMES));
            java.util.Collections.shuffle(names, r);
            int set = r.nextInt(4);
            int remove = r.nextInt(3);
            Map<String, byte[]> values = new LinkedHashMap<>();
            for (String name : names.subList(0, set)) {
                byte[] v = new byte[r.nextInt(4) == 0 ? r.nextInt(3000) : r.nextInt(100)];
                r.nextBytes(v);
                values.put(name, v);
            }
            deltas.add(new SectionDelta(section, values, names.subList(set, set + remove)));
        }
        return new WriteRequest(id, deltas);
    }
}
