package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * PRINCIPAL_SESSIONS (type 10) in both forms: the bytes PROTOCOL.md shows, one encoding per message, and refusals by
 * name that never repeat the principal or an id.
 */
class PrincipalSessionsMessagesTest {
    private static final String SECRET = "alice@example.com";
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private MalformedMessageException refusedBinary(String hex) {
        return assertThrows(MalformedMessageException.class, () -> binary.decode(hex(hex)));
    }

    private MalformedMessageException refusedJson(String document) {
        return assertThrows(MalformedMessageException.class, () -> json.decode(utf8(document), PrincipalSessions.class));
    }

    @Test
    void principalSessions_binary_matchesTheDocumentedBytes() {
        PrincipalSessions m = new PrincipalSessions("alice", List.of("s1", "s2"), true);
        assertEquals("534d544d" + "01" + "0a" + "00" + "0000000e" + "05616c696365" + "01" + "02" + "027331" + "027332",
                HexFormat.of().formatHex(binary.encode(m)));
        assertEquals(m, binary.decode(binary.encode(m)));
        PrincipalSessions none = new PrincipalSessions("alice", List.of(), false);
        assertEquals("534d544d" + "01" + "0a" + "00" + "00000008" + "05616c696365" + "00" + "00",
                HexFormat.of().formatHex(binary.encode(none)));
        assertEquals(none, binary.decode(binary.encode(none)));
    }

    @Test
    void principalSessions_json_roundTripsWithEveryField() {
        PrincipalSessions m = new PrincipalSessions("alice", List.of("s1", "s2"), false);
        assertEquals("{\"principal\":\"alice\",\"sessions\":[\"s1\",\"s2\"],\"complete\":false}",
                new String(json.encode(m), StandardCharsets.UTF_8));
        assertEquals(m, json.decode(json.encode(m), PrincipalSessions.class));
        assertEquals(m, json.decode(utf8("{\"complete\":false,\"sessions\":[\"s1\",\"s2\"],\"principal\":\"alice\"}"),
                PrincipalSessions.class));
    }

    @Test
    void principalSessions_unknownFlagBits_badRequest() {
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "0a" + "00" + "00000008" + "05616c696365" + "03" + "00");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("flags"), e.getMessage());
    }

    @Test
    void principalSessions_countPastTheBytes_badRequestBeforeAllocating() {
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "0a" + "00" + "0000000b" + "05616c696365" + "01"
                + "ffff3f" + "00");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("session id count"), e.getMessage());
    }

    @Test
    void principalSessions_countOverTheLimit_tooLarge() {
        // 2^20 + 1 as a varint: 81 80 40
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "0a" + "00" + "0000000a" + "05616c696365" + "01"
                + "818040");
        assertEquals(Status.TOO_LARGE, e.status());
        assertTrue(e.getMessage().contains("limit of " + TransportLimits.MAX_PRINCIPAL_SESSION_IDS), e.getMessage());
    }

    @Test
    void principalSessions_anIdTwice_badRequestWithoutTheId() {
        String id = "AbCdEfGhIjKlMnOpQr";
        String idHex = "12" + HexFormat.of().formatHex(id.getBytes(StandardCharsets.US_ASCII));
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "0a" + "00" + "0000002e" + "05616c696365" + "01"
                + "02" + idHex + idHex);
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("twice"), e.getMessage());
        assertFalse(e.getMessage().contains(id), e.getMessage());
        e = refusedJson("{\"principal\":\"alice\",\"sessions\":[\"" + id + "\",\"" + id + "\"],\"complete\":true}");
        assertTrue(e.getMessage().contains("twice"), e.getMessage());
        assertFalse(e.getMessage().contains(id), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PrincipalSessions("alice", List.of(id, id), true));
    }

    @Test
    void principalSessions_badIdOrPrincipal_refusedByName() {
        assertEquals(Status.BAD_REQUEST, refusedBinary("534d544d" + "01" + "0a" + "00" + "0000000b" + "05616c696365" + "01"
                + "01" + "022e31").status());
        assertEquals(Status.BAD_REQUEST, refusedBinary("534d544d" + "01" + "0a" + "00" + "00000003" + "00" + "01" + "00").status());
        MalformedMessageException e = refusedJson("{\"principal\":\"" + SECRET + "\u0001\",\"sessions\":[],\"complete\":true}");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        e = refusedJson("{\"principal\":\"" + "x".repeat(TransportLimits.MAX_PRINCIPAL_BYTES + 1) + "\",\"sessions\":[],\"complete\":true}");
        assertEquals(Status.TOO_LARGE, e.status());
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":\"alice\",\"sessions\":[\"a.b\"],\"complete\":true}").status());
    }

    @Test
    void principalSessions_json_missingOrWrongFields_badRequest() {
        assertTrue(refusedJson("{\"principal\":\"alice\",\"sessions\":[]}").getMessage().contains("complete"));
        assertTrue(refusedJson("{\"principal\":\"alice\",\"complete\":true}").getMessage().contains("sessions"));
        assertTrue(refusedJson("{\"sessions\":[],\"complete\":true}").getMessage().contains("principal"));
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":null,\"sessions\":[],\"complete\":true}").status());
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":\"alice\",\"sessions\":[],\"complete\":1}").status());
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":\"alice\",\"sessions\":\"s1\",\"complete\":true}").status());
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":\"alice\",\"sessions\":[],\"complete\":true,\"id\":\"s1\"}").status());
        assertEquals(Status.BAD_REQUEST, refusedJson("{\"principal\":\"alice\",\"principal\":\"bob\",\"sessions\":[],\"complete\":true}").status());
    }

    @Test
    void principalSessions_toString_showsNeitherPrincipalNorIds() {
        String s = new PrincipalSessions(SECRET, List.of("AbCdEfGhIjKlMnOpQr"), true).toString();
        assertFalse(s.contains(SECRET), s);
        assertFalse(s.contains("AbCdEfGhIjKlMnOpQr"), s);
    }
}
