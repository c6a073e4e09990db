package io.sessionmesh.sidecar.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code unix-socket} setting: off by default, an absolute path when given, and paths it must not use refused. */
class SidecarConfigUnixSocketTest {
    @TempDir
    Path dir;

    @Test
    void unixSocket_isOffByDefault_andAbsoluteWhenGiven() {
        assertNull(SidecarConfig.of(Map.of()).unixSocket());
        Path sock = dir.resolve("sidecar.sock");
        assertEquals(sock.toAbsolutePath(), SidecarConfig.of(Map.of("unix-socket", sock.toString())).unixSocket());
        assertTrue(SidecarConfig.of(Map.of("unix-socket", sock.toString())).describe().contains(sock.toString()));
    }

    @Test
    void unixSocket_refusesAFileADirectoryAMissingDirectoryAndATooLongPath() throws IOException {
        Path file = Files.writeString(dir.resolve("notes.txt"), "keep me");
        assertRefused(file.toString(), "is an existing file, not a socket");
        assertRefused(dir.toString(), "is an existing directory, not a socket");
        assertRefused(dir.resolve("missing/sidecar.sock").toString(), "does not exist");
        assertRefused(dir.resolve("s".repeat(SidecarConfig.MAX_UNIX_SOCKET_PATH_BYTES) + ".sock").toString(),
                "longer than " + SidecarConfig.MAX_UNIX_SOCKET_PATH_BYTES + " bytes");
        assertEquals("keep me", Files.readString(file));
    }

    private static void assertRefused(String path, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("unix-socket", path)), path);
        assertTrue(e.getMessage().contains("unix-socket") && e.getMessage().contains(why), e.getMessage());
    }
}
