package io.sessionmesh.wire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The 16 bytes of a frame header (PROTOCOL.md 1), field by field, for values with the high bit set in every field. */
class FrameHeaderTest {
    private static byte[] header(int opcode, int flags, int status, int requestId, int bodyLength) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(0x11); // written at the writer index
        FrameHeader.write(out, opcode, flags, status, requestId, bodyLength);
        assertEquals(1 + FrameHeader.BYTES, out.writerIndex());
        byte[] b = ByteBufUtil.getBytes(out, 1, FrameHeader.BYTES);
        out.release();
        return b;
    }

    @Test
    void write_isMagicVersionOpcodeFlagsStatusThenRequestIdAndLength_bigEndian() {
        assertArrayEquals(new byte[] {0x53, 0x4D, 0x4D, 0x46, 1, 0x04, 0x01, 0x00, 0, 0, 0x01, 0x02, 0, 0, 0x04, 0x00},
                header(Opcodes.WRITE, FrameHeader.FLAG_RESPONSE, 0, 0x0102, 1024));
    }

    @Test
    void write_highBitsInEveryField_doNotSpillIntoTheNextField() {
        assertArrayEquals(new byte[] {0x53, 0x4D, 0x4D, 0x46, 1, (byte) 0xFF, (byte) 0x80, (byte) 0xFE,
                        (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x80, 0, 0, 0},
                header(0xFF, 0x80, 0xFE, -1, Integer.MIN_VALUE));
        assertArrayEquals(new byte[] {0x53, 0x4D, 0x4D, 0x46, 1, 0, 0, 0, (byte) 0x80, 0, 0, 0, (byte) 0xFF, (byte) 0xFF,
                        (byte) 0xFF, (byte) 0xFF},
                header(0, 0, 0, Integer.MIN_VALUE, -1));
    }
}
