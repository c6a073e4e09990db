package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.Holder;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.PushTable;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pushes out and confirmations in on a control connection; fenced answers held until their fence is done. */
class PushHandlerTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final HolderRegistry holders = new HolderRegistry(10_000, timer);
    private final ConnectionRegistration registration = new ConnectionRegistration(holders);
    private final ServerCounters serverCounters = new ServerCounters();
    private final PushHandler handler = new PushHandler(registration, holders.counters(), serverCounters);
    private final EmbeddedChannel ch = new EmbeddedChannel(handler);

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    /** Makes the channel the control connection of a holder with a long lease; returns the holder. */
    private Holder control() {
        Holder holder = io.sessionmesh.master.coherence.Holders.connect(holders, UUID.randomUUID());
        PushTable table = new PushTable(holder, handler, ch.eventLoop(), holders.counters());
        assertTrue(holder.takeControl(table, 1));
        registration.registered(holder, holders.invalidatorFor(holder));
        registration.control(table);
        holder.granted(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
        return holder;
    }

    @Test
    void invalidation_isPushedAndFlushed_andItsConfirmationReleasesTheWritersFence() {
        Holder holder = control();
        Fence fence = holders.invalidatorFor(null).invalidate("s1", holder.bit(), new String[] {"cart"}, new long[] {4}, null);
        ch.runPendingTasks();
        Invalidation.Push push = ch.readOutbound();
        assertEquals("s1", push.invalidation().sessionId());
        assertEquals(4, push.invalidation().versions()[0]);
        assertFalse(fence.isDone(), "the holder has not confirmed and its lease runs");
        ch.writeInbound(new PushConfirmed(push.requestId(), 0x01));
        assertNull(ch.readInbound(), "a confirmation is consumed, never answered");
        assertTrue(fence.isDone());
        assertEquals(1, fence.confirmations());
    }

    @Test
    void confirmationOnAConnectionThatIsNotAControlConnection_isRejected() {
        ch.writeInbound(new PushConfirmed(3, 0x03));
        Rejected r = ch.readInbound();
        assertEquals(Status.BAD_REQUEST, r.answer().status());
        assertEquals(Opcodes.INVALIDATE, r.answer().opcode());
        assertEquals("INVALIDATE: a client sent an answer frame (flags 0x3) confirming an invalidation on a connection that "
                + "is not its control connection", r.answer().message());
        assertEquals(1, serverCounters.requests.sum());
        assertEquals(1, serverCounters.errors.sum());
    }

    @Test
    void fencedAnswer_waitsForItsFence_thenLeavesFlushed() {
        Holder holder = control();
        Fence fence = holders.invalidatorFor(null).invalidate("s1", holder.bit(), new String[] {"a"}, new long[] {2}, null);
        ch.runPendingTasks();
        Invalidation.Push push = ch.readOutbound();
        MasterAnswer answer = MasterAnswer.Bytes.empty(Opcodes.DELETE, 9);
        ch.write(new FencedAnswer(answer, fence), ch.voidPromise());
        ch.flush();
        assertNull(ch.readOutbound(), "held back while the fence waits");
        ch.writeInbound(new PushConfirmed(push.requestId(), 0x01));
        ch.runPendingTasks();
        assertSame(answer, ch.readOutbound());
        assertEquals(1, holders.counters().fencedWrites());
    }

    @Test
    void fencedAnswerWhoseFenceIsDone_passesAtOnce_andOtherMessagesPassUntouched() {
        Fence done = new Fence();
        done.arm();
        MasterAnswer answer = MasterAnswer.Bytes.empty(Opcodes.DELETE, 1);
        ch.writeOutbound(new FencedAnswer(answer, done));
        assertSame(answer, ch.readOutbound());
        ch.writeInbound(new Received(2, new io.sessionmesh.wire.protocol.MasterRequest.Stats()));
        assertInstanceOf(Received.class, ch.readInbound());
    }

    @Test
    void deferredAnswer_isWrittenWhenItCompletes() {
        java.util.concurrent.CompletableFuture<MasterAnswer> later = new java.util.concurrent.CompletableFuture<>();
        ch.writeOutbound(new DeferredAnswer(later));
        assertNull(ch.readOutbound(), "nothing leaves before the answer is made");
        MasterAnswer.Bytes answer = MasterAnswer.Bytes.empty(Opcodes.DELETE, 12);
        later.complete(answer);
        ch.runPendingTasks();
        assertSame(answer, ch.readOutbound());
    }
}
