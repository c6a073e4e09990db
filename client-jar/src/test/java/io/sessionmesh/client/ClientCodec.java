package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.AttributeCodec;

/** The codec a client decodes with, for tests outside this package (the Spring integration's). */
public final class ClientCodec {
    private ClientCodec() {
    }

    public static AttributeCodec of(SessionMeshClient client) {
        return client.codec();
    }
}
