package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A WRITE with flag WHOLE_SECTIONS and its answer (PROTOCOL.md 3.2, 3.7 "The writer's own copy"). */
class WholeSectionsBodiesTest {
    private static final String ID = "AbCdEfGhIjKlMnOpQrStUv";
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final WriteRequest request = new WriteRequest(ID, List.of(
            new SectionDelta("cart", Map.of("n", new byte[] {7}), List.of()),
            new SectionDelta("user", Map.of("name", new byte[] {1, 2}), List.of())));
    private final WriteResult result = WriteResult.of(request, new long[] {5, 1});
    private final SessionTimes times = new SessionTimes(300_000, 3_600_000);

    private static EncodedSection section(String name, long version, String key, byte... value) {
        return EncodedSection.of(new SectionData(name, version, Map.of(key, value)));
    }

    /** The body as written both ways: sized by the encoder (FrameEncoder's way) and sizing itself; the same bytes. */
    private static ByteBuf body(MasterAnswer answer, BinaryTransportCodec codec) {
        ByteBuf body = Unpooled.buffer();
        answer.writeBody(body, codec);
        assertEquals(answer.bodySize(codec), body.readableBytes());
        for (ByteBuf sized : new ByteBuf[] {Unpooled.directBuffer(4), Unpooled.buffer(4)}) {
            sized.ensureWritable(answer.bodySize(codec)); // as FrameEncoder does: the body is written where there is room
            answer.writeBody(sized, codec, answer.bodySize(codec));
            assertEquals(body, sized, "written with its size given, direct " + sized.isDirect());
            sized.release();
        }
        return body;
    }

    private MasterAnswer.Write decodeAnswer(ByteBuf body) {
        Frame frame = new Frame(Opcodes.WRITE, FrameHeader.FLAG_RESPONSE, Status.OK, 1, body);
        try {
            return new MasterRequest.Write(request, true).decodeAnswer(frame, codec);
        } finally {
            frame.release();
        }
    }

    @Test
    void request_flagWholeSections_isAnIgnorableFlag_andDecodes() {
        assertEquals(0x10, FrameHeader.FLAG_WHOLE_SECTIONS);
        assertEquals(0, FrameHeader.FLAG_WHOLE_SECTIONS & FrameHeader.MUST_UNDERSTAND_FLAGS,
                "an older master must ignore it, not refuse the write");
        assertEquals(FrameHeader.FLAG_WHOLE_SECTIONS, new MasterRequest.Write(request, true).flags());
        assertEquals(0, new MasterRequest.Write(request).flags());
        for (boolean whole : new boolean[] {true, false}) {
            MasterRequest.Write w = new MasterRequest.Write(request, whole);
            ByteBuf body = Unpooled.buffer();
            w.writeBody(body, codec);
            Frame frame = new Frame(Opcodes.WRITE, w.flags(), 0, 1, body);
            try {
                assertEquals(w, MasterRequest.decode(frame, codec));
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void answer_withWholeSections_isWriteResultThenReadResultThenTimes() {
        EncodedSection cart = section("cart", 5, "n", (byte) 7);
        MasterAnswer.Write answer = new MasterAnswer.Write(1, result, List.of(cart), times);
        ByteBuf body = body(answer, codec);
        int first = codec.encodedSize(result);
        assertArrayEquals(codec.encode(result), ByteBufUtil.getBytes(body, 0, first));
        assertEquals(codec.readResultSize(ID, List.of(cart)), body.readableBytes() - first - SessionTimes.BYTES);
        assertEquals(0x534D544D, body.getInt(first), "the sections are a transport message of their own");
        assertEquals(2, body.getByte(first + 5), "of type READ_RESULT");
        MasterAnswer.Write back = decodeAnswer(body);
        assertEquals(result.versions(), back.result().versions());
        assertEquals(times, back.times());
        assertEquals(1, back.sections().size());
        assertEquals("cart", back.sections().get(0).name());
        assertEquals(5, back.sections().get(0).version());
        assertArrayEquals(new byte[] {7}, back.sections().get(0).attribute("n"));
    }

    @Test
    void answer_withoutWholeSections_isTheVersion1AnswerByteForByte() {
        ByteBuf body = body(new MasterAnswer.Write(1, result, List.of(), times), codec);
        ByteBuf old = Unpooled.buffer().writeBytes(codec.encode(result));
        times.writeTo(old);
        assertEquals(old, body);
        MasterAnswer.Write back = decodeAnswer(body);
        assertTrue(back.sections().isEmpty(), "an older master's answer to a flagged write: no sections");
        assertEquals(result.versions(), back.result().versions());
        old.release();
    }

    @Test
    void answer_withASectionTheResultDoesNotNameAtThatVersion_isRefused() {
        for (EncodedSection wrong : List.of(section("cart", 4, "n", (byte) 7), section("other", 5, "n", (byte) 7))) {
            ByteBuf body = body(new MasterAnswer.Write(1, result, List.of(wrong), times), codec);
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> decodeAnswer(body));
            assertEquals(Status.BAD_REQUEST, e.status());
            assertFalse(e.getMessage().contains(ID), "errors never repeat a session id");
        }
    }

    @Test
    void answer_truncatedInTheSections_isRefused() {
        ByteBuf body = body(new MasterAnswer.Write(1, result, List.of(section("cart", 5, "n", (byte) 7)), times), codec);
        ByteBuf cut = Unpooled.buffer().writeBytes(body, 0, body.readableBytes() - SessionTimes.BYTES - 3);
        times.writeTo(cut);
        assertThrows(MalformedMessageException.class, () -> decodeAnswer(cut));
    }
}
