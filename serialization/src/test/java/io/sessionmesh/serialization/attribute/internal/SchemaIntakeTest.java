package io.sessionmesh.serialization.attribute.internal;

import io.sessionmesh.serialization.attribute.AttributeDecodeException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.fuzz.FuzzSamples;

import one.nio.serial.Repository;
import one.nio.serial.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaIntakeTest {
    private final SchemaIntake intake = new SchemaIntake(ClassFilter.allowingPackages(FuzzSamples.PACKAGE), Map.of());

    /** A real schema of a sample class, claiming {@code uid}. */
    private static byte[] schemaWithUid(long uid) throws Exception {
        byte[] schema = Serializer.serialize(Repository.get(FuzzSamples.Item.class));
        SchemaForm form = SchemaForm.parse(schema, OneNioRuntime.generatedSchemaTag());
        int at = form.tagBytes + 2 + form.descriptor.getBytes(StandardCharsets.UTF_8).length;
        ByteBuffer.wrap(schema).putLong(at, uid);
        return schema;
    }

    @Test
    void accept_negativeUidOutsideOneNiosTable_isRefusedNotAnIndexOutOfBounds() throws Exception {
        // found by SchemaIntakeFuzzTest: Repository.provideSerializer threw ArrayIndexOutOfBoundsException
        AttributeDecodeException e = assertThrows(AttributeDecodeException.class,
                () -> intake.accept(-311558148L, schemaWithUid(-311558148L)));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void accept_negativeUidOfABuiltInSerializer_isRefusedAndTheBuiltInStays() throws Exception {
        Serializer<?> builtIn = Repository.get(String.class);
        long uid = builtIn.uid();
        assertTrue(uid < 0, "one-nio's String serializer is a built-in one");
        assertThrows(AttributeDecodeException.class, () -> intake.accept(uid, schemaWithUid(uid)));
        assertSame(builtIn, Repository.requestSerializer(uid));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[", "[[", "[L", "[L;", "[[Ljava.lang.String"})
    void accept_malformedArrayFieldType_isRefusedNotAStringIndexOutOfBounds(String type) throws Exception {
        // found by SchemaIntakeFuzzTest: "[[" made checkedLocalTypeName read past the end of the descriptor
        SchemaForm form = SchemaForm.parse(Serializer.serialize(Repository.get(FuzzSamples.Cart.class)),
                OneNioRuntime.generatedSchemaTag());
        form.fieldTypes.set(form.fieldTypes.indexOf("java.lang.String"), type);
        // under the uid of its content, so that the uid check passes and the field types are what is refused
        byte[] schema = form.toBytes();
        long uid = SchemaForm.parse(schema, OneNioRuntime.generatedSchemaTag())
                .contentUid(OneNioRuntime.schemaSerializerClass(form.tag));
        ByteBuffer.wrap(schema).putLong(form.tagBytes + 2 + form.descriptor.getBytes(StandardCharsets.UTF_8).length, uid);
        AttributeDecodeException e = assertThrows(AttributeDecodeException.class, () -> intake.accept(uid, schema));
        assertTrue(e.getMessage().contains("not an array descriptor"), e.getMessage());
    }
}
