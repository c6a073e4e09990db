package io.sessionmesh.registry;

import io.sessionmesh.settings.Setting;
import io.sessionmesh.settings.SettingList;

import java.time.Duration;

import static io.sessionmesh.registry.RegistryConfig.DEFAULT_BATCH;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_BUFFER;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_CONNECT_TIMEOUT;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_FLUSH;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_POOL;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_RETENTION;
import static io.sessionmesh.registry.RegistryConfig.DEFAULT_USER;
import static io.sessionmesh.registry.RegistryConfig.MAX_BATCH;
import static io.sessionmesh.registry.RegistryConfig.MAX_BUFFER;
import static io.sessionmesh.registry.RegistryConfig.MAX_POOL;
import static io.sessionmesh.registry.RegistryConfig.MIN_BUFFER;

/**
 * The active-session registry's settings, shared by the master (which writes it: {@link #WRITER}) and the sidecar
 * (whose admin endpoint queries it: {@link #QUERIES}); {@link RegistryConfig} reads them. docs/configuration.md is
 * generated from these declarations.
 */
public final class RegistrySettings {
    public static final Setting<String> URL = Setting.text("registry-url", null).shownAs("none (off)")
            .accepting(RegistryConfig.URL_PREFIX + "//host:port/database")
            .means("The PostgreSQL database of the active-session registry. Masters record their sessions' lifecycle in "
                    + "it, off the request path: a database that is down never fails a session operation. The sidecar's "
                    + "admin endpoint counts and lists sessions from it; without it those calls answer 503, while logging "
                    + "a principal out everywhere and looking a session up on its master work either way. Without it the "
                    + "registry is off (a master says `registry: off` at start). A `password=` parameter in it is never "
                    + "printed.");
    public static final Setting<String> USER = Setting.text("registry-user", DEFAULT_USER).onlyWith(URL)
            .means("The database account.");
    public static final Setting<String> PASSWORD = Setting.secret("registry-password").onlyWith(URL)
            .means("The account's password, in a `--config` file (the settings file docker-compose mounts) or the "
                    + "environment variable `" + RegistryConfig.PASSWORD_ENV + "`, which wins: as a flag it is refused, "
                    + "since `ps` shows flags to every user of the host.");
    public static final Setting<String> ID_KEY = Setting.secret("registry-id-key").onlyWith(URL)
            .means("The secret the registry keys its rows by: HMAC-SHA256 of each session id under it, never the id "
                    + "itself (an id is a bearer secret; the database's readers, DBAs and backups would hold every live "
                    + "session). Required with `registry-url`, the same on every master and sidecar of a registry, at "
                    + "least " + RegistryConfig.MIN_ID_KEY_CHARS + " characters (`openssl rand -hex 32`); in a "
                    + "`--config` file or the environment variable `" + RegistryConfig.ID_KEY_ENV + "`, which wins; as a "
                    + "flag it is refused. A new key orphans the rows written under the old one until every master "
                    + "re-syncs (at start).");
    public static final Setting<Duration> CONNECT_TIMEOUT = Setting.duration("registry-connect-timeout",
                    DEFAULT_CONNECT_TIMEOUT, Duration.ofMillis(250), Duration.ofSeconds(60)).onlyWith(URL)
            .means("The longest wait for a connection: a database that does not answer within it counts as down.");
    public static final Setting<Integer> POOL = Setting.integer("registry-pool", DEFAULT_POOL, 1, MAX_POOL).onlyWith(URL)
            .means("Connections of the master's writer: it uses one at a time; the other serves retention and a "
                    + "re-sync's second statement. More only wait for each other. (A sidecar's queries use "
                    + DEFAULT_POOL + ".)");
    public static final Setting<Integer> BUFFER = Setting.integer("registry-buffer", DEFAULT_BUFFER, MIN_BUFFER, MAX_BUFFER)
            .onlyWith(URL)
            .means("Events waiting while the database is slow or away, about 100 bytes each. One more and the buffer is "
                    + "dropped and a full re-sync from the store covers it: never a silent loss "
                    + "(`registry_resync_covered_events` counts them).");
    public static final Setting<Integer> BATCH = Setting.integer("registry-batch", DEFAULT_BATCH, 1, MAX_BATCH)
            .onlyWith(URL)
            .means("Events written in one statement.");
    public static final Setting<Duration> FLUSH = Setting.duration("registry-flush", DEFAULT_FLUSH, Duration.ofMillis(1),
                    Duration.ofSeconds(10)).onlyWith(URL)
            .means("How long a batch gathers events after its first before it is written with what there is (sooner "
                    + "when full): the lag's floor, and fewer, larger commits.");
    public static final Setting<Duration> RETENTION = Setting.duration("registry-retention", DEFAULT_RETENTION,
                    Duration.ofMinutes(1), Duration.ofDays(30)).onlyWith(URL)
            .means("How long the rows of ended sessions stay.");

    /** What a master reads: the database and how its writer batches. */
    public static final SettingList WRITER = SettingList.of(URL, USER, PASSWORD, ID_KEY, CONNECT_TIMEOUT, POOL, BUFFER,
            BATCH, FLUSH, RETENTION);
    /** What a sidecar reads, for its admin endpoint's queries: the database only. */
    public static final SettingList QUERIES = SettingList.of(URL, USER, PASSWORD, ID_KEY, CONNECT_TIMEOUT);

    private RegistrySettings() {
    }
}
