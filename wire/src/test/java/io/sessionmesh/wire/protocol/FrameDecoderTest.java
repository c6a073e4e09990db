package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameDecoderTest {
    static ByteBuf frame(int opcode, int flags, int requestId, byte[] body) {
        ByteBuf b = Unpooled.buffer();
        FrameHeader.write(b, opcode, flags, 0, requestId, body.length);
        return b.writeBytes(body);
    }

    static ByteBuf header(int magic, int version, int opcode, int flags, int requestId, long length) {
        ByteBuf b = Unpooled.buffer();
        b.writeInt(magic).writeByte(version).writeByte(opcode).writeByte(flags).writeByte(0).writeInt(requestId)
                .writeInt((int) length);
        return b;
    }

    @Test
    void decode_framesSplitAnywhere_comeOutWhole() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024));
        ByteBuf all = Unpooled.buffer();
        all.writeBytes(frame(Opcodes.PING, 0, 7, new byte[] {1, 2, 3}));
        all.writeBytes(frame(Opcodes.STATS, 0, 8, new byte[0]));
        all.writeBytes(frame(Opcodes.TOUCH, 0, -1, "abc".getBytes()));
        while (all.isReadable()) {
            ch.writeInbound(all.readRetainedSlice(1));
        }
        Frame a = ch.readInbound();
        Frame b = ch.readInbound();
        Frame c = ch.readInbound();
        assertEquals(Opcodes.PING, a.opcode());
        assertEquals(7, a.requestId());
        assertEquals(3, a.body().readableBytes());
        assertEquals(Opcodes.STATS, b.opcode());
        assertEquals(0, b.body().readableBytes());
        assertEquals(-1, c.requestId());
        assertEquals("abc", c.body().toString(java.nio.charset.StandardCharsets.US_ASCII));
        a.release();
        b.release();
        c.release();
        assertNull(ch.readInbound());
        assertFalse(ch.finish());
    }

    @Test
    void decode_bodyOverLimit_isTooLargeAndSkipped_andTheNextFrameStillDecodes() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(16));
        ByteBuf big = frame(Opcodes.WRITE, 0, 5, new byte[100]);
        ch.writeInbound(big.readRetainedSlice(40));
        InvalidFrame invalid = ch.readInbound();
        assertEquals(Status.TOO_LARGE, invalid.status());
        assertEquals(5, invalid.requestId());
        assertFalse(invalid.fatal());
        ch.writeInbound(big);
        ch.writeInbound(frame(Opcodes.PING, 0, 6, new byte[] {9}));
        Frame next = ch.readInbound();
        assertEquals(6, next.requestId());
        next.release();
    }

    @Test
    void decode_hugeDeclaredLength_allocatesNothing() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20));
        ch.writeInbound(header(FrameHeader.MAGIC, 1, Opcodes.WRITE, 0, 1, 0xFFFF_FFFFL));
        InvalidFrame invalid = ch.readInbound();
        assertEquals(Status.TOO_LARGE, invalid.status());
        assertTrue(invalid.message().contains("4294967295"), invalid.message());
    }

    @Test
    void decode_wrongMagic_isFatal_andLaterBytesAreDropped() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024));
        ch.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes()));
        InvalidFrame invalid = ch.readInbound();
        assertTrue(invalid.fatal());
        assertEquals(Status.BAD_REQUEST, invalid.status());
        ch.writeInbound(frame(Opcodes.PING, 0, 1, new byte[0]));
        assertNull(ch.readInbound());
    }

    @Test
    void decode_unknownVersion_isFatalUnsupportedVersion() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024));
        ch.writeInbound(header(FrameHeader.MAGIC, 2, Opcodes.PING, 0, 3, 0));
        InvalidFrame invalid = ch.readInbound();
        assertEquals(Status.UNSUPPORTED_VERSION, invalid.status());
        assertEquals(3, invalid.requestId());
        assertTrue(invalid.fatal());
    }

    @Test
    void decode_unknownMustUnderstandFlag_isRefusedAndSkipped_ignorableFlagPasses() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1024));
        ch.writeInbound(frame(Opcodes.PING, 0x08, 1, new byte[] {1, 2}));
        ch.writeInbound(frame(Opcodes.PING, 0x80, 2, new byte[] {1}));
        InvalidFrame invalid = ch.readInbound();
        assertEquals(Status.UNSUPPORTED_VERSION, invalid.status());
        Frame ok = assertInstanceOf(Frame.class, ch.readInbound());
        assertEquals(2, ok.requestId());
        ok.release();
    }
}
