package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.ClassFilter;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The builder's checks, without a sidecar (building connects to nothing). */
class SessionMeshClientBuilderTest {
    private static final URI NOWHERE = URI.create("http://127.0.0.1:1");

    @Test
    void build_withoutAClassFilter_isRefusedNamingWhatToSet() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SessionMeshClient.builder().sidecar(NOWHERE).build().close());
        assertTrue(e.getMessage().contains("classFilter") && e.getMessage().contains("ClassFilter.allowingPackages("), e.getMessage());
    }

    @Test
    void build_withAllowedPackages_buildsAndDecodesOnlyThose() {
        try (SessionMeshClient client = SessionMeshClient.builder().sidecar(NOWHERE)
                .classFilter(ClassFilter.allowingPackages("com.example.bank")).build()) {
            assertTrue(client.codec().classFilter().isAllowed("com.example.bank.Client"));
            assertTrue(!client.codec().classFilter().isAllowed("com.example.other.Client"));
        }
    }
}
