package io.sessionmesh.benchmarks.driver.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory of another JVM, from outside: heap used after a full collection ({@code jcmd <pid> GC.run}, then
 * {@code GC.heap_info}) and the process's resident set ({@code VmRSS} of /proc/&lt;pid&gt;/status). Works for G1,
 * Parallel and ZGC (their {@code GC.heap_info} formats below); read-only apart from the collection it asks for.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>one jcmd, until it answers (a full GC of a large heap on a busy machine)</td>
 *       <td>{@value #JCMD_TIMEOUT_SECONDS} s</td></tr>
 * </table>
 */
final class JvmMemory {
    /** Longest wait for one jcmd. */
    static final long JCMD_TIMEOUT_SECONDS = 300;
    /** {@code used 12811K} (G1, Parallel) or {@code used 18M} (ZGC). */
    private static final Pattern USED = Pattern.compile("\\bused (\\d+)([KMG]?)\\b");
    private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB");

    /** Heap used after a full GC, and how long the jcmd that asked for it took. */
    record HeapAfterGc(long usedBytes, long gcMillis, String heapInfo) {
    }

    private JvmMemory() {
    }

    /** Runs a full GC in the JVM of {@code pid} and reads its heap use after it. */
    static HeapAfterGc afterFullGc(Path jcmd, long pid) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        jcmd(jcmd, pid, "GC.run");
        long gcMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String info = jcmd(jcmd, pid, "GC.heap_info");
        return new HeapAfterGc(usedHeapBytes(info), gcMillis, info);
    }

    /**
     * The heap's used bytes in a {@code GC.heap_info} answer: the sum of {@code used} over the heap's lines (G1's one
     * "garbage-first heap" line, Parallel's young and old generations, ZGC's "ZHeap"), leaving out Metaspace and class
     * space. -1 when no line gives it.
     */
    static long usedHeapBytes(String heapInfo) {
        long sum = 0;
        boolean found = false;
        for (String line : heapInfo.split("\n")) {
            if (line.contains("Metaspace") || line.contains("class space")) {
                continue;
            }
            Matcher m = USED.matcher(line);
            if (m.find()) {
                sum += Long.parseLong(m.group(1)) * unit(m.group(2));
                found = true;
            }
        }
        return found ? sum : -1;
    }

    private static long unit(String suffix) {
        return switch (suffix) {
            case "K" -> 1L << 10;
            case "M" -> 1L << 20;
            case "G" -> 1L << 30;
            default -> 1;
        };
    }

    /** Resident set of process {@code pid} in bytes; -1 when it cannot be read. */
    static long rssBytes(long pid) {
        try {
            return rssBytes(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        } catch (IOException e) {
            return -1;
        }
    }

    static long rssBytes(String procStatus) {
        Matcher m = RSS.matcher(procStatus);
        return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
    }

    private static String jcmd(Path jcmd, long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(jcmd + " " + pid + " " + command + " did not answer in " + JCMD_TIMEOUT_SECONDS + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(jcmd + " " + pid + " " + command + " failed (" + p.exitValue() + "): " + text);
        }
        return text;
    }
}
