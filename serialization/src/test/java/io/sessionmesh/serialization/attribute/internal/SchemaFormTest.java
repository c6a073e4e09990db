package io.sessionmesh.serialization.attribute.internal;

import com.google.common.collect.ImmutableList;
import one.nio.serial.Repository;
import one.nio.serial.Serializer;
import org.junit.jupiter.api.Test;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The uid a reader recomputes from a schema's bytes is the uid one-nio gave it, for every kind of schema. */
class SchemaFormTest {

    @Test
    void contentUid_ofEverySchemaKind_isTheUidOneNioGaveIt() throws IOException {
        OneNioRuntime.init();
        CollectionShapes.install(ImmutableList.of(1, 2).getClass());
        List<Class<?>> classes = List.of(Account.class, Level.class, Tags.class, Scores.class, Blob.class,
                Account[].class, Level[].class, ImmutableList.of(1, 2).getClass());
        List<Long> tags = new ArrayList<>();
        for (Class<?> cls : classes) {
            Serializer<?> serializer = Repository.get(cls);
            assertTrue(serializer.uid() >= 0, cls + " has a built-in serializer, no schema");
            SchemaForm form = SchemaForm.parse(Serializer.serialize(serializer), OneNioRuntime.generatedSchemaTag());
            assertTrue(OneNioRuntime.isSchemaSerializerUid(form.tag), cls + ": tag " + form.tag);
            assertEquals(serializer.uid(), form.uid, cls.getName());
            assertEquals(serializer.uid(), form.contentUid(OneNioRuntime.schemaSerializerClass(form.tag)), cls.getName());
            tags.add(form.tag);
        }
        assertTrue(tags.stream().distinct().count() >= 6, "schema kinds covered: " + tags);
    }

    @Test
    void contentUid_changesWithAnyByteOfTheSchema_butNotWithTheDeclaredUid() throws IOException {
        Serializer<?> serializer = Repository.get(Account.class);
        byte[] schema = Serializer.serialize(serializer);
        String name = OneNioRuntime.schemaSerializerClass(OneNioRuntime.generatedSchemaTag());
        for (int i = schema.length - 12; i < schema.length; i++) {
            byte[] changed = schema.clone();
            changed[i] ^= 0x01;
            SchemaForm form;
            try {
                form = SchemaForm.parse(changed, OneNioRuntime.generatedSchemaTag());
            } catch (IOException malformed) {
                continue;
            }
            assertNotEquals(serializer.uid(), form.contentUid(name), "byte " + i + " changed");
        }
    }

    /** A record: one-nio's field-by-field schema. */
    record Account(String id, long balance, Level level) implements Serializable {
    }

    /** An enum: its schema lists the constants. */
    enum Level { LOW, HIGH }

    /** An application list: a collection schema. */
    static final class Tags extends ArrayList<String> {
    }

    /** An application map: a map schema. */
    static final class Scores extends HashMap<String, Integer> {
    }

    /** Externalizable: its own wire form. */
    public static final class Blob implements Externalizable {
        public Blob() {
        }

        @Override
        public void writeExternal(ObjectOutput out) {
        }

        @Override
        public void readExternal(ObjectInput in) {
        }
    }
}
