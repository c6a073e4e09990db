package io.sessionmesh.master.replication;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * How a replica puts a snapshot on disk so that a power loss never leaves it with a torn one and no log behind it
 * (Ratis purges the log up to a snapshot once it is taken): the snapshot is written to {@code name.partial}, the file
 * is forced to the device, renamed into place atomically, and its directory is forced so that the rename itself is
 * durable. Only then is the snapshot reported taken. A {@code .partial} left by a replica killed while writing is
 * never read (Ratis's storage takes only {@code snapshot.term_index} names) and is removed at the next start.
 */
class SnapshotFiles {
    /** The suffix of a snapshot being written. */
    static final String PARTIAL = ".partial";

    /** What the body of a snapshot writes. */
    interface Body {
        void writeTo(DataOutputStream out) throws IOException;
    }

    /** Writes {@code file} through a partial file, forcing the file, then the directory after the rename. */
    final void write(Path file, Body body) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + PARTIAL);
        try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream stream = Channels.newOutputStream(channel);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(stream, 1 << 16));
            body.writeTo(out);
            out.flush();
            force(channel, partial);
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(file.getParent());
    }

    /** Forces a file that was written by other means (the checksum beside a snapshot), then its directory. */
    final void forceWritten(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            force(channel, file);
        }
        forceDirectory(file.getParent());
    }

    /** Removes what a replica killed while writing a snapshot left in {@code dir}; returns how many went. */
    static int removePartials(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> partials = Files.newDirectoryStream(dir, "*" + PARTIAL)) {
            for (Path p : partials) {
                Files.deleteIfExists(p);
                removed++;
            }
        }
        return removed;
    }

    /** Forces the file's bytes and metadata to the device. */
    void force(FileChannel channel, Path file) throws IOException {
        channel.force(true);
    }

    /** Forces a directory, so that a rename or a new file in it survives a power loss (Linux: fsync of the directory). */
    void forceDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
