package io.sessionmesh.master.server;

import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.handler.ServerCounters;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The master's whole pipeline (MasterServerInitializer) in an EmbeddedChannel, with the real store: bytes in, bytes out. */
class MasterPipelineTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxAttributeBytes(1000).maxSectionBytes(4000)
            .maxSessionBytes(8000).build(), Ticker.SYSTEM);
    private final ServerCounters counters = new ServerCounters();
    private final HolderRegistry holders = new HolderRegistry(2000, Executors.newSingleThreadScheduledExecutor());

    private EmbeddedChannel channel(int maxInFlight) {
        return channel(store, maxInFlight);
    }

    private EmbeddedChannel channel(SessionStore store, int maxInFlight) {
        MasterConfig config = MasterConfig.of(Map.of("max-in-flight", String.valueOf(maxInFlight), "max-frame", "64k",
                "max-session", "32k", "max-attribute", "1000", "max-section", "4000"));
        return new EmbeddedChannel(new MasterServerInitializer(config, store, counters, () -> "{}".getBytes(),
                new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), holders, null, null, null, null));
    }

    static ByteBuf request(int opcode, int id, byte[] body) {
        ByteBuf b = Unpooled.buffer();
        FrameHeader.write(b, opcode, 0, 0, id, body.length);
        return b.writeBytes(body);
    }

    /** One answer: header fields and body. */
    record Answer(int opcode, int flags, int status, int requestId, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Answers come batched, several to a buffer: what is left of the last buffer read. */
    private final ByteBuf received = Unpooled.buffer();

    Answer next(EmbeddedChannel ch) {
        if (!received.isReadable()) {
            ByteBuf out = ch.readOutbound();
            received.writeBytes(out);
            out.release();
        }
        ByteBuf b = received;
        assertEquals(FrameHeader.MAGIC, b.readInt());
        assertEquals(1, b.readByte());
        int opcode = b.readUnsignedByte();
        int flags = b.readUnsignedByte();
        int status = b.readUnsignedByte();
        int id = b.readInt();
        int len = b.readInt();
        assertTrue(b.readableBytes() >= len, "a frame cut short");
        byte[] body = new byte[len];
        b.readBytes(body);
        b.discardReadBytes();
        return new Answer(opcode, flags, status, id, body);
    }

    /** A READ or WRITE answer's transport message, without the session times that follow it. */
    static byte[] message(byte[] body) {
        return java.util.Arrays.copyOf(body, body.length - 8);
    }

    @Test
    void pipelinedRequests_areAnsweredWithTheirIds() {
        EmbeddedChannel ch = channel(100);
        ch.writeInbound(request(Opcodes.CREATE, 1, new byte[0]));
        Answer created = next(ch);
        assertEquals(Status.OK, created.status());
        assertEquals(FrameHeader.FLAG_RESPONSE, created.flags());
        String id = new String(created.body(), 8, created.body().length - 8, StandardCharsets.US_ASCII);
        assertEquals(300_000, Unpooled.wrappedBuffer(created.body()).getInt(0));

        ByteBuf batch = Unpooled.buffer();
        batch.writeBytes(request(Opcodes.WRITE, 10, codec.encode(new WriteRequest(id, List.of(
                new SectionDelta("cart", Map.of("n", new byte[] {42}), List.of()))))));
        batch.writeBytes(request(Opcodes.READ, 11, codec.encode(new ReadRequest(id, List.of("cart", "user")))));
        batch.writeBytes(request(Opcodes.PING, 12, new byte[] {7}));
        batch.writeBytes(request(Opcodes.TOUCH, 13, id.getBytes(StandardCharsets.US_ASCII)));
        ch.writeInbound(batch);
        Answer w = next(ch);
        assertEquals(10, w.requestId());
        assertEquals(Map.of("cart", 1L), codec.decode(message(w.body()), WriteResult.class).versions());
        assertEquals(300_000, Unpooled.wrappedBuffer(w.body()).getInt(w.body().length - 8), "idle timeout after the message");
        Answer r = next(ch);
        assertEquals(11, r.requestId());
        ReadResult read = codec.decode(message(r.body()), ReadResult.class);
        assertArrayEquals(new byte[] {42}, read.sections().get(0).attributes().get("n"));
        assertEquals(0, read.sections().get(1).version());
        Answer p = next(ch);
        assertEquals(12, p.requestId());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 7}, p.body(), "no lease granted (not registered), then the payload");
        Answer t = next(ch);
        assertEquals(13, t.requestId());
        assertEquals(Status.OK, t.status());
        assertEquals(8, t.body().length, "a TOUCH answer is the session times");
    }

    @Test
    void pipelinedWrites_inOneRead_eachStoresItsOwnBytes() {
        EmbeddedChannel ch = channel(100);
        String[] ids = new String[3];
        for (int i = 0; i < ids.length; i++) {
            ch.writeInbound(request(Opcodes.CREATE, i + 1, new byte[0]));
            byte[] body = next(ch).body();
            ids[i] = new String(body, 8, body.length - 8, StandardCharsets.US_ASCII);
        }
        // a long body, then shorter ones in the same read: each must be read within its own length
        int[] sizes = {900, 40, 300};
        ByteBuf batch = Unpooled.buffer();
        for (int i = 0; i < ids.length; i++) {
            byte[] value = new byte[sizes[i]];
            java.util.Arrays.fill(value, (byte) (i + 1));
            batch.writeBytes(request(Opcodes.WRITE, 10 + i, codec.encode(new WriteRequest(ids[i], List.of(
                    new SectionDelta("cart", Map.of("n", value), List.of()))))));
        }
        ch.writeInbound(batch);
        for (int i = 0; i < ids.length; i++) {
            Answer w = next(ch);
            assertEquals(10 + i, w.requestId());
            assertEquals(Status.OK, w.status());
        }
        for (int i = 0; i < ids.length; i++) {
            byte[] stored = store.read(new ReadRequest(ids[i], List.of("cart"))).sections().get(0).attribute("n");
            assertEquals(sizes[i], stored.length);
            for (byte b : stored) {
                assertEquals(i + 1, b, "session " + i + " holds its own write's bytes");
            }
        }
    }

    @Test
    void badBodies_getAStatusEach_andTheConnectionGoesOn() {
        EmbeddedChannel ch = channel(100);
        ch.writeInbound(request(Opcodes.READ, 1, new byte[] {1, 2, 3}));
        Answer bad = next(ch);
        assertEquals(Status.BAD_REQUEST, bad.status());
        assertTrue(bad.text().startsWith("READ: "), bad.text());
        ch.writeInbound(request(Opcodes.TOUCH, 2, "not a valid id!".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Status.BAD_REQUEST, next(ch).status());
        ch.writeInbound(request(Opcodes.TOUCH, 3, "unknownSession".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Status.NOT_FOUND, next(ch).status());
        ch.writeInbound(request(0x7F, 4, new byte[0]));
        Answer unknown = next(ch);
        assertEquals(Status.UNSUPPORTED_VERSION, unknown.status());
        assertEquals(4, unknown.requestId());
        ch.writeInbound(request(Opcodes.PING, 5, new byte[300]));
        assertEquals(Status.TOO_LARGE, next(ch).status());
        ch.writeInbound(request(Opcodes.PING, 6, new byte[0]));
        assertEquals(Status.OK, next(ch).status());
        assertTrue(ch.isActive());
    }

    /** The master's transport limits follow its store's (MasterConfig.transportLimits): the frame is refused as it is decoded. */
    @Test
    void oversizedAttribute_isTooLarge_andNothingApplied() {
        EmbeddedChannel ch = channel(100);
        String id = store.create().id();
        ch.writeInbound(request(Opcodes.WRITE, 1, codec.encode(new WriteRequest(id, List.of(
                new SectionDelta("s", Map.of("ok", new byte[10], "big", new byte[1001]), List.of()))))));
        Answer a = next(ch);
        assertEquals(Status.TOO_LARGE, a.status());
        assertTrue(a.text().startsWith("WRITE: ") && a.text().contains("1001 is above the limit of 1000"), a.text());
        assertEquals(0, store.read(new ReadRequest(id, List.of("s"))).sections().get(0).version());
        ch.writeInbound(request(Opcodes.WRITE, 2, codec.encode(new WriteRequest(id, List.of(
                new SectionDelta("s", Map.of("ok", new byte[10]), List.of()))))));
        assertEquals(Status.OK, next(ch).status(), "the connection goes on");
    }

    @Test
    void schemas_publishThenFetch_unknownIsNotFound() {
        EmbeddedChannel ch = channel(100);
        ByteBuf pub = Unpooled.buffer().writeLong(0x1234L).writeBytes(new byte[] {5, 6, 7});
        byte[] body = new byte[pub.readableBytes()];
        pub.readBytes(body);
        ch.writeInbound(request(Opcodes.SCHEMA_PUBLISH, 1, body));
        assertEquals(Status.OK, next(ch).status());
        ch.writeInbound(request(Opcodes.SCHEMA_FETCH, 2, java.nio.ByteBuffer.allocate(8).putLong(0x1234L).array()));
        Answer got = next(ch);
        assertArrayEquals(new byte[] {5, 6, 7}, got.body());
        ch.writeInbound(request(Opcodes.SCHEMA_FETCH, 3, java.nio.ByteBuffer.allocate(8).putLong(99).array()));
        assertEquals(Status.NOT_FOUND, next(ch).status());
    }

    @Test
    void overMaxInFlight_requestsAreRefusedUnavailable_andReadingStops() {
        EmbeddedChannel ch = channel(2);
        ByteBuf batch = Unpooled.buffer();
        for (int i = 1; i <= 4; i++) {
            batch.writeBytes(request(Opcodes.PING, i, new byte[0]));
        }
        // Until channelReadComplete nothing is written, so all four answers are in flight at once.
        ch.pipeline().fireChannelRead(batch);
        assertFalse(ch.config().isAutoRead());
        ch.pipeline().fireChannelReadComplete();
        assertEquals(Status.OK, next(ch).status());
        assertEquals(Status.OK, next(ch).status());
        Answer refused = next(ch);
        assertEquals(Status.UNAVAILABLE, refused.status());
        assertEquals(3, refused.requestId());
        assertEquals(Status.UNAVAILABLE, next(ch).status());
        assertTrue(ch.config().isAutoRead());
        assertEquals(2, counters.inFlightRefused());
    }

    /** The bytes of PROTOCOL.md 3.6, the TOUCH of an unknown id. */
    @Test
    void protocolExample_touchOfUnknownId_matchesTheDocumentedBytes() {
        EmbeddedChannel ch = channel(100);
        byte[] request = java.util.HexFormat.of().parseHex("534d4d46" + "01" + "06" + "00" + "00" + "00000004" + "00000004"
                + "6e6f7065");
        ch.writeInbound(Unpooled.wrappedBuffer(request));
        ByteBuf answer = ch.readOutbound();
        byte[] bytes = new byte[answer.readableBytes()];
        answer.readBytes(bytes);
        answer.release();
        assertNull(ch.readOutbound());
        String text = "no such session (unknown, deleted or expired)";
        assertEquals("534d4d46" + "01" + "06" + "01" + "01" + "00000004" + "0000002d"
                + java.util.HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)), java.util.HexFormat.of().formatHex(bytes));
    }

    @Test
    void badMagic_isAnsweredThenClosed() {
        EmbeddedChannel ch = channel(100);
        ch.writeInbound(Unpooled.wrappedBuffer("PING\r\n\r\n0123456789".getBytes(StandardCharsets.US_ASCII)));
        Answer a = next(ch);
        assertEquals(Status.BAD_REQUEST, a.status());
        assertEquals(0, a.requestId());
        ch.runPendingTasks();
        assertFalse(ch.isActive());
    }

    /**
     * A write that another cache must hear of first, through two whole pipelines: its answer waits for the cache's
     * confirmation, counts in flight meanwhile (a request past max-in-flight 1 is refused), and once it leaves the
     * connection takes requests again.
     */
    @Test
    void fencedWrite_waitsForTheCachesConfirmation_andLeavesFlightOnceWritten() {
        EmbeddedChannel cache = channel(100);
        EmbeddedChannel writer = channel(1);
        String id = store.create().id();
        ByteBuf register = Unpooled.buffer().writeLong(7).writeLong(9).writeByte(0x01).writeInt(1);
        cache.writeInbound(request(Opcodes.REGISTER, 1, bytes(register)));
        assertEquals(Status.OK, next(cache).status());
        cache.writeInbound(request(Opcodes.READ, 2, codec.encode(new ReadRequest(id, List.of("cart")))));
        assertEquals(Status.OK, next(cache).status());

        writer.writeInbound(request(Opcodes.WRITE, 10, codec.encode(new WriteRequest(id, List.of(
                new SectionDelta("cart", Map.of("n", new byte[] {1}), List.of()))))));
        cache.runPendingTasks();
        Answer push = next(cache);
        assertEquals(Opcodes.INVALIDATE, push.opcode());
        assertEquals(FrameHeader.FLAG_PUSH, push.flags());
        assertNull(writer.readOutbound(), "the write was acknowledged before the cache confirmed");
        writer.writeInbound(request(Opcodes.PING, 11, new byte[0]));
        Answer refused = next(writer);
        assertEquals(Status.UNAVAILABLE, refused.status(), "the fenced answer counts in flight");

        ByteBuf confirmation = Unpooled.buffer();
        FrameHeader.write(confirmation, Opcodes.INVALIDATE, FrameHeader.FLAG_RESPONSE, 0, push.requestId(), 0);
        cache.writeInbound(confirmation);
        writer.runPendingTasks();
        Answer written = next(writer);
        assertEquals(10, written.requestId());
        assertEquals(Status.OK, written.status());
        writer.writeInbound(request(Opcodes.PING, 12, new byte[0]));
        assertEquals(Status.OK, next(writer).status(), "the connection takes requests again");
    }

    // ---- writes: answers, errors, flow control, the encoder's batches ----

    /**
     * Writes of every shape (several deltas, a new section beside known ones, a name beyond ASCII, an id of 128
     * characters, versions past one varint byte) are answered with the WRITE_RESULT of the model, then the session's
     * times.
     */
    @Test
    void writes_ofEveryShape_areAnsweredWithTheBytesOfTheModelsResult() {
        EmbeddedChannel ch = channel(1000);
        String longId = "L".repeat(128);
        store.createWithId(longId, null, null, null);
        String shortId = store.create().id();
        long requestsBefore = stat("requests");
        int requestId = 0;
        for (String id : List.of(shortId, longId)) {
            for (int round = 1; round <= 130; round++) { // version 128 needs a second varint byte
                List<SectionDelta> deltas = round % 3 == 0
                        ? List.of(new SectionDelta("cart", Map.of("n", new byte[] {(byte) round}), List.of()),
                                new SectionDelta("prófíl-" + (round % 5), Map.of("k", new byte[round]), List.of("gone")))
                        : List.of(new SectionDelta("cart", Map.of("n", new byte[] {(byte) round}), List.of()));
                ch.writeInbound(request(Opcodes.WRITE, ++requestId, codec.encode(new WriteRequest(id, deltas))));
                Answer a = next(ch);
                assertEquals(Status.OK, a.status(), a.text());
                assertEquals(FrameHeader.FLAG_RESPONSE, a.flags());
                assertEquals(Opcodes.WRITE, a.opcode());
                assertEquals(requestId, a.requestId());
                Map<String, Long> versions = new java.util.LinkedHashMap<>();
                for (SectionDelta d : deltas) {
                    versions.put(d.section(), store.read(new ReadRequest(id, List.of(d.section()))).sections().get(0).version());
                }
                assertEquals(round, versions.get("cart"));
                assertArrayEquals(codec.encode(new WriteResult(id, versions)), message(a.body()), "write " + requestId);
                // the session's times after the message: its idle timeout, then the lifetime it has left (which the
                // clock has moved since, by a few milliseconds)
                io.sessionmesh.wire.protocol.SessionTimes times = store.times(id);
                ByteBuf expectedTimes = Unpooled.buffer();
                times.writeTo(expectedTimes);
                ByteBuf sent = Unpooled.wrappedBuffer(a.body(), a.body().length - 8, 8);
                assertEquals(expectedTimes.getInt(0), sent.getInt(0), "idle timeout");
                assertTrue(sent.getInt(4) >= expectedTimes.getInt(4) && sent.getInt(4) - expectedTimes.getInt(4) < 60_000,
                        sent.getInt(4) + " left, then " + expectedTimes.getInt(4));
            }
        }
        assertEquals(requestsBefore + requestId, stat("requests"), "each write counted once");
    }

    /**
     * A READ, a WRITE asking for whole sections (the data handler sends them), a WRITE that does not decode (the request
     * decoder names what is wrong, and the connection goes on), and a store's refusals, each answered with its status.
     */
    @Test
    void writes_wholeSectionsMalformedAndRefused_keepTheirStatus() {
        EmbeddedChannel ch = channel(100);
        String id = store.create().id();
        ch.writeInbound(request(Opcodes.READ, 1, codec.encode(new ReadRequest(id, List.of("cart")))));
        assertEquals(Status.OK, next(ch).status());

        ByteBuf whole = Unpooled.buffer();
        byte[] body = codec.encode(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[] {1}), List.of()))));
        FrameHeader.write(whole, Opcodes.WRITE, FrameHeader.FLAG_WHOLE_SECTIONS, 0, 2, body.length);
        ch.writeInbound(whole.writeBytes(body));
        Answer w = next(ch);
        assertEquals(Status.OK, w.status());
        assertEquals(2, w.requestId());

        byte[] bad = body.clone();
        bad[bad.length - 1] = 5; // the delta's remove count: five names that are not there
        ch.writeInbound(request(Opcodes.WRITE, 3, bad));
        Answer refused = next(ch);
        assertEquals(Status.BAD_REQUEST, refused.status());
        assertEquals(3, refused.requestId());
        assertTrue(refused.text().startsWith("WRITE: "), refused.text());

        ch.writeInbound(request(Opcodes.WRITE, 4, body));
        assertEquals(Status.OK, next(ch).status(), "the connection goes on");

        long errors = stat("errors");
        ch.writeInbound(request(Opcodes.WRITE, 5, codec.encode(new WriteRequest("noSuchSession", List.of(
                new SectionDelta("cart", Map.of("n", new byte[] {1}), List.of()))))));
        Answer missing = next(ch);
        assertEquals(Status.NOT_FOUND, missing.status());
        assertEquals(5, missing.requestId());
        ch.writeInbound(request(Opcodes.WRITE, 6, codec.encode(new WriteRequest(id, List.of(
                new SectionDelta("cart", 1, Map.of("n", new byte[] {2}), List.of()))))));
        Answer conflict = next(ch);
        assertEquals(Status.CONFLICT, conflict.status());
        assertTrue(conflict.text().contains("\"cart\" is at version 2, not 1"), conflict.text());
        assertEquals(errors + 2, stat("errors"));
        assertEquals(2, store.read(new ReadRequest(id, List.of("cart"))).sections().get(0).version(), "nothing applied");
    }

    /** Write answers count in flight: past max-in-flight a WRITE is refused, and reading stops. */
    @Test
    void writeAnswers_countInFlight_pastTheLimitAWriteIsRefused() {
        EmbeddedChannel ch = channel(2);
        String id = store.create().id();
        byte[] body = codec.encode(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[] {1}), List.of()))));
        ByteBuf batch = Unpooled.buffer();
        for (int i = 1; i <= 3; i++) {
            batch.writeBytes(request(Opcodes.WRITE, i, body));
        }
        ch.pipeline().fireChannelRead(batch); // answers stay in flight until the read's end flushes them
        assertFalse(ch.config().isAutoRead(), "two answers in flight stop reading");
        ch.pipeline().fireChannelReadComplete();
        assertEquals(Status.OK, next(ch).status());
        assertEquals(Status.OK, next(ch).status());
        Answer refused = next(ch);
        assertEquals(Status.UNAVAILABLE, refused.status());
        assertEquals(3, refused.requestId());
        assertEquals(2, store.read(new ReadRequest(id, List.of("cart"))).sections().get(0).version(), "the third not applied");
        assertTrue(ch.config().isAutoRead(), "reading again once the answers are out");
        assertEquals(1, counters.inFlightRefused());
    }

    /**
     * Write answers past the encoder's batch (16 KiB: the batch is written and another begun, or grown) and an answer of
     * its own buffer (8 KiB or more: forty sections of 200-byte names) are the bytes of the model's result, each one.
     */
    @Test
    void writeAnswers_pastABatch_andOfTheirOwnBuffer_areTheModelsBytes() {
        SessionStore roomy = new SessionStore(StoreLimits.DEFAULT, Ticker.SYSTEM);
        EmbeddedChannel ch = channel(roomy, 1000);
        String id = roomy.create().id();
        List<SectionDelta> wide = new java.util.ArrayList<>();
        for (int d = 0; d < 40; d++) {
            wide.add(new SectionDelta(String.format("%03d", d) + "n".repeat(207), Map.of("k", new byte[] {1}), List.of()));
        }
        ByteBuf batch = Unpooled.buffer();
        int writes = 400;
        for (int i = 1; i <= writes; i++) {
            List<SectionDelta> deltas = i == 200 ? wide
                    : List.of(new SectionDelta("cart", Map.of("n", new byte[] {(byte) i}), List.of()));
            batch.writeBytes(request(Opcodes.WRITE, i, codec.encode(new WriteRequest(id, deltas))));
        }
        ch.writeInbound(batch); // one read: every answer is made before the read's end writes them
        long version = 0;
        for (int i = 1; i <= writes; i++) {
            Answer a = next(ch);
            assertEquals(i, a.requestId());
            assertEquals(Status.OK, a.status(), a.text());
            Map<String, Long> versions = new java.util.LinkedHashMap<>();
            if (i == 200) {
                wide.forEach(d -> versions.put(d.section(), 1L));
                assertTrue(a.body().length > io.sessionmesh.wire.protocol.FrameEncoder.LARGE_FRAME, "an answer of its own");
            } else {
                versions.put("cart", ++version);
            }
            assertArrayEquals(codec.encode(new WriteResult(id, versions)), message(a.body()), "write " + i);
        }
    }

    private long stat(String name) {
        Map<String, Long> stats = new java.util.HashMap<>();
        counters.putInto(stats);
        return stats.get(name);
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }
}
