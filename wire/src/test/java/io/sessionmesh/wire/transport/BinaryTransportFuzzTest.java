package io.sessionmesh.wire.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.ByteBuffer;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of {@link BinaryTransportCodec}'s reader (BinaryReader): the input is one message. The
 * contract: a message or a {@link MalformedMessageException} with BAD_REQUEST, TOO_LARGE or UNSUPPORTED_VERSION, never
 * another exception; a decoded message encodes (within the same limits) and decodes to an equal message, and without
 * the trailer or an ignorable flag to the very bytes decoded (every message has exactly one encoding); a
 * READ_RESULT decodes the same in wire form ({@link BinaryTransportCodec#decodeEncodedReadResult}); the framer's
 * length agrees with the decoder. Seeds: BinaryTransportFuzzTestInputs (one message of every type).
 */
class BinaryTransportFuzzTest {
    private static final Set<Integer> STATUSES = Set.of(Status.BAD_REQUEST, Status.TOO_LARGE, Status.UNSUPPORTED_VERSION);
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] input) {
        TransportMessage message;
        try {
            message = codec.decode(input);
        } catch (MalformedMessageException e) {
            assertTrue(STATUSES.contains(e.status()), e::toString);
            if (input.length >= BinaryTransportCodec.HEADER_BYTES && input[5] == MessageTypes.READ_RESULT) {
                assertThrows(MalformedMessageException.class, () -> codec.decodeEncodedReadResult(input, 0, input.length),
                        "the wire-form READ_RESULT decoder accepted what the decoder refused: " + e);
            }
            return;
        }
        assertEquals(input.length, codec.frameLength(ByteBuffer.wrap(input)), "the framer's length");
        byte[] again = codec.encode(message);
        assertEquals(message, codec.decode(again), "does not decode to itself once encoded");
        if ((input[6] & 0xF0) == 0) {
            // No trailer and no ignorable flag: the bytes can only be the message's one encoding (PROTOCOL.md 2.1).
            assertArrayEquals(input, again, "a second encoding of " + message);
        }
        if (message instanceof ReadResult result) {
            assertEquals(result, codec.decodeEncodedReadResult(input, 0, input.length).toReadResult(), "in wire form");
        }
    }
}
