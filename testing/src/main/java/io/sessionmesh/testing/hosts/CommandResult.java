package io.sessionmesh.testing.hosts;

import java.util.List;

/**
 * What a short command run by {@link Host#run} or {@link Host#tryRun} (or by the library itself, for {@code ip} and
 * {@code iptables}) left behind: its exit status and its whole output, standard output and error apart.
 *
 * @param command the command line as run, {@code ip netns exec} prefix included
 * @param exitCode its exit status
 * @param stdout what it wrote to standard output
 * @param stderr what it wrote to standard error
 */
public record CommandResult(List<String> command, int exitCode, String stdout, String stderr) {
    /** True when it exited with status 0. */
    public boolean ok() {
        return exitCode == 0;
    }

    /** The command line as one string, for messages. */
    public String commandLine() {
        return String.join(" ", command);
    }
}
