package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * CREATE_REQUEST's principal (flag PRINCIPAL, must-understand) and SESSION_PRINCIPAL (type 8) in both forms: the bytes
 * PROTOCOL.md shows, one encoding per message, and refusals that never repeat the principal.
 */
class PrincipalMessagesTest {
    private static final String SECRET = "alice@example.com";
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void createRequest_withPrincipal_flagsItAndAppendsIt() {
        CreateRequest create = new CreateRequest(600, "alice");
        assertEquals("534d544d" + "01" + "06" + "01" + "00000008" + "d804" + "05616c696365",
                HexFormat.of().formatHex(binary.encode(create)));
        assertEquals(create, binary.decode(binary.encode(create)));
        assertEquals(Optional.of("alice"), create.principal());
    }

    @Test
    void createRequest_withoutPrincipal_keepsTheVersion1Bytes() {
        assertEquals("534d544d" + "01" + "06" + "00" + "00000002" + "d804",
                HexFormat.of().formatHex(binary.encode(new CreateRequest(600, null))));
        assertEquals(CreateRequest.DEFAULT, binary.decode(hex("534d544d" + "01" + "06" + "00" + "00000001" + "00")));
    }

    @Test
    void createRequest_principalBytesWithoutTheFlag_badRequest() {
        // A principal a writer forgot to flag is leftover bytes, not a principal: one encoding per message.
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> binary.decode(hex("534d544d" + "01" + "06" + "00" + "00000008" + "d804" + "05616c696365")));
        assertEquals(Status.BAD_REQUEST, e.status());
    }

    @Test
    void createRequest_flagWithAnEmptyOrMissingPrincipal_badRequest() {
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> binary.decode(hex("534d544d" + "01" + "06" + "01" + "00000003" + "d804" + "00"))).status());
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> binary.decode(hex("534d544d" + "01" + "06" + "01" + "00000002" + "d804"))).status());
    }

    @Test
    void principalFlag_onAnotherType_unsupportedVersion() {
        byte[] b = binary.encode(new SessionPrincipal("s1", "alice"));
        b[6] = (byte) BinaryTransportCodec.FLAG_PRINCIPAL;
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> binary.decode(b));
        assertEquals(Status.UNSUPPORTED_VERSION, e.status());
        assertTrue(e.getMessage().contains("must-understand"), e.getMessage());
    }

    @Test
    void sessionPrincipal_binary_matchesTheDocumentedBytes() {
        assertEquals("534d544d" + "01" + "08" + "00" + "00000009" + "027331" + "05616c696365",
                HexFormat.of().formatHex(binary.encode(new SessionPrincipal("s1", "alice"))));
        assertEquals("534d544d" + "01" + "08" + "00" + "00000004" + "027331" + "00",
                HexFormat.of().formatHex(binary.encode(new SessionPrincipal("s1", null))));
        SessionPrincipal none = binary.decode(hex("534d544d0108000000000402733100"), SessionPrincipal.class);
        assertEquals(Optional.empty(), none.principal());
    }

    @Test
    void sessionPrincipal_json_shapes() {
        assertEquals("{\"id\":\"s1\",\"principal\":\"alice\"}",
                new String(json.encode(new SessionPrincipal("s1", "alice")), StandardCharsets.UTF_8));
        assertEquals("{\"id\":\"s1\"}", new String(json.encode(new SessionPrincipal("s1", null)), StandardCharsets.UTF_8));
        assertEquals(new SessionPrincipal("s1", "alice"),
                json.decode(utf8("{\"principal\":\"alice\"}"), SessionPrincipal.class, "s1"));
        assertEquals(new SessionPrincipal("s1", null), json.decode(utf8("{\"principal\":null}"), SessionPrincipal.class, "s1"));
        assertEquals(new SessionPrincipal("s1", "Zoë"), json.decode(utf8("{\"id\":\"s1\",\"principal\":\"Zo\\u00eb\"}"),
                SessionPrincipal.class));
    }

    @Test
    void createRequest_json_principalOptional() {
        assertEquals("{\"idleTimeoutSeconds\":0,\"principal\":\"alice\"}",
                new String(json.encode(new CreateRequest(0, "alice")), StandardCharsets.UTF_8));
        assertEquals(new CreateRequest(0, "alice"), json.decode(utf8("{\"principal\":\"alice\"}"), CreateRequest.class));
        assertEquals(new CreateRequest(60, null),
                json.decode(utf8("{\"idleTimeoutSeconds\":60,\"principal\":null}"), CreateRequest.class));
    }

    @Test
    void sessionPrincipal_idOfAnotherSession_badRequestWithoutEitherId() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"id\":\"Xy7\",\"principal\":\"alice\"}"), SessionPrincipal.class, "s1"));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertFalse(e.getMessage().contains("Xy7") || e.getMessage().contains("s1\""), e.getMessage());
    }

    @Test
    void badPrincipals_refusedWithoutRepeatingThem() {
        String controls = SECRET + "\\u0007";
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"principal\":\"" + controls + "\"}"), SessionPrincipal.class, "s1"));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("principal") && e.getMessage().contains("control"), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());

        e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"principal\":\"\"}"), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());

        String big = SECRET.repeat(20); // 340 bytes
        e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"principal\":\"" + big + "\"}"), SessionPrincipal.class, "s1"));
        assertEquals(Status.TOO_LARGE, e.status());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());

        byte[] binaryBig = binary.encode(new SessionPrincipal("s1", "a".repeat(256)));
        e = assertThrows(MalformedMessageException.class, () -> binary.decode(grow(binaryBig)));
        assertEquals(Status.TOO_LARGE, e.status());

        byte[] withBell = hex("534d544d" + "01" + "08" + "00" + "00000006" + "027331" + "02" + "6107");
        e = assertThrows(MalformedMessageException.class, () -> binary.decode(withBell));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertFalse(e.getMessage().contains("a\u0007"), e.getMessage());

        assertThrows(IllegalArgumentException.class, () -> new SessionPrincipal("s1", ""));
        assertThrows(IllegalArgumentException.class, () -> new CreateRequest(0, "x".repeat(257)));
        assertFalse(new CreateRequest(0, SECRET).toString().contains(SECRET));
        assertFalse(new SessionPrincipal("s1", SECRET).toString().contains(SECRET));
    }

    /** A 256-byte principal made 257: the length varint and the body length raised by one, a byte appended. */
    private static byte[] grow(byte[] b) {
        byte[] g = java.util.Arrays.copyOf(b, b.length + 1);
        g[g.length - 1] = 'a';
        g[10] += 1; // body length, low byte
        int at = 11 + 3; // after "s1": the principal's length varint, 256 = 80 02
        assertEquals((byte) 0x80, g[at]);
        g[at] = (byte) 0x81; // 257
        return g;
    }
}
