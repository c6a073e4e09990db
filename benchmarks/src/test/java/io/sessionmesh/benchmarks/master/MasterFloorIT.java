package io.sessionmesh.benchmarks.master;

import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The floor server over real TCP: every request answered OK in order, with its id and an empty body; SET's work. */
class MasterFloorIT {
    private static byte[] frame(int opcode, int flags, int requestId, int bodyBytes) {
        ByteBuf b = Unpooled.buffer();
        FrameHeader.write(b, opcode, flags, 0, requestId, bodyBytes);
        b.writeZero(bodyBytes);
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        return bytes;
    }

    /** One answer's header: opcode, flags, status, request id, body length. */
    private static int[] answer(DataInputStream in) throws IOException {
        assertEquals(FrameHeader.MAGIC, in.readInt());
        assertEquals(FrameHeader.VERSION, in.readUnsignedByte());
        int[] h = {in.readUnsignedByte(), in.readUnsignedByte(), in.readUnsignedByte(), in.readInt(), in.readInt()};
        in.skipNBytes(h[4]);
        return h;
    }

    @Test
    void pipelinedRequests_areAnsweredOkInOrder_andAClientsAnswerFrameIsNot() throws Exception {
        try (MasterFloor floor = MasterFloor.start(0, 1, IoTransport.choose("auto"));
             Socket s = new Socket("127.0.0.1", floor.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(frame(Opcodes.WRITE, 0, 7, 1100));
            out.write(frame(Opcodes.INVALIDATE, FrameHeader.FLAG_RESPONSE, 99, 0)); // a push confirmation: no answer
            out.write(frame(Opcodes.READ, 0, 8, 40));
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            int[] first = answer(in);
            int[] second = answer(in);
            assertEquals(Opcodes.WRITE, first[0]);
            assertEquals(FrameHeader.FLAG_RESPONSE, first[1]);
            assertEquals(Status.OK, first[2]);
            assertEquals(7, first[3]);
            assertEquals(0, first[4], "an empty body");
            assertEquals(Opcodes.READ, second[0]);
            assertEquals(8, second[3]);
        }
    }

    @Test
    void aFrameOverTheLimit_isAnsweredTooLargeAndSkipped_andTheConnectionGoesOn() throws Exception {
        try (MasterFloor floor = MasterFloor.start(0, 1, IoTransport.choose("auto"), 1024);
             Socket s = new Socket("127.0.0.1", floor.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(frame(Opcodes.WRITE, 0, 1, 2000));
            out.write(frame(Opcodes.WRITE, 0, 2, 1000));
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            int[] refused = answer(in);
            assertEquals(1, refused[3]);
            assertEquals(Status.TOO_LARGE, refused[2]);
            int[] next = answer(in);
            assertEquals(2, next[3]);
            assertEquals(Status.OK, next[2]);
        }
    }

    @Test
    void setWork_keepsTheLastValueOfEachId_andAnswersABodyWithoutAnIdBadRequest() throws Exception {
        BinaryTransportCodec codec = new BinaryTransportCodec();
        ConcurrentHashMap<String, byte[]> values = new ConcurrentHashMap<>();
        String id = "AbCdEfGhIjKlMnOpQrStUv";
        byte[] first = codec.encode(new WriteRequest(id, List.of(new SectionDelta("offer", Map.of("v", new byte[1000]),
                List.of()))));
        byte[] second = codec.encode(new WriteRequest(id, List.of(new SectionDelta("offer", Map.of("v", new byte[10]),
                List.of()))));
        try (MasterFloor floor = MasterFloor.start(0, 1, IoTransport.choose("auto"), 1 << 20, values);
             Socket s = new Socket("127.0.0.1", floor.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(frame(Opcodes.WRITE, 1, first));
            out.write(frame(Opcodes.WRITE, 0, 2, 30)); // zeros: no id where one should be
            out.write(frame(Opcodes.WRITE, 3, second));
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(Status.OK, answer(in)[2]);
            assertEquals(Status.BAD_REQUEST, answer(in)[2]);
            int[] third = answer(in);
            assertEquals(3, third[3]);
            assertEquals(Status.OK, third[2]);
            assertEquals(1, values.size());
            int header = BinaryTransportCodec.HEADER_BYTES + 1 + id.length();
            assertEquals(second.length - header, values.get(id).length, "the second write's value replaced the first");
        }
    }

    private static byte[] frame(int opcode, int requestId, byte[] body) {
        ByteBuf b = Unpooled.buffer();
        FrameHeader.write(b, opcode, 0, 0, requestId, body.length);
        b.writeBytes(body);
        byte[] bytes = new byte[b.readableBytes()];
        b.readBytes(bytes);
        return bytes;
    }

    @Test
    void aStreamThatIsNotFrames_isAnsweredBadRequest_andClosed() throws Exception {
        try (MasterFloor floor = MasterFloor.start(0, 1, IoTransport.choose("auto"));
             Socket s = new Socket("127.0.0.1", floor.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(Status.BAD_REQUEST, answer(in)[2]);
            assertEquals(-1, in.read(), "closed after the answer");
        }
    }
}
