package io.sessionmesh.testing.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;

/**
 * The faults a test puts between the hosts of one {@link TestHosts} run, each a {@link Fault} whose close lifts it:
 * <ul>
 * <li>{@link #partition}: no packet between two sets of hosts, either way (a connect times out, open connections
 *     stall);</li>
 * <li>{@link #dropOneWay}: the packets from one set to the other are dropped, those back still flow (TCP breaks both
 *     ways, since its acknowledgements are lost; UDP shows the asymmetry);</li>
 * <li>{@link #loss}: each packet between two sets is dropped with a given probability;</li>
 * <li>{@link #pause} (SIGSTOP, lifted by SIGCONT) and {@link #kill} (SIGKILL) of a process by its pid;</li>
 * <li>{@link #tmpfs}: a small file system mounted at a directory, which {@link Tmpfs#fill} fills (ENOSPC).</li>
 * </ul>
 * Network faults are iptables rules in the receiving host's namespace (INPUT chain, {@code -s peer -j DROP}, with
 * {@code -m statistic --mode random} for loss), commented with the run's tag: the packet leaves its sender and is
 * lost on the way, so the sender sees what a real network shows, a timeout (a DROP in the sender's OUTPUT chain would
 * fail its send at once with EPERM, which code treats apart). Traffic to and from the test JVM (the bridge's address)
 * is not touched. No netem: the kernel of the project's machines has none; delay comes from
 * {@link DelayProxy}.
 */
public final class Faults {
    private final RunNames names;
    private final Deque<Fault> open = new ConcurrentLinkedDeque<>();

    Faults(RunNames names) {
        this.names = names;
    }

    /** Drops every packet between a host of {@code a} and a host of {@code b}, both ways. */
    public Fault partition(Collection<Host> a, Collection<Host> b) {
        List<List<String>> rules = new ArrayList<>(drops(a, b, 1.0));
        rules.addAll(drops(b, a, 1.0));
        return install("partition " + hostNames(a) + " | " + hostNames(b), rules);
    }

    /** Drops every packet from a host of {@code from} to a host of {@code to}; those back still flow. */
    public Fault dropOneWay(Collection<Host> from, Collection<Host> to) {
        return install("drop " + hostNames(from) + " -> " + hostNames(to), drops(from, to, 1.0));
    }

    /**
     * Drops each packet between a host of {@code a} and a host of {@code b}, either way, with probability
     * {@code share} (iptables' own random draw per packet).
     *
     * @throws IllegalArgumentException unless 0 &lt; share &lt; 1
     */
    public Fault loss(Collection<Host> a, Collection<Host> b, double share) {
        if (!(share > 0 && share < 1)) {
            throw new IllegalArgumentException("loss share " + share + " is not between 0 and 1 (exclusive)");
        }
        List<List<String>> rules = new ArrayList<>(drops(a, b, share));
        rules.addAll(drops(b, a, share));
        return install(String.format(Locale.ROOT, "loss %.3f %s | %s", share, hostNames(a), hostNames(b)), rules);
    }

    /** SIGSTOP to process {@code pid} (a frozen VM, a long GC pause); the fault's close sends SIGCONT. */
    public Fault pause(long pid) {
        Commands.run("kill", "-STOP", String.valueOf(pid));
        return track(new Lifted("pause of process " + pid, f -> Commands.run("kill", "-CONT", String.valueOf(pid))));
    }

    /** SIGKILL to process {@code pid}, as a crash; waits at most a few seconds for it to be gone. */
    public void kill(long pid) {
        ProcessHandle.of(pid).ifPresent(p -> {
            p.destroyForcibly();
            p.onExit().orTimeout(Cleanup.PROCESS_EXIT_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS).join();
        });
    }

    /**
     * Mounts a tmpfs of {@code bytes} at {@code dir} (made if missing): a Raft directory that fills up. The mount is
     * in the root mount namespace; {@code ip netns exec} gives each process a copy of the mounts as they are when it
     * starts, so mount it before starting the process that writes there.
     *
     * @throws IllegalArgumentException when {@code bytes} is not in 1 page to {@link Tmpfs#MAX_BYTES}
     */
    public Tmpfs tmpfs(Path dir, long bytes) {
        if (bytes < Tmpfs.PAGE_BYTES || bytes > Tmpfs.MAX_BYTES) {
            throw new IllegalArgumentException("tmpfs size " + bytes + " bytes is not between " + Tmpfs.PAGE_BYTES
                    + " and " + Tmpfs.MAX_BYTES);
        }
        Path abs = dir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + abs + ": " + e.getMessage(), e);
        }
        Commands.run("mount", "-t", "tmpfs", "-o", "size=" + bytes + ",mode=0755", names.tag(), abs.toString());
        return track(new Tmpfs(this, abs, bytes));
    }

    /** Lifts every fault still in place, the newest first; returns what failed. */
    List<String> liftAll() {
        List<String> problems = new ArrayList<>();
        for (Fault f; (f = open.pollLast()) != null; ) {
            try {
                f.close();
            } catch (RuntimeException e) {
                problems.add("lifting " + f.description() + ": " + e.getMessage());
            }
        }
        return problems;
    }

    /** One DROP rule (probability {@code share}) in each receiver's INPUT chain per sender. */
    private List<List<String>> drops(Collection<Host> from, Collection<Host> to, double share) {
        List<List<String>> rules = new ArrayList<>();
        for (Host sender : from) {
            for (Host receiver : to) {
                if (sender.equals(receiver)) {
                    throw new IllegalArgumentException(sender.name() + " is on both sides of the fault");
                }
                List<String> rule = new ArrayList<>(receiver.commandPrefix());
                rule.addAll(List.of("iptables", "-w", "INPUT", "-s", sender.address().getHostAddress()));
                if (share < 1) {
                    rule.addAll(List.of("-m", "statistic", "--mode", "random", "--probability",
                            String.format(Locale.ROOT, "%.6f", share)));
                }
                rule.addAll(List.of("-m", "comment", "--comment", names.tag(), "-j", "DROP"));
                rules.add(rule);
            }
        }
        return rules;
    }

    /** Adds the rules ({@code -I} at the top), and a fault that deletes them; on a failure, deletes those added. */
    private Fault install(String description, List<List<String>> rules) {
        List<List<String>> added = new ArrayList<>();
        Consumer<Fault> delete = f -> {
            List<String> problems = new ArrayList<>();
            for (List<String> rule : added) {
                CommandResult r = Commands.tryRun(withAction(rule, "-D"));
                if (!r.ok()) {
                    problems.add("`" + r.commandLine() + "`: " + r.stderr().strip());
                }
            }
            if (!problems.isEmpty()) {
                throw new IllegalStateException(String.join("; ", problems));
            }
        };
        try {
            for (List<String> rule : rules) {
                Commands.run(withAction(rule, "-I"));
                added.add(rule);
            }
        } catch (RuntimeException e) {
            try {
                delete.accept(null);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return track(new Lifted(description, delete));
    }

    /** The rule with {@code -I} or {@code -D} before its chain (after {@code ... iptables -w}). */
    private static List<String> withAction(List<String> rule, String action) {
        List<String> cmd = new ArrayList<>(rule);
        cmd.add(cmd.indexOf("-w") + 1, action);
        return cmd;
    }

    private <F extends Fault> F track(F fault) {
        open.add(fault);
        return fault;
    }

    private static String hostNames(Collection<Host> hosts) {
        return hosts.stream().map(Host::name).toList().toString();
    }

    /** A fault lifted once by {@code lift}, then forgotten by its run. */
    private final class Lifted implements Fault {
        private final String description;
        private final Consumer<Fault> lift;
        private boolean lifted;

        Lifted(String description, Consumer<Fault> lift) {
            this.description = description;
            this.lift = lift;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public synchronized void close() {
            if (!lifted) {
                lifted = true;
                forget(this);
                lift.accept(this);
            }
        }

        @Override
        public String toString() {
            return description;
        }
    }

    /** Forgets a fault once it is lifted ({@link Tmpfs#close}). */
    void forget(Fault f) {
        open.remove(f);
    }
}
