package io.sessionmesh.integration.layout;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docker-compose.yml gives each container the authority's certificate and its own certificate and key, nothing
 * more: no container gets the authority's key (ca.key) or another's key, and none mounts the whole certificates
 * directory. Every container that gets a key runs as the keys' owner (the keys are 0600; the servers refuse one
 * others may read). Read as text, service by service.
 */
class ComposeKeysTest {
    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    static final Pattern SERVICE = Pattern.compile("^  ([a-z0-9-]+):\\s*$");

    /** Each service's lines, by name. */
    static Map<String, List<String>> services() throws IOException {
        Map<String, List<String>> services = new LinkedHashMap<>();
        List<String> current = null;
        boolean inServices = false;
        for (String line : Files.readAllLines(ROOT.resolve("docker-compose.yml"))) {
            if (line.startsWith("services:")) {
                inServices = true;
                continue;
            }
            if (!inServices || line.startsWith("#")) {
                continue;
            }
            Matcher m = SERVICE.matcher(line);
            if (m.matches()) {
                current = new ArrayList<>();
                services.put(m.group(1), current);
            } else if (current != null) {
                current.add(line);
            }
        }
        return services;
    }

    @Test
    void eachContainer_getsItsOwnKeyOnly_neverTheAuthoritysKey_andRunsAsTheKeysOwner() throws IOException {
        Map<String, List<String>> services = services();
        assertTrue(services.keySet().containsAll(List.of("master-1", "master-2", "master-3", "sidecar-a", "sidecar-b")),
                services.keySet().toString());
        Pattern key = Pattern.compile("docker/tls/dev/([A-Za-z0-9_.-]+)\\.key:");
        for (Map.Entry<String, List<String>> s : services.entrySet()) {
            String name = s.getKey();
            List<String> keys = new ArrayList<>();
            for (String line : s.getValue()) {
                assertFalse(line.matches(".*docker/tls/dev/?:.*"), name + " mounts every key: " + line.trim());
                assertFalse(line.contains("ca.key"), name + " mounts the authority's key: " + line.trim());
                Matcher m = key.matcher(line);
                if (m.find()) {
                    keys.add(m.group(1));
                }
            }
            if (name.startsWith("master-") || name.startsWith("sidecar-")) {
                assertEquals(List.of(name), keys, name + " must get its own key and no other");
                assertTrue(s.getValue().stream().anyMatch(l -> l.trim().startsWith("user:")),
                        name + " reads a 0600 key: it must run as the keys' owner (user:)");
            } else {
                assertEquals(List.of(), keys, name + " gets a private key it does not use");
            }
        }
    }
}
