package io.sessionmesh.testing.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs the short commands the library is made of ({@code ip}, {@code iptables}, {@code mount}, {@code kill}) and the
 * quick ones a test runs in a host: each to its end, both outputs read at once (a command that fills one pipe while
 * we wait on the other would hang), no longer than {@link #TIMEOUT}.
 */
final class Commands {
    /** Longest a short command may run before it is killed and counted as failed. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Commands() {
    }

    /** Runs {@code command} and returns what it did, whatever its exit status. */
    static CommandResult tryRun(List<String> command) {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            return new CommandResult(List.copyOf(command), 127, "", "cannot start: " + e.getMessage());
        }
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        try {
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new CommandResult(List.copyOf(command), 124, out, "killed after " + TIMEOUT.toSeconds() + " s");
            }
            return new CommandResult(List.copyOf(command), p.exitValue(), out, err.get());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the error output of " + String.join(" ", command), e);
        }
    }

    /** {@link #tryRun(List)}, failing on a non-zero status with the command line and its error output. */
    static CommandResult run(List<String> command) {
        CommandResult r = tryRun(command);
        if (!r.ok()) {
            throw new IllegalStateException("`" + r.commandLine() + "` exited with status " + r.exitCode() + ": "
                    + (r.stderr().isBlank() ? r.stdout().strip() : r.stderr().strip()));
        }
        return r;
    }

    /** {@link #run(List)} of these. */
    static CommandResult run(String... command) {
        return run(List.of(command));
    }

    /** True when {@code command --version}-like probe {@code probe} starts and exits 0. */
    static boolean works(String... probe) {
        return tryRun(List.of(probe)).ok();
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
