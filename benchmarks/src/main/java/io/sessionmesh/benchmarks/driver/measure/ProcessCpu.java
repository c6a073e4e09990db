package io.sessionmesh.benchmarks.driver.measure;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of processes from their own counters in /proc (Linux): a server by its pid, and a server of many processes
 * (PostgreSQL: the postmaster, its background writers and every backend) as the sum over every process of that name,
 * which on a shared machine includes anyone else's. Read-only. The counters tick in hundredths of a second
 * ({@value #TICKS_PER_SECOND} a second): a window must hold many ticks for a figure to mean anything (15 s of a process
 * at half a core is 750 ticks, well under 1% of error).
 */
public final class ProcessCpu {
    /** USER_HZ on Linux: /proc counts CPU time in hundredths of a second. */
    public static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {
    }

    /** utime + stime of a process in ticks; 0 when it is gone (a backend that ended). */
    public static long ticks(long pid) {
        try {
            return parseTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * utime + stime from a /proc/[pid]/stat line: fields 14 and 15, counted after the command name, which is in
     * parentheses and may hold spaces and parentheses itself (so the last ')' ends it).
     */
    static long parseTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * utime + stime in ticks of a JVM's threads of each kind: {@code jit} (the C1 and C2 compiler threads) and
     * {@code gc} (the collector's threads and the VM thread, which runs the pauses), by their thread names in
     * /proc/[pid]/task/[tid]/comm. A thread that ended takes its ticks with it (the JVM stops idle compiler threads),
     * so a difference over a window is a floor, not exact.
     */
    public static Map<String, Long> jvmThreadTicks(long pid) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("jit", 0L);
        m.put("gc", 0L);
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks) {
                try {
                    String kind = threadKind(Files.readString(t.resolve("comm")).strip());
                    if (kind != null) {
                        m.merge(kind, parseTicks(Files.readString(t.resolve("stat"))), Long::sum);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        return m;
    }

    /** jit, gc or null (any other thread), from a HotSpot thread's name as /proc shows it (15 characters at most). */
    static String threadKind(String comm) {
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return "jit";
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("ParGC") || comm.startsWith("G1 ") || comm.equals("VM Thread")) {
            return "gc";
        }
        return null;
    }

    /** The pids of every process whose command name (/proc/[pid]/comm) is {@code name} now. */
    public static List<Long> pidsNamed(String name) throws IOException {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path d : dirs) {
                try {
                    if (Files.readString(d.resolve("comm")).strip().equals(name)) {
                        pids.add(Long.parseLong(d.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        }
        return pids;
    }

    /** The pids of every process named postgres now. */
    public static List<Long> postgresPids() throws IOException {
        return pidsNamed("postgres");
    }

    /** utime + stime of every postgres process now, in ticks. */
    public static long postgresTicks() throws IOException {
        long sum = 0;
        for (long pid : postgresPids()) {
            sum += ticks(pid);
        }
        return sum;
    }

    /** Microseconds of CPU in {@code ticks}. */
    public static double micros(long ticks) {
        return ticks * 1e6 / TICKS_PER_SECOND;
    }

    /** The 1-minute load average now. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * The CPU counters of a stack's processes at one moment, summed by role (a role may be several processes: a
     * sidecar on each host), the JVMs' JIT and GC threads apart, and this driver's own; a later snapshot
     * {@link #minus} an earlier one is what a window cost.
     *
     * @param ticks       utime + stime by role
     * @param threadTicks by role (JVMs only: not {@code redis}), of their {@code jit} and {@code gc} threads
     * @param driverTicks this process's
     */
    public record Snapshot(Map<String, Long> ticks, Map<String, Map<String, Long>> threadTicks, long driverTicks) {
        /** The counters now of {@code pidsByRole}'s processes. */
        public static Snapshot take(Map<String, List<Long>> pidsByRole) {
            Map<String, Long> ticks = new LinkedHashMap<>();
            Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
            pidsByRole.forEach((role, pids) -> {
                long sum = 0;
                Map<String, Long> kinds = new LinkedHashMap<>();
                for (long pid : pids) {
                    sum += ProcessCpu.ticks(pid);
                    if (!role.equals("redis")) {
                        jvmThreadTicks(pid).forEach((k, v) -> kinds.merge(k, v, Long::sum));
                    }
                }
                ticks.put(role, sum);
                if (!role.equals("redis")) {
                    threads.put(role, kinds);
                }
            });
            return new Snapshot(ticks, threads, ProcessCpu.ticks(ProcessHandle.current().pid()));
        }

        /** What was spent between {@code before} and this (a JVM's thread counter that fell, as a thread ended: 0). */
        public Snapshot minus(Snapshot before) {
            Map<String, Long> ticks = new LinkedHashMap<>();
            this.ticks.forEach((role, t) -> ticks.put(role, t - before.ticks.getOrDefault(role, 0L)));
            Map<String, Map<String, Long>> threads = new LinkedHashMap<>();
            threadTicks.forEach((role, kinds) -> {
                Map<String, Long> m = new LinkedHashMap<>();
                kinds.forEach((kind, t) -> m.put(kind, Math.max(0, t - before.threadTicks.getOrDefault(role, Map.of())
                        .getOrDefault(kind, 0L))));
                threads.put(role, m);
            });
            return new Snapshot(ticks, threads, driverTicks - before.driverTicks);
        }
    }
}
