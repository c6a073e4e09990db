package io.sessionmesh.wire.transport;

import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Writes the seed inputs of the wire module's fuzz tests from the real encoders, into src/test/resources; run only
 * on demand ({@code mvn -pl wire test -Dtest=WriteFuzzSeeds -Dfuzz.writeSeeds=true}), after a format change.
 */
@EnabledIfSystemProperty(named = "fuzz.writeSeeds", matches = "true")
class WriteFuzzSeeds {
    private static final Path RESOURCES = Path.of("src/test/resources/io/sessionmesh/wire");
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    @Test
    void write() throws IOException {
        List<TransportMessage> samples = TransportFixtures.samples();
        Path bin = RESOURCES.resolve("transport/BinaryTransportFuzzTestInputs/decode");
        Path js = RESOURCES.resolve("transport/JsonTransportFuzzTestInputs/decode");
        for (TransportMessage m : samples) {
            String name = MessageTypes.name(m.type()).toLowerCase();
            write(bin.resolve(name), binary.encode(m));
            int index = JsonTransportFuzzTest.TYPES.indexOf(m.getClass());
            write(js.resolve(name), prefixed(index, json.encode(m)));
        }
        write(js.resolve("write_request-url-id"), prefixed(JsonTransportFuzzTest.TYPES.indexOf(WriteRequest.class) | 0x08,
                "{\"sections\":{\"a\":{\"ifVersion\":null,\"set\":{\"k\":\"CQ==\"},\"remove\":[\"k2\"]}}}".getBytes()));
        write(js.resolve("create_request-empty"), prefixed(JsonTransportFuzzTest.TYPES.indexOf(CreateRequest.class), "{}".getBytes()));

        Path bodies = RESOURCES.resolve("protocol/MasterRequestBodiesFuzzTestInputs/decode");
        List<MasterRequest<?>> requests = requests(samples);
        for (MasterRequest<?> r : requests) {
            ByteBuf b = Unpooled.buffer().writeByte(r.opcode());
            r.writeBody(b, binary);
            write(bodies.resolve(Opcodes.name(r.opcode()).toLowerCase() + "-" + b.readableBytes()), ByteBufUtil.getBytes(b));
        }

        // a WRITE with its write id (flag WRITE_ID: bit 7 of the seed's first byte, PROTOCOL.md 3.12)
        MasterRequest.Write once = new MasterRequest.Write((WriteRequest) samples.get(2), false,
                new io.sessionmesh.wire.protocol.WriteId(0x0123456789ABCDEFL, 7));
        ByteBuf withId = Unpooled.buffer().writeByte(once.opcode() | 0x80);
        once.writeBody(withId, binary);
        write(bodies.resolve("write-write-id"), ByteBufUtil.getBytes(withId));

        Path frames = RESOURCES.resolve("protocol/FrameDecoderFuzzTestInputs/decode");
        ByteBuf idFrame = Unpooled.buffer().writeByte(7);
        ByteBuf onceBody = Unpooled.buffer();
        once.writeBody(onceBody, binary);
        FrameHeader.write(idFrame, once.opcode(), once.flags(), 0, 1, onceBody.readableBytes());
        idFrame.writeBytes(onceBody);
        write(frames.resolve("write-with-write-id"), ByteBufUtil.getBytes(idFrame));
        ByteBuf all = Unpooled.buffer().writeByte(5);
        int id = 1;
        for (MasterRequest<?> r : requests) {
            ByteBuf body = Unpooled.buffer();
            r.writeBody(body, binary);
            FrameHeader.write(all, r.opcode(), 0, 0, id++, body.readableBytes());
            all.writeBytes(body);
        }
        write(frames.resolve("every-request"), ByteBufUtil.getBytes(all));
        ByteBuf odd = Unpooled.buffer().writeByte(255);
        FrameHeader.write(odd, Opcodes.WRITE, 0, 0, 9, 4096); // over the fuzz test's 1024-byte limit: skipped
        odd.writeZero(4096);
        FrameHeader.write(odd, Opcodes.PING, 0x08, 0, 10, 0); // unknown must-understand flag
        FrameHeader.write(odd, Opcodes.INVALIDATE, FrameHeader.FLAG_RESPONSE, 0, 11, 0);
        odd.writeInt(0x48545450).writeZero(12); // "HTTP": not a frame, fatal
        write(frames.resolve("skipped-then-fatal"), ByteBufUtil.getBytes(odd));
    }

    private static List<MasterRequest<?>> requests(List<TransportMessage> samples) {
        return List.of(
                new MasterRequest.Read((ReadRequest) samples.get(0)),
                new MasterRequest.Write((WriteRequest) samples.get(2)),
                new MasterRequest.Touch("Ab3_x-9"),
                new MasterRequest.Delete("Ab3_x-9"),
                new MasterRequest.Create(null, null),
                new MasterRequest.Create(Duration.ofMinutes(10), null),
                new MasterRequest.Create(Duration.ofMinutes(10), new Placement(List.of("m1:7000", "m2:7000"), 16, 1)),
                new MasterRequest.Ping(new byte[] {1, 2, 3, 4}),
                new MasterRequest.Register(new UUID(0x0123456789ABCDEFL, 42), true, 3),
                new MasterRequest.PublishSchema(0x1122334455667788L, new byte[] {-1, 0, 3, 'a', '.', 'B', 1, 2, 3, 4, 5, 6, 7, 8}),
                new MasterRequest.FetchSchema(0x1122334455667788L),
                new MasterRequest.Stats(),
                new MasterRequest.GroupOp(Opcodes.GROUP_MAP, new byte[0]));
    }

    private static byte[] prefixed(int first, byte[] rest) {
        byte[] b = new byte[rest.length + 1];
        b[0] = (byte) first;
        System.arraycopy(rest, 0, b, 1, rest.length);
        return b;
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }
}
