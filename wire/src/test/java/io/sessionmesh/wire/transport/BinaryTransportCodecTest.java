package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.TransportFixtures.assertSameMessage;
import static io.sessionmesh.wire.transport.TransportFixtures.attrs;
import static io.sessionmesh.wire.transport.TransportFixtures.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class BinaryTransportCodecTest {
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    /** The worked example of PROTOCOL.md, byte for byte. */
    static final String READ_REQUEST_HEX = "534d544d 01 01 00 0000000e 02 7331 02 04 63617274 04 75736572";
    static final String READ_RESULT_HEX = "534d544d 01 02 00 00000016 02 7331 01 04 63617274 07 02 01 6e 01 2a 03 736b75 02 cafe";
    static final String WRITE_REQUEST_HEX = "534d544d 01 03 00 00000014 02 7331 01 04 63617274 08 01 01 6e 01 2b 01 03 736b75";
    static final String WRITE_RESULT_HEX = "534d544d 01 04 00 0000000a 02 7331 01 04 63617274 08";
    static final String ERROR_HEX = "534d544d 01 05 00 0000000e 02 0c 6361727420697320617420 38";

    static ReadRequest exampleReadRequest() {
        return new ReadRequest("s1", List.of("cart", "user"));
    }

    static ReadResult exampleReadResult() {
        return new ReadResult("s1", List.of(new SectionData("cart", 7, attrs("n", bytes(0x2A), "sku", bytes(0xCA, 0xFE)))));
    }

    static WriteRequest exampleWriteRequest() {
        return new WriteRequest("s1", List.of(new SectionDelta("cart", 7, attrs("n", bytes(0x2B)), List.of("sku"))));
    }

    static WriteResult exampleWriteResult() {
        return new WriteResult("s1", Map.of("cart", 8L));
    }

    static ErrorMessage exampleError() {
        return new ErrorMessage(Status.CONFLICT, "cart is at 8");
    }

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    @Test
    void encode_protocolExamples_matchTheDocumentedBytes() {
        assertArrayEquals(hex(READ_REQUEST_HEX), codec.encode(exampleReadRequest()));
        assertArrayEquals(hex(READ_RESULT_HEX), codec.encode(exampleReadResult()));
        assertArrayEquals(hex(WRITE_REQUEST_HEX), codec.encode(exampleWriteRequest()));
        assertArrayEquals(hex(WRITE_RESULT_HEX), codec.encode(exampleWriteResult()));
        assertArrayEquals(hex(ERROR_HEX), codec.encode(exampleError()));
    }

    @Test
    void decode_protocolExamples_giveTheDocumentedMessages() {
        assertEquals(exampleReadRequest(), codec.decode(hex(READ_REQUEST_HEX)));
        assertEquals(exampleReadResult(), codec.decode(hex(READ_RESULT_HEX)));
        assertEquals(exampleWriteRequest(), codec.decode(hex(WRITE_REQUEST_HEX)));
        assertEquals(exampleWriteResult(), codec.decode(hex(WRITE_RESULT_HEX)));
        assertEquals(exampleError(), codec.decode(hex(ERROR_HEX)));
    }

    @Test
    void roundTrip_everyMessageType_equalAndInOrder() {
        for (TransportMessage m : TransportFixtures.samples()) {
            byte[] b = codec.encode(m);
            assertEquals(codec.encodedSize(m), b.length, m.toString());
            assertSameMessage(m, codec.decode(b));
            assertArrayEquals(b, codec.encode(codec.decode(b)), "one encoding per message");
        }
    }

    @Test
    void roundTrip_extremeValues_kept() {
        String longName = "ж".repeat(127) + "x"; // 255 bytes of UTF-8
        Map<String, byte[]> a = new LinkedHashMap<>();
        a.put(longName, new byte[0]);
        a.put("\uD83D\uDE00", TransportFixtures.filled(TransportLimits.DEFAULT_MAX_ATTRIBUTE_VALUE_BYTES, 3));
        TransportMessage m = new ReadResult("-".repeat(128), List.of(new SectionData(longName, Long.MAX_VALUE, a)));
        assertSameMessage(m, codec.decode(codec.encode(m)));
        TransportMessage w = new WriteRequest("_", List.of(new SectionDelta("s", Long.MAX_VALUE, Map.of(), List.of()),
                new SectionDelta("t", 0, Map.of(), List.of())));
        assertSameMessage(w, codec.decode(codec.encode(w)));
        TransportMessage e = new ErrorMessage(Status.MAX_CODE, "€".repeat(1365));
        assertSameMessage(e, codec.decode(codec.encode(e)));
    }

    @Test
    void decode_withOffsetAndLength_readsOnlyThatSlice() {
        byte[] m = codec.encode(exampleReadResult());
        byte[] padded = new byte[m.length + 10];
        System.arraycopy(m, 0, padded, 7, m.length);
        assertEquals(exampleReadResult(), codec.decode(padded, 7, m.length));
        assertThrows(IndexOutOfBoundsException.class, () -> codec.decode(padded, 7, padded.length));
    }

    @Test
    void decode_expectedClass_checksTheTypeByte() {
        byte[] b = codec.encode(exampleWriteRequest());
        assertEquals(exampleWriteRequest(), codec.decode(b, WriteRequest.class));
        assertEquals(exampleWriteRequest(), codec.decode(b, TransportMessage.class));
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> codec.decode(b, ReadResult.class));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().contains("WRITE_REQUEST") && e.getMessage().contains("expected READ_RESULT"), e.getMessage());
    }

    @Test
    void encode_intoHeapAndDirectBuffers_writesAtPositionAndAdvances() {
        for (ByteBuffer buf : List.of(ByteBuffer.allocate(100), ByteBuffer.allocateDirect(100),
                ByteBuffer.wrap(new byte[120], 10, 100).slice())) {
            buf.position(3);
            int n = codec.encode(exampleWriteResult(), buf);
            assertEquals(hex(WRITE_RESULT_HEX).length, n);
            assertEquals(3 + n, buf.position());
            buf.flip().position(3);
            assertEquals(exampleWriteResult(), codec.decode(buf));
            assertEquals(buf.limit(), buf.position());
        }
    }

    @Test
    void encode_bufferTooSmall_overflowsWithoutWriting() {
        ByteBuffer buf = ByteBuffer.allocate(10);
        assertThrows(BufferOverflowException.class, () -> codec.encode(exampleWriteResult(), buf));
        assertEquals(0, buf.position());
    }

    @Test
    void decode_directBufferAndTypedBuffer_decodeWholeRemainder() {
        byte[] b = codec.encode(exampleReadRequest());
        ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b).flip();
        assertEquals(exampleReadRequest(), codec.decode(direct, ReadRequest.class));
        assertEquals(b.length, direct.position());
    }

    @Test
    void decode_failure_leavesBufferPosition() {
        byte[] b = codec.encode(exampleReadRequest());
        ByteBuffer buf = ByteBuffer.wrap(b, 0, b.length - 1);
        assertThrows(MalformedMessageException.class, () -> codec.decode(buf));
        assertEquals(0, buf.position());
    }

    @Test
    void encode_ontoStream_writesTheSameBytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.encode(exampleError(), out);
        assertArrayEquals(hex(ERROR_HEX), out.toByteArray());
    }

    @Test
    void frameLength_streamOfMessages_splitsThem() {
        byte[] a = codec.encode(exampleReadResult());
        byte[] b = codec.encode(exampleError());
        ByteBuffer stream = ByteBuffer.allocate(a.length + b.length).put(a).put(b).flip();
        assertEquals(a.length, codec.frameLength(stream));
        assertEquals(0, stream.position(), "frameLength does not move the buffer");
        stream.position(a.length);
        assertEquals(b.length, codec.frameLength(stream));
        assertEquals(-1, codec.frameLength(ByteBuffer.wrap(a, 0, BinaryTransportCodec.HEADER_BYTES - 1)));
    }

    @Test
    void frameLength_badHeader_throwsTyped() {
        byte[] a = codec.encode(exampleReadResult());
        a[0] = 'X';
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> codec.frameLength(ByteBuffer.wrap(a))).status());
    }

    @Test
    void encode_overLimits_tooLargeNamingTheLimit() {
        TransportLimits small = TransportLimits.builder().maxAttributeValueBytes(10).maxAttributesPerSection(2)
                .maxSectionsPerMessage(1).maxNameBytes(5).maxSessionIdBytes(4).maxErrorMessageBytes(3)
                .maxMessageBytes(TransportLimits.MIN_MESSAGE_BYTES).build();
        BinaryTransportCodec c = new BinaryTransportCodec(small);
        List<TransportMessage> over = List.of(
                new ReadResult("s", List.of(new SectionData("a", 1, attrs("k", new byte[11])))),
                new ReadResult("s", List.of(new SectionData("a", 1, attrs("k", bytes(), "l", bytes(), "m", bytes())))),
                new ReadRequest("s", List.of("a", "b")),
                new ReadRequest("s", List.of("abcdef")),
                new ReadRequest("abcde", List.of()),
                new ErrorMessage(Status.INTERNAL, "four"),
                new WriteRequest("s", List.of(new SectionDelta("a", Map.of(), List.of("a", "b", "c")))),
                new WriteResult("s", Map.of("a", 1L, "b", 2L)));
        for (TransportMessage m : over) {
            MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> c.encode(m), m.toString());
            assertEquals(Status.TOO_LARGE, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("limit"), e.getMessage());
        }
        Map<String, byte[]> many = new LinkedHashMap<>();
        BinaryTransportCodec bigValues = new BinaryTransportCodec(TransportLimits.builder()
                .maxMessageBytes(1000).maxAttributeValueBytes(600).build());
        many.put("a", new byte[600]);
        many.put("b", new byte[600]);
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> bigValues.encode(new ReadResult("s", List.of(new SectionData("x", 0, many)))));
        assertEquals(Status.TOO_LARGE, e.status());
        assertTrue(e.getMessage().contains("above the limit of 1000"), e.getMessage());
    }

    @Test
    void encode_fiveKilobyteSection_atMost80PercentOfJson() {
        ReadResult m = TransportFixtures.fiveKilobyteAttributes();
        int binary = codec.encode(m).length;
        int json = new JsonTransportCodec().encode(m).length;
        assertTrue(binary <= 0.8 * json, "binary " + binary + " B, JSON " + json + " B");
    }
}
