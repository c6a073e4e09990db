package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CREATE with a requested id (flag REQUESTED_ID) and RENAME (0x13): the bytes PROTOCOL.md 3.2 shows, and refusals by name. */
class RequestedIdBodiesTest {
    private static final String OLD = "AbCdEfGhIjKlMnOpQrStUv";
    private static final String NEW = "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c";
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private static byte[] body(MasterRequest<?> request, BinaryTransportCodec codec) {
        ByteBuf out = Unpooled.buffer();
        request.writeBody(out, codec);
        assertEquals(request.bodySize(codec), out.readableBytes());
        return ByteBufUtil.getBytes(out);
    }

    private MasterRequest<?> decode(int opcode, int flags, byte[] body) {
        Frame frame = new Frame(opcode, flags, 0, 1, Unpooled.wrappedBuffer(body));
        try {
            return MasterRequest.decode(frame, codec);
        } finally {
            frame.release();
        }
    }

    private MalformedMessageException refused(int opcode, int flags, byte[] body) {
        return assertThrows(MalformedMessageException.class, () -> decode(opcode, flags, body));
    }

    private static byte[] bytes(ByteBuf b) {
        return ByteBufUtil.getBytes(b);
    }

    @Test
    void createWithId_flagsItAndPutsTheIdFirst() {
        MasterRequest.Create c = new MasterRequest.Create(Duration.ofMinutes(10), null, "alice", NEW);
        assertEquals(FrameHeader.FLAG_REQUESTED_ID, c.flags());
        byte[] b = body(c, codec);
        assertEquals("24" + HexFormat.of().formatHex(NEW.getBytes(StandardCharsets.US_ASCII)) + "000927c0" + "000000000000"
                + "0005" + "616c696365", HexFormat.of().formatHex(b));
        assertEquals(c, decode(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, b));
        for (MasterRequest.Create other : List.of(new MasterRequest.Create(null, null, null, NEW),
                new MasterRequest.Create(Duration.ofSeconds(1), null, null, NEW))) {
            assertEquals(other, decode(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, body(other, codec)));
        }
        assertEquals(0, new MasterRequest.Create(null, null, "alice").flags(), "without an id, the bytes of before");
    }

    @Test
    void createWithId_badIdsRefusedByNameNeverEchoed() {
        // shorter than the minimum
        String shortId = NEW.substring(0, TransportLimits.MIN_REQUESTED_ID_CHARS - 1);
        byte[] b = bytes(Unpooled.buffer().writeByte(shortId.length()).writeBytes(shortId.getBytes(StandardCharsets.US_ASCII)));
        MalformedMessageException e = refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, b);
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("at least " + TransportLimits.MIN_REQUESTED_ID_CHARS), e.getMessage());
        assertFalse(e.getMessage().contains(shortId), e.getMessage());
        // a char outside the alphabet
        byte[] dotted = bytes(Unpooled.buffer().writeByte(16).writeBytes("AbCdEfGh.jKlMnOp".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, dotted).status());
        // empty body, zero length, a length past the end
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, new byte[0]).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, new byte[] {0}).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, new byte[] {40, 'a'}).status());
        // with a placement: the id places itself
        Placement placement = new Placement(List.of("127.0.0.1:7400", "127.0.0.1:7401"), 16, 1);
        ByteBuf withPlacement = Unpooled.buffer().writeByte(NEW.length()).writeBytes(NEW.getBytes(StandardCharsets.US_ASCII)).writeInt(0);
        placement.writeTo(withPlacement);
        e = refused(Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, bytes(withPlacement));
        assertTrue(e.getMessage().contains("placement"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MasterRequest.Create(null, placement, null, NEW));
    }

    @Test
    void requestedIdFlag_isMustUnderstandOnOtherOpcodes() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20));
        ByteBuf frame = Unpooled.buffer();
        FrameHeader.write(frame, Opcodes.TOUCH, FrameHeader.FLAG_REQUESTED_ID, 0, 7, OLD.length());
        frame.writeBytes(OLD.getBytes(StandardCharsets.US_ASCII));
        ch.writeInbound(frame);
        InvalidFrame invalid = assertInstanceOf(InvalidFrame.class, ch.readInbound());
        assertEquals(Status.UNSUPPORTED_VERSION, invalid.status());
        ByteBuf create = Unpooled.buffer();
        FrameHeader.write(create, Opcodes.CREATE, FrameHeader.FLAG_REQUESTED_ID, 0, 8, 1 + NEW.length());
        create.writeByte(NEW.length()).writeBytes(NEW.getBytes(StandardCharsets.US_ASCII));
        ch.writeInbound(create);
        Frame f = assertInstanceOf(Frame.class, ch.readInbound());
        try {
            assertEquals(new MasterRequest.Create(null, null, null, NEW), MasterRequest.decode(f, codec));
        } finally {
            f.release();
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void rename_matchesTheDocumentedBytes() {
        MasterRequest.Rename r = new MasterRequest.Rename(OLD, NEW, Duration.ofMinutes(10));
        assertEquals("16" + HexFormat.of().formatHex(OLD.getBytes(StandardCharsets.US_ASCII)) + "000927c0"
                + HexFormat.of().formatHex(NEW.getBytes(StandardCharsets.US_ASCII)), HexFormat.of().formatHex(body(r, codec)));
        assertEquals(r, decode(Opcodes.RENAME, 0, body(r, codec)));
        MasterRequest.Rename keep = new MasterRequest.Rename(OLD, null, Duration.ofSeconds(30));
        assertTrue(keep.keepsId());
        assertEquals(keep, decode(Opcodes.RENAME, 0, body(keep, codec)));
        MasterRequest.Rename idOnly = new MasterRequest.Rename(OLD, NEW, null);
        assertEquals(idOnly, decode(Opcodes.RENAME, 0, body(idOnly, codec)));
        assertEquals("RENAME", Opcodes.name(Opcodes.RENAME));
    }

    @Test
    void rename_badBodiesRefusedByName() {
        // no new id
        byte[] noNew = bytes(Unpooled.buffer().writeByte(OLD.length()).writeBytes(OLD.getBytes(StandardCharsets.US_ASCII)).writeInt(0));
        MalformedMessageException e = refused(Opcodes.RENAME, 0, noNew);
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("RENAME"), e.getMessage());
        // a short new id (not the old one)
        byte[] shortNew = bytes(Unpooled.buffer().writeByte(OLD.length()).writeBytes(OLD.getBytes(StandardCharsets.US_ASCII)).writeInt(0)
                .writeBytes("abc".getBytes(StandardCharsets.US_ASCII)));
        e = refused(Opcodes.RENAME, 0, shortNew);
        assertTrue(e.getMessage().contains("at least " + TransportLimits.MIN_REQUESTED_ID_CHARS), e.getMessage());
        assertFalse(e.getMessage().contains(OLD), e.getMessage());
        // an old id of a short master id may keep its id: equal is "keep"
        byte[] keepShort = bytes(Unpooled.buffer().writeByte(2).writeBytes("s1".getBytes(StandardCharsets.US_ASCII)).writeInt(1000)
                .writeBytes("s1".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(new MasterRequest.Rename("s1", "s1", Duration.ofSeconds(1)), decode(Opcodes.RENAME, 0, keepShort));
        // empty, zero id length, a length past the end, a bad char in the new id
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.RENAME, 0, new byte[0]).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.RENAME, 0, new byte[] {0, 0, 0, 0, 0, 'a'}).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.RENAME, 0, new byte[] {100, 'a', 0, 0, 0, 0, 'a'}).status());
        byte[] badChar = bytes(Unpooled.buffer().writeByte(OLD.length()).writeBytes(OLD.getBytes(StandardCharsets.US_ASCII)).writeInt(0)
                .writeBytes("AbCdEfGh/jKlMnOpQ".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.RENAME, 0, badChar).status());
    }
}
