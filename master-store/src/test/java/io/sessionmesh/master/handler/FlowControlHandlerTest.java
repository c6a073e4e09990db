package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Answers in flight, reading on and off, refusals past the limit, slow consumers, draining: one connection at a time. */
class FlowControlHandlerTest {
    private final ServerCounters counters = new ServerCounters();

    private FlowControlHandler flow(int maxInFlight, long maxOutbound) {
        return new FlowControlHandler(maxInFlight, maxOutbound, counters);
    }

    private static MasterAnswer answer(int id) {
        return MasterAnswer.Bytes.empty(Opcodes.DELETE, id);
    }

    @Test
    void answersMadeUpToTheLimit_stopReading_andHalfOfThemWrittenStartsItAgain() {
        FlowControlHandler flow = flow(4, 1 << 20);
        EmbeddedChannel ch = new EmbeddedChannel(flow);
        for (int i = 1; i <= 3; i++) {
            ch.write(answer(i), ch.voidPromise());
        }
        assertTrue(ch.config().isAutoRead());
        ch.write(new FencedAnswer(answer(4), new io.sessionmesh.master.coherence.Fence()), ch.voidPromise());
        assertFalse(ch.config().isAutoRead(), "a fenced answer counts from when it is made");
        assertEquals(4, flow.inFlight());
        flow.answersWritten(1);
        assertFalse(ch.config().isAutoRead(), "3 in flight is above half of 4");
        flow.answersWritten(1);
        assertTrue(ch.config().isAutoRead());
        assertEquals(2, flow.inFlight());
    }

    @Test
    void requestReadPastTheLimit_isAnsweredUnavailable_andNotPassedOn() {
        EmbeddedChannel ch = new EmbeddedChannel(flow(1, 1 << 20));
        ch.write(answer(1), ch.voidPromise());
        ch.writeInbound(new Received(2, new MasterRequest.Touch("s1")));
        assertNull(ch.readInbound(), "the request goes no further");
        ch.flushOutbound();
        assertSame(answer(1).getClass(), ((Object) ch.readOutbound()).getClass());
        MasterAnswer.Error refused = ch.readOutbound();
        assertEquals(Status.UNAVAILABLE, refused.status());
        assertEquals(2, refused.requestId());
        assertEquals(Opcodes.TOUCH, refused.opcode());
        assertEquals("more than 1 requests in flight on this connection; wait for answers", refused.message());
        assertEquals(1, counters.inFlightRefused());
    }

    @Test
    void frameRejectedPastTheLimit_isAnsweredUnavailableToo_butABrokenStreamStillGetsItsOwnAnswer() {
        EmbeddedChannel ch = new EmbeddedChannel(flow(1, 1 << 20));
        ch.write(answer(1), ch.voidPromise());
        ch.writeInbound(new Rejected(new MasterAnswer.Error(Opcodes.READ, 2, Status.BAD_REQUEST, "READ: cut short"), false));
        assertNull(ch.readInbound());
        Rejected fatal = new Rejected(new MasterAnswer.Error(0, 0, Status.BAD_REQUEST, "not a master frame"), true);
        ch.writeInbound(fatal);
        assertSame(fatal, ch.readInbound(), "a fatal rejection goes on, to be answered and closed");
        ch.flushOutbound();
        ch.readOutbound();
        assertEquals(Status.UNAVAILABLE, ((MasterAnswer.Error) ch.readOutbound()).status());
        assertEquals(1, counters.inFlightRefused());
    }

    @Test
    void answersPastMaxOutbound_closeTheConnectionAsTheyQueue_notAtTheEndOfTheRead() {
        FlowControlHandler flow = flow(100, 4000);
        EmbeddedChannel ch = new EmbeddedChannel(flow);
        // A big answer passes to the socket (here unflushed: a client that does not read), then another.
        ch.write(Unpooled.wrappedBuffer(new byte[3000]), ch.voidPromise());
        assertTrue(ch.isActive());
        ch.write(new MasterAnswer.Bytes(Opcodes.SCHEMA_FETCH, 1, new byte[10]), ch.voidPromise());
        ch.write(Unpooled.wrappedBuffer(new byte[3000]), ch.voidPromise());
        assertFalse(ch.isActive(), "6 KB queued against a 4 KB limit, and the read not over yet");
        assertEquals(1, counters.slowConsumerClosed.sum());
    }

    @Test
    void answerThatCouldNotBeEncoded_countsAsAnError_orAnInternalOne() {
        FlowControlHandler flow = flow(100, 1 << 20);
        new EmbeddedChannel(flow);
        flow.answerFailed(answer(1), new io.sessionmesh.wire.transport.MalformedMessageException(Status.TOO_LARGE, "big"));
        flow.answerFailed(answer(2), new IllegalStateException("a bug"));
        assertEquals(1, counters.errors.sum());
        assertEquals(1, counters.internalErrors.sum());
    }

    @Test
    void pushesAndOtherWrites_areNotAnswers() {
        FlowControlHandler flow = flow(1, 1 << 20);
        EmbeddedChannel ch = new EmbeddedChannel(flow);
        ch.write(new io.sessionmesh.wire.protocol.Invalidation("s", 0, java.util.List.of(), new long[0]).asPush(1), ch.voidPromise());
        ch.write(Unpooled.wrappedBuffer(new byte[] {1}), ch.voidPromise());
        assertEquals(0, flow.inFlight());
        assertTrue(ch.config().isAutoRead());
        ch.writeInbound(new Received(2, new MasterRequest.Stats()));
        assertInstanceOf(Received.class, ch.readInbound());
        ch.flushOutbound();
        ch.releaseOutbound();
    }

    @Test
    void answersQueuedPastMaxOutbound_closeTheConnectionAtTheEndOfTheRead() {
        EmbeddedChannel ch = new EmbeddedChannel(flow(100, 4000));
        ch.write(Unpooled.wrappedBuffer(new byte[1000]), ch.voidPromise());
        ch.pipeline().fireChannelReadComplete();
        assertTrue(ch.isActive(), "1000 bytes (and the buffer's overhead) pending is within 4000");
        ch.write(Unpooled.wrappedBuffer(new byte[3000]), ch.voidPromise());
        ch.pipeline().fireChannelReadComplete();
        assertFalse(ch.isActive(), "a client that does not read is cut off");
        assertEquals(1, counters.slowConsumerClosed.sum());
    }

    @Test
    void socketThatTakesNoMore_stopsReading_untilItIsWritableAgain() {
        EmbeddedChannel ch = new EmbeddedChannel(flow(100, 1 << 20));
        // An EmbeddedChannel writes at once; a user-defined writability bit stands for a socket buffer that is full.
        ch.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        ch.runPendingTasks();
        assertFalse(ch.isWritable());
        assertFalse(ch.config().isAutoRead());
        ch.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        ch.runPendingTasks();
        assertTrue(ch.isWritable());
        assertTrue(ch.config().isAutoRead());
    }

    @Test
    void draining_nothingStartsReadingAgain() {
        FlowControlHandler flow = flow(2, 1 << 20);
        EmbeddedChannel ch = new EmbeddedChannel(flow);
        ch.write(answer(1), ch.voidPromise());
        ch.write(answer(2), ch.voidPromise());
        assertFalse(ch.config().isAutoRead());
        counters.startDraining();
        flow.answersWritten(2);
        assertFalse(ch.config().isAutoRead());
    }
}
