package io.sessionmesh.serialization.compression;

import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The LZ4 library on the class path is the maintained fork, {@code at.yawk.lz4:lz4-java} 1.10.1 or later: org.lz4's
 * 1.8.0, the archived project's last release, is covered by CVE-2025-12183 and CVE-2025-66566, and clients decompress
 * bytes any local process can write. The fork keeps the {@code net.jpountz} packages, so only its jar tells them apart.
 */
class Lz4LibraryTest {
    /** The first release of the fork with both CVEs fixed. */
    private static final int[] FIXED_IN = {1, 10, 1};

    @Test
    void lz4Library_isTheMaintainedFork_atLeastTheFixedRelease() throws IOException {
        URL jar = LZ4Factory.class.getProtectionDomain().getCodeSource().getLocation();
        ClassLoader loader = LZ4Factory.class.getClassLoader();
        URL fork = loader.getResource("META-INF/maven/at.yawk.lz4/lz4-java/pom.properties");
        assertNotNull(fork, "LZ4Factory comes from " + jar + ", not the maintained fork at.yawk.lz4:lz4-java");
        assertTrue(loader.getResource("META-INF/maven/org.lz4/lz4-java/pom.properties") == null,
                "the archived org.lz4:lz4-java is on the class path beside the fork (the same packages twice)");
        Properties p = new Properties();
        try (InputStream in = fork.openStream()) {
            p.load(in);
        }
        String version = p.getProperty("version");
        assertTrue(atLeast(version, FIXED_IN), "at.yawk.lz4:lz4-java " + version + " is older than 1.10.1");
    }

    private static boolean atLeast(String version, int[] floor) {
        String[] parts = version.split("[.-]");
        for (int i = 0; i < floor.length; i++) {
            int v = i < parts.length && parts[i].matches("\\d+") ? Integer.parseInt(parts[i]) : 0;
            if (v != floor[i]) {
                return v > floor[i];
            }
        }
        return true;
    }
}
