package io.sessionmesh.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for tests of mutual TLS, made by the script operators use, {@code docker/tls/make-dev-certs.sh}: the
 * tests exercise it too. Each call with a new directory makes a new authority.
 */
public final class DevCertificates {
    /** The script, found from the module's directory or the repository's root. */
    public static final String SCRIPT = "docker/tls/make-dev-certs.sh";

    private final Path dir;

    private DevCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes (or extends) an authority in {@code dir} and a certificate per spec, {@code name[:san,san...]}, as the
     * script takes them.
     */
    public static DevCertificates make(Path dir, String... specs) {
        List<String> command = new ArrayList<>(List.of("bash", script().toString(), dir.toString()));
        command.addAll(List.of(specs));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(SCRIPT + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new DevCertificates(dir);
    }

    private static Path script() {
        for (Path base = Path.of("").toAbsolutePath(); base != null; base = base.getParent()) {
            Path candidate = base.resolve(SCRIPT);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(SCRIPT + " not found above " + Path.of("").toAbsolutePath());
    }

    /** The certificate chain of {@code name}. */
    public Path chain(String name) {
        return dir.resolve(name + ".pem");
    }

    /** The private key of {@code name}. */
    public Path key(String name) {
        return dir.resolve(name + ".key");
    }

    /** The authority's certificate, which every peer trusts. */
    public Path authority() {
        return dir.resolve("ca.pem");
    }
}
