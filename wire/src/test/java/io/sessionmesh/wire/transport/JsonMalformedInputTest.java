package io.sessionmesh.wire.transport;

import static io.sessionmesh.wire.transport.JsonTransportCodecTest.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class JsonMalformedInputTest {
    private static final Duration HANG = Duration.ofSeconds(10);
    private static final List<Class<? extends TransportMessage>> TYPES =
            List.of(ReadRequest.class, ReadResult.class, WriteRequest.class, WriteResult.class, ErrorMessage.class);
    private final JsonTransportCodec codec = new JsonTransportCodec();

    private MalformedMessageException fails(int status, String json, Class<? extends TransportMessage> type) {
        return fails(codec, status, utf8(json), type);
    }

    private static MalformedMessageException fails(JsonTransportCodec c, int status, byte[] json, Class<? extends TransportMessage> type) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> c.decode(json, type),
                () -> new String(json, StandardCharsets.UTF_8));
        assertEquals(Status.name(status), Status.name(e.status()), e.getMessage());
        return e;
    }

    /** Either a typed error, or a message that survives another round trip. */
    private void decodesOrFailsTyped(byte[] json, Class<? extends TransportMessage> type) {
        TransportMessage m;
        try {
            m = codec.decode(json, type);
        } catch (MalformedMessageException e) {
            assertTrue(e.status() == Status.BAD_REQUEST || e.status() == Status.TOO_LARGE, e.toString());
            return;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("untyped failure on " + new String(json, StandardCharsets.ISO_8859_1), e);
        }
        assertEquals(m, codec.decode(codec.encode(m), type));
    }

    @Test
    void decode_syntaxErrors_badRequest() {
        for (String json : new String[] {"", " ", "{", "}", "[]", "null", "\"x\"", "{\"id\":\"s1\",}", "{\"id\":\"s1\" \"sections\":[]}",
            "{'id':'s1','sections':[]}", "{\"id\":\"s1\",\"sections\":[]}x", "{\"id\":\"s1\",\"sections\":[]}{}",
            "{\"id\":\"s1\",\"sections\":[] /* c */}", "{\"id\":s1,\"sections\":[]}"}) {
            fails(Status.BAD_REQUEST, json, ReadRequest.class);
        }
    }

    @Test
    void decode_truncatedAtEveryLength_badRequest() {
        for (String json : new String[] {JsonTransportCodecTest.READ_RESULT_JSON, JsonTransportCodecTest.WRITE_REQUEST_JSON,
            JsonTransportCodecTest.READ_REQUEST_JSON, JsonTransportCodecTest.ERROR_JSON}) {
            Class<? extends TransportMessage> type = json.contains("error") ? ErrorMessage.class
                    : json.contains("[\"cart\"") ? ReadRequest.class : json.contains("set") ? WriteRequest.class : ReadResult.class;
            byte[] b = utf8(json);
            for (int len = 0; len < b.length; len++) {
                fails(codec, Status.BAD_REQUEST, Arrays.copyOf(b, len), type);
            }
        }
    }

    @Test
    void decode_wrongTypes_badRequestNamingTheField() {
        String[][] cases = {
            {"{\"id\":1,\"sections\":[]}", "id", "ReadRequest"},
            {"{\"id\":\"s1\",\"sections\":{}}", "sections", "ReadRequest"},
            {"{\"id\":\"s1\",\"sections\":[1]}", "sections", "ReadRequest"},
            {"{\"id\":\"s1\",\"sections\":[]}", "sections", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":[]}}", "section", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":\"3\"}}}", "version", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":3.0}}}", "version", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":-1}}}", "version", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":true}}}", "version", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":9223372036854775808}}}", "version", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":1}}}}", "attributes", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":null}}}}", "attributes", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":[]}}}", "attributes", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"ifVersion\":-2}}}", "ifVersion", "WriteRequest"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"remove\":\"k\"}}}", "remove", "WriteRequest"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"set\":[]}}}", "set", "WriteRequest"},
            {"{\"error\":2,\"message\":\"x\"}", "error", "ErrorMessage"},
            {"{\"error\":\"CONFLICT\",\"message\":null}", "message", "ErrorMessage"},
        };
        for (String[] c : cases) {
            MalformedMessageException e = fails(Status.BAD_REQUEST, c[0], typeNamed(c[2]));
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }

    @Test
    void decode_missingFields_badRequest() {
        fails(Status.BAD_REQUEST, "{\"sections\":[]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\"}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{}}}", ReadResult.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{}}}", WriteResult.class);
        fails(Status.BAD_REQUEST, "{\"message\":\"x\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{}", ErrorMessage.class);
    }

    @Test
    void decode_unknownOrDuplicateFields_badRequest() {
        assertTrue(fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"ifversion\":3}}}", WriteRequest.class)
                .getMessage().contains("\"ifversion\""));
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[],\"extra\":1}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"id\":\"s1\",\"sections\":[]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[],\"sections\":[]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"version\":1}}}", ReadResult.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"set\":{},\"set\":{}}}}", WriteRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"ifVersion\":1,\"ifVersion\":null}}}", WriteRequest.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"CONFLICT\",\"error\":\"CONFLICT\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"CONFLICT\",\"id\":\"s1\"}", ErrorMessage.class);
    }

    @Test
    void decode_duplicateNames_badRequest() {
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"a\",\"a\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1},\"a\":{\"version\":2}}}", ReadResult.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"\",\"k\":\"\"}}}}", ReadResult.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"remove\":[\"k\",\"k\"]}}}", WriteRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{},\"a\":{}}}", WriteRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1},\"a\":{\"version\":1}}}", WriteResult.class);
        // A name both set and removed, whichever comes first.
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"set\":{\"k\":\"\"},\"remove\":[\"k\"]}}}", WriteRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"a\":{\"remove\":[\"k\"],\"set\":{\"k\":\"\"}}}}", WriteRequest.class);
    }

    @Test
    void decode_badNamesAndIds_typedErrors() {
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"a\\u0000\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"a\\n\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"\\u0085\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[\"\\uD800\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":{\"\\uDC00x\":{\"version\":1}}}", ReadResult.class);
        fails(Status.TOO_LARGE, "{\"id\":\"s1\",\"sections\":[\"" + "é".repeat(128) + "\"]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"\",\"sections\":[]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"id\":\"a b\",\"sections\":[]}", ReadRequest.class);
        fails(Status.TOO_LARGE, "{\"id\":\"" + "a".repeat(129) + "\",\"sections\":[]}", ReadRequest.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"OK\",\"message\":\"\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"conflict\",\"message\":\"\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"STATUS_2\",\"message\":\"\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"STATUS_256\",\"message\":\"\"}", ErrorMessage.class);
        fails(Status.BAD_REQUEST, "{\"error\":\"CONFLICT\",\"message\":\"\\uD800\"}", ErrorMessage.class);
    }

    @Test
    void decode_badBase64_badRequest() {
        for (String value : new String[] {"A", "AB", "ABC", "AB=", "A===", "====", "Kg=", "K g==", "Kg==Kg==", "Kg\\n==",
            "Kh==", "yv5=", "-_8=", "Kg=A", "é==="}) {
            String json = "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"" + value + "\"}}}}";
            MalformedMessageException e = fails(Status.BAD_REQUEST, json, ReadResult.class);
            assertTrue(e.getMessage().contains("base64"), e.getMessage());
        }
        String ok = "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"e\":\"\",\"k\":\"+/8=\"}}}}";
        ReadResult r = codec.decode(utf8(ok), ReadResult.class);
        assertEquals(0, r.sections().get(0).attributes().get("e").length);
        assertEquals(List.of((byte) 0xFB, (byte) 0xFF), List.of(r.sections().get(0).attributes().get("k")[0],
                r.sections().get(0).attributes().get("k")[1]));
    }

    @Test
    void decode_invalidUtf8OrOtherEncodings_badRequestWithOffset() {
        byte[] valid = utf8(JsonTransportCodecTest.READ_REQUEST_JSON);
        byte[][] bad = {
            {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xC3},
        };
        for (byte[] seq : bad) {
            byte[] b = Arrays.copyOf(valid, valid.length + seq.length);
            int at = valid.length - 3; // inside the last name
            System.arraycopy(valid, at, b, at + seq.length, 3);
            System.arraycopy(seq, 0, b, at, seq.length);
            MalformedMessageException e = fails(codec, Status.BAD_REQUEST, b, ReadRequest.class);
            assertTrue(e.getMessage().contains("at byte " + at), e.getMessage());
        }
        fails(codec, Status.BAD_REQUEST, JsonTransportCodecTest.READ_REQUEST_JSON.getBytes(StandardCharsets.UTF_16BE), ReadRequest.class);
        fails(codec, Status.BAD_REQUEST, JsonTransportCodecTest.READ_REQUEST_JSON.getBytes(StandardCharsets.UTF_16LE), ReadRequest.class);
        fails(codec, Status.BAD_REQUEST, JsonTransportCodecTest.READ_REQUEST_JSON.getBytes(StandardCharsets.UTF_16), ReadRequest.class);
    }

    @Test
    void decode_overLimits_tooLarge() {
        TransportLimits small = TransportLimits.builder().maxAttributeValueBytes(3).maxAttributesPerSection(2)
                .maxSectionsPerMessage(2).maxNameBytes(4).maxSessionIdBytes(4).maxErrorMessageBytes(5).maxMessageBytes(400).build();
        JsonTransportCodec strict = new JsonTransportCodec(small);
        String[][] cases = {
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"AAAAAA==\"}}}}", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"\",\"l\":\"\",\"m\":\"\"}}}}", "ReadResult"},
            {"{\"id\":\"s1\",\"sections\":[\"a\",\"b\",\"c\"]}", "ReadRequest"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{},\"b\":{},\"c\":{}}}", "WriteRequest"},
            {"{\"id\":\"s1\",\"sections\":{\"a\":{\"remove\":[\"x\",\"y\",\"z\"]}}}", "WriteRequest"},
            {"{\"id\":\"s1\",\"sections\":[\"abcde\"]}", "ReadRequest"},
            {"{\"id\":\"s1234\",\"sections\":[]}", "ReadRequest"},
            {"{\"error\":\"CONFLICT\",\"message\":\"sixsix\"}", "ErrorMessage"},
            {"{\"id\":\"s1\",\"sections\":[" + "\"a\",".repeat(100) + "\"b\"]}", "ReadRequest"},
        };
        for (String[] c : cases) {
            MalformedMessageException e = fails(strict, Status.TOO_LARGE, utf8(c[0]), typeNamed(c[1]));
            assertTrue(e.getMessage().contains("limit") || e.getMessage().contains("exceeds"), e.getMessage());
        }
    }

    @Test
    void decode_jacksonConstraints_tooLarge() {
        // Number length and a string far beyond any value: bounded by StreamReadConstraints.
        fails(Status.TOO_LARGE, "{\"id\":\"s1\",\"sections\":{\"a\":{\"version\":" + "1".repeat(100) + "}}}", ReadResult.class);
        JsonTransportCodec small = new JsonTransportCodec(TransportLimits.builder().maxAttributeValueBytes(30).build());
        fails(small, Status.TOO_LARGE, utf8("{\"id\":\"" + "x".repeat(5000) + "\",\"sections\":[]}"), ReadRequest.class);
    }

    @Test
    void decode_messageOverTheLimit_tooLargeBeforeParsing() {
        JsonTransportCodec small = new JsonTransportCodec(TransportLimits.builder().maxMessageBytes(256).build());
        byte[] big = new byte[257];
        Arrays.fill(big, (byte) 0xFF); // not even JSON: the size is checked first
        fails(small, Status.TOO_LARGE, big, ReadRequest.class);
    }

    @Test
    void decode_everySingleByteCorruption_typedErrorOrValidMessage() {
        assertTimeoutPreemptively(HANG, () -> {
            for (Class<? extends TransportMessage> type : TYPES) {
                TransportMessage sample = TransportFixtures.samples().get(TYPES.indexOf(type));
                byte[] valid = codec.encode(sample.type() == MessageTypes.READ_RESULT ? BinaryTransportCodecTest.exampleReadResult() : sample);
                for (int i = 0; i < valid.length; i++) {
                    for (int v : new int[] {0, 0x01, '"', '\\', '{', '}', '[', ']', ',', ':', '0', '9', '-', 'a', '=', ' ', 0x7F, 0x80, 0xC3, 0xFF}) {
                        byte[] b = valid.clone();
                        b[i] = (byte) v;
                        decodesOrFailsTyped(b, type);
                    }
                }
            }
        });
    }

    @Test
    void decode_randomGarbage_onlyTypedErrors() {
        Random r = new Random(7);
        String alphabet = "{}[]\",:0123456789-.eE truefalsnul\\/uidsectionsversionattributessetremoveifVersionerrormessage=+AZaz";
        assertTimeoutPreemptively(HANG, () -> {
            for (int i = 0; i < 20_000; i++) {
                byte[] b;
                if (i % 2 == 0) {
                    b = new byte[r.nextInt(48)];
                    r.nextBytes(b);
                } else {
                    StringBuilder sb = new StringBuilder("{");
                    for (int n = r.nextInt(60); n > 0; n--) {
                        sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
                    }
                    b = utf8(sb.toString());
                }
                decodesOrFailsTyped(b, TYPES.get(r.nextInt(TYPES.size())));
            }
        });
    }

    private static Class<? extends TransportMessage> typeNamed(String simpleName) {
        for (Class<? extends TransportMessage> t : TYPES) {
            if (t.getSimpleName().equals(simpleName)) {
                return t;
            }
        }
        throw new IllegalArgumentException(simpleName);
    }
}
