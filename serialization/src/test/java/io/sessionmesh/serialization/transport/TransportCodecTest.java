package io.sessionmesh.serialization.transport;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportCodecTest {
    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    private Object jsonRoundTrip(Object message) {
        byte[] encoded = json.encode(message);
        if (message instanceof ReadRequest) {
            return json.decodeReadRequest(encoded);
        } else if (message instanceof ReadResult) {
            return json.decodeReadResult(encoded);
        } else if (message instanceof WriteRequest) {
            return json.decodeWriteRequest(encoded);
        } else if (message instanceof WriteResult) {
            return json.decodeWriteResult(encoded);
        }
        return json.decodeError(encoded);
    }

    static final ReadResult SAMPLE_READ = new ReadResult("s1", List.of(
            new SectionData("clientInfo", 3, Map.of("name", bytes(0, 1, 2))), SectionData.empty("offers")));
    static final WriteRequest SAMPLE_WRITE = new WriteRequest("s1", List.of(
            new SectionDelta("clientInfo", 3, Map.of("k", bytes(9)), List.of("old")),
            SectionDelta.of("limits", Map.of(), List.of("x"))));

    @Test
    void roundTrip_everyMessageType_bothForms() {
        List<Object> messages = List.of(new ReadRequest("s1", List.of("a", "b")), SAMPLE_READ, SAMPLE_WRITE,
                new WriteResult("s1", Map.of("clientInfo", 4L)), new ErrorMessage(Status.CONFLICT, "section a is at 5"));
        for (Object message : messages) {
            assertEquals(message, binary.decode(binary.encode(message)));
            assertEquals(message, jsonRoundTrip(message));
        }
    }

    @Test
    void roundTrip_thousandsOfRandomMessages_bothForms() {
        RandomMessages random = new RandomMessages(20261122L);
        for (int i = 0; i < 3000; i++) {
            Object message = random.any();
            assertEquals(message, binary.decode(binary.encode(message)), "binary " + message);
            assertEquals(message, jsonRoundTrip(message), "json " + message);
        }
    }

    @Test
    void json_shapes_areTheDocumentedOnes() {
        String read = new String(json.encode(SAMPLE_READ), StandardCharsets.UTF_8);
        assertEquals("{\"id\":\"s1\",\"sections\":{\"clientInfo\":{\"version\":3,\"attributes\":{\"name\":\"AAEC\"}},"
                + "\"offers\":{\"version\":0,\"attributes\":{}}}}", read);
        String write = new String(json.encode(SAMPLE_WRITE), StandardCharsets.UTF_8);
        assertEquals("{\"id\":\"s1\",\"sections\":{\"clientInfo\":{\"ifVersion\":3,\"set\":{\"k\":\"CQ==\"},\"remove\":[\"old\"]},"
                + "\"limits\":{\"set\":{},\"remove\":[\"x\"]}}}", write);
        assertEquals("{\"error\":\"CONFLICT\",\"message\":\"m\"}",
                new String(json.encode(new ErrorMessage(Status.CONFLICT, "m")), StandardCharsets.UTF_8));
    }

    @Test
    void json_writeRequestWithoutId_takesTheIdOfTheUrl_andAConflictingIdIsRefused() {
        byte[] body = "{\"sections\":{\"a\":{\"set\":{\"k\":\"AQ==\"}}}}".getBytes(StandardCharsets.UTF_8);
        WriteRequest request = json.decodeWriteRequest(body, "fromUrl");
        assertEquals("fromUrl", request.sessionId());
        assertArrayEquals(bytes(1), request.deltas().get(0).set().get("k"));
        byte[] other = "{\"id\":\"other\",\"sections\":{}}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                () -> json.decodeWriteRequest(other, "fromUrl")).status());
        assertThrows(MalformedMessageException.class, () -> json.decodeWriteRequest(body));
    }

    @Test
    void binary_isSmallerThanJson_forByteValues() {
        byte[] kb = new byte[1024];
        new Random(1).nextBytes(kb);
        ReadResult five = new ReadResult("s1", List.of(new SectionData("blobs", 1,
                Map.of("a", kb, "b", kb, "c", kb, "d", kb, "e", kb))));
        int b = binary.encode(five).length;
        int j = json.encode(five).length;
        assertTrue(b <= 0.8 * j, "binary " + b + " B, JSON " + j + " B");
    }

    @Test
    void binary_truncatedAtEveryLength_failsTyped() {
        for (Object message : List.of(SAMPLE_READ, SAMPLE_WRITE, new ReadRequest("s", List.of("a")))) {
            byte[] full = binary.encode(message);
            for (int len = 0; len < full.length; len++) {
                int n = len;
                MalformedMessageException e = assertThrows(MalformedMessageException.class,
                        () -> binary.decode(full, 0, n), "prefix " + n);
                assertEquals(Status.BAD_REQUEST, e.status());
            }
        }
    }

    @Test
    void binary_everySingleByteCorruption_isATypedErrorOrAValidMessage() {
        for (Object message : List.of(SAMPLE_READ, SAMPLE_WRITE, new WriteResult("s1", Map.of("a", 300L)))) {
            byte[] full = binary.encode(message);
            for (int i = 0; i < full.length; i++) {
                for (int delta : new int[] {1, 0x7f, 0x80, 0xff}) {
                    byte[] mutated = full.clone();
                    mutated[i] = (byte) (mutated[i] + delta);
                    try {
                        binary.decode(mutated);
                    } catch (MalformedMessageException expected) {
                        assertTrue(expected.status() >= Status.TOO_LARGE, expected.toString());
                    }
                }
            }
        }
    }

    @Test
    void binary_hugeDeclaredLengths_failFastWithoutAllocating() {
        // A value declaring 2 GiB inside a 30-byte message.
        byte[] message = binary.encode(new ReadResult("s", List.of(new SectionData("a", 1, Map.of("k", bytes(1))))));
        int valueLength = message.length - 2;
        byte[] huge = new byte[message.length + 4];
        System.arraycopy(message, 0, huge, 0, valueLength);
        huge[valueLength] = (byte) 0xff;
        huge[valueLength + 1] = (byte) 0xff;
        huge[valueLength + 2] = (byte) 0xff;
        huge[valueLength + 3] = (byte) 0xff;
        huge[valueLength + 4] = 0x07;
        huge[7] = (byte) (huge.length - BinaryTransportCodec.HEADER_BYTES);
        MalformedMessageException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(MalformedMessageException.class, () -> binary.decode(huge)));
        assertEquals(Status.TOO_LARGE, e.status(), e.getMessage());
        // A section count of a billion in a few bytes.
        byte[] counts = binary.encode(new ReadRequest("s", List.of()));
        byte[] many = new byte[counts.length + 4];
        System.arraycopy(counts, 0, many, 0, counts.length - 1);
        many[counts.length - 1] = (byte) 0x80;
        many[counts.length] = (byte) 0x80;
        many[counts.length + 1] = (byte) 0x80;
        many[counts.length + 2] = (byte) 0x80;
        many[counts.length + 3] = 0x04;
        many[7] = (byte) (many.length - BinaryTransportCodec.HEADER_BYTES);
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> binary.decode(many)).status());
        // A body length of 4 GiB - 1.
        byte[] body = binary.encode(new ReadRequest("s", List.of()));
        body[4] = body[5] = body[6] = body[7] = (byte) 0xff;
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> binary.decode(body)).status());
    }

    @Test
    void binary_wrongMagicVersionOrType_failWithTheirStatus() {
        byte[] good = binary.encode(SAMPLE_READ);
        byte[] magic = good.clone();
        magic[0] = 'X';
        assertTrue(assertThrows(MalformedMessageException.class, () -> binary.decode(magic)).getMessage().contains("magic"));
        byte[] version = good.clone();
        version[2] = 2;
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> binary.decode(version)).status());
        byte[] type = good.clone();
        type[3] = 99;
        assertTrue(assertThrows(MalformedMessageException.class, () -> binary.decode(type)).getMessage().contains("type"));
        byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
        assertThrows(MalformedMessageException.class, () -> binary.decode(trailing));
    }

    @Test
    void binary_overConfiguredLimits_tooLarge() {
        BinaryTransportCodec strict = new BinaryTransportCodec(TransportLimits.builder().maxValueBytes(10).maxAttributes(2)
                .maxSections(1).build());
        byte[] bigValue = binary.encode(new ReadResult("s", List.of(new SectionData("a", 1, Map.of("k", new byte[11])))));
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> strict.decode(bigValue)).status());
        byte[] twoSections = binary.encode(new ReadRequest("s", List.of("a", "b")));
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> strict.decode(twoSections)).status());
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class,
                () -> new BinaryTransportCodec(TransportLimits.builder().maxMessageBytes(20).build()).encode(SAMPLE_READ)).status());
    }

    @Test
    void binary_randomGarbage_onlyTypedErrors() {
        Random random = new Random(7);
        byte[] header = binary.encode(SAMPLE_WRITE);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int i = 0; i < 20_000; i++) {
                byte[] garbage = new byte[random.nextInt(100)];
                random.nextBytes(garbage);
                if (i % 2 == 0 && garbage.length >= BinaryTransportCodec.HEADER_BYTES) {
                    System.arraycopy(header, 0, garbage, 0, 4); // valid magic, version and type: reach the body
                    int body = garbage.length - BinaryTransportCodec.HEADER_BYTES;
                    garbage[4] = 0;
                    garbage[5] = 0;
                    garbage[6] = (byte) (body >>> 8);
                    garbage[7] = (byte) body;
                }
                try {
                    binary.decode(garbage);
                } catch (MalformedMessageException expected) {
                    // the only acceptable failure
                }
            }
        });
    }

    @Test
    void binary_invalidUtf8AndBadNames_areBadRequests() {
        byte[] good = binary.encode(new ReadRequest("s", List.of("ab")));
        byte[] utf8 = good.clone();
        utf8[utf8.length - 1] = (byte) 0xc3; // a lone lead byte
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class, () -> binary.decode(utf8)).status());
        byte[] control = good.clone();
        control[control.length - 1] = 0x01;
        assertTrue(assertThrows(MalformedMessageException.class, () -> binary.decode(control)).getMessage().contains("control"));
        byte[] id = good.clone();
        id[9] = '/';
        assertTrue(assertThrows(MalformedMessageException.class, () -> binary.decode(id)).getMessage().contains("session id"));
    }

    @Test
    void json_malformedInputs_areTypedWithTheRightStatus() {
        String[] bad = {"", "nope", "[]", "{", "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"@@@\"}}}}",
            "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":\"1\"}}}", "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":-1}}}",
            "{\"id\":\"s\",\"sections\":{\"a\":{}}}", "{\"id\":\"s\",\"sections\":{},\"extra\":1}", "{\"id\":\"bad id\",\"sections\":{}}",
            "{\"sections\":{}}", "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":1}}} trailing",
            "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":99999999999999999999999}}}",
            "{\"id\":\"s\",\"sections\":{\"a\":{\"version\":1,\"attributes\":{\"k\":\"AQ==\",\"k\":\"AQ==\"}}}}"};
        for (String input : bad) {
            MalformedMessageException e = assertThrows(MalformedMessageException.class,
                    () -> json.decodeReadResult(input.getBytes(StandardCharsets.UTF_8)), input);
            assertEquals(Status.BAD_REQUEST, e.status(), input + " -> " + e.getMessage());
        }
        String[] badWrites = {"{\"id\":\"s\",\"sections\":{\"a\":{\"ifversion\":1}}}",
            "{\"id\":\"s\",\"sections\":{\"a\":{\"set\":{\"k\":\"AQ==\"},\"remove\":[\"k\"]}}}",
            "{\"id\":\"s\",\"sections\":{\"a\":{\"remove\":[1]}}}"};
        for (String input : badWrites) {
            assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class,
                    () -> json.decodeWriteRequest(input.getBytes(StandardCharsets.UTF_8)), input).status());
        }
    }

    @Test
    void json_valueOverTheLimit_isTooLarge() {
        JsonTransportCodec strict = new JsonTransportCodec(TransportLimits.builder().maxValueBytes(16).build());
        String value = Base64.getEncoder().encodeToString(new byte[64]);
        byte[] body = ("{\"id\":\"s\",\"sections\":{\"a\":{\"set\":{\"k\":\"" + value + "\"}}}}").getBytes(StandardCharsets.UTF_8);
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> strict.decodeWriteRequest(body)).status());
    }

    @Test
    void json_randomGarbageAndMutations_onlyTypedErrors() {
        Random random = new Random(11);
        byte[] valid = json.encode(SAMPLE_READ);
        for (int i = 0; i < 10_000; i++) {
            byte[] input;
            if (i % 2 == 0) {
                input = valid.clone();
                input[random.nextInt(input.length)] = (byte) (32 + random.nextInt(95));
            } else {
                input = new byte[random.nextInt(60)];
                random.nextBytes(input);
            }
            try {
                json.decodeReadResult(input);
            } catch (MalformedMessageException expected) {
                // the only acceptable failure
            }
        }
    }

    @Test
    void model_invalidValues_areRefusedNamingThem() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> new SectionDelta("a", SectionDelta.NO_VERSION, Map.of("k", bytes(1)), List.of("k")));
        assertTrue(e.getMessage().contains("\"k\""), e.getMessage());
        assertThrows(MalformedMessageException.class, () -> new SectionData("", 1, Map.of()));
        assertThrows(MalformedMessageException.class, () -> new SectionData("x".repeat(256), 1, Map.of()));
        assertThrows(MalformedMessageException.class, () -> new ReadRequest("s", List.of("a", "a")));
        assertThrows(MalformedMessageException.class, () -> new ReadRequest("x".repeat(129), List.of()));
        assertThrows(MalformedMessageException.class, () -> new WriteRequest("s", List.of(
                SectionDelta.of("a", Map.of(), List.of()), SectionDelta.of("a", Map.of(), List.of()))));
        assertEquals("é".repeat(127), new SectionData("é".repeat(127), 0, Map.of()).name());
        assertThrows(MalformedMessageException.class, () -> new SectionData("é".repeat(128), 0, Map.of()));
    }
}
