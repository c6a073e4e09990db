package io.sessionmesh.master.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot reaches the disk forced before it counts: the partial file is forced, renamed into place, then its
 * directory is forced (a storage that records the calls, and still makes them); a replica killed while writing one
 * leaves only a partial file, which is never read and is removed at the next start.
 */
class SnapshotFilesTest {
    @TempDir
    Path dir;

    /** The real calls, recorded in order with what the directory held at each. */
    static final class Recording extends SnapshotFiles {
        final List<String> calls = new ArrayList<>();
        boolean dieInForce;

        @Override
        void force(FileChannel channel, Path file) throws IOException {
            if (dieInForce) {
                throw new IOException("killed while forcing " + file.getFileName());
            }
            super.force(channel, file);
            calls.add("force " + file.getFileName() + " (" + channel.size() + " bytes)");
        }

        @Override
        void forceDirectory(Path dir) throws IOException {
            super.forceDirectory(dir);
            try (var names = Files.list(dir)) {
                calls.add("force directory " + names.map(p -> p.getFileName().toString()).sorted().toList());
            }
        }
    }

    @Test
    void theFileIsForcedBeforeTheRename_andTheDirectoryAfterIt() throws IOException {
        Recording disk = new Recording();
        Path file = dir.resolve("snapshot.1_42");
        disk.write(file, out -> out.write(new byte[] {1, 2, 3}));
        assertEquals(List.of("force snapshot.1_42.partial (3 bytes)", "force directory [snapshot.1_42]"), disk.calls);
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));

        Path md5 = dir.resolve("snapshot.1_42.md5");
        Files.writeString(md5, "abc");
        disk.forceWritten(md5);
        assertEquals("force snapshot.1_42.md5 (3 bytes)", disk.calls.get(2));
        assertEquals("force directory [snapshot.1_42, snapshot.1_42.md5]", disk.calls.get(3));
    }

    @Test
    void aReplicaKilledWhileWriting_leavesOnlyAPartialFile_removedAtTheNextStart() throws IOException {
        Recording disk = new Recording();
        disk.dieInForce = true;
        Path file = dir.resolve("snapshot.1_42");
        assertThrows(IOException.class, () -> disk.write(file, out -> out.write(new byte[100])));
        assertFalse(Files.exists(file), "no snapshot under its real name");
        assertTrue(Files.exists(dir.resolve("snapshot.1_42.partial")));
        assertEquals(1, SnapshotFiles.removePartials(dir));
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }
}
