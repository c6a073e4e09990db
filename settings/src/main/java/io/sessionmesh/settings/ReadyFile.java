package io.sessionmesh.settings;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;

/**
 * How a server tells whoever started it that it is up and where it listens: with {@code --ready-file path} it writes,
 * once every port is bound, a small properties file ({@code pid}, then one {@code host:port} per endpoint), under a
 * temporary name moved into place at once, so a reader never sees half a file. Tests, the demo and the load
 * generators wait for the file ({@link #await}) instead of parsing the server's output.
 *
 * <pre>
 * pid=41237
 * api=127.0.0.1:39611
 * admin=127.0.0.1:40773
 * </pre>
 */
public final class ReadyFile {
    /** The setting that names the file. */
    public static final String SETTING = "ready-file";

    private final Map<String, String> values;

    private ReadyFile(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Writes {@code endpoints} (name to address) and this process's pid to {@code file}, atomically where the file
     * system allows; nothing when {@code file} is null.
     */
    public static void write(Path file, Map<String, InetSocketAddress> endpoints) {
        if (file == null) {
            return;
        }
        Properties p = new Properties();
        p.setProperty("pid", String.valueOf(ProcessHandle.current().pid()));
        endpoints.forEach((name, a) -> p.setProperty(name, a.getHostString() + ":" + a.getPort()));
        StringWriter text = new StringWriter();
        try {
            p.store(text, "SessionMesh ready file");
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            Files.writeString(tmp, text.toString(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the ready file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Waits until {@code file} exists and returns what it says; while waiting, asks {@code alive} whether the server
     * still runs (a server that died will never write it).
     *
     * @throws IllegalStateException naming the file, the time waited and {@code what}, when the wait runs out or the
     *     server is gone
     */
    public static ReadyFile await(Path file, Duration timeout, String what, BooleanSupplier alive) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                Properties p = new Properties();
                p.load(r);
                Map<String, String> values = new LinkedHashMap<>();
                p.stringPropertyNames().forEach(n -> values.put(n, p.getProperty(n)));
                return new ReadyFile(values);
            } catch (NoSuchFileException e) {
                // not yet
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the ready file " + file + ": " + e.getMessage(), e);
            }
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException(what + " exited before it wrote its ready file " + file);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(what + " did not write its ready file " + file + " in "
                        + timeout.toMillis() + " ms");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + what, e);
            }
        }
    }

    /** The port of endpoint {@code name}. */
    public int port(String name) {
        String hp = values.get(name);
        if (hp == null) {
            throw new IllegalArgumentException("the ready file names no endpoint \"" + name + "\"; it has " + values.keySet());
        }
        return Units.parseHostPort(hp).getPort();
    }

    /** Whether it names endpoint {@code name}. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** The server's process id. */
    public long pid() {
        return Long.parseLong(values.get("pid"));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
