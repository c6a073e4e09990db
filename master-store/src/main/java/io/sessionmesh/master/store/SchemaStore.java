package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.Status;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The master's side of the schema registry of the serialization module: one-nio schema uid to the serialized
 * one-nio {@code Serializer}, as opaque bytes (the master never loads a class). A uid is a hash of its
 * schema, so a second publish of a uid is accepted and keeps the first bytes. Bounded in count and size.
 */
public final class SchemaStore {
    private final ConcurrentHashMap<Long, byte[]> schemas = new ConcurrentHashMap<>();
    private final int maxSchemas;
    private final int maxSchemaBytes;

    public SchemaStore(int maxSchemas, int maxSchemaBytes) {
        this.maxSchemas = maxSchemas;
        this.maxSchemaBytes = maxSchemaBytes;
    }

    /**
     * Stores a schema.
     *
     * @return true if it was new
     * @throws StoreException TOO_LARGE (schema too large), BAD_REQUEST (empty) or UNAVAILABLE (store full)
     */
    public boolean publish(long uid, byte[] schema) {
        if (schema.length == 0) {
            throw new StoreException(Status.BAD_REQUEST, "schema " + Long.toHexString(uid) + " is empty");
        }
        if (schema.length > maxSchemaBytes) {
            throw StoreException.tooLarge("schema " + Long.toHexString(uid) + " is " + schema.length
                    + " bytes, above the limit of " + maxSchemaBytes);
        }
        byte[] known = schemas.get(uid);
        if (known != null) {
            return false;
        }
        if (schemas.size() >= maxSchemas) {
            throw new StoreException(Status.UNAVAILABLE, "the schema store holds its maximum of " + maxSchemas + " schemas");
        }
        return schemas.putIfAbsent(uid, Arrays.copyOf(schema, schema.length)) == null;
    }

    /** The schema of a uid, or null. The array must not be modified. */
    public byte[] fetch(long uid) {
        return schemas.get(uid);
    }

    /** Every schema, for a snapshot. */
    public void forEach(java.util.function.BiConsumer<Long, byte[]> action) {
        schemas.forEach(action);
    }

    /** Forgets every schema (a replica about to load a snapshot). */
    void clear() {
        schemas.clear();
    }

    public int size() {
        return schemas.size();
    }
}
