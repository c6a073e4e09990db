package io.sessionmesh.testing.hosts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds and removes what runs of {@link TestHosts} made, by name ({@link RunNames}): a run's tmpfs mounts, the
 * processes left in its namespaces, the namespaces, its links, its iptables rules and its files. The same code closes
 * a run ({@link TestHosts#close}) and clears the leftovers of crashed ones ({@link TestHosts#cleanLeftovers}), so a
 * close after a half-made run removes what was made and nothing else. Each step goes on when one fails; the failures
 * are returned, not thrown, so that every step is tried.
 */
final class Cleanup {
    /** Where {@code ip netns exec} finds the files a namespace sees in place of /etc's (its hosts file). */
    static final Path ETC_NETNS = Path.of("/etc/netns");
    /** Longest wait for killed processes to leave a namespace, so that its veth goes with it. */
    static final long PROCESS_EXIT_WAIT_MILLIS = 5_000;

    private Cleanup() {
    }

    /** Ids of every run that left something on this machine: namespaces, links, rules, mounts or files. */
    static Set<String> runsOnMachine() {
        Set<String> runs = new TreeSet<>();
        namespaces().forEach(n -> RunNames.runOf(RunNames.NAMESPACE, n).ifPresent(runs::add));
        links().forEach(l -> RunNames.runOf(RunNames.LINK, l).ifPresent(runs::add));
        taggedRules().forEach(r -> runs.add(r.run()));
        tmpfsMounts().forEach(m -> runs.add(m.run()));
        for (Path dir : List.of(RunNames.STATE_DIR, ETC_NETNS)) {
            for (String name : list(dir)) {
                RunNames.runOf(RunNames.STATE_FILE, name).ifPresent(runs::add);
                RunNames.runOf(RunNames.NAMESPACE, name).ifPresent(runs::add);
            }
        }
        return runs;
    }

    /** True when the run's owner file names a process that is still alive: that run is someone's, not a leftover. */
    static boolean ownerAlive(String run) {
        Path file = new RunNames(run).stateFile();
        try {
            long pid = Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /** Removes everything of run {@code run}; returns what could not be removed (empty when all went). */
    static List<String> removeRun(String run) {
        RunNames names = new RunNames(run);
        List<String> problems = new ArrayList<>();
        for (Mount m : tmpfsMounts()) {
            if (m.run().equals(run) && !Commands.tryRun(List.of("umount", m.point())).ok()) {
                step(problems, List.of("umount", "-l", m.point())); // busy (a process's working directory): detach
            }
        }
        List<String> namespaces = namespaces().stream()
                .filter(n -> RunNames.runOf(RunNames.NAMESPACE, n).filter(run::equals).isPresent()).toList();
        for (String ns : namespaces) {
            killProcessesIn(ns, problems);
        }
        for (String link : links()) {
            if (RunNames.runOf(RunNames.LINK, link).filter(run::equals).isPresent()) {
                step(problems, List.of("ip", "link", "delete", link)); // a veth's peer in the namespace goes with it
            }
        }
        for (String ns : namespaces) {
            step(problems, List.of("ip", "netns", "delete", ns));
        }
        for (Rule r : taggedRules()) {
            if (r.run().equals(run)) {
                List<String> delete = new ArrayList<>(List.of("iptables", "-w", "-t", r.table()));
                delete.addAll(r.spec());
                delete.set(4, "-D"); // the rule's own -A spec, as a delete
                step(problems, delete);
            }
        }
        for (String name : list(ETC_NETNS)) {
            if (RunNames.runOf(RunNames.NAMESPACE, name).filter(run::equals).isPresent()) {
                deleteTree(ETC_NETNS.resolve(name), problems);
            }
        }
        try {
            Files.deleteIfExists(names.stateFile());
        } catch (IOException e) {
            problems.add("cannot delete " + names.stateFile() + ": " + e.getMessage());
        }
        return problems;
    }

    private static void killProcessesIn(String ns, List<String> problems) {
        CommandResult pids = Commands.tryRun(List.of("ip", "netns", "pids", ns));
        List<ProcessHandle> left = pids.stdout().lines().map(String::strip).filter(s -> s.matches("\\d+"))
                .map(Long::parseLong).flatMap(pid -> ProcessHandle.of(pid).stream()).toList();
        left.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.currentTimeMillis() + PROCESS_EXIT_WAIT_MILLIS;
        for (ProcessHandle p : left) {
            while (p.isAlive() && System.currentTimeMillis() < deadline) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (p.isAlive()) {
                problems.add("process " + p.pid() + " in namespace " + ns + " did not die on SIGKILL within "
                        + PROCESS_EXIT_WAIT_MILLIS + " ms");
            }
        }
    }

    private static void step(List<String> problems, List<String> command) {
        CommandResult r = Commands.tryRun(command);
        if (!r.ok()) {
            problems.add("`" + r.commandLine() + "` exited with status " + r.exitCode() + ": " + r.stderr().strip());
        }
    }

    /** Names of the network namespaces {@code ip netns list} shows. */
    static List<String> namespaces() {
        return Commands.tryRun(List.of("ip", "netns", "list")).stdout().lines().map(String::strip)
                .filter(l -> !l.isEmpty()).map(l -> l.split("\\s+")[0]).toList();
    }

    /** Names of the root namespace's links, without the {@code @peer} that veths show. */
    static List<String> links() {
        return Commands.tryRun(List.of("ip", "-o", "link", "show")).stdout().lines().map(l -> l.split(":\\s+"))
                .filter(f -> f.length > 1).map(f -> f[1].split("@")[0]).toList();
    }

    /** A rule of the root namespace's iptables tagged with a run's comment, as {@code iptables -S} prints it. */
    record Rule(String run, String table, List<String> spec) {
    }

    private static final Pattern SPACES = Pattern.compile("\\s+");

    /** The root namespace's iptables rules (filter table) that carry a run's comment. */
    static List<Rule> taggedRules() {
        List<Rule> rules = new ArrayList<>();
        CommandResult r = Commands.tryRun(List.of("iptables", "-w", "-t", "filter", "-S"));
        for (String line : r.stdout().lines().toList()) {
            List<String> spec = Arrays.stream(SPACES.split(line.strip())).map(t -> t.replace("\"", "")).toList();
            int comment = spec.indexOf("--comment");
            if (spec.size() > 1 && spec.get(0).equals("-A") && comment >= 0 && comment + 1 < spec.size()) {
                String tag = spec.get(comment + 1);
                RunNames.runOf(RunNames.TAG, tag).ifPresent(run -> rules.add(new Rule(run, "filter", spec)));
            }
        }
        return rules;
    }

    /** A tmpfs mounted by a run (its source is the run's tag). */
    record Mount(String run, String point) {
    }

    /** The tmpfs mounts of runs, from /proc/self/mounts; the deepest first, so that nested ones go first. */
    static List<Mount> tmpfsMounts() {
        List<Mount> mounts = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("tmpfs")) {
                    RunNames.runOf(RunNames.TAG, f[0]).ifPresent(run -> mounts.add(new Mount(run, unescape(f[1]))));
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        mounts.sort(Comparator.comparingInt((Mount m) -> m.point().length()).reversed());
        return mounts;
    }

    /** /proc/self/mounts writes a space, a tab, a newline and a backslash in a path as octal escapes. */
    private static String unescape(String path) {
        return path.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    private static List<String> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void deleteTree(Path dir, List<String> problems) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            problems.add("cannot delete " + dir + ": " + e.getMessage());
        }
    }
}
