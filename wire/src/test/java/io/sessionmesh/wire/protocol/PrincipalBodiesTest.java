package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bodies that carry a principal (PROTOCOL.md 3.2, 3.11): CREATE's new field, PRINCIPAL, LOGOUT, DESCRIBE. */
class PrincipalBodiesTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private static final String ID = "AbCdEfGhIjKlMnOpQrStUv";

    private MasterRequest<?> roundTrip(MasterRequest<?> request) {
        ByteBuf body = Unpooled.buffer();
        request.writeBody(body, codec);
        assertEquals(request.bodySize(codec), body.readableBytes());
        return decode(request.opcode(), body);
    }

    private MasterRequest<?> decode(int opcode, ByteBuf body) {
        Frame frame = new Frame(opcode, 0, 0, 1, body);
        try {
            return MasterRequest.decode(frame, codec);
        } finally {
            frame.release();
        }
    }

    private MalformedMessageException refused(int opcode, byte[] body) {
        return assertThrows(MalformedMessageException.class, () -> decode(opcode, Unpooled.wrappedBuffer(body)));
    }

    @Test
    void createCarriesAPrincipalWithOrWithoutAPlacementOrTimeout() {
        Placement placement = new Placement(List.of("127.0.0.1:7400", "127.0.0.1:7401"), 256, 1);
        for (MasterRequest.Create c : List.of(
                new MasterRequest.Create(null, null, "alice"),
                new MasterRequest.Create(Duration.ofSeconds(30), null, "Zoë Ω"),
                new MasterRequest.Create(null, placement, "bob"),
                new MasterRequest.Create(Duration.ofSeconds(30), placement, null),
                new MasterRequest.Create(null, null, null))) {
            assertEquals(c, roundTrip(c));
        }
    }

    @Test
    void aCreateBodyOfAnEarlierBuildStillReads() {
        ByteBuf old = Unpooled.buffer().writeInt(60_000);
        MasterRequest.Create c = (MasterRequest.Create) decode(Opcodes.CREATE, old);
        assertEquals(Duration.ofMinutes(1), c.idleTimeout());
        assertNull(c.principal());
    }

    @Test
    void malformedPrincipalFieldsAreRefusedByName() {
        // the no-placement marker with nothing after it
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, new byte[10]).status());
        // a length that does not match the bytes
        byte[] cut = Unpooled.buffer().writeInt(0).writeZero(6).writeShort(9).writeBytes("abc".getBytes()).array();
        MalformedMessageException e = refused(Opcodes.CREATE, java.util.Arrays.copyOf(cut, 4 + 6 + 2 + 3));
        assertTrue(e.getMessage().contains("principal"), e.getMessage());
        // one byte where the u16 length should be (a fuzzing find: it once made a byte array of length -1)
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, new byte[]{0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0x2e}).status());
        // a control character
        byte[] control = Unpooled.buffer().writeInt(0).writeZero(6).writeShort(3).writeBytes(new byte[]{'a', 7, 'b'}).array();
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.CREATE, java.util.Arrays.copyOf(control, 15)).status());
        // over 256 bytes
        byte[] big = new byte[257];
        java.util.Arrays.fill(big, (byte) 'x');
        assertEquals(Status.TOO_LARGE, refused(Opcodes.LOGOUT, big).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.LOGOUT, new byte[0]).status());
        // not UTF-8
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.LOGOUT, new byte[]{(byte) 0xC3, 0x28}).status());
    }

    @Test
    void principalSetsOrClears() {
        assertEquals(new MasterRequest.SetPrincipal(ID, "Zoë"), roundTrip(new MasterRequest.SetPrincipal(ID, "Zoë")));
        assertEquals(new MasterRequest.SetPrincipal(ID, null), roundTrip(new MasterRequest.SetPrincipal(ID, null)));
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.PRINCIPAL, new byte[]{0}).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.PRINCIPAL, new byte[]{30, 'a', 'b'}).status());
        assertEquals(Status.BAD_REQUEST, refused(Opcodes.PRINCIPAL, new byte[]{2, 'a', '!', 'x'}).status());
    }

    @Test
    void logoutAndDescribeRoundTrip() {
        assertEquals(new MasterRequest.Logout("alice@example.com"), roundTrip(new MasterRequest.Logout("alice@example.com")));
        assertEquals(new MasterRequest.Describe(ID), roundTrip(new MasterRequest.Describe(ID)));
    }

    @Test
    void answersReadBackAsWritten() {
        MasterAnswer.Description d = new MasterAnswer.Description(5, 1_700_000_000_000L, 1_700_000_100_000L, 1_700_000_400_000L,
                300_000, 3, "Zoë");
        ByteBuf out = Unpooled.buffer();
        d.writeBody(out, codec);
        assertEquals(d.bodySize(codec), out.readableBytes());
        assertEquals(d, MasterAnswer.Description.decode(new Frame(Opcodes.DESCRIBE, FrameHeader.FLAG_RESPONSE, 0, 5, out)));
        ByteBuf none = Unpooled.buffer();
        new MasterAnswer.Description(5, 1, 2, 3, 4, 1, null).writeBody(none, codec);
        assertNull(MasterAnswer.Description.decode(new Frame(Opcodes.DESCRIBE, FrameHeader.FLAG_RESPONSE, 0, 5, none)).principal());
        ByteBuf count = Unpooled.buffer();
        new MasterAnswer.LoggedOut(9, 4).writeBody(count, codec);
        assertEquals(4L, new MasterRequest.Logout("a").decodeAnswer(new Frame(Opcodes.LOGOUT, FrameHeader.FLAG_RESPONSE, 0, 9, count), codec));
    }
}
