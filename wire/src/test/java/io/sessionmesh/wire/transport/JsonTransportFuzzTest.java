package io.sessionmesh.wire.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of {@link JsonTransportCodec}'s reader (JsonReader). Input: byte 0 picks the message class
 * (low 3 bits) and whether the session id comes from a URL (bit 3, as the sidecar's REST API decodes), the rest is
 * the JSON document. The contract: a message or a {@link MalformedMessageException} with BAD_REQUEST or TOO_LARGE,
 * never another exception; a decoded message encodes to JSON and to binary and decodes to an equal message from
 * both. Seeds: JsonTransportFuzzTestInputs.
 */
class JsonTransportFuzzTest {
    static final List<Class<? extends TransportMessage>> TYPES = List.of(ReadRequest.class, ReadResult.class,
            WriteRequest.class, WriteResult.class, ErrorMessage.class, CreateRequest.class, SessionCreated.class,
            SessionPrincipal.class, RenameRequest.class, PrincipalSessions.class);
    private static final Set<Integer> STATUSES = Set.of(Status.BAD_REQUEST, Status.TOO_LARGE);
    private static final String URL_ID = "Ab3_x-9";
    private final JsonTransportCodec json = new JsonTransportCodec();
    private final BinaryTransportCodec binary = new BinaryTransportCodec();

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        // Bits 0-2 and 4 pick the type (bit 4 came with the ninth type: the older seeds, all below 0x11, keep theirs; 0x11 is the tenth).
        Class<? extends TransportMessage> type = TYPES.get(((input[0] & 0x07) | (input[0] & 0x10) >> 1) % TYPES.size());
        boolean fromUrl = (input[0] & 0x08) != 0;
        byte[] document = Arrays.copyOfRange(input, 1, input.length);
        TransportMessage message;
        try {
            message = fromUrl ? json.decode(document, type, URL_ID) : json.decode(document, type);
        } catch (MalformedMessageException e) {
            assertTrue(STATUSES.contains(e.status()), e::toString);
            return;
        }
        assertTrue(type.isInstance(message), message::toString);
        assertEquals(message, json.decode(json.encode(message), type), "does not decode to itself once encoded as JSON");
        assertEquals(message, binary.decode(binary.encode(message)), "does not decode to itself once encoded as binary");
    }
}
