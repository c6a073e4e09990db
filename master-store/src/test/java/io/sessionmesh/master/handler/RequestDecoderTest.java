package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames to typed requests, and every way a frame is refused; each frame is released here. */
class RequestDecoderTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final ServerCounters counters = new ServerCounters();
    private final EmbeddedChannel ch = new EmbeddedChannel(new RequestDecoder(codec, counters));

    private static Frame frame(int opcode, int flags, int id, byte[] body) {
        return new Frame(opcode, flags, 0, id, Unpooled.wrappedBuffer(body));
    }

    @Test
    void readFrame_becomesATypedRequestWithItsId_andIsReleased() {
        Frame f = frame(Opcodes.READ, 0, 7, codec.encode(new ReadRequest("s1", List.of("a", "b"))));
        ch.writeInbound(f);
        Received r = ch.readInbound();
        assertEquals(7, r.requestId());
        MasterRequest.Read read = assertInstanceOf(MasterRequest.Read.class, r.request());
        assertEquals(List.of("a", "b"), read.message().sectionNames());
        assertEquals(0, f.refCnt());
        assertEquals(1, counters.requests.sum());
    }

    @Test
    void everyOpcode_decodesItsBody() {
        ByteBuf register = Unpooled.buffer().writeLong(1).writeLong(2).writeByte(1).writeInt(3);
        ByteBuf publish = Unpooled.buffer().writeLong(0x42).writeBytes(new byte[] {1, 2});
        ch.writeInbound(frame(Opcodes.TOUCH, 0, 1, "s1".getBytes(StandardCharsets.US_ASCII)),
                frame(Opcodes.DELETE, 0, 2, "s2".getBytes(StandardCharsets.US_ASCII)),
                frame(Opcodes.CREATE, 0, 3, new byte[] {0, 0, 0x27, 0x10}),
                frame(Opcodes.PING, 0, 4, new byte[] {9}),
                frame(Opcodes.REGISTER, 0, 5, bytes(register)),
                frame(Opcodes.SCHEMA_PUBLISH, 0, 6, bytes(publish)),
                frame(Opcodes.SCHEMA_FETCH, 0, 7, new byte[8]),
                frame(Opcodes.STATS, 0, 8, new byte[0]));
        assertEquals(new MasterRequest.Touch("s1"), ((Received) ch.readInbound()).request());
        assertEquals(new MasterRequest.Delete("s2"), ((Received) ch.readInbound()).request());
        assertEquals(java.time.Duration.ofSeconds(10), ((MasterRequest.Create) ((Received) ch.readInbound()).request()).idleTimeout());
        assertEquals(9, ((MasterRequest.Ping) ((Received) ch.readInbound()).request()).payload()[0]);
        MasterRequest.Register reg = (MasterRequest.Register) ((Received) ch.readInbound()).request();
        assertEquals(new java.util.UUID(1, 2), reg.holder());
        assertTrue(reg.control());
        assertEquals(3, reg.sequence());
        MasterRequest.PublishSchema pub = (MasterRequest.PublishSchema) ((Received) ch.readInbound()).request();
        assertEquals(0x42, pub.uid());
        assertEquals(2, pub.schema().length);
        assertEquals(new MasterRequest.FetchSchema(0), ((Received) ch.readInbound()).request());
        assertEquals(new MasterRequest.Stats(), ((Received) ch.readInbound()).request());
    }

    @Test
    void badBodies_areRejectedWithAStatusAndTheOpcodeNamed() {
        ch.writeInbound(frame(Opcodes.READ, 0, 1, new byte[] {1, 2, 3}),
                frame(Opcodes.TOUCH, 0, 2, "bad id!".getBytes(StandardCharsets.US_ASCII)),
                frame(Opcodes.PING, 0, 3, new byte[FrameHeader.MAX_PING_BYTES + 1]),
                frame(Opcodes.CREATE, 0, 4, new byte[] {1, 2}),
                frame(Opcodes.REGISTER, 0, 5, controlWithoutSequence()),
                frame(0x7F, 0, 6, new byte[0]));
        Rejected read = ch.readInbound();
        assertEquals(Status.BAD_REQUEST, read.answer().status());
        assertTrue(read.answer().message().startsWith("READ: "), read.answer().message());
        assertEquals(Status.BAD_REQUEST, ((Rejected) ch.readInbound()).answer().status());
        Rejected ping = ch.readInbound();
        assertEquals(Status.TOO_LARGE, ping.answer().status());
        assertEquals(3, ping.answer().requestId());
        assertTrue(((Rejected) ch.readInbound()).answer().message().contains("CREATE body of 2 bytes"));
        Rejected register = ch.readInbound();
        assertEquals("REGISTER: a control REGISTER needs a sequence above 0", register.answer().message());
        Rejected unknown = ch.readInbound();
        assertEquals(Status.UNSUPPORTED_VERSION, unknown.answer().status());
        assertEquals(6, unknown.answer().requestId());
        assertFalse(unknown.fatal());
        assertEquals(6, counters.errors.sum());
    }

    @Test
    void invalidFrame_isRejected_fatalWhenTheStreamBroke() {
        ch.writeInbound(new InvalidFrame(0, 0, Status.BAD_REQUEST, "magic is wrong", true));
        Rejected r = ch.readInbound();
        assertTrue(r.fatal());
        assertEquals("magic is wrong", r.answer().message());
        assertEquals(1, counters.invalidFrames.sum());
    }

    @Test
    void answerFrames_areConfirmationsForInvalidate_andRefusedOtherwise() {
        ch.writeInbound(frame(Opcodes.INVALIDATE, FrameHeader.FLAG_RESPONSE, 12, new byte[0]),
                frame(Opcodes.READ, FrameHeader.FLAG_RESPONSE, 13, new byte[0]));
        assertEquals(new PushConfirmed(12, FrameHeader.FLAG_RESPONSE), ch.readInbound());
        Rejected r = ch.readInbound();
        assertEquals(Status.BAD_REQUEST, r.answer().status());
        assertEquals("READ: a client sent an answer frame (flags 0x1)", r.answer().message());
        assertEquals(1, counters.requests.sum(), "an answer frame other than a confirmation counts as a request, refused");
        assertEquals(1, counters.errors.sum());
    }

    private static Frame writeFrame(BinaryTransportCodec codec, int id, String session, byte value) {
        byte[] body = codec.encode(new WriteRequest(session, List.of(new SectionDelta("cart", Map.of("v", new byte[] {value}),
                List.of()))));
        return new Frame(Opcodes.WRITE, 0, 0, id, Unpooled.directBuffer().writeBytes(body));
    }

    @Test
    void write_keepsItsBytesAfterTheCall() {
        ch.writeInbound(writeFrame(codec, 1, "s1", (byte) 4));
        MasterRequest.Write w = (MasterRequest.Write) ((Received) ch.readInbound()).request();
        assertEquals(4, w.message().deltas().get(0).set().get("v")[0]);
    }

    private static byte[] controlWithoutSequence() {
        byte[] body = new byte[MasterRequest.Register.BYTES];
        body[16] = MasterRequest.Register.FLAG_CONTROL;
        return body;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }
}
