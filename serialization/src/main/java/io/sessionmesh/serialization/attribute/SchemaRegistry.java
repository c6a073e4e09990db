package io.sessionmesh.serialization.attribute;

/**
 * Where JVMs exchange one-nio schemas: uid -> the serialized form of one-nio's {@code Serializer} for a
 * class. A writer publishes the schema of every class it writes, once per JVM; a reader that meets an
 * unknown uid fetches it, registers it with one-nio and decodes the value. In production the client
 * reaches the registry through its sidecar, which reaches the masters; {@link InMemorySchemaRegistry}
 * serves one process and tests.
 *
 * <p>Implementations are thread-safe. Publishing the same uid twice with the same bytes is a no-op.
 */
public interface SchemaRegistry {

    /**
     * Stores a schema. Idempotent for the same bytes.
     *
     * @throws SchemaRegistryException if the registry refuses it (a different schema under this uid, over
     *     a limit) or cannot be reached
     */
    void publish(long uid, byte[] schema);

    /**
     * Returns the schema published under this uid, or {@code null} when there is none.
     *
     * @throws SchemaRegistryException if the registry cannot be reached
     */
    byte[] fetch(long uid);
}
