package io.sessionmesh.client.internal;

import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.serialization.attribute.SchemaRegistry;
import io.sessionmesh.serialization.attribute.SchemaRegistryException;

/**
 * The schema registry of the serialization module, reached through the sidecar (which keeps it on the masters).
 * What it fetches is not trusted: the codec recomputes each schema's uid from its bytes and checks every class it
 * names against the client's filter before one-nio sees it (see the serialization module's SchemaIntake).
 */
public final class SidecarSchemaRegistry implements SchemaRegistry {
    private final SidecarApi api;

    public SidecarSchemaRegistry(SidecarApi api) {
        this.api = api;
    }

    @Override
    public void publish(long uid, byte[] schema) {
        try {
            api.publishSchema(uid, schema);
        } catch (SessionMeshException e) {
            throw new SchemaRegistryException("publishing schema " + Long.toHexString(uid) + " through the sidecar: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public byte[] fetch(long uid) {
        try {
            return api.fetchSchema(uid);
        } catch (SessionMeshException e) {
            throw new SchemaRegistryException("fetching schema " + Long.toHexString(uid) + " through the sidecar: "
                    + e.getMessage(), e);
        }
    }
}
