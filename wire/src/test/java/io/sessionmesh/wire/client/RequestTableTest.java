package io.sessionmesh.wire.client;

import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.OutboundFrame;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's request table through an EmbeddedChannel with the real frame codecs: ids, typed answers in any order,
 * errors, the in-flight bound, timeouts on the channel's clock, pushes to the listener, and what closing does.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RequestTableTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final List<String> pushes = new ArrayList<>();
    private final List<String> badPushes = new ArrayList<>();
    private MasterConnection connection;

    private EmbeddedChannel channel(int maxInFlight, Duration timeout) {
        return channel(maxInFlight, MasterConnectionOptions.DEFAULT_MAX_QUEUED, timeout);
    }

    private EmbeddedChannel channel(int maxInFlight, int maxQueued, Duration timeout) {
        MasterConnectionOptions options = MasterConnectionOptions.builder().maxInFlight(maxInFlight).maxQueued(maxQueued)
                .requestTimeout(timeout).build();
        InvalidationListener listener = new InvalidationListener() {
            @Override
            public void onInvalidation(MasterConnection connection, int pushId, Invalidation invalidation) {
                pushes.add(pushId + ":" + invalidation.sessionId());
            }

            @Override
            public void onBadPush(MasterConnection connection, String problem) {
                badPushes.add(problem);
            }
        };
        RequestTable table = new RequestTable("master test", options, codec, listener);
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20), new FrameEncoder(codec, null, false), table);
        connection = new MasterConnection(ch, "master test"); // attaches itself to the table, as connect() does
        return ch;
    }

    private <A> CompletableFuture<A> send(EmbeddedChannel ch, MasterRequest<A> request) {
        return connection.send(request);
    }

    /** The request frames sent so far. */
    private static List<Frame> sent(EmbeddedChannel ch) {
        EmbeddedChannel decoder = new EmbeddedChannel(new FrameDecoder(1 << 20));
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            decoder.writeInbound(b);
        }
        List<Frame> out = new ArrayList<>();
        for (Frame f; (f = decoder.readInbound()) != null; ) {
            out.add(f);
        }
        return out;
    }

    /** The request ids of frames, releasing them. */
    private static List<Integer> ids(List<Frame> frames) {
        List<Integer> ids = frames.stream().map(Frame::requestId).toList();
        frames.forEach(Frame::release);
        return ids;
    }

    /** An answer frame, as a master sends it. */
    private ByteBuf answer(OutboundFrame frame) {
        EmbeddedChannel encoder = new EmbeddedChannel(new FrameEncoder(codec, null, true));
        encoder.writeAndFlush(frame);
        return encoder.readOutbound();
    }

    @Test
    void requests_getIdsInOrder_andAnswersInAnyOrderCompleteTheirOwnFuture() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        CompletableFuture<MasterAnswer.Read> read = send(ch, new MasterRequest.Read(new io.sessionmesh.wire.transport.ReadRequest("s1",
                List.of("cart"))));
        CompletableFuture<SessionTimes> touch = send(ch, new MasterRequest.Touch("s1"));
        List<Frame> frames = sent(ch);
        assertEquals(List.of(1, 2), frames.stream().map(Frame::requestId).toList());
        assertEquals(List.of(Opcodes.READ, Opcodes.TOUCH), frames.stream().map(Frame::opcode).toList());
        assertEquals("s1", frames.get(1).body().toString(java.nio.charset.StandardCharsets.US_ASCII));
        frames.forEach(Frame::release);

        ch.writeInbound(answer(new MasterAnswer.Touched(2, new SessionTimes(60_000, 5_000))));
        assertEquals(new SessionTimes(60_000, 5_000), touch.join());
        assertFalse(read.isDone());
        EncodedReadResult result = new EncodedReadResult("s1", List.of(EncodedSection.empty("cart")));
        ch.writeInbound(answer(new MasterAnswer.Read(1, result, new SessionTimes(60_000, 4_000))));
        MasterAnswer.Read r = read.join();
        assertEquals("cart", r.result().sections().get(0).name());
        assertEquals(4_000, r.times().lifetimeLeftMillis());
    }

    @Test
    void errorAnswer_failsItsRequestWithTheStatusAndTheMastersMessage() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        CompletableFuture<Void> delete = send(ch, new MasterRequest.Delete("gone"));
        sent(ch).forEach(Frame::release);
        ch.writeInbound(answer(new MasterAnswer.Error(Opcodes.DELETE, 1, Status.NOT_FOUND, "no such session")));
        MasterException e = (MasterException) assertThrows(CompletionException.class, delete::join).getCause();
        assertEquals(Status.NOT_FOUND, e.status());
        assertEquals("DELETE on master test: NOT_FOUND: no such session", e.getMessage());
    }

    @Test
    void overMaxInFlight_waitsInTheQueue_andGoesOutInOrderAsAnswersFreeSlots() {
        EmbeddedChannel ch = channel(2, Duration.ofSeconds(5));
        List<CompletableFuture<MasterAnswer.Pong>> pings = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            pings.add(send(ch, new MasterRequest.Ping(new byte[] {(byte) i})));
        }
        assertEquals(List.of(1, 2), ids(sent(ch)), "two in flight, the other three wait");
        assertTrue(pings.stream().noneMatch(CompletableFuture::isDone), "queued, not refused");
        for (int id = 1; id <= 5; id++) {
            ch.writeInbound(answer(new MasterAnswer.Pong(id, 0, new byte[] {(byte) id})));
            assertArrayEquals(new byte[] {(byte) id}, pings.get(id - 1).join().payload());
            // the answer freed a slot: the next queued request went out, flushed at the end of the read
            assertEquals(id + 2 <= 5 ? List.of(id + 2) : List.of(), ids(sent(ch)));
        }
    }

    @Test
    void fullQueue_failsAtOnceWithUnavailable_andSendsNothing() {
        EmbeddedChannel ch = channel(1, 1, Duration.ofSeconds(5));
        send(ch, new MasterRequest.Ping(new byte[] {1}));
        CompletableFuture<MasterAnswer.Pong> queued = send(ch, new MasterRequest.Ping(new byte[] {2}));
        CompletableFuture<MasterAnswer.Pong> third = send(ch, new MasterRequest.Ping(new byte[] {3}));
        assertFalse(queued.isDone());
        MasterException e = (MasterException) assertThrows(CompletionException.class, third::join).getCause();
        assertEquals(Status.UNAVAILABLE, e.status());
        assertTrue(e.getMessage().contains("1 requests already wait for answers from master test and 1 more are queued"),
                e.getMessage());
        assertEquals(List.of(1), ids(sent(ch)));
    }

    @Test
    void queuedRequest_timesOutFromWhenItWasQueued_andIsNeverSent() {
        EmbeddedChannel ch = channel(1, Duration.ofMillis(100));
        CompletableFuture<MasterAnswer.Pong> first = send(ch, new MasterRequest.Ping(new byte[] {1}));
        CompletableFuture<MasterAnswer.Pong> queued = send(ch, new MasterRequest.Ping(new byte[] {2}));
        assertEquals(List.of(1), ids(sent(ch)));
        ch.advanceTimeBy(160, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertEquals(Status.TIMEOUT, ((MasterException) assertThrows(CompletionException.class, first::join).getCause()).status());
        MasterException e = (MasterException) assertThrows(CompletionException.class, queued::join).getCause();
        assertEquals(Status.TIMEOUT, e.status());
        assertTrue(e.getMessage().contains("not sent in 100 ms"), e.getMessage());
        assertEquals(List.of(), ids(sent(ch)), "a request that timed out in the queue is not sent when a slot frees");
        CompletableFuture<MasterAnswer.Pong> next = send(ch, new MasterRequest.Ping(new byte[] {3}));
        assertEquals(List.of(2), ids(sent(ch)), "the slot and the queue are free again");
        assertFalse(next.isDone());
    }

    @Test
    void unansweredRequest_timesOutOnTheSweep_andALateAnswerIsIgnored() {
        EmbeddedChannel ch = channel(10, Duration.ofMillis(100));
        CompletableFuture<MasterAnswer.Pong> ping = send(ch, new MasterRequest.Ping(new byte[] {1}));
        sent(ch).forEach(Frame::release);
        ch.advanceTimeBy(60, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ping.isDone());
        ch.advanceTimeBy(100, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        MasterException e = (MasterException) assertThrows(CompletionException.class, ping::join).getCause();
        assertEquals(Status.TIMEOUT, e.status());
        ch.writeInbound(answer(new MasterAnswer.Pong(1, 0, new byte[] {1})));
        assertTrue(ping.isCompletedExceptionally());
    }

    @Test
    void pushes_reachTheListenerDecoded_andABadOneClosesTheConnection() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        ch.writeInbound(answer(new Invalidation("s7", 0, List.of("a"), new long[] {3}).asPush(41)));
        assertEquals(List.of("41:s7"), pushes);
        CompletableFuture<MasterAnswer.Pong> ping = send(ch, new MasterRequest.Ping(new byte[] {1}));
        ByteBuf junk = Unpooled.buffer();
        FrameHeader.write(junk, Opcodes.INVALIDATE, FrameHeader.FLAG_PUSH, 0, 42, 3);
        junk.writeBytes(new byte[] {9, 9, 9});
        ch.writeInbound(junk);
        assertEquals(1, badPushes.size());
        assertTrue(badPushes.get(0).contains("bad invalidation"), badPushes.get(0));
        assertFalse(ch.isActive(), "the connection closes: the lease ends with it");
        assertEquals(Status.UNAVAILABLE, ((MasterException) assertThrows(CompletionException.class, ping::join).getCause()).status());
    }

    @Test
    void requestThatCannotBeEncoded_failsWithTheCodecsReason_andTakesNoSlot() {
        EmbeddedChannel ch = channel(1, Duration.ofSeconds(5));
        byte[] tooBig = new byte[io.sessionmesh.wire.transport.TransportLimits.DEFAULT.maxAttributeValueBytes() + 1];
        CompletableFuture<MasterAnswer.Write> w = send(ch, new MasterRequest.Write(new io.sessionmesh.wire.transport.WriteRequest(
                "s1", List.of(new io.sessionmesh.wire.transport.SectionDelta("a", java.util.Map.of("v", tooBig), List.of())))));
        Throwable cause = assertThrows(CompletionException.class, w::join).getCause();
        assertInstanceOf(io.sessionmesh.wire.transport.MalformedMessageException.class, cause);
        assertEquals(Status.TOO_LARGE, ((io.sessionmesh.wire.transport.MalformedMessageException) cause).status());
        CompletableFuture<MasterAnswer.Pong> ping = send(ch, new MasterRequest.Ping(new byte[] {1}));
        assertFalse(ping.isDone(), "the one slot was taken by the request that never left");
        assertEquals(1, sent(ch).stream().peek(Frame::release).count());
    }

    @Test
    void confirmPush_sendsAResponseFrameWithThePushId() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        connection.confirmPush(41);
        Frame f = sent(ch).get(0);
        assertEquals(Opcodes.INVALIDATE, f.opcode());
        assertEquals(41, f.requestId());
        assertTrue(f.isResponse());
        assertEquals(0, f.body().readableBytes());
        f.release();
    }

    @Test
    void closing_failsEveryWaitingRequest() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        CompletableFuture<String> stats = send(ch, new MasterRequest.Stats());
        CompletableFuture<byte[]> schema = send(ch, new MasterRequest.FetchSchema(7));
        ch.close();
        for (CompletableFuture<?> f : List.of(stats, schema)) {
            assertEquals(Status.UNAVAILABLE, ((MasterException) assertThrows(CompletionException.class, f::join).getCause()).status());
        }
        CompletableFuture<MasterAnswer.Pong> after = send(ch, new MasterRequest.Ping(new byte[0]));
        assertTrue(after.isCompletedExceptionally());
    }

    @Test
    void closing_failsQueuedRequestsToo() {
        EmbeddedChannel ch = channel(1, Duration.ofSeconds(5));
        CompletableFuture<String> stats = send(ch, new MasterRequest.Stats());
        CompletableFuture<byte[]> queued = send(ch, new MasterRequest.FetchSchema(7));
        ch.close();
        for (CompletableFuture<?> f : List.of(stats, queued)) {
            assertEquals(Status.UNAVAILABLE, ((MasterException) assertThrows(CompletionException.class, f::join).getCause()).status());
        }
        CompletableFuture<MasterAnswer.Pong> after = send(ch, new MasterRequest.Ping(new byte[0]));
        assertTrue(after.isCompletedExceptionally());
    }

    private static io.sessionmesh.wire.transport.WriteRequest aWrite(String id) {
        return new io.sessionmesh.wire.transport.WriteRequest(id, List.of(new io.sessionmesh.wire.transport.SectionDelta("cart",
                java.util.Map.of("n", new byte[] {1}), List.of())));
    }

    private static int status(CompletableFuture<?> f) {
        return ((MasterException) assertThrows(CompletionException.class, f::join).getCause()).status();
    }

    @Test
    void connectionCut_afterAChangeWasSent_failsItAsOutcomeUnknown_andWhatNeverLeftAsUnavailable() {
        EmbeddedChannel ch = channel(2, Duration.ofSeconds(5));
        CompletableFuture<MasterAnswer.Write> sentWrite = send(ch, new MasterRequest.Write(aWrite("s1")));
        CompletableFuture<MasterAnswer.Read> sentRead = send(ch, new MasterRequest.Read(
                new io.sessionmesh.wire.transport.ReadRequest("s1", List.of("cart"))));
        CompletableFuture<Void> queuedDelete = send(ch, new MasterRequest.Delete("s1"));
        assertEquals(List.of(1, 2), ids(sent(ch)), "the write and the read left; the delete waits for a slot");
        ch.close();
        assertEquals(Status.OUTCOME_UNKNOWN, status(sentWrite), "the master may have applied the write");
        assertEquals(Status.UNAVAILABLE, status(sentRead), "a read changes nothing: it simply failed");
        assertEquals(Status.UNAVAILABLE, status(queuedDelete), "never sent: certainly not applied");
        assertEquals(Status.UNAVAILABLE, status(send(ch, new MasterRequest.Write(aWrite("s1")))),
                "written after the close: never sent");
    }

    @Test
    void sentChange_unanswered_timesOutAsOutcomeUnknown_whileAQueuedOneTimesOutUnsent() {
        EmbeddedChannel ch = channel(1, Duration.ofMillis(100));
        CompletableFuture<MasterAnswer.Write> sent = send(ch, new MasterRequest.Write(aWrite("s1")));
        CompletableFuture<Void> queued = send(ch, new MasterRequest.Delete("s1"));
        assertEquals(List.of(1), ids(sent(ch)));
        ch.advanceTimeBy(160, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        MasterException e = (MasterException) assertThrows(CompletionException.class, sent::join).getCause();
        assertEquals(Status.OUTCOME_UNKNOWN, e.status());
        assertTrue(e.getMessage().contains("no answer in 100 ms") && e.getMessage().contains("may or may not"), e.getMessage());
        assertEquals(Status.TIMEOUT, status(queued), "timed out in the queue: never sent");
    }

    @Test
    void mastersTimeout_forAChange_isOutcomeUnknown_forARead_aTimeout() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        CompletableFuture<MasterAnswer.Write> write = send(ch, new MasterRequest.Write(aWrite("s1")));
        CompletableFuture<byte[]> fetch = send(ch, new MasterRequest.FetchSchema(7));
        sent(ch).forEach(Frame::release);
        ch.writeInbound(answer(new MasterAnswer.Error(Opcodes.WRITE, 1, Status.TIMEOUT, "the group did not confirm it")));
        ch.writeInbound(answer(new MasterAnswer.Error(Opcodes.SCHEMA_FETCH, 2, Status.TIMEOUT, "no read barrier")));
        assertEquals(Status.OUTCOME_UNKNOWN, status(write));
        assertEquals(Status.TIMEOUT, status(fetch));
    }

    @Test
    void writeWithAWriteId_carriesFlagWriteId_andTheIdBeforeTheMessage() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        io.sessionmesh.wire.protocol.WriteId writeId = new io.sessionmesh.wire.protocol.WriteId(0x0102030405060708L, 9);
        CompletableFuture<MasterAnswer.Write> w = send(ch, new MasterRequest.Write(aWrite("s1"), true, writeId));
        ch.runPendingTasks(); // the flush the connection scheduled on its loop
        List<Frame> frames = sent(ch);
        assertFalse(w.isDone());
        Frame f = frames.get(0);
        assertEquals(FrameHeader.FLAG_WRITE_ID | FrameHeader.FLAG_WHOLE_SECTIONS, f.flags());
        assertEquals(0x0102030405060708L, f.body().getLong(0));
        assertEquals(9, f.body().getLong(8));
        assertEquals(codec.encodedSize(aWrite("s1")) + 16, f.body().readableBytes());
        f.release();
    }

    @Test
    void typedAnswers_decodeWhatTheMasterEncodes() {
        EmbeddedChannel ch = channel(10, Duration.ofSeconds(5));
        CompletableFuture<MasterAnswer.Created> created = send(ch, new MasterRequest.Create(Duration.ofMinutes(1), null));
        CompletableFuture<MasterAnswer.Registered> registered = send(ch, new MasterRequest.Register(java.util.UUID.randomUUID(),
                true, 1));
        CompletableFuture<byte[]> schema = send(ch, new MasterRequest.FetchSchema(7));
        List<Frame> frames = sent(ch);
        assertEquals(4, frames.get(0).body().readableBytes(), "CREATE carries its idle timeout");
        assertEquals(60_000, frames.get(0).body().getInt(0));
        assertEquals(MasterRequest.Register.BYTES, frames.get(1).body().readableBytes());
        frames.forEach(Frame::release);
        ch.writeInbound(answer(new MasterAnswer.Created(1, "AbC_12-x", Duration.ofMinutes(1), Duration.ofHours(12))));
        ch.writeInbound(answer(new MasterAnswer.Registered(2, 2000, 5)));
        ch.writeInbound(answer(new MasterAnswer.Bytes(Opcodes.SCHEMA_FETCH, 3, new byte[] {4, 5})));
        assertEquals("AbC_12-x", created.join().sessionId());
        assertEquals(Duration.ofHours(12), created.join().maxLifetime());
        assertEquals(2000, registered.join().leaseMillis());
        assertEquals(5, registered.join().slot());
        assertArrayEquals(new byte[] {4, 5}, schema.join());
    }
}
