package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The typed encoder, through an EmbeddedChannel: batching, large frames alone, promises, the answers listener. */
class FrameEncoderTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final List<Integer> written = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final FrameEncoder.Listener listener = new FrameEncoder.Listener() {
        @Override
        public void answersWritten(int answers) {
            written.add(answers);
        }

        @Override
        public void answerFailed(OutboundFrame answer, RuntimeException cause) {
            failures.add(Opcodes.name(answer.opcode()) + " " + answer.requestId() + ": " + cause.getMessage());
        }
    };

    private EmbeddedChannel channel() {
        return new EmbeddedChannel(new FrameEncoder(codec, listener, true));
    }

    /** Decodes every frame of the buffers written so far (and releases them). */
    private static List<Frame> frames(EmbeddedChannel ch) {
        List<ByteBuf> buffers = new ArrayList<>();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            buffers.add(b);
        }
        return decode(buffers);
    }

    private static List<Frame> decode(List<ByteBuf> buffers) {
        EmbeddedChannel decoder = new EmbeddedChannel(new FrameDecoder(1 << 20));
        buffers.forEach(decoder::writeInbound);
        List<Frame> out = new ArrayList<>();
        for (Frame f; (f = decoder.readInbound()) != null; ) {
            out.add(f);
        }
        return out;
    }

    @Test
    void answersWrittenBeforeAFlush_leaveInOneBuffer_inOrder() {
        EmbeddedChannel ch = channel();
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 1), ch.voidPromise());
        ch.write(new MasterAnswer.Touched(2, new SessionTimes(300_000, 1000)), ch.voidPromise());
        ch.write(new MasterAnswer.Error(Opcodes.READ, 3, Status.NOT_FOUND, "no such session"), ch.voidPromise());
        assertNull(ch.readOutbound(), "nothing leaves before a flush");
        ch.flush();
        ByteBuf one = ch.readOutbound();
        assertEquals(3 * FrameHeader.BYTES + 8 + "no such session".length(), one.readableBytes());
        assertNull(ch.readOutbound(), "one buffer for the batch");
        List<Frame> frames = decode(List.of(one));
        assertEquals(List.of(1, 2, 3), frames.stream().map(Frame::requestId).toList());
        assertEquals(Status.NOT_FOUND, frames.get(2).status());
        assertEquals("no such session", frames.get(2).body().toString(StandardCharsets.UTF_8));
        assertTrue(frames.stream().allMatch(Frame::isResponse));
        assertEquals(List.of(3), written, "the listener hears of three answers");
        frames.forEach(Frame::release);
    }

    @Test
    void endOfRead_writesAndFlushesTheBatch() {
        EmbeddedChannel ch = channel();
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 9), ch.voidPromise());
        ch.pipeline().fireChannelReadComplete();
        List<Frame> frames = frames(ch);
        assertEquals(1, frames.size());
        assertEquals(9, frames.get(0).requestId());
        frames.forEach(Frame::release);
    }

    @Test
    void largeFrame_goesInABufferOfItsOwn_afterTheBatchBeforeIt() {
        EmbeddedChannel ch = channel();
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 1), ch.voidPromise());
        ch.write(new MasterAnswer.Bytes(Opcodes.SCHEMA_FETCH, 2, new byte[FrameEncoder.LARGE_FRAME]), ch.voidPromise());
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 3), ch.voidPromise());
        ch.flush();
        ByteBuf first = ch.readOutbound();
        ByteBuf large = ch.readOutbound();
        ByteBuf last = ch.readOutbound();
        assertEquals(FrameHeader.BYTES, first.readableBytes());
        assertEquals(FrameHeader.BYTES + FrameEncoder.LARGE_FRAME, large.readableBytes());
        assertEquals(FrameHeader.BYTES, last.readableBytes());
        first.release();
        large.release();
        last.release();
        assertEquals(3, written.stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void batchPastItsSize_isWrittenWithoutWaitingForTheFlush() {
        EmbeddedChannel ch = channel();
        int frames = FrameEncoder.BATCH_BYTES / (FrameHeader.BYTES + 1000) + 1;
        for (int i = 0; i < frames; i++) {
            ch.write(new MasterAnswer.Bytes(Opcodes.PING, i, new byte[1000]), ch.voidPromise());
        }
        assertTrue(ch.unsafe().outboundBuffer().totalPendingWriteBytes() >= FrameEncoder.BATCH_BYTES,
                "written downstream, not yet flushed, once past " + FrameEncoder.BATCH_BYTES + " bytes");
        ch.flush();
        assertEquals(List.of(frames), written);
        assertEquals(frames, frames(ch).stream().peek(Frame::release).count());
    }

    @Test
    void realPromises_completeWhenTheirBatchIsWritten_andPushesAreNotCountedAsAnswers() {
        EmbeddedChannel ch = channel();
        ChannelFuture push = ch.write(new Invalidation("s1", 0, List.of("cart"), new long[] {2}).asPush(5));
        ChannelFuture confirmation = ch.write(new Invalidation.Confirmation(6));
        assertFalse(push.isDone());
        ch.flush();
        assertTrue(push.isSuccess() && confirmation.isSuccess());
        assertEquals(List.of(), written, "pushes and confirmations are no answers");
        List<Frame> frames = frames(ch);
        assertTrue(frames.get(0).isPush());
        assertEquals(5, frames.get(0).requestId());
        assertEquals(List.of("cart"), Invalidation.readFrom(frames.get(0).body()).sections());
        assertEquals(6, frames.get(1).requestId());
        assertTrue(frames.get(1).isResponse());
        frames.forEach(Frame::release);
    }

    /** A frame whose body writes more than it announced: a bug, caught before a corrupt stream leaves. */
    static OutboundFrame liar(int flags) {
        return new OutboundFrame() {
            @Override
            public int opcode() {
                return Opcodes.PING;
            }

            @Override
            public int flags() {
                return flags;
            }

            @Override
            public int status() {
                return Status.OK;
            }

            @Override
            public int requestId() {
                return 2;
            }

            @Override
            public int bodySize(BinaryTransportCodec codec) {
                return 4;
            }

            @Override
            public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
                out.writeLong(1);
            }
        };
    }

    @Test
    void answerThatFailsToEncode_isAnsweredInternalInItsPlace_andTheBatchStaysIntact() {
        EmbeddedChannel ch = channel();
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 1), ch.voidPromise());
        ChannelFuture liar = ch.write(liar(FrameHeader.FLAG_RESPONSE));
        ch.write(MasterAnswer.Bytes.empty(Opcodes.DELETE, 3), ch.voidPromise());
        ch.flush();
        assertTrue(liar.isSuccess(), "the error answer in its place was written");
        List<Frame> frames = frames(ch);
        assertEquals(List.of(1, 2, 3), frames.stream().map(Frame::requestId).toList());
        assertEquals(Status.INTERNAL, frames.get(1).status());
        assertEquals("PING failed: java.lang.IllegalStateException: PING wrote 8 body bytes, not the 4 it announced",
                frames.get(1).body().toString(StandardCharsets.UTF_8));
        frames.forEach(Frame::release);
        assertEquals(List.of("PING 2: PING wrote 8 body bytes, not the 4 it announced"), failures);
        assertEquals(List.of(3), written, "the error answer leaves flight like any answer");
    }

    @Test
    void answerOverTheTransportLimits_isAnsweredTooLargeNamingTheLimit() {
        BinaryTransportCodec small = new BinaryTransportCodec(TransportLimits.builder().maxMessageBytes(1024).build());
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(small, listener, true));
        EncodedSection big = EncodedSection.of(new SectionData("s", 1, Map.of("v", new byte[2000])));
        ch.write(new MasterAnswer.Read(7, new EncodedReadResult("s1", List.of(big)), SessionTimes.NONE), ch.voidPromise());
        ch.flush();
        Frame f = frames(ch).get(0);
        assertEquals(7, f.requestId());
        assertEquals(Status.TOO_LARGE, f.status());
        assertTrue(f.body().toString(StandardCharsets.UTF_8).startsWith("READ: cannot encode: READ_RESULT of "),
                f.body().toString(StandardCharsets.UTF_8));
        f.release();
        assertEquals(1, failures.size());
    }

    @Test
    void otherFrameThatFailsToEncode_failsItsPromise_andNothingIsWritten() {
        EmbeddedChannel ch = channel();
        ChannelFuture failed = ch.write(liar(FrameHeader.FLAG_PUSH));
        ch.flush();
        assertFalse(failed.isSuccess());
        assertTrue(failed.cause().getMessage().contains("wrote 8 body bytes, not the 4"), failed.cause().getMessage());
        assertNull(ch.readOutbound());
        assertEquals(List.of(), failures);
    }

    @Test
    void withoutFlushAtEndOfRead_aReadsEndSendsNothing() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(codec, null, false));
        ch.write(new Invalidation.Confirmation(5), ch.voidPromise());
        ch.pipeline().fireChannelReadComplete();
        assertNull(ch.readOutbound(), "a client's requests written without a flush left at the end of a read");
        ch.flush();
        assertEquals(5, frames(ch).get(0).requestId());
    }

    @Test
    void errorMessage_isCutAtACharacterBoundary() {
        EmbeddedChannel ch = channel();
        String message = "é".repeat(FrameHeader.MAX_ERROR_MESSAGE_BYTES); // 2 bytes each
        ch.write(new MasterAnswer.Error(Opcodes.READ, 1, Status.BAD_REQUEST, message), ch.voidPromise());
        ch.flush();
        Frame f = frames(ch).get(0);
        assertEquals(FrameHeader.MAX_ERROR_MESSAGE_BYTES, f.body().readableBytes());
        assertEquals("é".repeat(FrameHeader.MAX_ERROR_MESSAGE_BYTES / 2), f.body().toString(StandardCharsets.UTF_8));
        f.release();
    }
}
