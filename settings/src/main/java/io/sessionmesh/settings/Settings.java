package io.sessionmesh.settings;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * Where a program's settings come from: an optional properties file ({@code --config file}), then command-line
 * flags ({@code --name value}, {@code --name=value}, or a bare {@code --name} for a switch), flags winning over the
 * file. Each setting is read once, by name, through a typed getter that checks its range; any name left unread at
 * the end is an error ({@link #checkAllUsed()}), so a misspelt setting never passes silently. Every error names the
 * setting, where it came from and the bad value. The values read are recorded in reading order, formatted in the
 * units they can be written in, for the program to print at start ({@link #describe()}).
 *
 * <p>{@code --help} or {@code -h} anywhere asks for the usage text ({@link #helpRequested()}); {@link #read} turns
 * that and bad settings into the usual exits (0 after the usage, 2 after a message).
 *
 * <p>Measured against picocli for start-up cost before it was written this way: see benchmarks/RESULTS.md (settings).
 */
public final class Settings {
    /** The widest value {@link #usage()} lines its ranges up after. */
    static final int USAGE_VALUE_WIDTH = 24;
    /** The flag that names a properties file. */
    public static final String CONFIG_FLAG = "config";
    /** The value a switch given without one takes. */
    private static final String SWITCH = "\u0000switch";

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final Set<String> used = new LinkedHashSet<>();
    private final Map<String, String> effective = new LinkedHashMap<>();
    /** What each setting read so far accepts ("100ms..1m", "nio|epoll"), for {@link #usage()}; absent: any text. */
    private final Map<String, String> accepted = new LinkedHashMap<>();
    private boolean help;

    private Settings() {
    }

    /** Reads {@code --config file} first (if given), then the other flags over it. */
    public static Settings fromArgs(String... args) {
        Settings settings = new Settings();
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                settings.help = true;
                continue;
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("argument " + quote(arg) + " is not a flag; use --name value or --name=value");
            }
            String name;
            String value;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(2, eq);
                value = arg.substring(eq + 1);
            } else {
                name = arg.substring(2);
                boolean hasValue = i + 1 < args.length && !args[i + 1].startsWith("--");
                value = hasValue ? args[++i] : SWITCH;
            }
            if (flags.put(name, value) != null) {
                throw new IllegalArgumentException("flag --" + name + " is given twice");
            }
        }
        String file = flags.remove(CONFIG_FLAG);
        if (file != null) {
            if (file.equals(SWITCH)) {
                throw new IllegalArgumentException("flag --" + CONFIG_FLAG + " has no value: name a properties file");
            }
            settings.load(Path.of(file));
        }
        flags.forEach((k, v) -> settings.put(k, v, "flag --" + k));
        return settings;
    }

    /** Settings from a map (tests, servers started in-process). */
    public static Settings of(Map<String, String> settings) {
        Settings s = new Settings();
        settings.forEach((k, v) -> s.put(k, v, "setting " + k));
        return s;
    }

    /**
     * A program's settings from its arguments, or the process's exit: with {@code --help}, prints {@code usage} and
     * exits 0; when {@code reader} (or {@link #checkAllUsed()} after it) refuses a setting, prints
     * {@code "program: message"} to standard error and exits 2.
     */
    public static <T> T read(String program, String[] args, String usage, Function<Settings, T> reader) {
        try {
            Settings settings = fromArgs(args);
            if (settings.helpRequested()) {
                System.out.print(usage);
                System.exit(0);
            }
            T result = reader.apply(settings);
            settings.checkAllUsed();
            return result;
        } catch (IllegalArgumentException e) {
            PrintStream err = System.err;
            err.println(program + ": " + e.getMessage());
            System.exit(2);
            throw e; // not reached
        }
    }

    private void load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("config file " + file + " cannot be read: " + e.getMessage(), e);
        }
        for (String name : p.stringPropertyNames()) {
            put(name, p.getProperty(name), file + ": " + name);
        }
    }

    private void put(String name, String value, String origin) {
        values.put(name, value.equals(SWITCH) ? SWITCH : value.trim());
        origins.put(name, origin);
    }

    /** Whether {@code --help} or {@code -h} was given. */
    public boolean helpRequested() {
        return help;
    }

    /** Whether the setting was given at all (it counts as read). */
    public boolean isSet(String name) {
        used.add(name);
        return values.containsKey(name);
    }

    /** The raw value, or null when not given; a switch without a value is an error here. */
    private String raw(String name) {
        used.add(name);
        String v = values.get(name);
        if (v == SWITCH) {
            throw new IllegalArgumentException(origin(name) + " has no value");
        }
        return v;
    }

    private <T> T record(String name, T value, String shown) {
        effective.put(name, shown);
        return value;
    }

    public String string(String name, String fallback) {
        String v = raw(name);
        String result = v == null ? fallback : v;
        return record(name, result, result == null ? "(none)" : result);
    }

    /** A setting that is never printed: {@link #describe()} shows only whether it is set. */
    public String secret(String name) {
        String v = raw(name);
        String result = v == null || v.isEmpty() ? null : v;
        return record(name, result, result == null ? "(none)" : "(set)");
    }

    public int integer(String name, int fallback, int min, int max) {
        accepted.put(name, Setting.integerRange(min, max));
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, String.valueOf(fallback));
        }
        int n;
        try {
            n = Integer.parseInt(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw bad(name, v, "a whole number");
        }
        if (n < min || n > max) {
            throw bad(name, v, "a number in " + min + ".." + max);
        }
        return record(name, n, String.valueOf(n));
    }

    /** A port: 0..65535, where 0 means any free port. */
    public int port(String name, int fallback) {
        int p = integer(name, fallback, 0, 65535);
        return record(name, p, p == 0 ? "0 (any free port)" : String.valueOf(p));
    }

    /** {@code true}/{@code false} (also yes/no, on/off); a bare {@code --name} is true. */
    public boolean bool(String name, boolean fallback) {
        accepted.put(name, "true|false");
        used.add(name);
        String v = values.get(name);
        if (v == null) {
            return record(name, fallback, String.valueOf(fallback));
        }
        boolean b = switch (v) {
            case SWITCH, "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw bad(name, v, "true or false");
        };
        return record(name, b, String.valueOf(b));
    }

    public Duration duration(String name, Duration fallback, Duration min, Duration max) {
        accepted.put(name, Setting.durationRange(min, max));
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, Units.formatDuration(fallback));
        }
        Duration d;
        try {
            d = Units.parseDuration(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin(name) + ": " + e.getMessage(), e);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw bad(name, v, "a duration in " + Units.formatDuration(min) + ".." + Units.formatDuration(max));
        }
        return record(name, d, Units.formatDuration(d));
    }

    /** A size in bytes, with units ({@code 64k}, {@code 16m}). */
    public long size(String name, long fallback, long min, long max) {
        accepted.put(name, Setting.sizeRange(min, max));
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, Units.formatSize(fallback));
        }
        long n;
        try {
            n = Units.parseSize(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin(name) + ": " + e.getMessage(), e);
        }
        if (n < min || n > max) {
            throw bad(name, v, "a size in " + Units.formatSize(min) + ".." + Units.formatSize(max));
        }
        return record(name, n, Units.formatSize(n));
    }

    /** One of {@code allowed}. */
    public String choice(String name, String fallback, List<String> allowed) {
        accepted.put(name, String.join("|", allowed));
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, fallback);
        }
        if (!allowed.contains(v)) {
            throw bad(name, v, "one of " + String.join(", ", allowed));
        }
        return record(name, v, v);
    }

    /** A comma-separated list of distinct values of {@code allowed} (null: any non-empty values), in the order given. */
    public List<String> list(String name, List<String> fallback, List<String> allowed) {
        if (allowed != null) {
            accepted.put(name, "a list of " + String.join("|", allowed));
        }
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, String.join(",", fallback));
        }
        List<String> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String t = part.trim();
            if (t.isEmpty() || (allowed != null && !allowed.contains(t))) {
                throw bad(name, v, allowed == null ? "a comma-separated list without empty items"
                        : "a comma-separated list of " + String.join(", ", allowed));
            }
            if (out.contains(t)) {
                throw bad(name, v, "a list that names " + quote(t) + " once");
            }
            out.add(t);
        }
        return record(name, List.copyOf(out), String.join(",", out));
    }

    /** A comma-separated list of whole numbers, each in {@code min..max}. */
    public List<Integer> integers(String name, List<Integer> fallback, int min, int max) {
        accepted.put(name, "a list of " + Setting.integerRange(min, max));
        String v = raw(name);
        if (v == null) {
            return record(name, fallback, join(fallback));
        }
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            try {
                int n = Integer.parseInt(part.trim().replace("_", ""));
                if (n < min || n > max) {
                    throw new NumberFormatException();
                }
                out.add(n);
            } catch (NumberFormatException e) {
                throw bad(name, v, "a comma-separated list of numbers in " + min + ".." + max);
            }
        }
        return record(name, List.copyOf(out), join(out));
    }

    private static String join(List<Integer> numbers) {
        StringBuilder b = new StringBuilder();
        for (Integer n : numbers) {
            b.append(b.length() == 0 ? "" : ",").append(n);
        }
        return b.toString();
    }

    /** A path, as given (relative ones stay relative). */
    public Path path(String name, String fallback) {
        String v = string(name, fallback);
        return v == null ? null : Path.of(v);
    }

    /** {@code host:port}, unresolved. */
    public InetSocketAddress hostPort(String name, String fallback) {
        String v = string(name, fallback);
        try {
            return Units.parseHostPort(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin(name) + ": " + e.getMessage(), e);
        }
    }

    /** A comma-separated list of distinct {@code host:port}, unresolved. */
    public List<InetSocketAddress> hostPorts(String name, String fallback) {
        String v = string(name, fallback);
        List<InetSocketAddress> out = new ArrayList<>();
        for (List<InetSocketAddress> group : groups(name, v)) {
            if (group.size() != 1) {
                throw bad(name, v, "comma-separated host:port (no '|')");
            }
            out.add(group.get(0));
        }
        return List.copyOf(out);
    }

    /**
     * A comma-separated list of groups, each one {@code host:port} or several joined by {@code |} (the replicas of one
     * group), unresolved; every address distinct.
     */
    public List<List<InetSocketAddress>> hostPortGroups(String name, String fallback) {
        return groups(name, string(name, fallback));
    }

    private List<List<InetSocketAddress>> groups(String name, String v) {
        List<List<InetSocketAddress>> groups = new ArrayList<>();
        List<InetSocketAddress> seen = new ArrayList<>();
        for (String group : v.split(",", -1)) {
            List<InetSocketAddress> replicas = new ArrayList<>();
            for (String part : group.split("\\|", -1)) {
                InetSocketAddress a;
                try {
                    a = Units.parseHostPort(part.trim());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(origin(name) + ": " + e.getMessage(), e);
                }
                if (seen.contains(a)) {
                    throw bad(name, v, "a list that names " + quote(part.trim()) + " once");
                }
                seen.add(a);
                replicas.add(a);
            }
            groups.add(List.copyOf(replicas));
        }
        return List.copyOf(groups);
    }

    /** Replaces how a setting already read is shown by {@link #describe()} (a special value, say). */
    public void show(String name, String shown) {
        effective.put(name, shown);
    }

    /** Fails naming every setting that no one read: a typo, or a setting of another program. */
    public void checkAllUsed() {
        Set<String> unknown = new LinkedHashSet<>(values.keySet());
        unknown.removeAll(used);
        if (!unknown.isEmpty()) {
            StringBuilder b = new StringBuilder("unknown setting");
            b.append(unknown.size() > 1 ? "s: " : ": ");
            for (String name : unknown) {
                b.append(origin(name)).append("; ");
            }
            b.append("known: ").append(String.join(", ", used));
            throw new IllegalArgumentException(b.toString());
        }
    }

    /** The values read so far, one a line ({@code "  name   value"}), in the order they were read. */
    public String describe() {
        int width = effective.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
        StringBuilder b = new StringBuilder();
        effective.forEach((k, v) -> b.append("  ").append(k).append(" ".repeat(width - k.length())).append(v).append('\n'));
        return b.toString();
    }

    /**
     * For {@code --help}: the values read so far as {@link #describe()} shows them, each followed by what it accepts
     * (a range, "1.." when it has no upper bound, or the choices), in the order they were read.
     */
    public String usage() {
        return usage(effective, accepted);
    }

    /** Lines of {@code "  name  value  accepts"}, aligned, in the order of {@code values}; no accepts: nothing after it. */
    static String usage(Map<String, String> values, Map<String, String> accepts) {
        int width = values.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
        // a long value (a note in place of one) does not push every range to the right: past USAGE_VALUE_WIDTH it is
        // followed by two spaces instead
        int valueWidth = Math.min(USAGE_VALUE_WIDTH, values.values().stream().mapToInt(String::length).max().orElse(0)) + 2;
        StringBuilder b = new StringBuilder();
        values.forEach((k, v) -> {
            b.append("  ").append(k).append(" ".repeat(width - k.length())).append(v);
            String range = accepts.get(k);
            if (range != null) {
                b.append(" ".repeat(Math.max(2, valueWidth - v.length()))).append(range);
            }
            b.append('\n');
        });
        return b.toString();
    }

    /** The values read so far, by name, as {@link #describe()} shows them. */
    public Map<String, String> effective() {
        return Map.copyOf(effective);
    }

    /** Where a setting came from: "flag --name", "file: name" or "setting name". */
    public String origin(String name) {
        return origins.getOrDefault(name, name);
    }

    /** An error naming the setting, its origin and the bad value, for checks a program makes beyond the getters. */
    public IllegalArgumentException bad(String name, String value, String expected) {
        return new IllegalArgumentException(origin(name) + " = " + quote(value) + ": expected " + expected);
    }

    private static String quote(String s) {
        return '"' + s + '"';
    }
}
