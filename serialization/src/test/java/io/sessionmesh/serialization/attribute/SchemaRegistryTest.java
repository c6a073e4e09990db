package io.sessionmesh.serialization.attribute;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaRegistryTest {

    @Test
    void publishThenFetch_returnsTheSameBytes_andACopy() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        byte[] schema = {1, 2, 3};
        registry.publish(42L, schema);
        byte[] fetched = registry.fetch(42L);
        assertArrayEquals(schema, fetched);
        fetched[0] = 9;
        assertArrayEquals(schema, registry.fetch(42L));
        assertNull(registry.fetch(43L));
    }

    @Test
    void publish_sameUidSameBytes_isIdempotent_differentBytesAreRefused() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        registry.publish(1L, new byte[] {1});
        assertDoesNotThrow(() -> registry.publish(1L, new byte[] {1}));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> registry.publish(1L, new byte[] {2}));
        assertTrue(e.getMessage().contains("different"), e.getMessage());
        assertEquals(1, registry.size());
    }

    @Test
    void publish_overTheLimits_isRefusedNamingTheLimit() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry(new ConcurrentHashMap<>(), 2, 4);
        assertThrows(SchemaRegistryException.class, () -> registry.publish(1L, new byte[5]));
        assertThrows(SchemaRegistryException.class, () -> registry.publish(1L, new byte[0]));
        registry.publish(1L, new byte[1]);
        registry.publish(2L, new byte[1]);
        SchemaRegistryException full = assertThrows(SchemaRegistryException.class, () -> registry.publish(3L, new byte[1]));
        assertTrue(full.getMessage().contains("full"), full.getMessage());
    }

    @Test
    void encode_registryRefusingSchemas_failsTheEncodeWithATypedException() {
        AttributeCodec codec = AttributeCodec.builder().schemaRegistry(new SchemaRegistry() {
            @Override
            public void publish(long uid, byte[] schema) {
                throw new SchemaRegistryException("registry down");
            }

            @Override
            public byte[] fetch(long uid) {
                return null;
            }
        }).classFilter(ClassFilter.allowingPackages("io.sessionmesh.serialization.attribute")).build();
        AttributeEncodeException e = assertThrows(AttributeEncodeException.class, () -> codec.encode(new Point(1, 2)));
        assertTrue(e.getMessage().contains("registry down"), e.getMessage());
        // nothing was marked as published: a later encode tries again
        assertThrows(AttributeEncodeException.class, () -> codec.encode(new Point(3, 4)));
        assertEquals("text", codec.decode(codec.encode("text")), "built-in types need no schema");
    }

    @Test
    void builder_registeringAClassWithoutFormerNames_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> AttributeCodec.builder().registerClasses(Point.class));
    }

    /** A small application class. */
    record Point(int x, int y) implements java.io.Serializable {
    }
}
