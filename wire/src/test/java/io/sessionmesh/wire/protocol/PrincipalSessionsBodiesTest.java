package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PRINCIPAL_SESSIONS (0x14): the request and answer bytes PROTOCOL.md 3.2 shows, and refusals by name. */
class PrincipalSessionsBodiesTest {
    private static final String SECRET = "alice@example.com";
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private MasterRequest<?> decode(byte[] body) {
        Frame frame = new Frame(Opcodes.PRINCIPAL_SESSIONS, 0, 0, 1, Unpooled.wrappedBuffer(body));
        try {
            return MasterRequest.decode(frame, codec);
        } finally {
            frame.release();
        }
    }

    private static byte[] body(MasterRequest<?> request, BinaryTransportCodec codec) {
        ByteBuf out = Unpooled.buffer();
        request.writeBody(out, codec);
        assertEquals(request.bodySize(codec), out.readableBytes());
        return ByteBufUtil.getBytes(out);
    }

    private static byte[] answerBody(MasterAnswer answer, BinaryTransportCodec codec) {
        ByteBuf out = Unpooled.buffer();
        answer.writeBody(out, codec);
        assertEquals(answer.bodySize(codec), out.readableBytes());
        return ByteBufUtil.getBytes(out);
    }

    private MasterAnswer.SessionsOfPrincipal readAnswer(byte[] body) {
        Frame frame = new Frame(Opcodes.PRINCIPAL_SESSIONS, FrameHeader.FLAG_RESPONSE, 0, 9, Unpooled.wrappedBuffer(body));
        try {
            return new MasterRequest.PrincipalSessions("alice").decodeAnswer(frame, codec);
        } finally {
            frame.release();
        }
    }

    @Test
    void request_isThePrincipalAsLogoutsIs() {
        MasterRequest.PrincipalSessions r = new MasterRequest.PrincipalSessions("alice");
        assertEquals("616c696365", HexFormat.of().formatHex(body(r, codec)));
        assertEquals(r, decode(body(r, codec)));
        assertEquals("PRINCIPAL_SESSIONS", Opcodes.name(Opcodes.PRINCIPAL_SESSIONS));
        assertEquals(0x14, Opcodes.PRINCIPAL_SESSIONS);
    }

    @Test
    void request_badPrincipal_refusedAsLogoutsIsWithoutRepeatingIt() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decode(new byte[0]));
        assertEquals(Status.BAD_REQUEST, e.status());
        e = assertThrows(MalformedMessageException.class,
                () -> decode(new byte[TransportLimits.MAX_PRINCIPAL_BYTES + 1]));
        assertEquals(Status.TOO_LARGE, e.status());
        e = assertThrows(MalformedMessageException.class, () -> decode((SECRET + "\n").getBytes(StandardCharsets.UTF_8)));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        e = assertThrows(MalformedMessageException.class, () -> decode(new byte[] {(byte) 0xC0, (byte) 0x80}));
        assertEquals(Status.BAD_REQUEST, e.status());
    }

    @Test
    void answer_matchesTheDocumentedBytes() {
        MasterAnswer.SessionsOfPrincipal a = new MasterAnswer.SessionsOfPrincipal(9, List.of("s1", "s2"), false);
        assertEquals("00" + "00000002" + "027331" + "027332", HexFormat.of().formatHex(answerBody(a, codec)));
        assertEquals(a, readAnswer(answerBody(a, codec)));
        MasterAnswer.SessionsOfPrincipal cut = new MasterAnswer.SessionsOfPrincipal(9, List.of("s1"), true);
        assertEquals("01" + "00000001" + "027331", HexFormat.of().formatHex(answerBody(cut, codec)));
        assertTrue(readAnswer(answerBody(cut, codec)).truncated());
        assertEquals(List.of(), readAnswer(HexFormat.of().parseHex("0000000000")).sessionIds());
    }

    @Test
    void answer_malformed_refusedByName() {
        for (String bad : List.of("", "00000000", "0000000001", "000000000100", "00000000020173", "0000000001027331ff",
                "000000000102732e", "00ffffffff027331")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> readAnswer(HexFormat.of().parseHex(bad)), bad);
            assertTrue(e.getMessage().contains("PRINCIPAL_SESSIONS answer"), e.getMessage());
        }
    }
}
