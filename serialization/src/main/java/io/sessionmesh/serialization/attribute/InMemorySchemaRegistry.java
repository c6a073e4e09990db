package io.sessionmesh.serialization.attribute;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A {@link SchemaRegistry} held in memory: for one process, for tests, and as the store behind the
 * sidecar's and master's registry endpoints. Bounded in count and in size per schema.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th></tr>
 *   <tr><td>schemas held</td><td>{@value #DEFAULT_MAX_SCHEMAS}</td></tr>
 *   <tr><td>bytes of one schema</td><td>{@value #DEFAULT_MAX_SCHEMA_BYTES}</td></tr>
 * </table>
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
    /** How many schemas one registry holds; a class per schema, so this is far above any real application. */
    public static final int DEFAULT_MAX_SCHEMAS = 65_536;
    /** The largest schema accepted: a class with thousands of fields stays far below. */
    public static final int DEFAULT_MAX_SCHEMA_BYTES = 1 << 20;

    private final ConcurrentMap<Long, byte[]> schemas;
    private final int maxSchemas;
    private final int maxSchemaBytes;

    /** A registry with the default limits. */
    public InMemorySchemaRegistry() {
        this(new ConcurrentHashMap<>(), DEFAULT_MAX_SCHEMAS, DEFAULT_MAX_SCHEMA_BYTES);
    }

    /**
     * A registry over a given map, so that several registries (in tests: one per class loader standing for
     * a JVM) can share one store.
     */
    public InMemorySchemaRegistry(ConcurrentMap<Long, byte[]> store, int maxSchemas, int maxSchemaBytes) {
        if (maxSchemas <= 0) {
            throw new IllegalArgumentException("maxSchemas must be positive: " + maxSchemas);
        }
        if (maxSchemaBytes <= 0) {
            throw new IllegalArgumentException("maxSchemaBytes must be positive: " + maxSchemaBytes);
        }
        this.schemas = store;
        this.maxSchemas = maxSchemas;
        this.maxSchemaBytes = maxSchemaBytes;
    }

    @Override
    public void publish(long uid, byte[] schema) {
        if (schema == null || schema.length == 0) {
            throw new SchemaRegistryException("schema " + Long.toHexString(uid) + " is empty");
        }
        if (schema.length > maxSchemaBytes) {
            throw new SchemaRegistryException("schema " + Long.toHexString(uid) + " has " + schema.length
                    + " bytes, over the limit of " + maxSchemaBytes);
        }
        byte[] existing = schemas.get(uid);
        if (existing == null) {
            if (schemas.size() >= maxSchemas) {
                throw new SchemaRegistryException("schema registry is full (" + maxSchemas + " schemas); refusing "
                        + Long.toHexString(uid));
            }
            existing = schemas.putIfAbsent(uid, schema.clone());
        }
        if (existing != null && !Arrays.equals(existing, schema)) {
            throw new SchemaRegistryException("schema " + Long.toHexString(uid)
                    + " is already registered with different content");
        }
    }

    @Override
    public byte[] fetch(long uid) {
        byte[] schema = schemas.get(uid);
        return schema == null ? null : schema.clone();
    }

    /** How many schemas are held. */
    public int size() {
        return schemas.size();
    }
}
