package io.sessionmesh.testing.hosts;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A small tmpfs that {@link Faults#tmpfs} mounted at a directory, for a disk that fills up: {@link #fill()} writes
 * one file ({@value #FILL_FILE}) until the file system answers ENOSPC, to the last page, so that the next write of a
 * process there fails as on a full disk; {@link #free()} deletes it again. {@link #close()} unmounts (lazily when a
 * process still holds a file there).
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>size</td><td>{@link #PAGE_BYTES} to {@link #MAX_BYTES} (memory: the tmpfs lives in RAM)</td></tr>
 * </table>
 */
public final class Tmpfs implements Fault {
    /** The smallest size: tmpfs counts in pages. */
    public static final long PAGE_BYTES = 4096;
    /** The largest size: a test's full disk needs no more, and every byte of it is memory. */
    public static final long MAX_BYTES = 256L << 20;
    /** The file {@link #fill()} writes. */
    public static final String FILL_FILE = ".smh-fill";
    /** What {@link #fill()} writes at a time, before it falls back to single pages for the rest. */
    private static final int FILL_CHUNK_BYTES = 64 << 10;

    private final Faults owner;
    private final Path dir;
    private final long bytes;
    private boolean unmounted;

    Tmpfs(Faults owner, Path dir, long bytes) {
        this.owner = owner;
        this.dir = dir;
        this.bytes = bytes;
    }

    /** Where it is mounted. */
    public Path dir() {
        return dir;
    }

    /** Its size as mounted. */
    public long bytes() {
        return bytes;
    }

    /**
     * Writes {@value #FILL_FILE} until no page is left; returns the bytes that file now holds.
     *
     * @throws UncheckedIOException on an error other than a full file system
     */
    public long fill() {
        Path file = dir.resolve(FILL_FILE);
        long written = 0;
        for (int chunk : new int[] {FILL_CHUNK_BYTES, (int) PAGE_BYTES, 1}) {
            byte[] block = new byte[chunk];
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                while (true) {
                    out.write(block);
                    written += chunk;
                }
            } catch (IOException e) {
                if (!full(e)) {
                    throw new UncheckedIOException("cannot fill " + file + ": " + e.getMessage(), e);
                }
            }
        }
        try {
            return Files.size(file);
        } catch (IOException e) {
            return written;
        }
    }

    /** Deletes what {@link #fill()} wrote: the space is free again. */
    public void free() {
        try {
            Files.deleteIfExists(dir.resolve(FILL_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir.resolve(FILL_FILE) + ": " + e.getMessage(), e);
        }
    }

    /** True when {@code e} is the file system's "No space left on device" (ENOSPC). */
    public static boolean full(IOException e) {
        return String.valueOf(e.getMessage()).contains("No space left on device");
    }

    @Override
    public String description() {
        return "tmpfs of " + bytes + " bytes at " + dir;
    }

    @Override
    public synchronized void close() {
        if (unmounted) {
            return;
        }
        unmounted = true;
        owner.forget(this);
        if (!Commands.tryRun(java.util.List.of("umount", dir.toString())).ok()) {
            Commands.run("umount", "-l", dir.toString());
        }
    }

    @Override
    public String toString() {
        return description();
    }
}
