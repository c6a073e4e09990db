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
 * CREATE_REQUEST's requested id (flag ID, must-understand) and RENAME_REQUEST (type 9) in both forms: the bytes
 * PROTOCOL.md shows, one encoding per message, the minimum length of an id the application chooses, and refusals that
 * never repeat an id.
 */
class RequestedIdMessagesTest {
    /** 16 chars: the shortest id an application may choose. */
    private static final String ID = "Ab3_x-9Ab3_x-9Zz";
    private static final String ID_HEX = "10" + HexFormat.of().formatHex(ID.getBytes(StandardCharsets.US_ASCII));
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

    @Test
    void createRequest_withId_flagsItAndAppendsIt() {
        CreateRequest create = new CreateRequest(600, null, ID);
        assertEquals("534d544d" + "01" + "06" + "02" + "00000013" + "d804" + ID_HEX, HexFormat.of().formatHex(binary.encode(create)));
        assertEquals(create, binary.decode(binary.encode(create)));
        assertEquals(Optional.of(ID), create.sessionId());
    }

    @Test
    void createRequest_withPrincipalAndId_theIdComesLast() {
        CreateRequest create = new CreateRequest(600, "alice", ID);
        assertEquals("534d544d" + "01" + "06" + "03" + "00000019" + "d804" + "05616c696365" + ID_HEX,
                HexFormat.of().formatHex(binary.encode(create)));
        assertEquals(create, binary.decode(binary.encode(create)));
    }

    @Test
    void createRequest_withoutId_keepsTheBytesOfBefore() {
        assertEquals("534d544d" + "01" + "06" + "01" + "00000008" + "d804" + "05616c696365",
                HexFormat.of().formatHex(binary.encode(new CreateRequest(600, "alice", null))));
        assertEquals(Optional.empty(), new CreateRequest(600).sessionId());
    }

    @Test
    void createRequest_idBytesWithoutTheFlag_badRequest() {
        assertEquals(Status.BAD_REQUEST, refusedBinary("534d544d" + "01" + "06" + "00" + "00000013" + "d804" + ID_HEX).status());
    }

    @Test
    void createRequest_flagWithAMissingOrEmptyId_badRequest() {
        assertEquals(Status.BAD_REQUEST, refusedBinary("534d544d" + "01" + "06" + "02" + "00000002" + "d804").status());
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "06" + "02" + "00000003" + "d804" + "00");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("session id"), e.getMessage());
    }

    @Test
    void createRequest_idShorterThanTheMinimum_badRequestNamingTheRuleNotTheId() {
        String shortId = ID.substring(1); // 15 chars
        String shortHex = "0f" + HexFormat.of().formatHex(shortId.getBytes(StandardCharsets.US_ASCII));
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "06" + "02" + "00000012" + "d804" + shortHex);
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("at least " + TransportLimits.MIN_REQUESTED_ID_CHARS), e.getMessage());
        assertFalse(e.getMessage().contains(shortId), e.getMessage());

        e = assertThrows(MalformedMessageException.class, () -> json.decode(utf8("{\"id\":\"" + shortId + "\"}"), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("at least " + TransportLimits.MIN_REQUESTED_ID_CHARS), e.getMessage());
        assertFalse(e.getMessage().contains(shortId), e.getMessage());

        IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> new CreateRequest(0, null, shortId));
        assertFalse(a.getMessage().contains(shortId), a.getMessage());
    }

    @Test
    void createRequest_idWithACharOutsideTheAlphabet_badRequest() {
        String dotted = "Ab3.x-9Ab3_x-9Zz";
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"id\":\"" + dotted + "\"}"), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertFalse(e.getMessage().contains(dotted), e.getMessage());
        String dottedHex = "10" + HexFormat.of().formatHex(dotted.getBytes(StandardCharsets.US_ASCII));
        assertEquals(Status.BAD_REQUEST, refusedBinary("534d544d" + "01" + "06" + "02" + "00000013" + "d804" + dottedHex).status());
    }

    @Test
    void idFlag_onAnotherType_unsupportedVersion() {
        byte[] b = binary.encode(new RenameRequest(ID, 0));
        b[6] = (byte) BinaryTransportCodec.FLAG_ID;
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> binary.decode(b));
        assertEquals(Status.UNSUPPORTED_VERSION, e.status());
        assertTrue(e.getMessage().contains("must-understand"), e.getMessage());
    }

    @Test
    void createRequest_json_idOptional() {
        assertEquals("{\"idleTimeoutSeconds\":0,\"id\":\"" + ID + "\"}",
                new String(json.encode(new CreateRequest(0, null, ID)), StandardCharsets.UTF_8));
        assertEquals(new CreateRequest(0, null, ID), json.decode(utf8("{\"id\":\"" + ID + "\"}"), CreateRequest.class));
        assertEquals(new CreateRequest(60, "alice", ID),
                json.decode(utf8("{\"id\":\"" + ID + "\",\"principal\":\"alice\",\"idleTimeoutSeconds\":60}"), CreateRequest.class));
        assertEquals(new CreateRequest(60), json.decode(utf8("{\"idleTimeoutSeconds\":60,\"id\":null}"), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"id\":\"" + ID + "\",\"id\":\"" + ID + "\"}"), CreateRequest.class)).status());
    }

    @Test
    void renameRequest_binary_matchesTheDocumentedBytes() {
        assertEquals("534d544d" + "01" + "09" + "00" + "00000013" + ID_HEX + "d804",
                HexFormat.of().formatHex(binary.encode(new RenameRequest(ID, 600))));
        assertEquals("534d544d" + "01" + "09" + "00" + "00000003" + "00" + "d804",
                HexFormat.of().formatHex(binary.encode(new RenameRequest(null, 600))));
        assertEquals("534d544d" + "01" + "09" + "00" + "00000012" + ID_HEX + "00",
                HexFormat.of().formatHex(binary.encode(new RenameRequest(ID, 0))));
        for (RenameRequest r : new RenameRequest[] {new RenameRequest(ID, 600), new RenameRequest(null, 1), new RenameRequest(ID, 0)}) {
            assertEquals(r, binary.decode(binary.encode(r), RenameRequest.class));
            assertEquals(r, json.decode(json.encode(r), RenameRequest.class));
        }
    }

    @Test
    void renameRequest_neitherIdNorTimeout_badRequest() {
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "09" + "00" + "00000002" + "00" + "00");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("neither"), e.getMessage());
        for (String doc : new String[] {"{}", "{\"newId\":null}", "{\"idleTimeoutSeconds\":0}"}) {
            e = assertThrows(MalformedMessageException.class, () -> json.decode(utf8(doc), RenameRequest.class));
            assertEquals(Status.BAD_REQUEST, e.status(), doc);
        }
        assertThrows(IllegalArgumentException.class, () -> new RenameRequest(null, 0));
    }

    @Test
    void renameRequest_badBodies_refusedByName() {
        // truncated: the timeout is missing
        MalformedMessageException e = refusedBinary("534d544d" + "01" + "09" + "00" + "00000011" + ID_HEX);
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("RENAME_REQUEST idle timeout"), e.getMessage());
        // a timeout over 32-bit milliseconds
        e = refusedBinary("534d544d" + "01" + "09" + "00" + "00000005" + "00" + "80c2d72f"); // 100,000,000 s
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("idle timeout"), e.getMessage());
        // a short new id
        e = refusedBinary("534d544d" + "01" + "09" + "00" + "00000005" + "02" + "6162" + "d804");
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("new session id"), e.getMessage());
        // an id too long for any id
        e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"newId\":\"" + "a".repeat(129) + "\"}"), RenameRequest.class));
        assertEquals(Status.TOO_LARGE, e.status());
        // the session is the URL's: a body has no "id"
        e = assertThrows(MalformedMessageException.class,
                () -> json.decode(utf8("{\"id\":\"" + ID + "\",\"newId\":\"" + ID + "\"}"), RenameRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("unknown field"), e.getMessage());
    }

    @Test
    void renameRequest_json_shapes() {
        assertEquals("{\"newId\":\"" + ID + "\",\"idleTimeoutSeconds\":600}",
                new String(json.encode(new RenameRequest(ID, 600)), StandardCharsets.UTF_8));
        assertEquals("{\"idleTimeoutSeconds\":600}", new String(json.encode(new RenameRequest(null, 600)), StandardCharsets.UTF_8));
        assertEquals(new RenameRequest(ID, 0), json.decode(utf8("{\"newId\":\"" + ID + "\",\"idleTimeoutSeconds\":null}"),
                RenameRequest.class));
        assertFalse(new RenameRequest(ID, 0).toString().contains(ID));
        assertFalse(new CreateRequest(0, null, ID).toString().contains(ID));
    }
}
