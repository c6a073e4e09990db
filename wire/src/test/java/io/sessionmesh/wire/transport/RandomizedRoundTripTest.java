package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.TransportFixtures.assertSameMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Thousands of seeded random messages (empty maps, every UTF-8 length, 0-byte to 70 KB values) in both forms. */
class RandomizedRoundTripTest {
    private static final int MESSAGES = 3_000;
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    @Test
    void binaryRoundTrip_randomMessages_equalAndByteIdenticalOnReencode() {
        Random r = new Random(1);
        for (int i = 0; i < MESSAGES; i++) {
            TransportMessage m = TransportFixtures.randomMessage(r);
            byte[] b = binary.encode(m);
            assertEquals(binary.encodedSize(m), b.length);
            TransportMessage back = binary.decode(b);
            assertSameMessage(m, back);
            assertArrayEquals(b, binary.encode(back));
        }
    }

    @Test
    void binaryRoundTrip_randomMessagesThroughBuffers_equal() {
        Random r = new Random(2);
        ByteBuffer direct = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < MESSAGES / 3; i++) {
            TransportMessage m = TransportFixtures.randomMessage(r);
            direct.clear();
            binary.encode(m, direct);
            direct.flip();
            assertEquals(direct.remaining(), binary.frameLength(direct));
            assertSameMessage(m, binary.decode(direct));
        }
    }

    @Test
    void jsonRoundTrip_randomMessages_equal() {
        Random r = new Random(3);
        for (int i = 0; i < MESSAGES; i++) {
            TransportMessage m = TransportFixtures.randomMessage(r);
            assertSameMessage(m, json.decode(json.encode(m), m.getClass()));
        }
    }

    @Test
    void crossForm_binaryThenJson_sameMessage() {
        Random r = new Random(4);
        for (int i = 0; i < MESSAGES / 3; i++) {
            TransportMessage m = TransportFixtures.randomMessage(r);
            TransportMessage viaBinary = binary.decode(binary.encode(m));
            assertSameMessage(m, json.decode(json.encode(viaBinary), m.getClass()));
        }
    }
}
