package io.sessionmesh.master.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Where a server's settings come from: an optional properties file ({@code --config file}), then command-line
 * flags ({@code --name value} or {@code --name=value}), flags winning. Each setting is read once by name; any
 * name left unread at the end is an error ({@link #checkAllUsed()}), so a misspelt setting never passes
 * silently. Every error names the setting and the bad value.
 */
public final class ConfigSource {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> origins = new LinkedHashMap<>();
    private final Set<String> used = new LinkedHashSet<>();

    private ConfigSource() {
    }

    /** Reads {@code --config file} first (if given), then the other flags over it. */
    public static ConfigSource fromArgs(String... args) {
        ConfigSource source = new ConfigSource();
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
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
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("flag --" + name + " has no value");
                }
                value = args[++i];
            }
            if (flags.put(name, value) != null) {
                throw new IllegalArgumentException("flag --" + name + " is given twice");
            }
        }
        String file = flags.remove("config");
        if (file != null) {
            source.load(Path.of(file));
        }
        flags.forEach((k, v) -> source.put(k, v, "flag --" + k));
        return source;
    }

    /** Settings from a map (tests, embedded servers). */
    public static ConfigSource of(Map<String, String> settings) {
        ConfigSource source = new ConfigSource();
        settings.forEach((k, v) -> source.put(k, v, "setting " + k));
        return source;
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
        values.put(name, value.trim());
        origins.put(name, origin);
    }

    public String string(String name, String fallback) {
        used.add(name);
        return values.getOrDefault(name, fallback);
    }

    public int integer(String name, int fallback, int min, int max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
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
        return n;
    }

    public boolean bool(String name, boolean fallback) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
        }
        return switch (v) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw bad(name, v, "true or false");
        };
    }

    public Duration duration(String name, Duration fallback, Duration min, Duration max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
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
        return d;
    }

    public long size(String name, long fallback, long min, long max) {
        String v = string(name, null);
        if (v == null) {
            return fallback;
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
        return n;
    }

    /** Fails naming every setting that no one read: a typo, or a setting of another server. */
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

    private String origin(String name) {
        return origins.getOrDefault(name, name);
    }

    private IllegalArgumentException bad(String name, String value, String expected) {
        return new IllegalArgumentException(origin(name) + " = " + quote(value) + ": expected " + expected);
    }

    private static String quote(String s) {
        return '"' + s + '"';
    }
}
