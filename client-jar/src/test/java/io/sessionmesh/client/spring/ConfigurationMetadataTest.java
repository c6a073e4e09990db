package io.sessionmesh.client.spring;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client jar carries Spring Boot's configuration metadata, so that an IDE completes and documents
 * {@code sessionmesh.*}: every property of {@link SessionMeshProperties} is there, each with a description, and the
 * defaults the processor cannot see (constants) are given.
 */
class ConfigurationMetadataTest {
    @Test
    void everySessionmeshPropertyIsDescribed_withItsDefault() throws Exception {
        Map<String, Map<String, String>> properties = new LinkedHashMap<>();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertNotNull(in, "no META-INF/spring-configuration-metadata.json in the client jar");
            JsonParser p = new JsonFactory().createParser(in);
            Map<String, String> current = null;
            int depth = 0;
            boolean inProperties = false;
            for (JsonToken t; (t = p.nextToken()) != null; ) {
                if (t == JsonToken.FIELD_NAME && depth == 1) {
                    inProperties = p.currentName().equals("properties");
                } else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                    if (inProperties && t == JsonToken.START_OBJECT && depth == 3) {
                        current = new LinkedHashMap<>();
                    }
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    if (inProperties && t == JsonToken.END_OBJECT && depth == 3) {
                        properties.put(current.get("name"), current);
                        current = null;
                    }
                    depth--;
                } else if (current != null && t.isScalarValue() && depth == 3) {
                    current.put(p.currentName(), p.getText());
                }
            }
        }
        assertEquals(BoundProperties.NAMES, properties.keySet());
        properties.forEach((name, p) -> {
            assertTrue(name.startsWith("sessionmesh."), name);
            assertFalse(p.getOrDefault("description", "").isBlank(), name + " has no description");
        });
        assertEquals("http://127.0.0.1:7500", properties.get("sessionmesh.sidecar-uri").get("defaultValue"));
        assertEquals("8s", properties.get("sessionmesh.request-timeout").get("defaultValue"));
        assertEquals("64", properties.get("sessionmesh.pool-size").get("defaultValue"));
        assertEquals("SMROUTE", properties.get("sessionmesh.route-cookie").get("defaultValue"));
    }

    /** The properties SessionMeshProperties binds. */
    static final class BoundProperties {
        static final java.util.Set<String> NAMES = java.util.Set.of("sessionmesh.sidecar-uri", "sessionmesh.admin-uri",
                "sessionmesh.admin-token", "sessionmesh.connect-timeout",
                "sessionmesh.request-timeout", "sessionmesh.pool-size", "sessionmesh.save-mode",
                "sessionmesh.allowed-packages", "sessionmesh.allowed-classes", "sessionmesh.session-header", "sessionmesh.session-cookie",
                "sessionmesh.cookie-secure", "sessionmesh.cookie-same-site", "sessionmesh.route-cookie",
                "sessionmesh.nodes", "sessionmesh.principal.header");
    }
}
