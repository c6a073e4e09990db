package io.sessionmesh.benchmarks.driver.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stop-the-world pauses and allocation stalls from a HotSpot unified GC log, for G1, Parallel and ZGC (single- and
 * multi-generation). The master is started with {@code -Xlog:gc*:file=gc.log:timemillis,uptime,level,tags} so that
 * each line carries the wall clock and pauses can be matched to the driver's phases.
 *
 * <p>A pause is a line of tag {@code gc} or {@code gc,phases} whose message holds {@code Pause} and ends with its
 * duration in ms:
 * <pre>
 * [1764147000123ms][12.345s][info][gc          ] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 18M->18M(256M) 4.4ms
 * [1764147000123ms][12.345s][info][gc,phases   ] GC(3) Pause Mark Start 0.006ms                 (ZGC, JDK 17)
 * [1764147000123ms][12.345s][info][gc,phases   ] GC(4) Y: Pause Mark Start (Major) 0.009ms      (generational ZGC)
 * </pre>
 * Lines without a duration ({@code gc,start}) and ZGC's statistics tables ({@code gc,stats}) are not pauses. A ZGC
 * allocation stall ({@code Allocation Stall (thread) 1.2ms}) stops one thread, not all: counted apart.
 */
final class GcLog {
    private static final Pattern LINE = Pattern.compile("^((?:\\[[^\\]]*\\])+)\\s*(.*)$");
    private static final Pattern DECORATION = Pattern.compile("\\[([^\\]]*)\\]");
    private static final Pattern WALL = Pattern.compile("^(\\d+)ms$");
    private static final Pattern PAUSE = Pattern.compile("\\b(Pause\\b.*?)\\s+(\\d+(?:\\.\\d+)?)ms$");
    private static final Pattern STALL = Pattern.compile("\\bAllocation Stall\\b.*?(\\d+(?:\\.\\d+)?)ms$");
    /** The heap figures G1 and Parallel put after a pause's name: {@code 18M->18M(256M)}. */
    private static final Pattern HEAP_CHANGE = Pattern.compile("\\s+\\d+[KMGT]?->\\d+[KMGT]?\\(\\d+[KMGT]?\\)$");

    /** One pause or stall: when it was logged (wall clock ms, -1 when the log has no {@code timemillis}), what, how long. */
    record Event(long wallMillis, String what, double millis, boolean stall) {
    }

    /** Count, percentiles (nearest rank), max and total of the pause durations in ms. */
    record Summary(int count, double p50, double p99, double max, double total) {
        static Summary of(List<Event> events) {
            double[] ms = events.stream().mapToDouble(Event::millis).sorted().toArray();
            if (ms.length == 0) {
                return new Summary(0, 0, 0, 0, 0);
            }
            return new Summary(ms.length, rank(ms, 0.50), rank(ms, 0.99), ms[ms.length - 1], Arrays.stream(ms).sum());
        }

        private static double rank(double[] sorted, double p) {
            int i = (int) Math.ceil(p * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }

    private GcLog() {
    }

    /** Every pause and stall of the log at {@code file} (none when it does not exist). */
    static List<Event> read(Path file) throws IOException {
        return Files.exists(file) ? parse(Files.readAllLines(file)) : List.of();
    }

    static List<Event> parse(List<String> lines) {
        List<Event> events = new ArrayList<>();
        for (String line : lines) {
            Event e = parse(line);
            if (e != null) {
                events.add(e);
            }
        }
        return events;
    }

    /** The pause or stall of one line, or null. */
    static Event parse(String line) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return null;
        }
        long wall = -1;
        String tags = null;
        Matcher d = DECORATION.matcher(m.group(1));
        while (d.find()) {
            String value = d.group(1).strip();
            Matcher w = WALL.matcher(value);
            if (w.matches()) {
                wall = Long.parseLong(w.group(1));
            } else if (value.equals("gc") || value.startsWith("gc,")) {
                tags = value;
            }
        }
        if (tags == null || !(tags.equals("gc") || tags.equals("gc,phases"))) {
            return null;
        }
        String message = m.group(2).strip();
        Matcher stall = STALL.matcher(message);
        if (stall.find()) {
            return new Event(wall, "Allocation Stall", Double.parseDouble(stall.group(1)), true);
        }
        Matcher pause = PAUSE.matcher(message);
        if (!pause.find()) {
            return null;
        }
        String what = HEAP_CHANGE.matcher(pause.group(1)).replaceFirst("");
        return new Event(wall, what, Double.parseDouble(pause.group(2)), false);
    }

    /** The pauses (not stalls) logged in [{@code fromMillis}, {@code toMillis}); all of them when the log has no wall clock. */
    static List<Event> pauses(List<Event> events, long fromMillis, long toMillis) {
        return between(events, fromMillis, toMillis, false);
    }

    /** The allocation stalls logged in [{@code fromMillis}, {@code toMillis}). */
    static List<Event> stalls(List<Event> events, long fromMillis, long toMillis) {
        return between(events, fromMillis, toMillis, true);
    }

    private static List<Event> between(List<Event> events, long fromMillis, long toMillis, boolean stalls) {
        return events.stream()
                .filter(e -> e.stall() == stalls)
                .filter(e -> e.wallMillis() < 0 || (e.wallMillis() >= fromMillis && e.wallMillis() < toMillis))
                .toList();
    }
}
