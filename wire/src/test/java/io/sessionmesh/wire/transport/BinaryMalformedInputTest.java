package io.sessionmesh.wire.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class BinaryMalformedInputTest {
    private static final Duration HANG = Duration.ofSeconds(10);
    private final BinaryTransportCodec codec = new BinaryTransportCodec();

    /** A body written field by field, for inputs the encoder would never produce. */
    static final class Body {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Body varint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) (v | 0x80) & 0xFF);
                v >>>= 7;
            }
            out.write((int) v);
            return this;
        }

        Body str(String s) {
            return bytesField(s.getBytes(StandardCharsets.UTF_8));
        }

        Body bytesField(byte[] b) {
            varint(b.length);
            out.writeBytes(b);
            return this;
        }

        Body raw(int... b) {
            for (int x : b) {
                out.write(x);
            }
            return this;
        }

        byte[] frame(int type) {
            return frame(type, 0);
        }

        byte[] frame(int type, int flags) {
            byte[] body = out.toByteArray();
            return withHeader(BinaryTransportCodec.MAGIC, BinaryTransportCodec.VERSION, type, flags, body.length, body);
        }
    }

    static byte[] withHeader(int magic, int version, int type, int flags, long bodyLength, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(magic >>> 24);
        out.write(magic >>> 16 & 0xFF);
        out.write(magic >>> 8 & 0xFF);
        out.write(magic & 0xFF);
        out.write(version);
        out.write(type);
        out.write(flags);
        out.write((int) (bodyLength >>> 24) & 0xFF);
        out.write((int) (bodyLength >>> 16) & 0xFF);
        out.write((int) (bodyLength >>> 8) & 0xFF);
        out.write((int) bodyLength & 0xFF);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private MalformedMessageException fails(int status, byte[] input) {
        return fails(codec, status, input);
    }

    private static MalformedMessageException fails(BinaryTransportCodec c, int status, byte[] input) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> c.decode(input));
        assertEquals(Status.name(status), Status.name(e.status()), e.getMessage());
        return e;
    }

    /**
     * Either a typed error, or a message whose encoding is the input (with the ignorable flags cleared; the
     * must-understand ones, PRINCIPAL and ID, are the message's own). A corrupt flags byte with TRAILER set may turn a
     * flagged field into a skipped trailer: then the message must be the one its bytes before the trailer spell.
     */
    private void decodesFaithfullyOrFailsTyped(byte[] input) {
        TransportMessage m;
        try {
            m = codec.decode(input);
        } catch (MalformedMessageException e) {
            assertTrue(e.status() == Status.BAD_REQUEST || e.status() == Status.TOO_LARGE
                    || e.status() == Status.UNSUPPORTED_VERSION, e.toString());
            return;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("untyped failure on " + java.util.HexFormat.of().formatHex(input), e);
        }
        byte[] expected = input.clone();
        expected[6] &= BinaryTransportCodec.MUST_UNDERSTAND_FLAGS;
        byte[] again = codec.encode(m);
        if ((input[6] & BinaryTransportCodec.FLAG_TRAILER) != 0 && again.length < expected.length) {
            expected = java.util.Arrays.copyOf(expected, again.length);
            expected[10] = again[10]; // the body length, below 256 in every sample
        }
        assertArrayEquals(expected, again, "decoded a different message than the bytes say");
    }

    private static List<byte[]> validMessages(BinaryTransportCodec c) {
        List<byte[]> all = new ArrayList<>();
        for (TransportMessage m : TransportFixtures.samples()) {
            if (m.type() != MessageTypes.READ_RESULT) { // its 1000-byte value makes the loops slow, not better
                all.add(c.encode(m));
            }
        }
        all.add(c.encode(BinaryTransportCodecTest.exampleReadResult()));
        all.add(c.encode(BinaryTransportCodecTest.exampleWriteRequest()));
        return all;
    }

    @Test
    void decode_truncatedAtEveryLength_badRequest() {
        for (byte[] valid : validMessages(codec)) {
            for (int len = 0; len < valid.length; len++) {
                byte[] prefix = java.util.Arrays.copyOf(valid, len);
                fails(Status.BAD_REQUEST, prefix);
            }
        }
    }

    @Test
    void decode_truncatedWithConsistentBodyLength_badRequestNamingTheField() {
        // The header agrees with the cut: the body parser must find the field that runs out.
        byte[] valid = codec.encode(BinaryTransportCodecTest.exampleReadResult());
        for (int len = BinaryTransportCodec.HEADER_BYTES; len < valid.length; len++) {
            byte[] cut = java.util.Arrays.copyOf(valid, len);
            int body = len - BinaryTransportCodec.HEADER_BYTES;
            cut[10] = (byte) body;
            MalformedMessageException e = fails(Status.BAD_REQUEST, cut);
            assertTrue(e.getMessage().startsWith("READ_RESULT") && e.getMessage().contains("at offset"), e.getMessage());
        }
    }

    @Test
    void decode_everySingleByteCorruption_typedErrorOrFaithfulDecode() {
        assertTimeoutPreemptively(HANG, () -> {
            for (byte[] valid : validMessages(codec)) {
                for (int i = 0; i < valid.length; i++) {
                    for (int v = 0; v < 256; v++) {
                        if (v == (valid[i] & 0xFF)) {
                            continue;
                        }
                        byte[] corrupt = valid.clone();
                        corrupt[i] = (byte) v;
                        decodesFaithfullyOrFailsTyped(corrupt);
                    }
                }
            }
        });
    }

    @Test
    void decode_randomGarbage_onlyTypedErrors() {
        Random r = new Random(20261122);
        assertTimeoutPreemptively(HANG, () -> {
            for (int i = 0; i < 20_000; i++) {
                byte[] b = new byte[r.nextInt(64)];
                r.nextBytes(b);
                decodesFaithfullyOrFailsTyped(b);
            }
        });
    }

    @Test
    void decode_randomBodiesBehindValidHeaders_typedErrorOrFaithfulDecode() {
        Random r = new Random(42);
        assertTimeoutPreemptively(HANG, () -> {
            for (int i = 0; i < 50_000; i++) {
                byte[] body = new byte[r.nextInt(40)];
                r.nextBytes(body);
                for (int j = 0; j < body.length; j++) {
                    if (r.nextInt(3) == 0) {
                        body[j] = (byte) r.nextInt(4); // small counts and lengths get deeper into the parser
                    } else if (r.nextInt(3) == 0) {
                        body[j] = (byte) ('a' + r.nextInt(3));
                    }
                }
                decodesFaithfullyOrFailsTyped(withHeader(BinaryTransportCodec.MAGIC, 1, 1 + r.nextInt(5), 0, body.length, body));
            }
        });
    }

    @Test
    void decode_twoGibValueInTwentyBytes_failsFastWithoutAllocating() {
        byte[] declared2GiB = new Body().str("s1").varint(1).str("a").varint(1).varint(1).str("k").varint(1L << 31).frame(MessageTypes.READ_RESULT);
        byte[] declaredMaxInt = new Body().str("s1").varint(1).str("a").varint(1).varint(1).str("k").varint(Integer.MAX_VALUE).frame(MessageTypes.READ_RESULT);
        byte[] declared1GiB = new Body().str("s1").varint(1).str("a").varint(1).varint(1).str("k").varint(1 << 30).frame(MessageTypes.READ_RESULT);
        assertTrue(declared2GiB.length <= 30);
        BinaryTransportCodec generous = new BinaryTransportCodec(TransportLimits.builder()
                .maxMessageBytes(TransportLimits.MAX_MESSAGE_BYTES_CEILING)
                .maxAttributeValueBytes(TransportLimits.MAX_MESSAGE_BYTES_CEILING).build());
        Runnable decodeAll = () -> {
            fails(Status.TOO_LARGE, declared2GiB);
            fails(Status.TOO_LARGE, declaredMaxInt);
            fails(generous, Status.TOO_LARGE, declared2GiB);
            fails(generous, Status.TOO_LARGE, declaredMaxInt);
            MalformedMessageException e = fails(generous, Status.BAD_REQUEST, declared1GiB);
            assertTrue(e.getMessage().contains("1073741824 bytes declared"), e.getMessage());
        };
        // Once first, unmeasured: loading and initialising the classes on the path allocates too, more so when the
        // fuzz tests' agent (Jazzer, in the same test JVM) instruments each class as it loads.
        decodeAll.run();
        long allocated = allocatedBytes(() -> {
            for (int i = 0; i < 10; i++) {
                decodeAll.run();
            }
        });
        assertTrue(allocated < 1 << 20, allocated + " bytes allocated");
    }

    @Test
    void decode_hugeCountsAndBodyLengths_failFastWithoutAllocating() {
        BinaryTransportCodec generous = new BinaryTransportCodec(TransportLimits.builder()
                .maxSectionsPerMessage(Integer.MAX_VALUE).maxAttributesPerSection(Integer.MAX_VALUE).build());
        byte[] sections = new Body().str("s1").varint(Integer.MAX_VALUE).frame(MessageTypes.READ_RESULT);
        byte[] attributes = new Body().str("s1").varint(1).str("a").varint(1).varint(Integer.MAX_VALUE).frame(MessageTypes.READ_RESULT);
        byte[] names = new Body().str("s1").varint(100).frame(MessageTypes.READ_REQUEST);
        long allocated = allocatedBytes(() -> {
            fails(Status.TOO_LARGE, sections);
            fails(generous, Status.BAD_REQUEST, sections);
            fails(Status.TOO_LARGE, attributes);
            fails(generous, Status.BAD_REQUEST, attributes);
            fails(Status.BAD_REQUEST, names);
            for (long bodyLength : new long[] {0xFFFF_FFFFL, 0x8000_0000L, TransportLimits.DEFAULT_MAX_MESSAGE_BYTES}) {
                MalformedMessageException e = fails(Status.TOO_LARGE,
                        withHeader(BinaryTransportCodec.MAGIC, 1, MessageTypes.READ_REQUEST, 0, bodyLength, new byte[9]));
                assertTrue(e.getMessage().contains("body length " + bodyLength + " at offset 7"), e.getMessage());
            }
        });
        assertTrue(allocated < 1 << 20, allocated + " bytes allocated");
    }

    private static long allocatedBytes(Runnable r) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        r.run();
        return mx.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void decode_oversizedVarints_typedErrors() {
        // A 5-byte length whose value would be negative as an int.
        fails(Status.TOO_LARGE, new Body().raw(0xFF, 0xFF, 0xFF, 0xFF, 0x0F).frame(MessageTypes.READ_REQUEST));
        // Six bytes of varint.
        fails(Status.BAD_REQUEST, new Body().raw(0x80, 0x80, 0x80, 0x80, 0x80, 0x01).frame(MessageTypes.READ_REQUEST));
        // Not the shortest form: 0 as two bytes, 2 as three.
        fails(Status.BAD_REQUEST, new Body().raw(0x80, 0x00).frame(MessageTypes.READ_REQUEST));
        fails(Status.BAD_REQUEST, new Body().str("s1").raw(0x82, 0x80, 0x00).str("a").str("b").frame(MessageTypes.READ_REQUEST));
        // Versions: 2^63 does not fit; 11 bytes is too long.
        fails(Status.BAD_REQUEST, new Body().str("s").varint(1).str("a").varint(Long.MIN_VALUE).frame(MessageTypes.WRITE_RESULT));
        fails(Status.BAD_REQUEST, new Body().str("s").varint(1).str("a")
                .raw(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01).frame(MessageTypes.WRITE_RESULT));
        fails(Status.BAD_REQUEST, new Body().str("s").varint(1).str("a")
                .raw(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02).frame(MessageTypes.WRITE_RESULT));
    }

    @Test
    void decode_ifVersionEncoding_zeroIsNoneAndAbove2To63IsRefused() {
        Body none = new Body().str("s").varint(1).str("a").varint(0).varint(0).varint(0);
        assertEquals(SectionDelta.NO_VERSION, codec.decode(none.frame(MessageTypes.WRITE_REQUEST), WriteRequest.class)
                .deltas().get(0).ifVersion());
        Body max = new Body().str("s").varint(1).str("a").varint(Long.MIN_VALUE).varint(0).varint(0);
        assertEquals(Long.MAX_VALUE, codec.decode(max.frame(MessageTypes.WRITE_REQUEST), WriteRequest.class)
                .deltas().get(0).ifVersion());
        for (long raw : new long[] {Long.MIN_VALUE + 1, -1L}) {
            Body over = new Body().str("s").varint(1).str("a").varint(raw).varint(0).varint(0);
            MalformedMessageException e = fails(Status.BAD_REQUEST, over.frame(MessageTypes.WRITE_REQUEST));
            assertTrue(e.getMessage().contains("ifVersion"), e.getMessage());
        }
    }

    @Test
    void decode_wrongMagic_badRequest() {
        byte[] valid = codec.encode(BinaryTransportCodecTest.exampleReadRequest());
        for (int i = 0; i < 4; i++) {
            byte[] b = valid.clone();
            b[i] ^= 0x20;
            MalformedMessageException e = fails(Status.BAD_REQUEST, b);
            assertTrue(e.getMessage().contains("magic"), e.getMessage());
        }
        fails(Status.BAD_REQUEST, "{\"id\":\"s1\",\"sections\":[]}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void decode_otherFormatVersion_unsupportedVersionNamingBoth() {
        byte[] valid = codec.encode(BinaryTransportCodecTest.exampleReadRequest());
        for (int v : new int[] {0, 2, 0x7F, 0xFF}) {
            byte[] b = valid.clone();
            b[4] = (byte) v;
            MalformedMessageException e = fails(Status.UNSUPPORTED_VERSION, b);
            assertTrue(e.getMessage().contains("format version " + v) && e.getMessage().contains("reads version 1"), e.getMessage());
        }
    }

    @Test
    void decode_unknownTypeOrMustUnderstandFlag_unsupportedVersion() {
        byte[] valid = codec.encode(BinaryTransportCodecTest.exampleReadRequest());
        for (int t : new int[] {0, MessageTypes.PRINCIPAL_SESSIONS + 1, 0xFF}) {
            byte[] b = valid.clone();
            b[5] = (byte) t;
            assertTrue(fails(Status.UNSUPPORTED_VERSION, b).getMessage().contains("message type " + t));
        }
        for (int f = 0x01; f <= 0x08; f <<= 1) {
            byte[] b = valid.clone();
            b[6] = (byte) f;
            assertTrue(fails(Status.UNSUPPORTED_VERSION, b).getMessage().contains("must-understand"));
        }
    }

    @Test
    void decode_ignorableFlags_accepted() {
        byte[] b = codec.encode(BinaryTransportCodecTest.exampleReadRequest());
        b[6] = (byte) 0xE0;
        assertEquals(BinaryTransportCodecTest.exampleReadRequest(), codec.decode(b));
    }

    @Test
    void decode_trailingBytes_badRequest() {
        byte[] valid = codec.encode(BinaryTransportCodecTest.exampleWriteResult());
        byte[] after = java.util.Arrays.copyOf(valid, valid.length + 1);
        assertTrue(fails(Status.BAD_REQUEST, after).getMessage().contains("trailing"));
        // Inside the body, after the last field, and no trailer flag.
        byte[] inside = java.util.Arrays.copyOf(valid, valid.length + 2);
        inside[10] += 2;
        assertTrue(fails(Status.BAD_REQUEST, inside).getMessage().contains("2 bytes after the last field"));
    }

    @Test
    void decode_badNameBytes_badRequestWithOffset() {
        int[][] bad = {
            {0xC0, 0x80}, // overlong NUL
            {0xC1, 0x81}, // overlong 'A'
            {0xE0, 0x80, 0x80}, // overlong
            {0xED, 0xA0, 0x80}, // encoded surrogate
            {0xF4, 0x90, 0x80, 0x80}, // above U+10FFFF
            {0xF5, 0x80, 0x80, 0x80},
            {0x80}, // lone continuation
            {0x61, 0xE2, 0x82}, // truncated sequence
            {0x01}, {0x7F}, {0x0A}, // controls
            {0xC2, 0x85}, // C1 control (NEL)
        };
        for (int[] name : bad) {
            byte[] nameBytes = TransportFixtures.bytes(name);
            MalformedMessageException e = fails(Status.BAD_REQUEST,
                    new Body().str("s1").varint(1).bytesField(nameBytes).frame(MessageTypes.READ_REQUEST));
            assertTrue(e.getMessage().contains("section name at offset"), e.getMessage());
        }
        assertTrue(fails(Status.BAD_REQUEST, new Body().str("s1").varint(2).str("").str("abc").frame(MessageTypes.READ_REQUEST))
                .getMessage().contains("empty"));
        // Valid: every UTF-8 length, and U+FFFF, U+10FFFF (printable or not, they are not controls).
        for (String good : new String[] {"a", "é", "€", "😀", "\uFFFF", new String(Character.toChars(0x10FFFF))}) {
            byte[] b = new Body().str("s1").varint(1).str(good).frame(MessageTypes.READ_REQUEST);
            assertEquals(List.of(good), codec.decode(b, ReadRequest.class).sectionNames());
        }
    }

    @Test
    void decode_badSessionIds_typedErrors() {
        fails(Status.BAD_REQUEST, new Body().str("").varint(0).frame(MessageTypes.READ_REQUEST));
        for (String id : new String[] {"a/b", "a b", "a.b", "é", "a=", "%41"}) {
            MalformedMessageException e = fails(Status.BAD_REQUEST, new Body().str(id).varint(0).frame(MessageTypes.READ_REQUEST));
            assertTrue(e.getMessage().contains("session id at offset"), e.getMessage());
            assertTrue(!e.getMessage().contains(id), "the id is not repeated: " + e.getMessage());
        }
        fails(Status.TOO_LARGE, new Body().str("a".repeat(129)).varint(0).frame(MessageTypes.READ_REQUEST));
    }

    @Test
    void decode_duplicateNames_badRequest() {
        List<byte[]> inputs = List.of(
                new Body().str("s").varint(2).str("a").str("a").frame(MessageTypes.READ_REQUEST),
                new Body().str("s").varint(2).str("a").varint(1).varint(0).str("a").varint(1).varint(0).frame(MessageTypes.READ_RESULT),
                new Body().str("s").varint(1).str("a").varint(1).varint(2).str("k").varint(0).str("k").varint(0).frame(MessageTypes.READ_RESULT),
                new Body().str("s").varint(2).str("a").varint(0).varint(0).varint(0).str("a").varint(0).varint(0).varint(0)
                        .frame(MessageTypes.WRITE_REQUEST),
                new Body().str("s").varint(1).str("a").varint(0).varint(0).varint(2).str("k").str("k").frame(MessageTypes.WRITE_REQUEST),
                new Body().str("s").varint(1).str("a").varint(0).varint(1).str("k").varint(0).varint(1).str("k")
                        .frame(MessageTypes.WRITE_REQUEST),
                new Body().str("s").varint(2).str("a").varint(1).str("a").varint(2).frame(MessageTypes.WRITE_RESULT));
        for (byte[] b : inputs) {
            MalformedMessageException e = fails(Status.BAD_REQUEST, b);
            assertTrue(e.getMessage().contains("duplicate") || e.getMessage().contains("two deltas")
                    || e.getMessage().contains("both set and removed"), e.getMessage());
        }
    }

    @Test
    void decode_duplicateAmongManyNames_badRequest() {
        // Past the linear-scan size: the hash-set path.
        Body b = new Body().str("s").varint(20);
        for (int i = 0; i < 19; i++) {
            b.str("n" + i);
        }
        b.str("n7");
        assertTrue(fails(Status.BAD_REQUEST, b.frame(MessageTypes.READ_REQUEST)).getMessage().contains("\"n7\""));
        Body sections = new Body().str("s").varint(20);
        for (int i = 0; i < 20; i++) {
            sections.str(i == 19 ? "n3" : "n" + i).varint(1).varint(0);
        }
        fails(Status.BAD_REQUEST, sections.frame(MessageTypes.READ_RESULT));
    }

    @Test
    void decode_errorMessages_checkStatusAndText() {
        fails(Status.BAD_REQUEST, new Body().raw(0).str("x").frame(MessageTypes.ERROR));
        fails(Status.BAD_REQUEST, new Body().raw(2).bytesField(TransportFixtures.bytes(0xC3)).frame(MessageTypes.ERROR));
        fails(Status.TOO_LARGE, new Body().raw(2).str("x".repeat(4097)).frame(MessageTypes.ERROR));
        fails(Status.BAD_REQUEST, new Body().frame(MessageTypes.ERROR));
        ErrorMessage unknown = codec.decode(new Body().raw(200).str("new\tcode\n").frame(MessageTypes.ERROR), ErrorMessage.class);
        assertEquals(200, unknown.status());
        assertEquals("new\tcode\n", unknown.message());
    }

    @Test
    void decode_overLoweredLimits_tooLarge() {
        TransportLimits small = TransportLimits.builder().maxAttributeValueBytes(4).maxAttributesPerSection(1)
                .maxSectionsPerMessage(1).maxNameBytes(3).maxSessionIdBytes(2).maxErrorMessageBytes(5).maxMessageBytes(300).build();
        BinaryTransportCodec strict = new BinaryTransportCodec(small);
        List<TransportMessage> over = List.of(
                new ReadRequest("s", List.of("a", "b")),
                new ReadRequest("s", List.of("abcd")),
                new ReadRequest("abc", List.of()),
                new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", new byte[5])))),
                new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", new byte[0], "l", new byte[0])))),
                new WriteRequest("s", List.of(new SectionDelta("a", java.util.Map.of(), List.of("x", "y")))),
                new ErrorMessage(Status.INTERNAL, "sixsix"),
                new ReadResult("s", List.of(new SectionData("a", 0, TransportFixtures.attrs("k", new byte[300])))));
        for (TransportMessage m : over) {
            MalformedMessageException e = fails(strict, Status.TOO_LARGE, codec.encode(m));
            assertTrue(e.getMessage().contains("limit"), e.getMessage());
        }
    }

    @Test
    void decode_anyFailure_neverEchoesSessionIdOrValues() {
        byte[] b = codec.encode(new ReadResult("secretSessionId", List.of(new SectionData("a", 1,
                TransportFixtures.attrs("k", "secretValue".getBytes(StandardCharsets.US_ASCII))))));
        for (int len = 0; len < b.length; len++) {
            try {
                codec.decode(java.util.Arrays.copyOf(b, len));
                fail("decoded a prefix");
            } catch (MalformedMessageException e) {
                assertTrue(!e.getMessage().contains("secret"), e.getMessage());
            }
        }
    }
}
