package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

/** CREATE_REQUEST and SESSION_CREATED in both forms: the bytes PROTOCOL.md shows, and refusals. */
class CreateMessagesTest {
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    @Test
    void binary_matchesTheDocumentedBytes() {
        assertEquals("534d544d" + "01" + "06" + "00" + "00000002" + "d804",
                HexFormat.of().formatHex(binary.encode(new CreateRequest(600))));
        assertEquals("534d544d" + "01" + "07" + "00" + "00000008" + "027331" + "ac02" + "c0d102",
                HexFormat.of().formatHex(binary.encode(new SessionCreated("s1", 300, 43_200))));
        assertEquals(new CreateRequest(600), binary.decode(binary.encode(new CreateRequest(600))));
    }

    @Test
    void json_shapes_andTheDefault() {
        assertEquals("{\"idleTimeoutSeconds\":600}", new String(json.encode(new CreateRequest(600)), StandardCharsets.UTF_8));
        assertEquals("{\"id\":\"s1\",\"idleTimeoutSeconds\":300,\"maxLifetimeSeconds\":43200}",
                new String(json.encode(new SessionCreated("s1", 300, 43_200)), StandardCharsets.UTF_8));
        assertEquals(CreateRequest.DEFAULT, json.decode("{}".getBytes(StandardCharsets.UTF_8), CreateRequest.class));
        assertEquals(CreateRequest.DEFAULT, json.decode("{\"idleTimeoutSeconds\":null}".getBytes(StandardCharsets.UTF_8),
                CreateRequest.class));
    }

    @Test
    void refusals_nameTheField() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> json.decode(
                "{\"idleTimeoutSeconds\":99999999}".getBytes(StandardCharsets.UTF_8), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("idleTimeoutSeconds"), e.getMessage());
        e = assertThrows(MalformedMessageException.class, () -> json.decode(
                "{\"idleTimeout\":5}".getBytes(StandardCharsets.UTF_8), CreateRequest.class));
        assertTrue(e.getMessage().contains("unknown field"), e.getMessage());
        e = assertThrows(MalformedMessageException.class, () -> json.decode(
                "{\"idleTimeoutSeconds\":-5}".getBytes(StandardCharsets.UTF_8), CreateRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        e = assertThrows(MalformedMessageException.class, () -> json.decode(
                "{\"id\":\"s1\",\"idleTimeoutSeconds\":300}".getBytes(StandardCharsets.UTF_8), SessionCreated.class));
        assertTrue(e.getMessage().contains("maxLifetimeSeconds") && e.getMessage().contains("missing"), e.getMessage());
        byte[] tooLong = HexFormat.of().parseHex("534d544d" + "01" + "06" + "00" + "00000005" + "ffffffff0f");
        e = assertThrows(MalformedMessageException.class, () -> binary.decode(tooLong));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertThrows(IllegalArgumentException.class, () -> new CreateRequest(-1));
    }
}
