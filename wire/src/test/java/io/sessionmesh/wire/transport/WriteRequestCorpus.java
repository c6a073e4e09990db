package io.sessionmesh.wire.transport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A corpus of WRITE_REQUEST messages, valid and broken, with what the binary decoder made of each: the re-encoding of
 * what it decoded, or the status and message of its refusal. {@code write-request-corpus.txt} was written by this
 * class run against the decoder before issue 18 (commit b77edd9, which built the model as it read), so that
 * {@link WriteRequestCorpusTest} holds the decoder that keeps the wire form to the same answers, byte for byte and word
 * for word. Public API only, so that it runs against any build:
 *
 * <pre>
 * java -cp wire/target/classes wire/src/test/java/io/sessionmesh/wire/transport/WriteRequestCorpus.java out.txt
 * </pre>
 */
public final class WriteRequestCorpus {
    private WriteRequestCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Files.write(Path.of(args[0]), lines(), StandardCharsets.UTF_8);
    }

    /** One line per input: its hex, a tab, then {@link #outcome}. */
    static List<String> lines() {
        BinaryTransportCodec codec = new BinaryTransportCodec();
        HexFormat hex = HexFormat.of();
        List<String> lines = new ArrayList<>();
        for (byte[] input : inputs(new Random(18))) {
            lines.add(hex.formatHex(input) + "\t" + outcome(codec, input));
        }
        return lines;
    }

    /** "OK " and the SHA-256 of the decoded request encoded again, or "E status message". */
    static String outcome(BinaryTransportCodec codec, byte[] input) {
        try {
            WriteRequest w = codec.decode(input, WriteRequest.class);
            byte[] again = codec.encode(new WriteRequest(w.sessionId(), w.deltas()));
            try {
                return "OK " + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(again));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        } catch (MalformedMessageException e) {
            return "E " + e.status() + " " + e.getMessage().replace('\t', ' ').replace('\n', ' ');
        }
    }

    static List<byte[]> inputs(Random r) {
        BinaryTransportCodec codec = new BinaryTransportCodec();
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            byte[] valid = codec.encode(randomRequest(r));
            inputs.add(valid);
            for (int k = 0; k < 3; k++) {
                inputs.add(flipped(r, valid));
            }
            inputs.add(truncated(r, valid));
            inputs.add(duplicated(r, codec.encode(oneLetterNames(r))));
        }
        return inputs;
    }

    static WriteRequest randomRequest(Random r) {
        int n = 1 + r.nextInt(r.nextInt(10) == 0 ? 12 : 3);
        List<SectionDelta> deltas = new ArrayList<>();
        for (int d = 0; d < n; d++) {
            Map<String, byte[]> set = new LinkedHashMap<>();
            int m = r.nextInt(r.nextInt(6) == 0 ? 14 : 4);
            List<String> remove = new ArrayList<>();
            int removes = r.nextInt(r.nextInt(6) == 0 ? 12 : 3);
            List<String> names = new ArrayList<>();
            while (names.size() < m + removes) {
                String name = name(r);
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
            for (int a = 0; a < m; a++) {
                byte[] v = new byte[r.nextInt(8) == 0 ? 128 + r.nextInt(200) : r.nextInt(40)]; // 1- and 2-byte lengths
                r.nextBytes(v);
                set.put(names.get(a), v);
            }
            remove.addAll(names.subList(m, m + removes));
            deltas.add(new SectionDelta("s" + d + (r.nextBoolean() ? "é" : ""), r.nextInt(4) == 0 ? r.nextInt(1000) : -1,
                    set, remove));
        }
        return new WriteRequest("sess" + r.nextInt(1000), deltas);
    }

    static String name(Random r) {
        String[] parts = {"a", "b", "k", "ключ", "名", "x1", "value", "é"};
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
            sb.append(parts[r.nextInt(parts.length)]);
        }
        return sb.toString();
    }

    /** A few body bytes changed (the header kept, so the body's fields are what fails). */
    static byte[] flipped(Random r, byte[] valid) {
        byte[] b = valid.clone();
        for (int i = 0, n = 1 + r.nextInt(3); i < n && b.length > BinaryTransportCodec.HEADER_BYTES; i++) {
            int at = BinaryTransportCodec.HEADER_BYTES + r.nextInt(Math.min(b.length - BinaryTransportCodec.HEADER_BYTES, 64));
            b[at] = (byte) r.nextInt(256);
        }
        return b;
    }

    /** The body cut short, the header's length saying so. */
    static byte[] truncated(Random r, byte[] valid) {
        int body = valid.length - BinaryTransportCodec.HEADER_BYTES;
        int keep = body == 0 ? 0 : r.nextInt(body);
        byte[] b = java.util.Arrays.copyOf(valid, BinaryTransportCodec.HEADER_BYTES + keep);
        b[7] = (byte) (keep >>> 24);
        b[8] = (byte) (keep >>> 16);
        b[9] = (byte) (keep >>> 8);
        b[10] = (byte) keep;
        return b;
    }

    /** A request whose attribute names are single letters, so that {@link #duplicated} makes them collide. */
    static WriteRequest oneLetterNames(Random r) {
        List<SectionDelta> deltas = new ArrayList<>();
        for (int d = 0, n = 1 + r.nextInt(2); d < n; d++) {
            List<String> letters = new ArrayList<>(List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"));
            java.util.Collections.shuffle(letters, r);
            int m = r.nextInt(r.nextBoolean() ? 11 : 4);
            int removes = r.nextInt(Math.min(4, letters.size() - m) + 1);
            Map<String, byte[]> set = new LinkedHashMap<>();
            for (String name : letters.subList(0, m)) {
                set.put(name, new byte[] {(byte) r.nextInt(256)});
            }
            deltas.add(new SectionDelta("s" + d, set, letters.subList(m, m + removes)));
        }
        return new WriteRequest("sess" + r.nextInt(1000), deltas);
    }

    /** One single-letter name written over with another: duplicate attributes, names both set and removed. */
    static byte[] duplicated(Random r, byte[] valid) {
        byte[] b = valid.clone();
        List<Integer> at = new ArrayList<>();
        for (int i = BinaryTransportCodec.HEADER_BYTES + 1; i + 1 < b.length; i++) {
            if (b[i] == 1 && b[i + 1] >= 'a' && b[i + 1] <= 'l') {
                at.add(i + 1);
            }
        }
        if (!at.isEmpty()) {
            b[at.get(r.nextInt(at.size()))] = (byte) ('a' + r.nextInt(12));
        }
        return b;
    }
}
