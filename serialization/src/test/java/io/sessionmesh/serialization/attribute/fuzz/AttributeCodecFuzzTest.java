package io.sessionmesh.serialization.attribute.fuzz;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.AttributeDecodeException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.InMemorySchemaRegistry;
import io.sessionmesh.serialization.compression.CompressionCodec;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.compression.CorruptValueException;
import io.sessionmesh.serialization.compression.ValueCompressor;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzzing of the input side of {@link AttributeCodec} (README "Fuzzing"): a value as it comes from a
 * session, through {@link ValueCompressor} and one-nio under a {@link ClassFilter} that allows {@link FuzzSamples}'
 * package and the JDK's building blocks only, against a registry holding the samples' schemas.
 *
 * <ul>
 *   <li>{@code decode}: a value, or an {@link AttributeDecodeException} (or subtype), nothing else (no NPE, no
 *   IndexOutOfBounds, no StackOverflowError, no OutOfMemoryError); a decoded value encodes, and that encoding decodes
 *   and encodes to the same bytes.</li>
 *   <li>{@code decompress}: {@link ValueCompressor#decode} of each codec: the bytes, or a {@link CorruptValueException};
 *   what decodes, encoded again, decodes to the same bytes.</li>
 * </ul>
 * Seeds: AttributeCodecFuzzTestInputs, the encodings of {@link FuzzSamples#values()}.
 */
class AttributeCodecFuzzTest {
    static final InMemorySchemaRegistry REGISTRY = new InMemorySchemaRegistry();
    static final AttributeCodec CODEC = AttributeCodec.builder().schemaRegistry(REGISTRY)
            .classFilter(ClassFilter.allowing(FuzzSamples.PACKAGE)).build();

    /** One compressor per codec, as a client keeps one (each holds its codec's thread-local native state). */
    static final ValueCompressor[] COMPRESSORS = new ValueCompressor[CompressionCodec.values().length];

    static {
        FuzzSamples.values().forEach(CODEC::encode); // publishes the samples' schemas
        for (CompressionCodec c : CompressionCodec.values()) {
            COMPRESSORS[c.ordinal()] = new ValueCompressor(CompressionOptions.builder().codec(c).thresholdBytes(0)
                    .minSavingPercent(0).maxDecompressedBytes(1 << 20).build());
        }
    }

    @FuzzTest(maxDuration = "2m")
    void decode(byte[] value) {
        Object decoded;
        try {
            decoded = CODEC.decode(value);
        } catch (AttributeDecodeException e) {
            return;
        }
        if (decoded == null) {
            return;
        }
        byte[] once = CODEC.encode(decoded);
        byte[] twice = CODEC.encode(CODEC.decode(once));
        assertArrayEquals(once, twice, () -> decoded.getClass().getName() + " does not read back as written");
    }

    @FuzzTest(maxDuration = "2m")
    void decompress(byte[] input) {
        if (input.length == 0) {
            return;
        }
        CompressionCodec codec = CompressionCodec.values()[(input[0] & 0xFF) % CompressionCodec.values().length];
        ValueCompressor compressor = COMPRESSORS[codec.ordinal()];
        byte[] framed = Arrays.copyOfRange(input, 1, input.length);
        byte[] raw;
        try {
            raw = compressor.decode(framed);
        } catch (CorruptValueException e) {
            return;
        }
        assertTrue(raw.length <= 1 << 20, "over the decompressed limit");
        assertArrayEquals(raw, compressor.decode(compressor.encode(raw)), codec + " does not read back as written");
    }
}
