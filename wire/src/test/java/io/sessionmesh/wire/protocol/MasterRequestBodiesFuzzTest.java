package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the master's request bodies, {@link MasterRequest#decode} (what the master's
 * RequestDecoder calls for every request frame). Input: byte 0 is the opcode (bit 7 set: the frame has the flag bit
 * 0x04, which is REQUESTED_ID on a CREATE and WRITE_ID on a WRITE, and no other opcode defines; opcodes are below 0x80,
 * so the older seeds keep their meaning), the rest the body. The contract: a typed
 * request or a {@link MalformedMessageException} with BAD_REQUEST, TOO_LARGE or UNSUPPORTED_VERSION, nothing else; a
 * decoded request written again ({@link MasterRequest#writeBody}, exactly {@link MasterRequest#bodySize} bytes) reads
 * back as a request that writes the same bytes, under the flags it asks for. Seeds: MasterRequestBodiesFuzzTestInputs.
 */
class MasterRequestBodiesFuzzTest {
    private static final Set<Integer> STATUSES = Set.of(Status.BAD_REQUEST, Status.TOO_LARGE, Status.UNSUPPORTED_VERSION);
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int opcode = input[0] & 0x7F;
        int flags = (input[0] & 0x80) != 0 ? FrameHeader.FLAG_REQUESTED_ID : 0;
        MasterRequest<?> request;
        try {
            request = decode(opcode, flags, Unpooled.wrappedBuffer(input, 1, input.length - 1));
        } catch (MalformedMessageException e) {
            assertTrue(STATUSES.contains(e.status()), e::toString);
            return;
        }
        byte[] once = body(request);
        byte[] twice = body(decode(opcode, request.flags(), Unpooled.wrappedBuffer(once)));
        assertArrayEquals(once, twice, () -> Opcodes.name(opcode) + " does not read back as written");
    }

    private MasterRequest<?> decode(int opcode, int flags, ByteBuf body) {
        Frame frame = new Frame(opcode, flags, 0, 1, body);
        try {
            int before = body.readerIndex();
            MasterRequest<?> request = MasterRequest.decode(frame, codec);
            assertEquals(before, body.readerIndex(), "decoding moved the body's reader index");
            return request;
        } finally {
            frame.release();
        }
    }

    private byte[] body(MasterRequest<?> request) {
        int size = request.bodySize(codec);
        ByteBuf out = Unpooled.buffer(size);
        request.writeBody(out, codec);
        assertEquals(size, out.readableBytes(), () -> request + " announced " + size + " bytes");
        return ByteBufUtil.getBytes(out);
    }
}
