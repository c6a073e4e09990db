package io.sessionmesh.settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One setting of a program, declared once as data: its name, the kind of value it takes, its default (and the words a
 * computed default is shown in: "number of cores"), what it accepts, what it means, and the setting it is read with
 * when it is read only with another. A program's config class reads each value through its declaration
 * ({@link #read}), which calls the {@link Settings} getter with the declared range: the range that refuses a value is
 * the range {@code --help} and docs/configuration.md show. A program lists its declarations in a {@link SettingList}.
 * (Kafka's ConfigDef, HikariConfig.)
 *
 * <pre>
 * static final Setting&lt;Duration&gt; LEASE = Setting.duration("lease", Duration.ofSeconds(2), Duration.ofMillis(100),
 *         Duration.ofMinutes(1)).means("how long a sidecar may serve its cache after the master last heard from it");
 * Duration lease = LEASE.read(settings);
 * </pre>
 *
 * <p>Immutable: {@link #means}, {@link #shownAs}, {@link #onlyWith}, {@link #accepting} and {@link #withDefault}
 * return a copy.
 *
 * @param <T> the value's type
 */
public final class Setting<T> {
    /** What a setting's value is: the getter of {@link Settings} that reads it, and how its range is written. */
    public enum Kind {
        /** Any text; a program that checks more says what in {@link #accepting}. */
        TEXT,
        /** A whole number in a range. */
        INTEGER,
        /** 0..65535, where 0 is any free port. */
        PORT,
        /** Bytes, with units ({@code 64k}, {@code 16m}). */
        SIZE,
        /** With units ({@code 500ms}, {@code 30s}, {@code 5m}). */
        DURATION,
        /** {@code true} or {@code false} (also yes/no, on/off; a bare flag is true). */
        BOOL,
        /** One of a fixed list of words. */
        CHOICE,
        /** A file or directory, as given. */
        PATH,
        /** Text that is never printed ({@link Settings#secret}). */
        SECRET
    }

    /** How a kind's getter reads the value: the {@link Settings} call with the declared range bound in. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(Settings settings, String name, T fallback);
    }

    private final String name;
    private final Kind kind;
    private final T fallback;
    private final String shownDefault;
    private final String accepts;
    private final String meaning;
    private final Setting<?> condition;
    private final Reader<T> reader;

    private Setting(String name, Kind kind, T fallback, String shownDefault, String accepts, String meaning,
                    Setting<?> condition, Reader<T> reader) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.fallback = fallback;
        this.shownDefault = shownDefault;
        this.accepts = accepts;
        this.meaning = meaning;
        this.condition = condition;
        this.reader = reader;
    }

    private static <T> Setting<T> of(String name, Kind kind, T fallback, String shown, String accepts, Reader<T> reader) {
        return new Setting<>(name, kind, fallback, shown, accepts, "", null, reader);
    }

    /** Any text ({@link Settings#string}); null: none. */
    public static Setting<String> text(String name, String fallback) {
        return of(name, Kind.TEXT, fallback, fallback == null ? "none" : fallback, "text", Settings::string);
    }

    /** A secret ({@link Settings#secret}): never printed, no default. */
    public static Setting<String> secret(String name) {
        return of(name, Kind.SECRET, null, "none", "text, never printed", (s, n, f) -> s.secret(n));
    }

    /** A path, as given ({@link Settings#path}); no default. */
    public static Setting<Path> path(String name) {
        return of(name, Kind.PATH, null, "none", "a path", (s, n, f) -> s.path(n, f == null ? null : f.toString()));
    }

    /** A whole number in {@code min..max} ({@link Settings#integer}). */
    public static Setting<Integer> integer(String name, int fallback, int min, int max) {
        return of(name, Kind.INTEGER, fallback, String.valueOf(fallback), "integer " + integerRange(min, max),
                (s, n, f) -> s.integer(n, f, min, max));
    }

    /** A port, 0..65535, where 0 is any free one ({@link Settings#port}). */
    public static Setting<Integer> port(String name, int fallback) {
        return of(name, Kind.PORT, fallback, fallback == 0 ? "0 (any free port)" : String.valueOf(fallback),
                "port " + integerRange(0, 65535), Settings::port);
    }

    /** A size in bytes in {@code min..max}, written with units ({@link Settings#size}). */
    public static Setting<Long> size(String name, long fallback, long min, long max) {
        return of(name, Kind.SIZE, fallback, Units.formatSize(fallback), "size " + sizeRange(min, max),
                (s, n, f) -> s.size(n, f, min, max));
    }

    /** A duration in {@code min..max}, written with units ({@link Settings#duration}). */
    public static Setting<Duration> duration(String name, Duration fallback, Duration min, Duration max) {
        return of(name, Kind.DURATION, fallback, Units.formatDuration(fallback), "duration " + durationRange(min, max),
                (s, n, f) -> s.duration(n, f, min, max));
    }

    /** {@code true} or {@code false} ({@link Settings#bool}). */
    public static Setting<Boolean> bool(String name, boolean fallback) {
        return of(name, Kind.BOOL, fallback, String.valueOf(fallback), "true or false", Settings::bool);
    }

    /** One of {@code allowed} ({@link Settings#choice}). */
    public static Setting<String> choice(String name, String fallback, List<String> allowed) {
        List<String> words = List.copyOf(allowed);
        if (!words.contains(fallback)) {
            throw new IllegalArgumentException(name + ": the default " + fallback + " is not one of " + words);
        }
        String accepts = words.size() == 1 ? words.get(0)
                : String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
        return of(name, Kind.CHOICE, fallback, fallback, accepts, (s, n, f) -> s.choice(n, f, words));
    }

    /** {@code min..max}, or {@code min..} when there is no upper bound: the form {@link Settings#usage()} shows. */
    static String integerRange(int min, int max) {
        return min + ".." + (max == Integer.MAX_VALUE ? "" : String.valueOf(max));
    }

    static String sizeRange(long min, long max) {
        return Units.formatSize(min) + ".." + (max == Long.MAX_VALUE ? "" : Units.formatSize(max));
    }

    static String durationRange(Duration min, Duration max) {
        return Units.formatDuration(min) + ".." + Units.formatDuration(max);
    }

    /** The value given, checked against the declared range, or the default. */
    public T read(Settings settings) {
        return reader.read(settings, name, fallback);
    }

    /** {@link #read(Settings)} with a default the program computes from other settings (say that in {@link #shownAs}). */
    public T read(Settings settings, T computedDefault) {
        return reader.read(settings, name, computedDefault);
    }

    /** Whether the setting was given at all (it counts as read: {@link Settings#isSet}). */
    public boolean isSet(Settings settings) {
        return settings.isSet(name);
    }

    /** This setting with what it means: a line or a few, Markdown (code in backticks), for docs/configuration.md. */
    public Setting<T> means(String text) {
        return new Setting<>(name, kind, fallback, shownDefault, accepts, text.strip(), condition, reader);
    }

    /** This setting with its default shown in words: a computed one ("number of cores"), or what none means ("off"). */
    public Setting<T> shownAs(String words) {
        return new Setting<>(name, kind, fallback, words, accepts, meaning, condition, reader);
    }

    /** This setting, read only when {@code other} is given: documented as such, and unknown without it. */
    public Setting<T> onlyWith(Setting<?> other) {
        return new Setting<>(name, kind, fallback, shownDefault, accepts, meaning, other, reader);
    }

    /**
     * This text setting with what it accepts in words ({@code "jdbc:postgresql://host:port/database"}), for a program
     * that checks the text itself. Only for {@link Kind#TEXT}: any other kind's range is the one its getter checks.
     */
    public Setting<T> accepting(String words) {
        if (kind != Kind.TEXT) {
            throw new IllegalStateException(name + " is a " + kind + " setting: what it accepts is its declared range");
        }
        return new Setting<>(name, kind, fallback, shownDefault, words, meaning, condition, reader);
    }

    /** This setting with another default (a program that runs another's with its own defaults, such as local mode). */
    public Setting<T> withDefault(T value, String shown) {
        return new Setting<>(name, kind, value, shown, accepts, meaning, condition, reader);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The default value, or null when there is none. */
    public T defaultValue() {
        return fallback;
    }

    /** The default as {@code --help} and the reference show it. */
    public String shownDefault() {
        return shownDefault;
    }

    /** What the setting accepts, in the words {@code --help} and the reference show ("duration 100ms..1m"). */
    public String accepts() {
        return accepts;
    }

    /** What the setting means, for the reference; empty until {@link #means} is given. */
    public String meaning() {
        return meaning;
    }

    /** The setting this one is read with, or null when it is always read. */
    public Setting<?> condition() {
        return condition;
    }

    @Override
    public String toString() {
        return name;
    }
}
