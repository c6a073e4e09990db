package io.sessionmesh.master.replication;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log entries of PROTOCOL.md 5.2: each kind survives the round trip; an entry this build cannot read is refused. */
class ReplicaCommandTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    private ReplicaCommand.Entry roundTrip(ReplicaCommand command) {
        byte[] bytes = ReplicaCommand.encode(command, 1_763_800_000_123L, 42L, 7L, codec);
        ReplicaCommand.Entry entry = ReplicaCommand.decode(ByteBuffer.wrap(bytes), codec);
        assertEquals(1_763_800_000_123L, entry.time());
        assertEquals(42L, entry.origin());
        assertEquals(7L, entry.ticket());
        return entry;
    }

    @Test
    void everyKindSurvivesTheRoundTrip() {
        WriteRequest write = new WriteRequest("s1", List.of(new SectionDelta("cart", 3, Map.of("item",
                "one".getBytes(StandardCharsets.UTF_8)), List.of("old"))));
        assertEquals(write, assertInstanceOf(ReplicaCommand.Write.class, roundTrip(new ReplicaCommand.Write(write)).command()).request());
        assertEquals(new ReplicaCommand.Create("s2", 60_000), roundTrip(new ReplicaCommand.Create("s2", 60_000)).command());
        assertEquals(new ReplicaCommand.Delete("s3"), roundTrip(new ReplicaCommand.Delete("s3")).command());
        ReplicaCommand.Rename rename = new ReplicaCommand.Rename("s4", "0b7e1f4c-58d2-4a1e-9c3b-2f6d8e0a1b2c", 30_000);
        assertEquals(rename, roundTrip(rename).command());
        assertEquals(new ReplicaCommand.Rename("s4", "s4", 0), roundTrip(new ReplicaCommand.Rename("s4", "s4", 0)).command());
        ReplicaCommand.Sessions touch = new ReplicaCommand.Sessions(ReplicaCommand.TOUCH, List.of("a", "b"));
        assertEquals(touch, roundTrip(touch).command());
        ReplicaCommand.Sessions expire = new ReplicaCommand.Sessions(ReplicaCommand.EXPIRE, List.of());
        assertEquals(expire, roundTrip(expire).command());
        ReplicaCommand.Schema schema = (ReplicaCommand.Schema) roundTrip(new ReplicaCommand.Schema(0xABCDL, new byte[]{1, 2, 3})).command();
        assertEquals(0xABCDL, schema.uid());
        assertArrayEquals(new byte[]{1, 2, 3}, schema.schema());
        assertInstanceOf(ReplicaCommand.Lead.class, roundTrip(new ReplicaCommand.Lead()).command());
        for (int kind : new int[]{ReplicaCommand.HANDOFF, ReplicaCommand.HANDED}) {
            ReplicaCommand.Sessions ids = new ReplicaCommand.Sessions(kind, List.of("s1", "s2"));
            assertEquals(ids, roundTrip(ids).command());
        }
        ReplicaCommand.Blob blob = (ReplicaCommand.Blob) roundTrip(new ReplicaCommand.Blob(ReplicaCommand.MAP, new byte[]{7, 8}))
                .command();
        assertArrayEquals(new byte[]{7, 8}, blob.bytes());
        assertThrows(IllegalArgumentException.class, () -> new ReplicaCommand.Blob(ReplicaCommand.WRITE, new byte[0]));
        for (Long epoch : new Long[]{null, 5L}) {
            ReplicaCommand.Import im = (ReplicaCommand.Import) roundTrip(new ReplicaCommand.Import(epoch, new byte[]{7, 8})).command();
            assertEquals(epoch, im.epoch());
            assertEquals(epoch == null ? ReplicaCommand.IMPORT : ReplicaCommand.IMPORT_AT, im.kind());
            assertArrayEquals(new byte[]{7, 8}, im.records());
        }
    }

    @Test
    void writeOnce_isTheWriteIdThenTheWriteRequest_andAWriteIdCutShortIsRefused() {
        WriteRequest write = new WriteRequest("s1", List.of(new SectionDelta("cart", Map.of("n", new byte[]{0x2a}), List.of())));
        io.sessionmesh.wire.protocol.WriteId id = new io.sessionmesh.wire.protocol.WriteId(0x0123456789ABCDEFL, 7);
        ReplicaCommand.WriteOnce once = assertInstanceOf(ReplicaCommand.WriteOnce.class,
                roundTrip(new ReplicaCommand.WriteOnce(id, write)).command());
        assertEquals(id, once.writeId());
        assertEquals(write, once.request());
        byte[] bytes = ReplicaCommand.encode(new ReplicaCommand.WriteOnce(id, write), 1L, 2L, 3L, codec);
        byte[] plain = ReplicaCommand.encode(new ReplicaCommand.Write(write), 1L, 2L, 3L, codec);
        assertEquals(17, bytes[1], "kind 17");
        assertEquals(0x0123456789ABCDEFL, ByteBuffer.wrap(bytes, 26, 8).getLong());
        assertEquals(7L, ByteBuffer.wrap(bytes, 34, 8).getLong());
        assertArrayEquals(Arrays.copyOfRange(plain, 26, plain.length), Arrays.copyOfRange(bytes, 42, bytes.length),
                "then the WRITE_REQUEST, as kind 1 carries it");
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decode(ByteBuffer.wrap(Arrays.copyOf(bytes, 26 + 15)), codec)).status());
    }

    @Test
    void theHeaderIsAsDocumented() {
        byte[] bytes = ReplicaCommand.encode(new ReplicaCommand.Delete("s"), 1L, 2L, 3L, codec);
        assertArrayEquals(new byte[]{1, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 1, 's'}, bytes);
    }

    @Test
    void anEntryThisBuildCannotReadIsRefusedNotSkipped() {
        byte[] bytes = ReplicaCommand.encode(new ReplicaCommand.Delete("s"), 1L, 2L, 3L, codec);
        byte[] newer = bytes.clone();
        newer[0] = 3;
        MalformedMessageException format = assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decode(ByteBuffer.wrap(newer), codec));
        assertEquals(Status.UNSUPPORTED_VERSION, format.status());
        byte[] unknownKind = bytes.clone();
        unknownKind[1] = 99;
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decode(ByteBuffer.wrap(unknownKind), codec)).status());
        byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decode(ByteBuffer.wrap(cut), codec)).status());
    }

    /**
     * A declared length is checked against the bytes there are before anything is allocated, and nothing may follow
     * an entry: each is BAD_REQUEST (refused alike on every replica), never an OutOfMemoryError or a skip.
     */
    @Test
    void lyingLengthsAndTrailingBytesAreRefusedBeforeAnythingIsAllocated() {
        for (int declared : new int[]{Integer.MAX_VALUE, -1, 3}) {
            for (ReplicaCommand command : new ReplicaCommand[]{new ReplicaCommand.Schema(1, new byte[]{1, 2}),
                    new ReplicaCommand.Import(4L, new byte[]{1, 2}), new ReplicaCommand.Blob(ReplicaCommand.MAP, new byte[]{1, 2})}) {
                byte[] bytes = ReplicaCommand.encode(command, 1L, 2L, 3L, codec);
                int at = ReplicaCommand.HEADER_BYTES + (command instanceof ReplicaCommand.Blob ? 0 : 8);
                ByteBuffer.wrap(bytes, at, 4).putInt(declared);
                MalformedMessageException e = assertThrows(MalformedMessageException.class,
                        () -> ReplicaCommand.decode(ByteBuffer.wrap(bytes), codec), command + " saying " + declared);
                assertEquals(Status.BAD_REQUEST, e.status());
                assertTrue(e.getMessage().contains(declared + " bytes, with 2 left"), e.getMessage());
            }
        }
        byte[] delete = ReplicaCommand.encode(new ReplicaCommand.Delete("s"), 1L, 2L, 3L, codec);
        byte[] trailing = Arrays.copyOf(delete, delete.length + 1);
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decode(ByteBuffer.wrap(trailing), codec));
        assertTrue(e.getMessage().contains("1 bytes after a log entry"), e.getMessage());
    }

    /** A host name over 255 bytes (its length is a u8) is cut at a character's end: the entry still decodes. */
    @Test
    void aCreateForAHostOfMoreThan255Bytes_keepsTheFirst255AndDecodes() {
        String host = "h\u00e9".repeat(100); // 300 bytes of UTF-8
        ReplicaCommand.Create create = new ReplicaCommand.Create("s1", 0, "p", host);
        ReplicaCommand.Create back = (ReplicaCommand.Create) roundTrip(create).command();
        assertEquals(create, back);
        assertTrue(back.host().getBytes(StandardCharsets.UTF_8).length <= ReplicaCommand.Create.MAX_HOST_BYTES);
        assertTrue(host.startsWith(back.host()) && back.host().length() == 170, back.host().length() + " chars");
    }

    @Test
    void tooManyIdsForOneEntryAreRefusedWhenMade() {
        List<String> ids = java.util.Collections.nCopies(ReplicaCommand.MAX_IDS + 1, "x");
        assertThrows(IllegalArgumentException.class, () -> new ReplicaCommand.Sessions(ReplicaCommand.EXPIRE, ids));
    }

    @Test
    void aBatchHoldsItsEntriesInOrderAndOneEntryIsNoBatch() {
        byte[] delete = ReplicaCommand.encode(new ReplicaCommand.Delete("s1"), 1L, 2L, 3L, codec);
        byte[] create = ReplicaCommand.encode(new ReplicaCommand.Create("s2", 0), 4L, 2L, 5L, codec);
        assertArrayEquals(delete, ReplicaCommand.batch(List.of(delete)));
        byte[] batch = ReplicaCommand.batch(List.of(delete, create));
        assertEquals(ReplicaCommand.BATCH_FORMAT, batch[0]);
        assertEquals(ReplicaCommand.BATCH_HEADER_BYTES + 4 + delete.length + 4 + create.length, batch.length);
        List<ReplicaCommand.Entry> entries = ReplicaCommand.decodeAll(ByteBuffer.wrap(batch), codec);
        assertEquals(List.of(new ReplicaCommand.Entry(new ReplicaCommand.Delete("s1"), 1L, 2L, 3L),
                new ReplicaCommand.Entry(new ReplicaCommand.Create("s2", 0), 4L, 2L, 5L)), entries);
        assertEquals(List.of(new ReplicaCommand.Entry(new ReplicaCommand.Delete("s1"), 1L, 2L, 3L)),
                ReplicaCommand.decodeAll(ByteBuffer.wrap(delete), codec));
        assertThrows(IllegalArgumentException.class, () -> ReplicaCommand.batch(List.of()));
    }

    @Test
    void aBatchCutShortOrWithBytesAfterItIsRefused() {
        byte[] delete = ReplicaCommand.encode(new ReplicaCommand.Delete("s1"), 1L, 2L, 3L, codec);
        byte[] batch = ReplicaCommand.batch(List.of(delete, delete));
        byte[] cut = Arrays.copyOf(batch, batch.length - 1);
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decodeAll(ByteBuffer.wrap(cut), codec)).status());
        byte[] longer = Arrays.copyOf(batch, batch.length + 1);
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decodeAll(ByteBuffer.wrap(longer), codec)).status());
        byte[] tooShortEntry = batch.clone();
        tooShortEntry[ReplicaCommand.BATCH_HEADER_BYTES + 3] = 2; // the first entry's length: 2 bytes
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> ReplicaCommand.decodeAll(ByteBuffer.wrap(tooShortEntry), codec)).status());
    }
}
