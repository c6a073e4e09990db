package io.sessionmesh.registry;

import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the active-session registry lives and how a master writes to it. Read once at start from {@link Settings}
 * ({@link #forWriter} for a master, {@link #forQueries} for a sidecar's admin endpoint); the registry is off when
 * {@code registry-url} is not given. Durations take units (20ms, 2s, 1h, 30d).
 *
 * <p>The settings, their defaults and ranges are declared in {@link RegistrySettings}; what each means is in
 * docs/configuration.md, generated from those declarations.
 *
 * <p>The canonical constructor checks only that values are usable (positive), not the settings' ranges, so tests
 * can build a tiny buffer or a short retention.
 *
 * @param jdbcUrl the database, {@code jdbc:postgresql:...}
 * @param user its user
 * @param password its password, empty for none
 * @param poolSize connections in the pool
 * @param bufferEvents the most events waiting before the buffer is cleared and a re-sync covers them
 * @param batchEvents the most events in one statement
 * @param flushInterval how long a batch gathers events after its first
 * @param retention how long ended sessions' rows stay
 * @param connectTimeout longest wait for a connection
 * @param idKey the secret rows are keyed by ({@link SessionKeys}: HMAC-SHA256 of each session id under it), at least
 *     {@value #MIN_ID_KEY_CHARS} characters; the same on every master and sidecar of a registry
 */
public record RegistryConfig(String jdbcUrl, String user, String password, int poolSize, int bufferEvents,
                             int batchEvents, Duration flushInterval, Duration retention, Duration connectTimeout,
                             String idKey) {
    /** The database user when none is given. */
    public static final String DEFAULT_USER = "postgres";
    /** Connections when none are given. */
    public static final int DEFAULT_POOL = 2;
    /** More connections than this only wait for each other: one writer thread uses them. */
    public static final int MAX_POOL = 16;
    /** Buffered events when not given: at about 100 bytes each, 10 MB. */
    public static final int DEFAULT_BUFFER = 100_000;
    /** The smallest buffer the settings accept: below it, a short outage already means a re-sync. */
    public static final int MIN_BUFFER = 1_000;
    /** The largest buffer the settings accept: about 1 GB of events. */
    public static final int MAX_BUFFER = 10_000_000;
    /** Events in one statement when not given. */
    public static final int DEFAULT_BATCH = 1_000;
    /** The most events in one statement: 8 arrays of this length travel as its parameters. */
    public static final int MAX_BATCH = 10_000;
    /** How long a batch gathers events after its first, when not given. */
    public static final Duration DEFAULT_FLUSH = Duration.ofMillis(20);
    /** How long ended rows stay when not given. */
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(1);
    /** Longest wait for a connection when not given. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** What every registry URL starts with. */
    public static final String URL_PREFIX = "jdbc:postgresql:";
    /** The environment variable the registry password is read from; it wins over {@code registry-password}. */
    public static final String PASSWORD_ENV = "SESSIONMESH_REGISTRY_PASSWORD";
    /** The environment variable the row key's secret is read from; it wins over {@code registry-id-key}. */
    public static final String ID_KEY_ENV = "SESSIONMESH_REGISTRY_ID_KEY";
    /** The shortest {@code registry-id-key}: 128 bits as hex (a guessable key would let ids be checked). */
    public static final int MIN_ID_KEY_CHARS = 32;

    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&]password=)[^&]*");

    public RegistryConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        Objects.requireNonNull(flushInterval, "flushInterval");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(idKey, "idKey");
        if (idKey.length() < MIN_ID_KEY_CHARS) {
            throw new IllegalArgumentException("registry-id-key is " + idKey.length() + " characters: at least "
                    + MIN_ID_KEY_CHARS + " (openssl rand -hex 32 makes one)");
        }
        if (!jdbcUrl.startsWith(URL_PREFIX)) {
            throw new IllegalArgumentException("registry URL " + redact(jdbcUrl) + ": expected " + URL_PREFIX + "...");
        }
        if (poolSize < 1 || bufferEvents < 1 || batchEvents < 1) {
            throw new IllegalArgumentException("pool " + poolSize + ", buffer " + bufferEvents + ", batch " + batchEvents
                    + ": expected 1 or more each");
        }
        if (flushInterval.isNegative() || flushInterval.isZero() || retention.isNegative() || retention.isZero()
                || connectTimeout.toMillis() < 250) {
            throw new IllegalArgumentException("flush " + flushInterval + ", retention " + retention + ", connect timeout "
                    + connectTimeout + ": expected positive durations, the connect timeout 250 ms or more");
        }
    }

    /** A master's registry settings, or null when {@code registry-url} is not given (the registry is off). */
    public static RegistryConfig forWriter(Settings s) {
        return forWriter(s, System.getenv());
    }

    /** {@link #forWriter(Settings)} with this environment (where {@value #PASSWORD_ENV} is looked up). */
    static RegistryConfig forWriter(Settings s, java.util.Map<String, String> environment) {
        String url = url(s);
        if (url == null) {
            return null;
        }
        String user = RegistrySettings.USER.read(s);
        String password = password(s, environment);
        String idKey = idKey(s, environment);
        Duration connectTimeout = RegistrySettings.CONNECT_TIMEOUT.read(s);
        return new RegistryConfig(url, user, password, RegistrySettings.POOL.read(s), RegistrySettings.BUFFER.read(s),
                RegistrySettings.BATCH.read(s), RegistrySettings.FLUSH.read(s), RegistrySettings.RETENTION.read(s),
                connectTimeout, idKey);
    }

    /**
     * A sidecar's settings for reading the registry, or null when {@code registry-url} is not given: only
     * {@link RegistrySettings#QUERIES} are read; the rest take their defaults.
     */
    public static RegistryConfig forQueries(Settings s) {
        return forQueries(s, System.getenv());
    }

    /** {@link #forQueries(Settings)} with this environment (where {@value #PASSWORD_ENV} is looked up). */
    static RegistryConfig forQueries(Settings s, java.util.Map<String, String> environment) {
        String url = url(s);
        if (url == null) {
            return null;
        }
        String user = RegistrySettings.USER.read(s);
        String password = password(s, environment);
        String idKey = idKey(s, environment);
        return new RegistryConfig(url, user, password, DEFAULT_POOL, DEFAULT_BUFFER, DEFAULT_BATCH, DEFAULT_FLUSH,
                DEFAULT_RETENTION, RegistrySettings.CONNECT_TIMEOUT.read(s), idKey);
    }

    /**
     * The password: the environment variable {@value #PASSWORD_ENV}, else {@code registry-password} from a
     * {@code --config} file; never a command-line flag, which {@code ps} shows to every user of the host (SECURITY.md).
     */
    private static String password(Settings s, java.util.Map<String, String> environment) {
        return secret(s, RegistrySettings.PASSWORD, PASSWORD_ENV, environment, false);
    }

    /**
     * A secret setting: the environment variable {@code env} (stripped when {@code strip}), else the setting from a
     * {@code --config} file; IllegalArgumentException naming where it goes when it was given as a flag.
     */
    private static String secret(Settings s, io.sessionmesh.settings.Setting<String> setting, String env,
                                 java.util.Map<String, String> environment, boolean strip) {
        String name = setting.name();
        String given = setting.read(s);
        if (given != null && s.origin(name).startsWith("flag ")) {
            throw new IllegalArgumentException("flag --" + name + ": a secret on the command line is visible to every user "
                    + "of the host (ps); put " + name + "=... in a --config file only this user may read, or in the "
                    + "environment variable " + env);
        }
        String fromEnv = environment.get(env);
        return fromEnv != null && !fromEnv.isEmpty() ? (strip ? fromEnv.strip() : fromEnv) : given;
    }

    /**
     * The secret rows are keyed by: the environment variable {@value #ID_KEY_ENV}, else {@code registry-id-key} from a
     * {@code --config} file; never a flag; required with {@code registry-url}, since the registry never stores a
     * session id.
     */
    private static String idKey(Settings s, java.util.Map<String, String> environment) {
        String name = RegistrySettings.ID_KEY.name();
        String key = secret(s, RegistrySettings.ID_KEY, ID_KEY_ENV, environment, true);
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("registry-url is set but " + name + " is not: the registry keys its rows "
                    + "by a keyed hash of each session id, never the id itself; give every master and sidecar of this "
                    + "registry the same secret of " + MIN_ID_KEY_CHARS + "+ characters (openssl rand -hex 32) as " + name
                    + "=... in a --config file or the environment variable " + ID_KEY_ENV);
        }
        String env = environment.get(ID_KEY_ENV);
        s.show(name, "(set" + (env != null && !env.isEmpty() ? ", from " + ID_KEY_ENV : "") + ")");
        return key;
    }

    private static String url(Settings s) {
        if (!RegistrySettings.URL.isSet(s)) {
            return null;
        }
        String url = RegistrySettings.URL.read(s);
        String name = RegistrySettings.URL.name();
        if (!url.startsWith(URL_PREFIX)) {
            throw s.bad(name, redact(url), "a PostgreSQL JDBC URL, " + URL_PREFIX + "//host:port/database");
        }
        s.show(name, redact(url));
        return url;
    }

    /** The URL with any {@code password=} parameter's value hidden, for messages and logs. */
    String redactedUrl() {
        return redact(jdbcUrl);
    }

    static String redact(String url) {
        return PASSWORD_PARAMETER.matcher(url).replaceAll("$1(hidden)");
    }

    /** One line for the start-up log: every field but the password (which shows only whether it is set). */
    public String describe() {
        return "registry " + redactedUrl() + " user " + user + (password.isEmpty() ? "" : " (password set)")
                + ", pool " + poolSize + ", buffer " + bufferEvents + " events, batch " + batchEvents
                + ", flush " + Units.formatDuration(flushInterval) + ", retention " + Units.formatDuration(retention)
                + ", connect timeout " + Units.formatDuration(connectTimeout);
    }

    /** Like {@link #describe()}: the record's generated form would print the password. */
    @Override
    public String toString() {
        return describe();
    }
}
