package io.sessionmesh.benchmarks.registry;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time of processes from /proc (Linux): a master by its pid, and PostgreSQL as the sum of every process named
 * {@code postgres} (the postmaster, its background writers and every backend: the registry's connections and, on a
 * shared machine, anyone else's). Read-only.
 */
public final class ProcessCpu {
    /** USER_HZ on Linux: /proc counts CPU time in hundredths of a second. */
    public static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {
    }

    /** utime + stime of a process in ticks; 0 when it is gone (a backend that ended). */
    public static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** The pids of every process named postgres now. */
    public static List<Long> postgresPids() throws IOException {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path d : dirs) {
                try {
                    if (Files.readString(d.resolve("comm")).strip().equals("postgres")) {
                        pids.add(Long.parseLong(d.getFileName().toString()));
                    }
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        }
        return pids;
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
}
