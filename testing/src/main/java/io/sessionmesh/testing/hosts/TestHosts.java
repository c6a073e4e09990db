package io.sessionmesh.testing.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Simulated hosts for an integration test: N Linux network namespaces, each with a veth into one bridge in the root
 * namespace and an address of a private /24 picked for the run ({@code 10.77.N.0/24}: the bridge is {@code .1}, the
 * hosts {@code .2} on), so that a test runs the project's real processes on several "machines" and puts network
 * faults between them ({@link #faults()}). Traffic stays among the run's namespaces and the test JVM: the hosts have
 * no default route and the root namespace does not forward.
 *
 * <p>Everything a run makes is named after {@link RunNames} (prefix {@code smh}, then the run's id), and
 * {@link #close()} removes it all by those names, whatever was made before a failure: processes left in the
 * namespaces, tmpfs mounts, faults, links, namespaces, the FORWARD rule. A JVM shutdown hook does the same when a test
 * never closes. A crashed JVM leaves its run behind; {@link #cleanLeftovers()} (called by {@link #create}) removes the
 * runs whose owner is dead, and only those, so runs of other live JVMs stay.
 *
 * <p>Bridged frames go through iptables' FORWARD chain when {@code net.bridge.bridge-nf-call-iptables} is 1, and
 * where dockerd has run its policy is DROP: each run inserts an ACCEPT rule for its bridge ({@code -i br -o br},
 * commented with the run's tag) and removes it on close. The rule is inserted whether or not br_netfilter is loaded
 * now, since dockerd may load it later in the run.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>hosts in a run</td><td>{@link #MAX_HOSTS}</td></tr>
 *   <tr><td>a host's name</td><td>{@code [a-z][a-z0-9]*}, at most {@link #MAX_HOST_NAME_CHARS} characters</td></tr>
 *   <tr><td>a command of the library or of {@link Host#run}</td><td>{@link Host#COMMAND_TIMEOUT_SECONDS} s</td></tr>
 * </table>
 */
public final class TestHosts implements AutoCloseable {
    /** Hosts in one run: the veth names keep two digits for the host's index. */
    public static final int MAX_HOSTS = 32;
    /** Characters in a host's name. */
    public static final int MAX_HOST_NAME_CHARS = 12;
    /**
     * The system property that opts tests of test hosts out ({@code -Dsessionmesh.hosts.skip=true}: skipped, saying
     * so); without it a test whose machine lacks a prerequisite fails, naming it ({@link #checkPrerequisites()}).
     */
    public static final String SKIP_PROPERTY = "sessionmesh.hosts.skip";
    /** Serializes the runs of this JVM; the lock file serializes those of other JVMs. */
    private static final Object CREATE_LOCK = new Object();

    private final RunNames names;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Faults faults;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    private int subnet;

    private TestHosts(RunNames names) {
        this.names = names;
        this.faults = new Faults(names);
        this.shutdownHook = new Thread(this::closeQuietly, "test-hosts-cleanup-" + names.id());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** {@link #create(List)} of these names. */
    public static TestHosts create(String... hostNames) {
        return create(List.of(hostNames));
    }

    /**
     * Checks the prerequisites, removes the leftovers of crashed runs, then makes one host per name.
     *
     * @throws IllegalArgumentException for a bad or repeated name, or more than {@link #MAX_HOSTS}
     * @throws IllegalStateException when a prerequisite is missing or a command fails (what was made is removed)
     */
    public static TestHosts create(List<String> hostNames) {
        if (hostNames.isEmpty() || hostNames.size() > MAX_HOSTS) {
            throw new IllegalArgumentException("a run has 1 to " + MAX_HOSTS + " hosts, not " + hostNames.size());
        }
        for (String name : hostNames) {
            if (!name.matches("[a-z][a-z0-9]{0," + (MAX_HOST_NAME_CHARS - 1) + "}")) {
                throw new IllegalArgumentException("host name \"" + name + "\" is not [a-z][a-z0-9]*, at most "
                        + MAX_HOST_NAME_CHARS + " characters");
            }
        }
        if (new HashSet<>(hostNames).size() != hostNames.size()) {
            throw new IllegalArgumentException("host names repeat: " + hostNames);
        }
        checkPrerequisites();
        cleanLeftovers();
        synchronized (CREATE_LOCK) {
            try {
                Files.createDirectories(RunNames.STATE_DIR);
                try (FileChannel lockFile = FileChannel.open(RunNames.STATE_DIR.resolve("create.lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    FileLock lock = lockFile.lock(); // until the run's bridge holds its subnet
                    try {
                        return createLocked(hostNames);
                    } finally {
                        lock.release();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot lock " + RunNames.STATE_DIR + ": " + e.getMessage(), e);
            }
        }
    }

    private static TestHosts createLocked(List<String> hostNames) throws IOException {
        RunNames names = RunNames.fresh();
        Files.writeString(names.stateFile(), ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        TestHosts run = new TestHosts(names);
        try {
            run.build(hostNames);
            return run;
        } catch (RuntimeException | IOException e) {
            try {
                run.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private void build(List<String> hostNames) throws IOException {
        subnet = Subnets.pickFree();
        String bridge = names.bridge();
        Commands.run("ip", "link", "add", bridge, "type", "bridge");
        Commands.run("ip", "addr", "add", bridgeAddress().getHostAddress() + "/24", "dev", bridge);
        Commands.run("ip", "link", "set", bridge, "up");
        Commands.run("iptables", "-w", "-I", "FORWARD", "1", "-i", bridge, "-o", bridge,
                "-m", "comment", "--comment", names.tag(), "-j", "ACCEPT");
        for (int i = 0; i < hostNames.size(); i++) {
            String ns = names.namespace(hostNames.get(i));
            hosts.put(hostNames.get(i), new Host(hostNames.get(i), ns, Subnets.address(subnet, 2 + i)));
        }
        StringBuilder hostsFile = new StringBuilder(Files.readString(Path.of("/etc/hosts"), StandardCharsets.UTF_8));
        hostsFile.append("\n# the hosts of test run ").append(names.id()).append('\n');
        hosts.values().forEach(h -> hostsFile.append(h.address().getHostAddress()).append(' ').append(h.name())
                .append('\n'));
        int index = 0;
        for (Host h : hosts.values()) {
            String ns = h.namespace();
            String veth = names.veth(index++);
            Commands.run("ip", "netns", "add", ns);
            Commands.run("ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
            Commands.run("ip", "link", "set", veth, "master", bridge, "up");
            Commands.run("ip", "-n", ns, "addr", "add", h.address().getHostAddress() + "/24", "dev", "eth0");
            Commands.run("ip", "-n", ns, "link", "set", "eth0", "up");
            Commands.run("ip", "-n", ns, "link", "set", "lo", "up");
            Path etc = Cleanup.ETC_NETNS.resolve(ns);
            Files.createDirectories(etc);
            Files.writeString(etc.resolve("hosts"), hostsFile, StandardCharsets.UTF_8);
        }
    }

    /**
     * Fails unless this machine can make hosts, naming every missing piece: root, the {@code ip} command, the
     * {@code iptables} command, network namespaces in the kernel.
     *
     * @throws IllegalStateException "test hosts need ..., missing: ..."
     */
    public static void checkPrerequisites() {
        List<String> missing = new ArrayList<>();
        long uid = uid();
        if (uid != 0) {
            missing.add("root (this JVM runs as uid " + uid + "; namespaces, veths and iptables need it)");
        }
        if (!Commands.works("ip", "-V")) {
            missing.add("the ip command (Debian: apt-get install iproute2)");
        }
        if (!Commands.works("iptables", "-V")) {
            missing.add("the iptables command (Debian: apt-get install iptables)");
        }
        if (!Files.exists(Path.of("/proc/self/ns/net"))) {
            missing.add("network namespaces in the kernel (no /proc/self/ns/net: CONFIG_NET_NS)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("test hosts need root, ip, iptables and network namespaces; missing: "
                    + String.join("; ", missing));
        }
    }

    private static long uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).strip().split("\\s+")[1]); // the effective uid
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Removes what runs whose owning JVM is gone left behind (namespaces, links, iptables rules, tmpfs mounts, files
     * named {@code smh...}, {@link RunNames}); runs of live JVMs, this one's included, stay.
     *
     * @return the ids of the runs removed
     * @throws IllegalStateException naming what could not be removed
     */
    public static List<String> cleanLeftovers() {
        List<String> removed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String run : Cleanup.runsOnMachine()) {
            if (!Cleanup.ownerAlive(run)) {
                problems.addAll(Cleanup.removeRun(run));
                removed.add(run);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("leftovers of runs " + removed + " not all removed: "
                    + String.join("; ", problems));
        }
        return removed;
    }

    /** This run's id, in every name it makes. */
    public String runId() {
        return names.id();
    }

    /** The hosts, in the order they were named. */
    public List<Host> hosts() {
        return List.copyOf(hosts.values());
    }

    /** The host of that name. */
    public Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name + " in run " + names.id() + ": " + hosts.keySet());
        }
        return h;
    }

    /**
     * The bridge's address in the root namespace ({@code .1} of the run's /24): where the test JVM's sockets, a
     * {@link DelayProxy} among them, listen to be reached from the hosts.
     */
    public InetAddress bridgeAddress() {
        return Subnets.address(subnet, 1);
    }

    /** The faults of this run: each lifted by its handle's close, and all of them by {@link #close()}. */
    public Faults faults() {
        return faults;
    }

    /**
     * Lifts every fault and removes everything this run made; safe to call twice.
     *
     * @throws IllegalStateException naming what could not be removed (all of it was tried)
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<String> problems = new ArrayList<>(faults.liftAll());
        problems.addAll(Cleanup.removeRun(names.id()));
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs, and finds this run closed
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("test hosts run " + names.id() + " not all removed: "
                    + String.join("; ", problems));
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "test hosts run " + names.id() + " on " + Subnets.BASE + "." + subnet + ".0/24: " + hosts.values();
    }
}
