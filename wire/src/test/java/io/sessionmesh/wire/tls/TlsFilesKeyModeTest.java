package io.sessionmesh.wire.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A private key file others may read is refused before anything starts (the master's and the sidecar's TLS files are
 * read at start, through these): 0600 or 0400 is accepted, and 0640 only when root owns the file (an administrator
 * sharing it with the service's group), as PostgreSQL does for its server key.
 */
class TlsFilesKeyModeTest {
    @TempDir
    Path dir;

    private TlsFiles files(String keyMode) throws IOException {
        Path chain = Files.writeString(dir.resolve("peer.pem"), "chain");
        Path trust = Files.writeString(dir.resolve("ca.pem"), "ca");
        Path key = Files.writeString(dir.resolve("peer.key"), "key");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString(keyMode));
        return new TlsFiles(chain, key, trust);
    }

    @Test
    void privateKey_readableByOthers_isRefusedNamingTheFileAndTheFix() {
        for (String mode : new String[] {"rw-r--r--", "rw-rw-rw-", "rw----r--"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> files(mode),
                    "a private key of mode " + mode + " was accepted");
            assertTrue(e.getMessage().contains(dir.resolve("peer.key").toString()) && e.getMessage().contains("chmod 600"),
                    e.getMessage());
        }
    }

    @Test
    void privateKey_ownerOnly_isAccepted() {
        assertDoesNotThrow(() -> files("rw-------"));
        assertDoesNotThrow(() -> files("r--------"));
    }

    @Test
    void privateKey_groupReadable_onlyWhenRootOwnsIt() throws IOException {
        Path key = files("rw-------").privateKey();
        UserPrincipal owner = Files.getOwner(key);
        if (owner.getName().equals("root")) {
            assertDoesNotThrow(() -> files("rw-r-----"), "root's key shared with a group");
            // as root the test can hand the file to another user, whose group may not read it
            Files.setOwner(key, key.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new TlsFiles(dir.resolve("peer.pem"), key, dir.resolve("ca.pem")));
            assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
        } else {
            assertThrows(IllegalArgumentException.class, () -> files("rw-r-----"));
        }
    }
}
