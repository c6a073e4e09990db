package io.sessionmesh.benchmarks.load;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of processes from their own counters (user plus system, as the kernel counts them: on Linux
 * {@code /proc/<pid>/stat}, read through {@link ProcessHandle.Info#totalCpuDuration()}), for CPU per request.
 * The kernel counts in clock ticks (10 ms here), so a phase of seconds at thousands of requests a second gives CPU
 * per request to well under a percent.
 */
final class ProcessCpuTime {
    private ProcessCpuTime() {
    }

    /** This JVM's CPU time so far, in nanoseconds. */
    static long ofThisJvm() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return of(ProcessHandle.current().pid());
    }

    /** The CPU time of process {@code pid} so far, in nanoseconds; 0 when it is gone or cannot be read. */
    static long of(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
    }

    /** {@code after - before}, key by key. */
    static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0L)));
        return out;
    }

    /** Milliseconds of CPU per request, by process kind, and their sum under "total". */
    static Map<String, Double> perRequest(Map<String, Long> cpu, long requests) {
        Map<String, Double> out = new LinkedHashMap<>();
        double n = Math.max(1, requests);
        long total = 0;
        for (Map.Entry<String, Long> e : cpu.entrySet()) {
            out.put(e.getKey(), Math.round(e.getValue() / 1e6 / n * 1000) / 1000.0);
            total += e.getValue();
        }
        out.put("total", Math.round(total / 1e6 / n * 1000) / 1000.0);
        return out;
    }
}
