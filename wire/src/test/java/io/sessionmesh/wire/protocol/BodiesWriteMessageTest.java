package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A transport message written into a buffer is exactly the codec's bytes, whatever was encoded before it. */
class BodiesWriteMessageTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private static WriteRequest write(int valueBytes) {
        return new WriteRequest("s" + valueBytes, List.of(new SectionDelta("cart", Map.of("v", new byte[valueBytes]),
                List.of())));
    }

    @Test
    void intoDirectAndHeapBuffers_longThenShortThenOverTheScratch_eachIsExactlyItsEncoding() {
        int[] sizes = {5000, 10, 300, Bodies.MAX_SCRATCH_BYTES + 10, 20};
        for (boolean direct : new boolean[] {true, false}) {
            ByteBuf out = direct ? Unpooled.directBuffer() : Unpooled.buffer();
            out.writeByte(0x7E); // the message goes at the writer index, after what is there
            int at = out.writerIndex();
            for (int n : sizes) {
                byte[] expected = codec.encode(write(n));
                Bodies.writeMessage(out, codec, write(n));
                assertEquals(at + expected.length, out.writerIndex(), n + " bytes, direct " + direct);
                assertArrayEquals(expected, ByteBufUtil.getBytes(out, at, expected.length), n + " bytes, direct " + direct);
                at = out.writerIndex();
            }
            assertEquals(0x7E, out.getByte(0));
            out.release();
        }
    }

    @Test
    void sized_intoAHeapBufferThatStartsInsideItsArray_landsAtTheWriterIndex() {
        byte[] array = new byte[4096];
        java.util.Arrays.fill(array, (byte) 0x55);
        ByteBuf out = Unpooled.wrappedBuffer(array, 100, 3000).slice(20, 2000); // array offset 120
        out.writerIndex(3);
        WriteRequest message = write(40);
        byte[] expected = codec.encode(message);
        Bodies.writeMessage(out, codec, message, expected.length);
        assertEquals(120, out.arrayOffset());
        assertEquals(3 + expected.length, out.writerIndex());
        assertArrayEquals(expected, ByteBufUtil.getBytes(out, 3, expected.length));
        assertEquals(0x55, array[122], "nothing before the writer index is touched");
        assertEquals(0x55, array[123 + expected.length], "nor after the message");
    }
}
