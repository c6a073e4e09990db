package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.TransportFixtures.attrs;
import static io.sessionmesh.wire.transport.TransportFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TransportModelTest {
    private static IllegalArgumentException refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run);
    }

    @Test
    void sectionName_breakingTheRules_refusedNamingTheValue() {
        assertTrue(refused(() -> new SectionData("", 0, Map.of())).getMessage().contains("0 bytes"));
        assertTrue(refused(() -> new SectionData("a\nb", 0, Map.of())).getMessage().contains("\"a\\u000Ab\""));
        refused(() -> new SectionData("\u0085", 0, Map.of()));
        refused(() -> new SectionData("\u007F", 0, Map.of()));
        refused(() -> new SectionData("a\uD800", 0, Map.of()));
        refused(() -> new SectionData("\uDC00a", 0, Map.of()));
        String tooLong = "é".repeat(128); // 256 bytes
        assertTrue(refused(() -> new SectionData(tooLong, 0, Map.of())).getMessage().contains("256 bytes"));
        assertEquals(255, new SectionData("é".repeat(127) + "x", 0, Map.of()).name().getBytes(StandardCharsets.UTF_8).length);
        assertThrows(NullPointerException.class, () -> new SectionData(null, 0, Map.of()));
    }

    @Test
    void sessionId_breakingTheRules_refusedWithoutRepeatingIt() {
        for (String id : new String[] {"", "a b", "a/b", "a.b", "é", "x".repeat(129)}) {
            IllegalArgumentException e = refused(() -> new ReadRequest(id, List.of()));
            assertTrue(id.isEmpty() || !e.getMessage().contains(id), e.getMessage());
        }
        assertEquals("Az09_-", new ReadRequest("Az09_-", List.of()).sessionId());
        assertEquals(128, new ReadRequest("x".repeat(128), List.of()).sessionId().length());
    }

    @Test
    void versions_negative_refused() {
        assertTrue(refused(() -> new SectionData("a", -1, Map.of())).getMessage().contains("-1"));
        refused(() -> new SectionDelta("a", -2, Map.of(), List.of()));
        refused(() -> new WriteResult("s", Map.of("a", -1L)));
        Map<String, Long> nullVersion = new HashMap<>();
        nullVersion.put("a", null);
        refused(() -> new WriteResult("s", nullVersion));
        assertEquals(SectionDelta.NO_VERSION, new SectionDelta("a", Map.of(), List.of()).ifVersion());
        assertFalse(new SectionDelta("a", Map.of(), List.of()).hasIfVersion());
    }

    @Test
    void duplicatesAndOverlaps_refusedNamingTheName() {
        assertTrue(refused(() -> new ReadRequest("s", List.of("a", "b", "a"))).getMessage().contains("\"a\""));
        refused(() -> new ReadResult("s", List.of(new SectionData("a", 0, Map.of()), new SectionData("a", 1, Map.of()))));
        refused(() -> new WriteRequest("s", List.of(new SectionDelta("a", Map.of(), List.of()), new SectionDelta("a", Map.of(), List.of()))));
        refused(() -> new SectionDelta("a", Map.of(), List.of("k", "k")));
        assertTrue(refused(() -> new SectionDelta("a", attrs("k", bytes()), List.of("k"))).getMessage().contains("both set and removed"));
        Map<String, byte[]> nullValue = new HashMap<>();
        nullValue.put("k", null);
        refused(() -> new SectionData("a", 0, nullValue));
        refused(() -> new SectionData("a", 0, attrs("", bytes())));
    }

    @Test
    void collections_copiedAndUnmodifiable_valuesShared() {
        Map<String, byte[]> a = new LinkedHashMap<>();
        byte[] v = bytes(1, 2);
        a.put("z", v);
        a.put("a", bytes());
        SectionData s = new SectionData("x", 1, a);
        a.put("later", bytes());
        assertEquals(List.of("z", "a"), List.copyOf(s.attributes().keySet()), "insertion order kept, caller's map copied");
        assertSame(v, s.attributes().get("z"), "values are not copied: callers must not modify them");
        assertThrows(UnsupportedOperationException.class, () -> s.attributes().put("b", bytes()));
        List<String> names = new ArrayList<>(List.of("a"));
        ReadRequest r = new ReadRequest("s", names);
        names.add("b");
        assertEquals(List.of("a"), r.sectionNames());
        assertThrows(UnsupportedOperationException.class, () -> r.sectionNames().add("c"));
    }

    @Test
    void equals_comparesValueContentsNotIdentity() {
        SectionData one = new SectionData("a", 1, attrs("k", bytes(1, 2), "l", bytes()));
        SectionData same = new SectionData("a", 1, attrs("l", bytes(), "k", bytes(1, 2)));
        assertEquals(one, same);
        assertEquals(one.hashCode(), same.hashCode());
        assertNotEquals(one, new SectionData("a", 1, attrs("k", bytes(1, 3), "l", bytes())));
        assertNotEquals(one, new SectionData("a", 2, attrs("k", bytes(1, 2), "l", bytes())));
        assertNotEquals(one, new SectionData("a", 1, attrs("k", bytes(1, 2))));
        assertEquals(new SectionDelta("a", 3, attrs("k", bytes(9)), List.of("x")), new SectionDelta("a", 3, attrs("k", bytes(9)), List.of("x")));
        assertNotEquals(new SectionDelta("a", 3, Map.of(), List.of()), new SectionDelta("a", SectionDelta.NO_VERSION, Map.of(), List.of()));
    }

    @Test
    void toString_hidesSessionIdAndValueBytes() {
        for (TransportMessage m : TransportFixtures.samples()) {
            String s = m.toString();
            assertFalse(s.contains(TransportFixtures.SESSION), s);
        }
        String s = new ReadResult("secretId", List.of(new SectionData("a", 1, attrs("k", "secretValue".getBytes(StandardCharsets.US_ASCII))))).toString();
        assertFalse(s.contains("secret"), s);
        assertTrue(s.contains("session #") && s.contains("11 B"), s);
    }

    @Test
    void errorMessage_statusAndLength_checked() {
        refused(() -> new ErrorMessage(Status.OK, "x"));
        refused(() -> new ErrorMessage(256, "x"));
        refused(() -> new ErrorMessage(-1, "x"));
        refused(() -> new ErrorMessage(Status.INTERNAL, "x".repeat(4097)));
        refused(() -> new ErrorMessage(Status.INTERNAL, "\uD800"));
        assertEquals(4096, new ErrorMessage(Status.INTERNAL, "x".repeat(4096)).message().length());
    }

    @Test
    void errorMessageOf_anyText_sanitizedAndCutAtACharBoundary() {
        assertEquals("", ErrorMessage.of(Status.INTERNAL, null).message());
        assertEquals("a\uFFFDb", ErrorMessage.of(Status.INTERNAL, "a\uD800b").message());
        String cut = ErrorMessage.of(Status.INTERNAL, "€".repeat(2000)).message();
        assertEquals(1365, cut.length()); // 4095 bytes: a 1366th would pass 4096
        assertEquals("ab", ErrorMessage.of(Status.INTERNAL, "ab😀", 5).message(), "a pair is never split");
        assertEquals("ab😀", ErrorMessage.of(Status.INTERNAL, "ab😀", 6).message());
        MalformedMessageException e = new MalformedMessageException(Status.TOO_LARGE, "too big");
        assertEquals(new ErrorMessage(Status.TOO_LARGE, "too big"), ErrorMessage.of(e));
    }

    @Test
    void readResult_sectionByName_found() {
        ReadResult r = new ReadResult("s", List.of(new SectionData("a", 1, Map.of())));
        assertEquals(1, r.section("a").orElseThrow().version());
        assertTrue(r.section("b").isEmpty());
    }

    @Test
    void status_namesAndCodes_roundTrip() {
        String[] names = {"OK", "NOT_FOUND", "CONFLICT", "TOO_LARGE", "BAD_REQUEST", "UNAVAILABLE", "TIMEOUT", "INTERNAL",
            "UNSUPPORTED_VERSION", "NOT_LEADER", "MOVED", "MOVING", "FORBIDDEN", "OUTCOME_UNKNOWN"};
        for (int code = 0; code < names.length; code++) {
            assertEquals(names[code], Status.name(code));
            assertEquals(code, Status.code(names[code]));
            assertTrue(Status.isKnown(code));
        }
        for (int code = names.length; code <= Status.MAX_CODE; code++) {
            assertEquals(code, Status.code(Status.name(code)));
        }
        assertEquals("STATUS_14", Status.name(14));
        for (String bad : new String[] {"", "conflict", "STATUS_", "STATUS_2", "STATUS_09", "STATUS_256", "STATUS_1000", "STATUS_x"}) {
            assertEquals(-1, Status.code(bad), bad);
        }
        assertEquals(Status.CONFLICT, 2);
        assertEquals(Status.UNSUPPORTED_VERSION, 8);
        assertEquals(Status.NOT_LEADER, 9);
        assertEquals(Status.MOVED, 10);
        assertEquals(Status.MOVING, 11);
        assertEquals(Status.OUTCOME_UNKNOWN, 13);
    }

    @Test
    void messageTypes_namesAndClasses_agree() {
        assertEquals("READ_REQUEST", MessageTypes.name(MessageTypes.READ_REQUEST));
        assertEquals("RENAME_REQUEST", MessageTypes.name(9));
        assertEquals("PRINCIPAL_SESSIONS", MessageTypes.name(10));
        assertEquals("TYPE_11", MessageTypes.name(11));
        for (TransportMessage m : TransportFixtures.samples()) {
            assertEquals(m.type(), MessageTypes.of(m.getClass()));
        }
    }
}
