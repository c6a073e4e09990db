package io.sessionmesh.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server for tests that stop and restart the database: its own data directory in a temporary
 * directory, on a free loopback port, trust authentication (user postgres, no password), fsync off. Built with the
 * machine's PostgreSQL binaries (the newest of /usr/lib/postgresql/N/bin). initdb refuses to run as root, so when the
 * JVM runs as root the commands run as the postgres user ({@code runuser -u postgres --}) and the directory is
 * handed to it. A step that fails throws with the command and its output. The server is stopped at JVM exit if a test
 * forgot to.
 *
 * <p>Tests that need a database but never stop it use the machine's server instead: {@link #freshDatabase}.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>one command (initdb, pg_ctl start or stop)</td><td>{@link #COMMAND_TIMEOUT}</td></tr>
 * </table>
 */
public final class PostgresServer implements AutoCloseable {
    /** Where the machine's PostgreSQL versions are installed. */
    public static final Path INSTALLATIONS = Path.of("/usr/lib/postgresql");
    /** The machine's shared server, for {@link #freshDatabase}. */
    public static final String SHARED_URL = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";
    /** The longest one command may run. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    /** The user the server runs as when the JVM runs as root. */
    private static final String SERVER_USER = "postgres";
    private static final Pattern DATABASE_PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,40}");

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final int port;
    private final Thread shutdownHook;
    private boolean running;

    private PostgresServer(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.shutdownHook = new Thread(this::stopAtExit, "postgres-server-stop");
    }

    /** Creates a data directory and starts a server on a free loopback port. */
    public static PostgresServer start() {
        Path bin = binaries();
        Path dir;
        try {
            dir = Files.createTempDirectory("sessionmesh-pg");
            if (asRoot()) {
                UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName(SERVER_USER);
                Files.setOwner(dir, postgres);
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a data directory for PostgreSQL", e);
        }
        PostgresServer server = new PostgresServer(bin, dir, freePort());
        try {
            server.run("initdb", "-D", server.data.toString(), "-U", SERVER_USER, "-A", "trust", "-E", "UTF8",
                    "--locale=C", "--no-sync");
            server.startAgain();
        } catch (RuntimeException e) {
            server.deleteDirectory();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(server.shutdownHook);
        return server;
    }

    /** {@code jdbc:postgresql://127.0.0.1:port/postgres?user=postgres}. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + SERVER_USER;
    }

    public int port() {
        return port;
    }

    /** Stops the server (fast: connections are cut, nothing waits for clients) and waits until it has. */
    public synchronized void stop() {
        if (running) {
            run("pg_ctl", "-D", data.toString(), "-m", "fast", "-w", "-t", String.valueOf(COMMAND_TIMEOUT.toSeconds()),
                    "stop");
            running = false;
        }
    }

    /** Starts the server again on the same port with the same data; waits until it accepts connections. */
    public synchronized void startAgain() {
        if (!running) {
            run("pg_ctl", "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w", "-t",
                    String.valueOf(COMMAND_TIMEOUT.toSeconds()), "-o",
                    "-F -k " + dir + " -c listen_addresses=127.0.0.1 -p " + port, "start");
            running = true;
        }
    }

    /** Stops the server if it runs, then starts it again. */
    public void restart() {
        stop();
        startAgain();
    }

    /** Stops the server and deletes its directory. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            deleteDirectory();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is exiting: the hook runs or has run
            }
        }
    }

    /** The machine's server at 127.0.0.1:5432, user postgres, database postgres. */
    public static String sharedJdbcUrl() {
        return SHARED_URL;
    }

    /** Creates a new database on the machine's server, named {@code prefix} and a random suffix; returns its URL. */
    public static String freshDatabase(String prefix) {
        if (!DATABASE_PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("database prefix " + prefix + ": expected " + DATABASE_PREFIX);
        }
        String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(SHARED_URL, "CREATE DATABASE " + name);
        return "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=" + SERVER_USER;
    }

    /** Drops a database {@link #freshDatabase} made (its connections are cut). */
    public static void dropDatabase(String jdbcUrl) {
        String name = jdbcUrl.replaceFirst("^jdbc:postgresql://[^/]+/", "").replaceFirst("\\?.*$", "");
        if (!name.matches("[a-z][a-z0-9_]*") || name.equals("postgres")) {
            throw new IllegalArgumentException("not a database freshDatabase made: " + jdbcUrl);
        }
        execute(SHARED_URL, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void execute(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " on " + url + " failed: " + e.getMessage(), e);
        }
    }

    private static Path binaries() {
        try (Stream<Path> versions = Files.list(INSTALLATIONS)) {
            return versions.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                    .max(Comparator.comparingDouble(v -> Double.parseDouble(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"))
                    .orElseThrow(() -> new IllegalStateException("no PostgreSQL with initdb under " + INSTALLATIONS));
        } catch (IOException e) {
            throw new IllegalStateException("no PostgreSQL installed: " + INSTALLATIONS + " cannot be listed", e);
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** Runs one of the server's programs (as postgres when we are root); throws with its output when it fails. */
    private void run(String program, String... args) {
        List<String> command = new ArrayList<>();
        if (asRoot()) {
            command.addAll(List.of("runuser", "-u", SERVER_USER, "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        Path output = dir.resolve(program + ".out");
        try {
            Files.deleteIfExists(output);
            // Output to a file, not a pipe: pg_ctl start leaves a server running that could hold a pipe open.
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw failure(command, "did not finish in " + COMMAND_TIMEOUT.toSeconds() + " s", output);
            }
            if (p.exitValue() != 0) {
                throw failure(command, "exited with " + p.exitValue(), output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", command) + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    private IllegalStateException failure(List<String> command, String what, Path output) {
        StringBuilder b = new StringBuilder(String.join(" ", command)).append(' ').append(what).append("; its output:\n");
        b.append(read(output));
        Path log = dir.resolve("server.log");
        if (Files.exists(log)) {
            b.append("\nserver log:\n").append(read(log));
        }
        return new IllegalStateException(b.toString());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }

    private void stopAtExit() {
        try {
            if (running) {
                run("pg_ctl", "-D", data.toString(), "-m", "immediate", "-w", "stop");
            }
        } catch (RuntimeException e) {
            System.err.println("PostgreSQL at port " + port + " not stopped: " + e.getMessage());
        }
        deleteDirectory();
    }

    private void deleteDirectory() {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "PostgreSQL at 127.0.0.1:%d (%s)", port, dir);
    }
}
