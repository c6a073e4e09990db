package io.sessionmesh.testing.hosts;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated host of {@link TestHosts}: a network namespace with loopback and one interface, {@code eth0}, whose
 * address is on the run's bridge and nowhere else (no default route: nothing in it reaches beyond the run's hosts).
 * Commands run in it through {@code ip netns exec}, which moves the command into the namespace and then execs it: the
 * process id a test sees is the command's own, so signals and {@link Faults#pause} reach it. The file system is the
 * machine's, except /etc/hosts, which names every host of the run.
 */
public final class Host {
    /** Longest a command of {@link #run} may take before it is killed (and counts as failed). */
    public static final long COMMAND_TIMEOUT_SECONDS = Commands.TIMEOUT.toSeconds();

    private final String name;
    private final String namespace;
    private final InetAddress address;

    Host(String name, String namespace, InetAddress address) {
        this.name = name;
        this.namespace = namespace;
        this.address = address;
    }

    /** The name the test gave it, also its name in the hosts' /etc/hosts. */
    public String name() {
        return name;
    }

    /** Its address, reachable from the other hosts and from the test JVM (through the bridge) while the run is open. */
    public InetAddress address() {
        return address;
    }

    /** Its network namespace's name, as {@code ip netns} knows it. */
    public String namespace() {
        return namespace;
    }

    /** {@code ip netns exec <namespace>}: what runs a command in this host (for {@code ServerProcess}'s prefix). */
    public List<String> commandPrefix() {
        return List.of("ip", "netns", "exec", namespace);
    }

    /** {@code command}, prefixed to run in this host. */
    public List<String> command(List<String> command) {
        List<String> cmd = new ArrayList<>(commandPrefix());
        cmd.addAll(command);
        return cmd;
    }

    /** A process builder for {@code command} in this host, for the caller to redirect and start. */
    public ProcessBuilder exec(List<String> command) {
        return new ProcessBuilder(command(command));
    }

    /**
     * Runs a short command in this host to its end (at most {@link #COMMAND_TIMEOUT_SECONDS} s).
     *
     * @throws IllegalStateException naming the command, its exit status and its error output, when it does not exit 0
     */
    public CommandResult run(String... command) {
        return Commands.run(command(List.of(command)));
    }

    /** {@link #run}, returning whatever the command's exit status is. */
    public CommandResult tryRun(String... command) {
        return Commands.tryRun(command(List.of(command)));
    }

    @Override
    public String toString() {
        return name + " (" + address.getHostAddress() + ", namespace " + namespace + ")";
    }
}
