package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.EncodedWrite;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A WRITE body decoded from the thread's one array: the same request, the array reused, a late read refused. */
class WriteBodyLenderTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    /** A lender of its own (not the thread's), so that no other test's state is shared. */
    private final WriteBodyLender lender = new WriteBodyLender();
    /** Every frame a test made, released after it. */
    private final List<Frame> frames = new java.util.ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void releaseFrames() {
        frames.stream().filter(f -> f.refCnt() > 0).forEach(Frame::release);
    }

    private static WriteRequest write(String id, String section, byte[] value) {
        return new WriteRequest(id, List.of(new SectionDelta(section, Map.of("v", value), List.of("gone"))));
    }

    private Frame frame(WriteRequest request, boolean direct) {
        byte[] body = codec.encode(request);
        ByteBuf buf = direct ? Unpooled.directBuffer(body.length) : Unpooled.buffer(body.length);
        Frame f = new Frame(Opcodes.WRITE, 0, 0, 1, buf.writeBytes(body));
        frames.add(f);
        return f;
    }

    private static byte[] filled(int n, int b) {
        byte[] v = new byte[n];
        Arrays.fill(v, (byte) b);
        return v;
    }

    @Test
    void lentWrite_isTheRequestTheCopyingDecoderMakes_andAppliesTheSame() {
        WriteRequest sent = write("s1", "cart", filled(1500, 3));
        for (boolean direct : new boolean[] {true, false}) {
            Frame f = frame(sent, direct);
            MasterRequest.Write lent = lender.decode(f, codec);
            assertNotNull(lent, "a body under the limit is lent");
            MasterRequest.Write copied = (MasterRequest.Write) MasterRequest.decode(f, codec);
            EncodedSection fromLent = EncodedSection.empty("cart").apply(lent.message().encoded(), 0, 1);
            EncodedSection fromCopy = EncodedSection.empty("cart").apply(copied.message().encoded(), 0, 1);
            assertEquals(fromCopy, fromLent);
            assertArrayEquals(filled(1500, 3), fromLent.attribute("v"));
            assertEquals(sent, lent.message());
            lender.giveBack(lent);
        }
        assertEquals(2, lender.lent());
    }

    @Test
    void afterGiveBack_theWireFormIsUnreadable_notTheNextWritesBytes() {
        Frame first = frame(write("s1", "cart", filled(100, 1)), true);
        MasterRequest.Write w1 = lender.decode(first, codec);
        lender.giveBack(w1);
        MasterRequest.Write w2 = lender.decode(frame(write("s2", "cart", filled(100, 2)), true), codec);
        // the same array now holds the second write; the first one says so rather than apply the second's value
        EncodedWrite stale = w1.message().encoded();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> EncodedSection.empty("cart").apply(stale, 0, 1));
        assertTrue(e.getMessage().contains("lent array was given back"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> w1.message().deltas());
        assertEquals("s1", w1.message().sessionId(), "strings are the request's own and stay");
        assertEquals("cart", w1.message().section(0));
        assertArrayEquals(filled(100, 2), EncodedSection.empty("cart").apply(w2.message().encoded(), 0, 1).attribute("v"));
        lender.giveBack(w2);
    }

    @Test
    void aModelBuiltBeforeGiveBack_staysUsable() {
        MasterRequest.Write w = lender.decode(frame(write("s1", "cart", filled(10, 5)), true), codec);
        List<SectionDelta> deltas = w.message().deltas();
        lender.giveBack(w);
        assertArrayEquals(filled(10, 5), w.message().deltas().get(0).set().get("v"));
        assertEquals(deltas, w.message().deltas());
    }

    @Test
    void whileTheArrayIsOut_anotherWriteIsNotLent_andAnOversizedBodyNeverIs() {
        MasterRequest.Write out = lender.decode(frame(write("s1", "a", filled(10, 1)), true), codec);
        assertNull(lender.decode(frame(write("s2", "a", filled(10, 1)), true), codec), "the array is out");
        lender.giveBack(out);
        assertNull(lender.decode(frame(write("s3", "a", filled(WriteBodyLender.MAX_LENT_BYTES, 1)), true), codec));
        MasterRequest.Write large = lender.decode(frame(write("s4", "a", filled(20_000, 1)), true), codec);
        assertNotNull(large, "a body under the limit grows the array");
        assertTrue(lender.arrayBytes() >= 20_000 && lender.arrayBytes() <= WriteBodyLender.MAX_LENT_BYTES);
        lender.giveBack(large);
        assertEquals(2, lender.lent());
    }

    @Test
    void malformedBody_isRefusedAsTheCopyingDecoderRefusesIt_andLeavesTheArrayFree() {
        byte[] body = codec.encode(write("s1", "a", filled(10, 1)));
        byte[] truncated = Arrays.copyOf(body, body.length - 3);
        Frame bad = new Frame(Opcodes.WRITE, 0, 0, 1, Unpooled.directBuffer().writeBytes(truncated));
        frames.add(bad);
        MalformedMessageException lentError = assertThrows(MalformedMessageException.class, () -> lender.decode(bad, codec));
        MalformedMessageException copyError = assertThrows(MalformedMessageException.class,
                () -> MasterRequest.decode(bad, codec));
        assertEquals(Status.BAD_REQUEST, lentError.status());
        assertEquals(copyError.getMessage(), lentError.getMessage());
        MasterRequest.Write next = lender.decode(frame(write("s2", "a", filled(10, 1)), true), codec);
        assertNotNull(next, "the array is free again");
        lender.giveBack(next);
    }

    @Test
    void aShorterBodyAfterALongerOne_isReadWithinItsOwnLength_notIntoTheStaleBytesAfterIt() {
        byte[] longBody = codec.encode(write("s1", "a", filled(3000, 7)));
        Frame longFrame = new Frame(Opcodes.WRITE, 0, 0, 1, Unpooled.directBuffer().writeBytes(longBody));
        lender.giveBack(lender.decode(longFrame, codec));
        longFrame.release();
        // the same body cut short: the array still holds the rest of it, which must not complete it
        Frame cut = new Frame(Opcodes.WRITE, 0, 0, 2, Unpooled.directBuffer().writeBytes(longBody, 0, longBody.length - 100));
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> lender.decode(cut, codec));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertEquals(assertThrows(MalformedMessageException.class, () -> MasterRequest.decode(cut, codec)).getMessage(),
                e.getMessage());
        cut.release();
    }

    @Test
    void misuse_isRefused() {
        Frame read = new Frame(Opcodes.READ, 0, 0, 1, Unpooled.buffer());
        frames.add(read);
        assertThrows(IllegalArgumentException.class, () -> lender.decode(read, codec));
        MasterRequest.Write notLent = new MasterRequest.Write(write("s1", "a", new byte[1]));
        assertThrows(IllegalStateException.class, () -> lender.giveBack(notLent));
        // revoking a request that owns its bytes does nothing to it
        EncodedWrite owned = notLent.message().encoded();
        notLent.message().revokeLent();
        assertEquals(owned, notLent.message().encoded());
        assertArrayEquals(new byte[1], EncodedSection.empty("a").apply(notLent.message().encoded(), 0, 1).attribute("v"));
    }

    @Test
    void eachThread_hasItsOwnLender() throws Exception {
        WriteBodyLender mine = WriteBodyLender.current();
        assertEquals(mine, WriteBodyLender.current());
        WriteBodyLender[] other = new WriteBodyLender[1];
        Thread t = new Thread(() -> other[0] = WriteBodyLender.current());
        t.start();
        t.join();
        assertNotNull(other[0]);
        assertTrue(other[0] != mine);
    }
}
