package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.Status;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Coverage-guided fuzzing of {@link FrameDecoder} (docs/development.md, "Fuzzing"). Input: byte 0 is the size of the
 * pieces the stream arrives in (1..256), the rest is the stream. The contract: only {@link Frame}s and
 * {@link InvalidFrame}s come out, never an exception; no body above the limit; nothing after a fatal InvalidFrame;
 * every input buffer is released once the frames are; and each frame, written again, decodes to the same frame. Seeds:
 * FrameDecoderFuzzTestInputs.
 */
class FrameDecoderFuzzTest {
    private static final int MAX_BODY = 1024;
    private static final Set<Integer> STATUSES = Set.of(Status.BAD_REQUEST, Status.TOO_LARGE, Status.UNSUPPORTED_VERSION);

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int piece = (input[0] & 0xFF) + 1;
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_BODY));
        List<ByteBuf> written = new ArrayList<>();
        List<Object> out = new ArrayList<>();
        for (int at = 1; at < input.length; at += piece) {
            ByteBuf chunk = Unpooled.wrappedBuffer(input, at, Math.min(piece, input.length - at));
            written.add(chunk);
            channel.writeInbound(chunk);
            for (Object o; (o = channel.readInbound()) != null; ) {
                out.add(o);
            }
        }
        assertFalse(channel.finish(), "bytes left over make no message at the end of the stream");
        boolean broken = false;
        long framed = 0;
        for (Object o : out) {
            assertFalse(broken, "a message after a fatal InvalidFrame: " + o);
            if (o instanceof Frame frame) {
                try {
                    assertTrue(frame.body().readableBytes() <= MAX_BODY, frame::toString);
                    framed += FrameHeader.BYTES + frame.body().readableBytes();
                    reencode(frame);
                } finally {
                    frame.release();
                }
            } else if (o instanceof InvalidFrame invalid) {
                assertTrue(STATUSES.contains(invalid.status()), invalid::toString);
                broken = invalid.fatal();
                framed += FrameHeader.BYTES;
            } else {
                fail("not a frame: " + o);
            }
        }
        assertTrue(framed <= input.length - 1, "more bytes came out than went in");
        for (ByteBuf chunk : written) {
            assertEquals(0, chunk.refCnt(), "an input buffer was not released");
        }
    }

    /** Written again with its own header fields, a frame decodes to itself. */
    private static void reencode(Frame frame) {
        ByteBuf again = Unpooled.buffer();
        FrameHeader.write(again, frame.opcode(), frame.flags(), frame.status(), frame.requestId(), frame.body().readableBytes());
        again.writeBytes(frame.body(), frame.body().readerIndex(), frame.body().readableBytes());
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX_BODY));
        channel.writeInbound(again);
        Frame decoded = channel.readInbound();
        try {
            assertEquals(frame.opcode(), decoded.opcode());
            assertEquals(frame.flags(), decoded.flags());
            assertEquals(frame.status(), decoded.status());
            assertEquals(frame.requestId(), decoded.requestId());
            assertTrue(ByteBufUtil.equals(frame.body(), decoded.body()), "body differs");
        } finally {
            decoded.release();
        }
        assertFalse(channel.finish());
    }
}
