package io.sessionmesh.master.store;

import io.sessionmesh.wire.transport.Status;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The master's side of the schema registry of the serialization module: one-nio schema uid to the serialized
 * one-nio {@code Serializer}, as opaque bytes (the master never loads a class). A uid is a hash of its
 * schema: a second publish of a uid with the same bytes is accepted (and changes nothing), with other bytes it is a
 * CONFLICT. Bounded in count and size, and each schema is charged to the store's {@link MemoryBudget}
 * ({@link MemoryBudget#schemaCost}): a new schema that does not fit is UNAVAILABLE.
 */
public final class SchemaStore {
    private final ConcurrentHashMap<Long, byte[]> schemas = new ConcurrentHashMap<>();
    private final int maxSchemas;
    private final int maxSchemaBytes;
    private final MemoryBudget budget;

    SchemaStore(int maxSchemas, int maxSchemaBytes, MemoryBudget budget) {
        this.maxSchemas = maxSchemas;
        this.maxSchemaBytes = maxSchemaBytes;
        this.budget = budget;
    }

    /**
     * Stores a schema.
     *
     * @return true if it was new
     * @throws StoreException TOO_LARGE (schema too large), BAD_REQUEST (empty), CONFLICT (the uid is held with other
     *                        bytes) or UNAVAILABLE (the store holds its maximum of schemas, or its memory budget is full)
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
            if (!Arrays.equals(known, schema)) {
                // A uid is a hash of its schema: other bytes under a known uid are a bug or a poisoning attempt, and
                // readers would decode with whichever copy they met first.
                throw new StoreException(Status.CONFLICT, "schema " + Long.toHexString(uid) + " is already published "
                        + "with other content (" + known.length + " bytes; this publish has " + schema.length + "): a "
                        + "uid names one schema");
            }
            return false;
        }
        if (schemas.size() >= maxSchemas) {
            throw new StoreException(Status.UNAVAILABLE, "the schema store holds its maximum of " + maxSchemas + " schemas");
        }
        long cost = MemoryBudget.schemaCost(schema.length);
        budget.check(cost, "SCHEMA_PUBLISH of " + schema.length + " bytes");
        if (schemas.putIfAbsent(uid, Arrays.copyOf(schema, schema.length)) != null) {
            return false;
        }
        budget.schemasChanged(cost);
        return true;
    }

    /**
     * A group's leader, before it proposes a publish: UNAVAILABLE when a schema new here does not fit in the budget
     * (a uid already held costs nothing; its CONFLICT, if any, is the log's to find).
     */
    public void checkBeforeProposing(long uid, byte[] schema) {
        if (!schemas.containsKey(uid)) {
            budget.checkBeforeProposing(MemoryBudget.schemaCost(schema.length), "SCHEMA_PUBLISH of " + schema.length + " bytes");
        }
    }

    /**
     * Takes a schema from a snapshot or another group's import: as {@link #publish}, except that a uid already held
     * keeps its bytes without a CONFLICT (what the store holds is what it answered OK for). Returns true if it was new.
     */
    public boolean adopt(long uid, byte[] schema) {
        return schemas.containsKey(uid) ? false : publish(uid, schema);
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
        for (byte[] schema : schemas.values()) {
            budget.schemasChanged(-MemoryBudget.schemaCost(schema.length));
        }
        schemas.clear();
    }

    public int size() {
        return schemas.size();
    }
}
