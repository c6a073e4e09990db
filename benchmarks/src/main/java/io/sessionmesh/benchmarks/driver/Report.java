package io.sessionmesh.benchmarks.driver;

import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.floor.LoopbackFloor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every plan's report: a JSON document (what tools read: the options, the machine, every figure) and a markdown page
 * (what a person reads and the results page quotes: tables and lines), written side by side as {@code NAME.json} and
 * {@code NAME.md}. A plan adds to both as it goes; nothing is written until {@link #write}.
 */
public final class Report {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<String, Object> json = new LinkedHashMap<>();
    private final StringBuilder markdown = new StringBuilder();

    /** A report headed {@code title}. */
    public Report(String title) {
        markdown.append("# ").append(title).append("\n\n");
    }

    /** A report headed {@code title}, with the time it was begun ({@code when}) as its first figure. */
    public static Report stamped(String title) {
        return new Report(title).put("when", Instant.now().toString());
    }

    /** A figure (any JSON value: a number, a string, a list, a map) of the JSON document. */
    public Report put(String key, Object value) {
        json.put(key, value);
        return this;
    }

    /** A heading of the markdown page. */
    public Report heading(String title) {
        markdown.append("## ").append(title).append("\n\n");
        return this;
    }

    /** A paragraph (or lines) of the markdown page. */
    public Report text(String text) {
        markdown.append(text.strip()).append("\n\n");
        return this;
    }

    /** A block of fixed-width lines of the markdown page. */
    public Report code(String text) {
        markdown.append("```\n").append(text.strip()).append("\n```\n\n");
        return this;
    }

    /** A table of the markdown page: numbers right-aligned, each cell as given (format numbers with {@link #f}). */
    public Report table(List<String> header, List<List<String>> rows) {
        markdown.append(tableText(header, rows)).append('\n');
        return this;
    }

    /** A markdown table; a column of numbers only (or empty cells) is right-aligned. */
    static String tableText(List<String> header, List<List<String>> rows) {
        StringBuilder b = new StringBuilder("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int c = 0; c < header.size(); c++) {
            int column = c;
            boolean numeric = !rows.isEmpty() && rows.stream().allMatch(r -> r.get(column).matches("[-+0-9.,%x ]*"));
            b.append(numeric ? "---:|" : "---|");
        }
        b.append('\n');
        for (List<String> row : rows) {
            b.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return b.toString();
    }

    /** The markdown page so far. */
    public String markdown() {
        return markdown.toString();
    }

    /** The JSON document so far. */
    public Map<String, Object> json() {
        return json;
    }

    /** Writes {@code dir/name.json} and {@code dir/name.md}; answers the JSON file. */
    public Path write(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".json");
        JSON.writeValue(file.toFile(), json);
        Files.writeString(dir.resolve(name + ".md"), markdown);
        return file;
    }

    /** {@code value} with {@code decimals} decimals (empty for NaN): for tables. */
    public static String f(double value, int decimals) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    /** p50, p90, p99, p99.9 and max of a histogram of microseconds, in milliseconds, and its count. */
    public static Map<String, Object> latencyMs(Histogram micros) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", micros.getTotalCount());
        m.put("p50", ms(micros, 50));
        m.put("p90", ms(micros, 90));
        m.put("p99", ms(micros, 99));
        m.put("p99.9", ms(micros, 99.9));
        m.put("max", micros.getTotalCount() == 0 ? Double.NaN : micros.getMaxValue() / 1e3);
        return m;
    }

    /** A percentile of a histogram of microseconds, in milliseconds (NaN when empty). */
    public static double ms(Histogram micros, double percentile) {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getValueAtPercentile(percentile) / 1e3;
    }

    /** The machine's facts: cores, memory, the JVM, the OS, the load average now. */
    public static Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:") || line.startsWith("MemAvailable:")) {
                    String[] kv = line.split(":\\s+");
                    m.put(kv[0].equals("MemTotal") ? "memory" : "memory_available", kv[1].strip());
                }
            }
        } catch (IOException e) {
            // not Linux: no memory figures
        }
        m.put("load_average_1m", ProcessCpu.loadAverage());
        return m;
    }

    /**
     * The loopback floor of this run against {@code redis} ({@link LoopbackFloor}), or why it could not be measured
     * (no redis-benchmark on the PATH, say): a report says so rather than failing the run.
     */
    public static Map<String, Object> floor(InetSocketAddress redis) {
        try {
            return LoopbackFloor.measure(redis.getHostString(), redis.getPort());
        } catch (IOException | RuntimeException e) {
            return Map.of("not_measured", String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of("not_measured", "interrupted");
        }
    }
}
