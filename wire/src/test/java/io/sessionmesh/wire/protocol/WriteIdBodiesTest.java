package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A WRITE's write id (flag WRITE_ID, PROTOCOL.md 3.2 and 3.12): its bytes, its decoding, its hex form. */
class WriteIdBodiesTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final WriteRequest write = new WriteRequest("s1", List.of(new SectionDelta("cart", Map.of("n", new byte[] {0x2a}),
            List.of())));

    private MasterRequest<?> decode(int flags, byte[] body) {
        Frame frame = new Frame(Opcodes.WRITE, flags, 0, 1, Unpooled.wrappedBuffer(body));
        try {
            return MasterRequest.decode(frame, codec);
        } finally {
            frame.release();
        }
    }

    private byte[] body(MasterRequest<?> r) {
        ByteBuf out = Unpooled.buffer();
        r.writeBody(out, codec);
        assertEquals(r.bodySize(codec), out.readableBytes());
        return ByteBufUtil.getBytes(out);
    }

    @Test
    void writeId_isTheBodysFirst16Bytes_andTheMessageFollowsAsWithout() {
        WriteId id = new WriteId(0x0123456789ABCDEFL, 7);
        byte[] with = body(new MasterRequest.Write(write, false, id));
        byte[] without = body(new MasterRequest.Write(write));
        assertEquals("0123456789abcdef0000000000000007", ByteBufUtil.hexDump(with, 0, 16));
        assertEquals(ByteBufUtil.hexDump(without), ByteBufUtil.hexDump(with, 16, with.length - 16));
        MasterRequest.Write read = (MasterRequest.Write) decode(FrameHeader.FLAG_WRITE_ID, with);
        assertEquals(id, read.writeId());
        assertEquals(write, read.message());
        assertEquals(FrameHeader.FLAG_WRITE_ID, read.flags());
        assertNull(((MasterRequest.Write) decode(0, without)).writeId());
    }

    @Test
    void writeIdFlag_onABodyShorterThanAnId_isBadRequest_andWithoutTheFlagTheIdIsNotAMessage() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> decode(FrameHeader.FLAG_WRITE_ID, new byte[15]));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("write id"), e.getMessage());
        byte[] with = body(new MasterRequest.Write(write, false, new WriteId(1, 2)));
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class, () -> decode(0, with)).status());
    }

    @Test
    void hexForm_roundTrips_andAnythingButThirtyTwoHexDigitsIsRefused() {
        WriteId id = WriteId.next();
        assertEquals(32, id.hex().length());
        assertEquals(id, WriteId.parseHex(id.hex()));
        assertEquals(id, WriteId.parseHex(id.hex().toUpperCase()));
        assertNotEquals(id, WriteId.next());
        for (String bad : new String[] {"", "0123", id.hex() + "0", id.hex().substring(1) + "g", " " + id.hex().substring(1)}) {
            assertThrows(IllegalArgumentException.class, () -> WriteId.parseHex(bad), bad);
        }
    }
}
