package io.sessionmesh.benchmarks.load;

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

    /** utime + stime of a process in nanoseconds (ticks times 10 ms); 0 when it is gone. */
    public static long nanos(long pid) {
        return ticks(pid) * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** {@code after - before}, key by key (CPU nanoseconds by process kind). */
    static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0L)));
        return out;
    }

    /** Milliseconds of CPU per request, by process kind, and their sum under "total". */
    static Map<String, Double> perRequest(Map<String, Long> cpuNanos, long requests) {
        Map<String, Double> out = new LinkedHashMap<>();
        double n = Math.max(1, requests);
        long total = 0;
        for (Map.Entry<String, Long> e : cpuNanos.entrySet()) {
            out.put(e.getKey(), Math.round(e.getValue() / 1e6 / n * 1000) / 1000.0);
            total += e.getValue();
        }
        out.put("total", Math.round(total / 1e6 / n * 1000) / 1000.0);
        return out;
    }
}
