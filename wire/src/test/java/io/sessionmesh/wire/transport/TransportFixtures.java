package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Sample and random messages for the transport tests. */
final class TransportFixtures {
    static final String SESSION = "Ab3_x-9";

    private static final String ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    /** Printable code points of every UTF-8 length: ASCII, Latin/Cyrillic (2 bytes), CJK (3), emoji (4). */
    private static final int[][] RANGES = {{0x20, 0x7E}, {0xA0, 0x4FF}, {0x4E00, 0x9FFF}, {0x1F300, 0x1F5FF}};

    private TransportFixtures() {
    }

    static Map<String, byte[]> attrs(Object... nameValue) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            m.put((String) nameValue[i], (byte[]) nameValue[i + 1]);
        }
        return m;
    }

    static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    static byte[] filled(int size, int seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** One message of every type, with a bit of everything. */
    static List<TransportMessage> samples() {
        return List.of(
                new ReadRequest(SESSION, List.of("cart", "user", "профиль")),
                new ReadResult(SESSION, List.of(
                        new SectionData("cart", 7, attrs("n", bytes(42), "sku", bytes(0xCA, 0xFE), "empty", new byte[0])),
                        new SectionData("user", 0, Map.of()),
                        new SectionData("🛒 ünï", Long.MAX_VALUE, attrs("k€y", filled(1000, 1))))),
                new WriteRequest(SESSION, List.of(
                        new SectionDelta("cart", 7, attrs("n", bytes(43)), List.of("sku")),
                        new SectionDelta("user", attrs(), List.of()),
                        new SectionDelta("max", Long.MAX_VALUE, attrs("a", new byte[0]), List.of("b", "c")))),
                new WriteResult(SESSION, orderedVersions("cart", 8L, "user", 1L, "max", Long.MAX_VALUE)),
                new ErrorMessage(Status.CONFLICT, "section \"cart\" is at version 9\nnot 7 ✓"),
                new CreateRequest(600),
                new SessionCreated(SESSION, 300, 43_200),
                new CreateRequest(600, "alice", "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c"),
                new RenameRequest("0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c", 600),
                new RenameRequest(null, 60),
                new PrincipalSessions("alice", List.of(SESSION, "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c"), true),
                new PrincipalSessions("ünï 🛒", List.of(), false));
    }

    static Map<String, Long> orderedVersions(Object... nameVersion) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < nameVersion.length; i += 2) {
            m.put((String) nameVersion[i], (Long) nameVersion[i + 1]);
        }
        return m;
    }

    /** A section of 5 attributes of 1 KB, the size the performance target is about. */
    static ReadResult fiveKilobyteAttributes() {
        Map<String, byte[]> a = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            a.put("attribute" + i, filled(1024, i));
        }
        return new ReadResult(SESSION, List.of(new SectionData("clientInfo", 12, a)));
    }

    // ---- random messages ----

    static TransportMessage randomMessage(Random r) {
        switch (r.nextInt(7)) {
            case 5:
                return new CreateRequest(r.nextBoolean() ? 0 : r.nextInt((int) CreateRequest.MAX_IDLE_TIMEOUT_SECONDS) + 1);
            case 6:
                return new SessionCreated(sessionId(r), r.nextInt(100_000), r.nextBoolean() ? 43_200 : r.nextLong() & Long.MAX_VALUE);
            case 0:
                return new ReadRequest(sessionId(r), distinctNames(r, r.nextInt(6)));
            case 1: {
                List<SectionData> sections = new ArrayList<>();
                for (String name : distinctNames(r, r.nextInt(4))) {
                    sections.add(new SectionData(name, version(r), attributes(r)));
                }
                return new ReadResult(sessionId(r), sections);
            }
            case 2: {
                List<SectionDelta> deltas = new ArrayList<>();
                for (String name : distinctNames(r, r.nextInt(4))) {
                    Map<String, byte[]> set = attributes(r);
                    List<String> remove = new ArrayList<>();
                    for (String n : distinctNames(r, r.nextInt(3))) {
                        if (!set.containsKey(n)) {
                            remove.add(n);
                        }
                    }
                    deltas.add(new SectionDelta(name, r.nextBoolean() ? SectionDelta.NO_VERSION : version(r), set, remove));
                }
                return new WriteRequest(sessionId(r), deltas);
            }
            case 3: {
                Map<String, Long> versions = new LinkedHashMap<>();
                for (String name : distinctNames(r, r.nextInt(5))) {
                    versions.put(name, version(r));
                }
                return new WriteResult(sessionId(r), versions);
            }
            default:
                return ErrorMessage.of(1 + r.nextInt(Status.MAX_CODE), text(r, r.nextInt(3) == 0 ? 2000 : 40, true));
        }
    }

    static String sessionId(Random r) {
        int len = r.nextInt(10) == 0 ? TransportLimits.MAX_SESSION_ID_BYTES : 1 + r.nextInt(40);
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) {
            sb.append(ID_CHARS.charAt(r.nextInt(ID_CHARS.length())));
        }
        return sb.toString();
    }

    static long version(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return 0;
            case 1:
                return r.nextInt(200);
            case 2:
                return Long.MAX_VALUE - r.nextInt(3);
            default:
                return r.nextLong() & Long.MAX_VALUE;
        }
    }

    static Map<String, byte[]> attributes(Random r) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (String name : distinctNames(r, r.nextInt(4) == 0 ? 0 : r.nextInt(7))) {
            int size;
            switch (r.nextInt(6)) {
                case 0:
                    size = 0;
                    break;
                case 1:
                    size = 1024;
                    break;
                case 2:
                    size = r.nextInt(70_000);
                    break;
                default:
                    size = r.nextInt(300);
            }
            byte[] v = new byte[size];
            r.nextBytes(v);
            m.put(name, v);
        }
        return m;
    }

    static List<String> distinctNames(Random r, int n) {
        List<String> names = new ArrayList<>();
        while (names.size() < n) {
            String name = name(r);
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /** A valid name of 1..255 UTF-8 bytes, sometimes exactly 255. */
    static String name(Random r) {
        int maxBytes = r.nextInt(8) == 0 ? TransportLimits.MAX_NAME_BYTES : 1 + r.nextInt(24);
        String s = text(r, maxBytes, false);
        return s.isEmpty() ? "n" : s;
    }

    /** Random text of at most {@code maxBytes} of UTF-8, filled close to it; controls only if allowed. */
    static String text(Random r, int maxBytes, boolean controls) {
        StringBuilder sb = new StringBuilder();
        int bytes = 0;
        boolean ascii = r.nextBoolean();
        while (true) {
            int cp;
            if (controls && r.nextInt(20) == 0) {
                cp = r.nextInt(0x20);
            } else {
                int[] range = RANGES[ascii ? 0 : r.nextInt(RANGES.length)];
                cp = range[0] + r.nextInt(range[1] - range[0] + 1);
            }
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + len > maxBytes) {
                return sb.toString();
            }
            bytes += len;
            sb.appendCodePoint(cp);
        }
    }

    /** Equal by content, and with every map and list in the same order. */
    static void assertSameMessage(TransportMessage expected, TransportMessage actual) {
        assertEquals(expected, actual);
        assertEquals(expected.hashCode(), actual.hashCode());
        if (expected instanceof ReadResult e) {
            ReadResult a = (ReadResult) actual;
            for (int i = 0; i < e.sections().size(); i++) {
                assertEquals(List.copyOf(e.sections().get(i).attributes().keySet()),
                        List.copyOf(a.sections().get(i).attributes().keySet()));
            }
        } else if (expected instanceof WriteRequest e) {
            WriteRequest a = (WriteRequest) actual;
            for (int i = 0; i < e.deltas().size(); i++) {
                assertEquals(List.copyOf(e.deltas().get(i).set().keySet()), List.copyOf(a.deltas().get(i).set().keySet()));
            }
        } else if (expected instanceof WriteResult e) {
            assertEquals(List.copyOf(e.versions().keySet()), List.copyOf(((WriteResult) actual).versions().keySet()));
        }
    }
}
