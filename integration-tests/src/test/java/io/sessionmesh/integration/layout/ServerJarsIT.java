package io.sessionmesh.integration.layout;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cut along the wire, checked on what ships: the servers' runnable jars never carry the attribute codec's
 * libraries (the master and the sidecar hold values as opaque bytes), and the sidecar neither carries nor imports the
 * master (local mode puts the two together in local/). The build also bans those dependencies (maven-enforcer in
 * each server's pom); this looks at the jars themselves.
 */
class ServerJarsIT {
    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    /** Packages of one-nio, lz4-java, zstd-jni and the project's attribute codec. */
    static final List<String> CODEC_PACKAGES = List.of("one/nio/", "net/jpountz/", "com/github/luben/zstd/",
            "io/sessionmesh/serialization/");
    static final String MASTER_PACKAGE = "io/sessionmesh/master/";

    static final Map<String, Path> SERVER_JARS = Map.of(
            "master", ROOT.resolve("master-store/target/sessionmesh-master.jar"),
            "sidecar", ROOT.resolve("slave-sidecar/target/sessionmesh-sidecar.jar"),
            "local", ROOT.resolve("local/target/sessionmesh-local.jar"));

    @Test
    void serverJars_carryNoAttributeCodec() throws IOException {
        for (Map.Entry<String, Path> jar : SERVER_JARS.entrySet()) {
            List<String> codec = entries(jar.getValue(), CODEC_PACKAGES);
            assertEquals(List.of(), codec.stream().limit(5).toList(), jar.getKey() + " jar carries codec classes");
            assertTrue(entries(jar.getValue(), List.of("io/sessionmesh/wire/")).size() > 10, jar.getKey() + " jar lacks the wire module");
        }
    }

    @Test
    void sidecarJar_carriesNoMasterClass_andLocalJarCarriesBoth() throws IOException {
        assertEquals(List.of(), entries(SERVER_JARS.get("sidecar"), List.of(MASTER_PACKAGE)).stream().limit(5).toList());
        assertTrue(entries(SERVER_JARS.get("local"), List.of(MASTER_PACKAGE)).size() > 10, "local jar lacks the master");
        assertTrue(entries(SERVER_JARS.get("local"), List.of("io/sessionmesh/sidecar/")).size() > 10, "local jar lacks the sidecar");
    }

    @Test
    void sidecarMainSources_importNothingOfTheMaster() throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("slave-sidecar/src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (line.contains("io.sessionmesh.master.")) {
                        offenders.add(ROOT.relativize(f) + ": " + line.trim());
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    private static List<String> entries(Path jar, List<String> prefixes) throws IOException {
        assertTrue(Files.isRegularFile(jar), jar + " is missing: mvn package builds it");
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.stream().map(e -> e.getName())
                    .filter(n -> n.endsWith(".class") && prefixes.stream().anyMatch(n::startsWith)).toList();
        }
    }
}
