package io.sessionmesh.serialization.attribute.internal;

import io.sessionmesh.serialization.attribute.AttributeDecodeException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.fuzz.FuzzSamples;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Coverage-guided fuzzing of the schema parser: {@link SchemaForm} and {@link SchemaIntake#accept}, what a client does
 * with a schema fetched from a master (docs/development.md, "Fuzzing"). The contract: {@link SchemaForm#parse} gives a
 * form or an IOException, and a form written again parses to the same bytes; {@link SchemaIntake#accept}, under a
 * {@link ClassFilter} that allows {@link FuzzSamples}' package and the JDK's building blocks only, registers the schema
 * or throws an {@link AttributeDecodeException} (or subtype), nothing else. Seeds: SchemaIntakeFuzzTestInputs, the
 * one-nio schemas of the samples' classes.
 */
class SchemaIntakeFuzzTest {
    private static final SchemaIntake INTAKE = new SchemaIntake(ClassFilter.allowingPackages(FuzzSamples.PACKAGE), Map.of());

    @FuzzTest(maxDuration = "2m")
    void accept(byte[] schema) throws IOException {
        long uid = 0;
        try {
            SchemaForm form = SchemaForm.parse(schema, OneNioRuntime.generatedSchemaTag());
            uid = form.uid;
            byte[] once = form.toBytes();
            byte[] twice = SchemaForm.parse(once, OneNioRuntime.generatedSchemaTag()).toBytes();
            assertArrayEquals(once, twice, "a schema does not parse back as written");
        } catch (IOException e) {
            // malformed: accept must refuse it as well
        }
        try {
            INTAKE.accept(uid, schema);
        } catch (AttributeDecodeException e) {
            // refused, as documented
        }
    }
}
