package io.sessionmesh.serialization.attribute.fuzz;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.InMemorySchemaRegistry;
import io.sessionmesh.serialization.compression.CompressionCodec;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.compression.ValueCompressor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Writes the seed inputs of the serialization fuzz tests from the real encoders, into src/test/resources; run only
 * on demand ({@code mvn -pl serialization test -Dtest=WriteFuzzSeeds -Dfuzz.writeSeeds=true}), after a format change.
 */
@EnabledIfSystemProperty(named = "fuzz.writeSeeds", matches = "true")
class WriteFuzzSeeds {
    private static final Path RESOURCES = Path.of("src/test/resources/io/sessionmesh/serialization/attribute");

    @Test
    void write() throws IOException {
        ConcurrentMap<Long, byte[]> schemas = new ConcurrentHashMap<>();
        AttributeCodec codec = AttributeCodec.builder()
                .schemaRegistry(new InMemorySchemaRegistry(schemas, 1024, 1 << 20)).build();
        List<Object> values = FuzzSamples.values();
        Path decode = RESOURCES.resolve("fuzz/AttributeCodecFuzzTestInputs/decode");
        for (int i = 0; i < values.size(); i++) {
            write(decode.resolve("value-" + i + "-" + values.get(i).getClass().getSimpleName()), codec.encode(values.get(i)));
        }
        Path intake = RESOURCES.resolve("internal/SchemaIntakeFuzzTestInputs/accept");
        schemas.forEach((uid, schema) -> write(intake.resolve("schema-" + Long.toHexString(uid)), schema));

        Path decompress = RESOURCES.resolve("fuzz/AttributeCodecFuzzTestInputs/decompress");
        byte[] text = values.get(values.size() - 1).toString().getBytes(StandardCharsets.UTF_8);
        for (CompressionCodec c : CompressionCodec.values()) {
            ValueCompressor compressor = new ValueCompressor(CompressionOptions.builder().codec(c).thresholdBytes(0)
                    .minSavingPercent(0).build());
            byte[] framed = compressor.encode(text);
            byte[] seed = new byte[framed.length + 1];
            seed[0] = (byte) c.ordinal();
            System.arraycopy(framed, 0, seed, 1, framed.length);
            write(decompress.resolve(c.name().toLowerCase()), seed);
        }
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
