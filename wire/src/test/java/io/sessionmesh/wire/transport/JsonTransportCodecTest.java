package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.TransportFixtures.assertSameMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JsonTransportCodecTest {
    private final JsonTransportCodec codec = new JsonTransportCodec();

    /** The JSON shapes of PROTOCOL.md, for the messages of its worked example. */
    static final String READ_REQUEST_JSON = "{\"id\":\"s1\",\"sections\":[\"cart\",\"user\"]}";
    static final String READ_RESULT_JSON = "{\"id\":\"s1\",\"sections\":{\"cart\":{\"version\":7,\"attributes\":{\"n\":\"Kg==\",\"sku\":\"yv4=\"}}}}";
    static final String WRITE_REQUEST_JSON = "{\"id\":\"s1\",\"sections\":{\"cart\":{\"ifVersion\":7,\"set\":{\"n\":\"Kw==\"},\"remove\":[\"sku\"]}}}";
    static final String WRITE_RESULT_JSON = "{\"id\":\"s1\",\"sections\":{\"cart\":{\"version\":8}}}";
    static final String ERROR_JSON = "{\"error\":\"CONFLICT\",\"message\":\"cart is at 8\"}";

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String json(TransportMessage m) {
        return new String(codec.encode(m), StandardCharsets.UTF_8);
    }

    @Test
    void encode_protocolExamples_haveTheDocumentedShapes() {
        assertEquals(READ_REQUEST_JSON, json(BinaryTransportCodecTest.exampleReadRequest()));
        assertEquals(READ_RESULT_JSON, json(BinaryTransportCodecTest.exampleReadResult()));
        assertEquals(WRITE_REQUEST_JSON, json(BinaryTransportCodecTest.exampleWriteRequest()));
        assertEquals(WRITE_RESULT_JSON, json(BinaryTransportCodecTest.exampleWriteResult()));
        assertEquals(ERROR_JSON, json(BinaryTransportCodecTest.exampleError()));
    }

    @Test
    void encode_unconditionalDelta_leavesIfVersionOut() {
        WriteRequest w = new WriteRequest("s1", List.of(new SectionDelta("a", Map.of(), List.of("k"))));
        assertEquals("{\"id\":\"s1\",\"sections\":{\"a\":{\"set\":{},\"remove\":[\"k\"]}}}", json(w));
    }

    @Test
    void roundTrip_everyMessageType_equalAndInOrder() {
        for (TransportMessage m : TransportFixtures.samples()) {
            assertSameMessage(m, codec.decode(codec.encode(m), m.getClass()));
        }
    }

    @Test
    void encode_ontoStream_writesTheSameBytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        codec.encode(BinaryTransportCodecTest.exampleError(), out);
        assertArrayEquals(utf8(ERROR_JSON), out.toByteArray());
    }

    @Test
    void decode_fieldsInAnyOrderWithWhitespace_sameMessage() {
        String pretty = "\uFEFF{ \"sections\" : {\r\n \"cart\" : {\t\"remove\":[\"sku\"], \"set\":{\"n\":\"Kw==\"}, \"ifVersion\":7 } },\n"
                + " \"id\" : \"s1\" }\n";
        assertEquals(BinaryTransportCodecTest.exampleWriteRequest(), codec.decode(utf8(pretty), WriteRequest.class));
        assertEquals(BinaryTransportCodecTest.exampleError(),
                codec.decode(utf8("{\"message\":\"cart is at 8\",\"error\":\"CONFLICT\"}"), ErrorMessage.class));
    }

    @Test
    void decode_optionalFieldsLeftOut_defaults() {
        WriteRequest w = codec.decode(utf8("{\"id\":\"s1\",\"sections\":{\"a\":{},\"b\":{\"ifVersion\":null}}}"), WriteRequest.class);
        assertEquals(new WriteRequest("s1", List.of(new SectionDelta("a", Map.of(), List.of()),
                new SectionDelta("b", Map.of(), List.of()))), w);
        ReadResult r = codec.decode(utf8("{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":0}}}"), ReadResult.class);
        assertEquals(new ReadResult("s1", List.of(new SectionData("a", 0, Map.of()))), r);
        ErrorMessage e = codec.decode(utf8("{\"error\":\"TIMEOUT\"}"), ErrorMessage.class);
        assertEquals(new ErrorMessage(Status.TIMEOUT, ""), e);
    }

    @Test
    void decode_bodyWithoutId_takesTheIdOfTheUrl() {
        byte[] body = utf8("{\"sections\":{\"cart\":{\"ifVersion\":7,\"set\":{\"n\":\"Kw==\"},\"remove\":[\"sku\"]}}}");
        assertEquals(BinaryTransportCodecTest.exampleWriteRequest(), codec.decode(body, WriteRequest.class, "s1"));
        assertEquals(BinaryTransportCodecTest.exampleWriteRequest(), codec.decode(utf8(WRITE_REQUEST_JSON), WriteRequest.class, "s1"));
    }

    @Test
    void decode_bodyNamingAnotherSessionThanTheUrl_badRequestWithoutEitherId() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> codec.decode(utf8(WRITE_REQUEST_JSON), WriteRequest.class, "otherSession"));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(!e.getMessage().contains("otherSession") && !e.getMessage().contains("\"s1\""), e.getMessage());
    }

    @Test
    void decode_badUrlSessionId_badRequest() {
        for (String id : new String[] {"", "a/b", "x".repeat(129)}) {
            MalformedMessageException e = assertThrows(MalformedMessageException.class,
                    () -> codec.decode(utf8(WRITE_RESULT_JSON), WriteResult.class, id));
            assertEquals(Status.BAD_REQUEST, e.status(), e.getMessage());
        }
    }

    @Test
    void decode_escapedAndUnicodeNames_decoded() {
        ReadRequest r = codec.decode(utf8("{\"id\":\"s1\",\"sections\":[\"caf\\u00e9\",\"😀\",\"\\uD83D\\uDE00x\",\"a\\\"b\"]}"),
                ReadRequest.class);
        assertEquals(List.of("café", "😀", "😀x", "a\"b"), r.sectionNames());
    }

    @Test
    void decode_unknownStatusCodeName_keptAsNumber() {
        ErrorMessage e = codec.decode(utf8("{\"error\":\"STATUS_200\",\"message\":\"from a newer peer\"}"), ErrorMessage.class);
        assertEquals(200, e.status());
        assertEquals("{\"error\":\"STATUS_200\",\"message\":\"from a newer peer\"}", json(e));
    }

    @Test
    void decode_abstractType_illegalArgument() {
        assertThrows(IllegalArgumentException.class, () -> codec.decode(utf8(ERROR_JSON), TransportMessage.class));
    }

    @Test
    void encode_overLimits_tooLarge() {
        JsonTransportCodec small = new JsonTransportCodec(TransportLimits.builder().maxAttributeValueBytes(3).build());
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> small.encode(new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", new byte[4]))))));
        assertEquals(Status.TOO_LARGE, e.status());
        // The binary form fits, the base64 one does not.
        JsonTransportCodec tight = new JsonTransportCodec(TransportLimits.builder().maxMessageBytes(300).build());
        ReadResult r = new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", new byte[250]))));
        new BinaryTransportCodec(tight.limits()).encode(r);
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> tight.encode(r)).status());
    }

    @Test
    void roundTrip_largestValue_kept() {
        byte[] v = TransportFixtures.filled(TransportLimits.DEFAULT_MAX_ATTRIBUTE_VALUE_BYTES, 9);
        ReadResult r = new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", v))));
        assertEquals(r, codec.decode(codec.encode(r), ReadResult.class));
    }
}
