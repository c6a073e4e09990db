package io.sessionmesh.master.config;

import io.sessionmesh.master.replication.GroupConfig;
import io.sessionmesh.master.store.MemoryBudget;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.registry.RegistrySettings;
import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.Setting;
import io.sessionmesh.settings.SettingList;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.transport.TransportLimits;

import java.nio.file.Path;
import java.time.Duration;

import static io.sessionmesh.master.config.MasterConfig.DEFAULT_CONNECTION_IDLE_TIMEOUT;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_ELECTION_TIMEOUT_MILLIS;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_LEASE;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_MAX_CONNECTIONS;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_MAX_FRAME_BYTES;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_MAX_HOLDERS_PER_PEER;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_MAX_IN_FLIGHT;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_MAX_OUTBOUND_BYTES;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_PORT;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_SHUTDOWN_GRACE;
import static io.sessionmesh.master.config.MasterConfig.DEFAULT_SNAPSHOT_EVERY;

/**
 * Every setting of a master, declared once: name, default, range and meaning. {@link MasterConfig} reads its values
 * through these declarations; {@code --help} and docs/configuration.md are rendered from them. The registry's settings
 * are {@link RegistrySettings}'s, shared with the sidecar.
 */
public final class MasterSettings {
    private static final Duration YEAR = Duration.ofDays(365);
    private static final StoreLimits STORE = StoreLimits.DEFAULT;

    public static final Setting<String> BIND = Setting.text("bind", "127.0.0.1").accepting("an address or host name")
            .means("The address the master protocol listens on. Without TLS anything that reaches it can read and write "
                    + "every session whose id it knows: beyond loopback, set `tls-cert`, `tls-key` and `tls-trust` "
                    + "(SECURITY.md).");
    public static final Setting<Boolean> PLAINTEXT_BEYOND_LOOPBACK = Setting.bool("plaintext-beyond-loopback", false)
            .means("Without TLS, a master whose `bind` (or, in a group, whose Raft address in `replicas`) is not a "
                    + "loopback address refuses to start, as Redis's protected mode does: anything that reaches its "
                    + "ports could read and write every session and steer the cluster. `true` starts it anyway, for a "
                    + "network that nothing else reaches (SECURITY.md).");
    public static final Setting<Integer> PORT = Setting.port("port", DEFAULT_PORT)
            .means("The master protocol's TCP port; 0 picks a free one, printed at start and written to the ready file.");
    public static final Setting<Integer> ADMIN_PORT = Setting.port("admin-port", 0).shownAs("off")
            .means("The HTTP admin endpoint, read-only, on its own event loop; off unless set, 0 picks a free port "
                    + "(printed, and `admin` in the ready file). `GET /health`: `{\"status\":\"UP\",\"sessions\":N}`, "
                    + "503 `DRAINING` while stopping. `GET`/`HEAD /metrics`: Prometheus text that passes "
                    + "`promtool check metrics`: the STATS figures as `sessionmesh_master_<name>` (a gauge for a level, "
                    + "a `_total` counter for a count), but the fence wait's percentiles, for which a histogram stands "
                    + "(`sessionmesh_master_fence_wait_seconds`), `lease_ms` (as `sessionmesh_master_lease_seconds`) "
                    + "and the registry writer's `registry_*` (reading them ends STATS's measured interval); then the "
                    + "JVM's memory, threads and CPU.");
    public static final Setting<String> ADMIN_BIND = Setting.text("admin-bind", "127.0.0.1")
            .accepting("an address or host name")
            .means("The admin endpoint's address; it shows figures only, never a session's data.");
    public static final Setting<Integer> IO_THREADS = Setting.integer("io-threads",
                    Runtime.getRuntime().availableProcessors(), 1, 256).shownAs("number of cores")
            .means("Netty event loop threads of the master protocol.");
    public static final Setting<String> IO_TRANSPORT = Setting.choice("io-transport", "auto", IoTransport.SETTING_VALUES)
            .means(IoTransport.SETTING_MEANING);

    public static final Setting<Duration> IDLE_TIMEOUT = Setting.duration("idle-timeout", STORE.defaultIdleTimeout(),
                    Duration.ofMillis(1), YEAR)
            .means("A session unused this long expires; a session may ask for its own, up to `max-idle-timeout`.");
    public static final Setting<Duration> MAX_IDLE_TIMEOUT = Setting.duration("max-idle-timeout", STORE.maxIdleTimeout(),
                    Duration.ofMillis(1), YEAR)
            .means("The longest idle timeout a session may ask for. Above 49 days it is refused at start: the protocol "
                    + "carries 32-bit milliseconds.");
    public static final Setting<Duration> MAX_LIFETIME = Setting.duration("max-lifetime", STORE.maxLifetime(),
                    Duration.ofMillis(1), YEAR.multipliedBy(10))
            .means("A session expires this long after its creation, used or not.");
    public static final Setting<Long> MAX_ATTRIBUTE = Setting.size("max-attribute", STORE.maxAttributeBytes(), 1, 1 << 30)
            .means("One attribute value. Over it, as over `max-section`, `max-session`, `max-sections` and "
                    + "`max-attributes-per-section`, a write is TOO_LARGE and nothing of it is applied.");
    public static final Setting<Long> MAX_SECTION = Setting.size("max-section", STORE.maxSectionBytes(), 1, 1 << 30)
            .means("One section in its wire form: names, values and their lengths.");
    public static final Setting<Long> MAX_SESSION = Setting.size("max-session", STORE.maxSessionBytes(), 1, 1 << 30)
            .means("One session: all its sections in wire form. It must fit in `max-frame` with 1k to spare (a whole "
                    + "session could not be read otherwise), or the master refuses to start.");
    public static final Setting<Integer> MAX_SECTIONS = Setting.integer("max-sections", STORE.maxSectionsPerSession(), 1,
                    TransportLimits.DEFAULT_MAX_SECTIONS_PER_MESSAGE)
            .means("Sections of one session.");
    public static final Setting<Integer> MAX_ATTRIBUTES_PER_SECTION = Setting.integer("max-attributes-per-section",
                    STORE.maxAttributesPerSection(), 1, TransportLimits.DEFAULT_MAX_ATTRIBUTES_PER_SECTION)
            .means("Attributes of one section.");
    public static final Setting<Integer> MAX_SESSIONS = Setting.integer("max-sessions", STORE.maxSessions(), 1,
                    Integer.MAX_VALUE)
            .means("Live sessions; over it CREATE is UNAVAILABLE.");
    public static final Setting<Long> MAX_STORE = Setting.size("max-store", STORE.maxStoreBytes(), 1, Long.MAX_VALUE)
            .shownAs(Math.round(StoreLimits.DEFAULT_STORE_HEAP_SHARE * 100) + "% of the heap")
            .means("The store's one memory budget: every byte it keeps counts (sections in wire form, a measured "
                    + MemoryBudget.SESSION_OVERHEAD + " B per session and " + MemoryBudget.SECTION_OVERHEAD
                    + " B per section, shared section names, schemas, deleted sessions not yet purged from the expiry "
                    + "wheel). Over it CREATE, a WRITE that grows and SCHEMA_PUBLISH are UNAVAILABLE, while reads, "
                    + "deletes and shrinking writes are served; STATS `budget_*` shows it by category. More than "
                    + Math.round(MemoryBudget.MAX_HEAP_SHARE * 100) + "% of the JVM's maximum heap is refused at start: "
                    + "the rest is for connections and requests in flight.");
    public static final Setting<Integer> MAX_SCHEMAS = Setting.integer("max-schemas", STORE.maxSchemas(), 1,
                    Integer.MAX_VALUE)
            .means("One-nio schemas held for the clients' schema exchange.");
    public static final Setting<Long> MAX_SCHEMA = Setting.size("max-schema", STORE.maxSchemaBytes(), 1, 16 << 20)
            .means("One schema.");

    public static final Setting<Long> MAX_FRAME = Setting.size("max-frame", DEFAULT_MAX_FRAME_BYTES, 1024,
                    TransportLimits.MAX_MESSAGE_BYTES_CEILING)
            .means("The body of one frame; a larger one is answered TOO_LARGE and skipped (PROTOCOL.md 3.3).");
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.integer("max-connections", DEFAULT_MAX_CONNECTIONS, 1,
                    1_000_000)
            .means("Open connections; more are answered UNAVAILABLE and closed.");
    public static final Setting<Integer> MAX_IN_FLIGHT = Setting.integer("max-in-flight", DEFAULT_MAX_IN_FLIGHT, 1, 1 << 20)
            .means("Requests of one connection read but not yet answered on the socket.");
    public static final Setting<Long> MAX_OUTBOUND = Setting.size("max-outbound", DEFAULT_MAX_OUTBOUND_BYTES, 64 << 10,
                    1L << 40)
            .means("Answers queued for one connection that does not read them; past it the connection is closed.");
    public static final Setting<Duration> CONNECTION_IDLE_TIMEOUT = Setting.duration("connection-idle-timeout",
                    DEFAULT_CONNECTION_IDLE_TIMEOUT, Duration.ofMillis(100), Duration.ofDays(1))
            .means("A connection from which nothing is read this long is closed.");
    public static final Setting<Duration> SHUTDOWN_GRACE = Setting.duration("shutdown-grace", DEFAULT_SHUTDOWN_GRACE,
                    Duration.ZERO, Duration.ofMinutes(10))
            .means("On SIGTERM: the time to finish answering before connections are cut.");
    public static final Setting<Duration> LEASE = Setting.duration("lease", DEFAULT_LEASE, Duration.ofMillis(100),
                    Duration.ofMinutes(1))
            .means("How long a sidecar may serve its cache after the master last heard from it on its control "
                    + "connection; the longest a write waits for a sidecar that does not confirm an invalidation "
                    + "(PROTOCOL.md 3.7).");
    public static final Setting<Integer> MAX_HOLDERS_PER_PEER = Setting.integer("max-holders-per-peer",
                    DEFAULT_MAX_HOLDERS_PER_PEER, 1, 1024)
            .means("Sidecars (holder ids) one peer may have registered at once: one certificate subject with TLS, one IP "
                    + "address without (PROTOCOL.md 3.7). A sidecar registers one per process, and a restarted one a "
                    + "new one while the old one's is kept until its lease runs out: a few allow restarts in a row.");
    public static final Setting<Path> TLS_CERT = Setting.path("tls-cert").shownAs("none (plain TCP)")
            .means("This master's certificate chain, PEM. Mutual TLS takes all three of `tls-cert`, `tls-key` and "
                    + "`tls-trust`, or none: TLS 1.3 only, and a connection without a client certificate the trusted "
                    + "authorities signed is closed in its handshake. The same files serve this master's own "
                    + "connections to other masters, and Raft between replicas (PROTOCOL.md 3.10, SECURITY.md).");
    public static final Setting<Path> TLS_KEY = Setting.path("tls-key").shownAs("none (plain TCP)")
            .means("This master's private key, PKCS#8 PEM.");
    public static final Setting<Path> TLS_TRUST = Setting.path("tls-trust").shownAs("none (plain TCP)")
            .means("The authorities whose client certificates (the sidecars', other masters') it accepts, PEM.");
    public static final Setting<Path> READY_FILE = Setting.path(ReadyFile.SETTING)
            .means("Once listening, write `pid` and `master=host:port` (and `admin`) to this file, a temporary file "
                    + "moved into place: how a supervisor or a test learns the port without reading the output.");

    public static final Setting<String> REPLICAS = Setting.text("replicas", null).shownAs("none (a master on its own)")
            .accepting("id=host:port/raftPort,...")
            .means("This master's group: every replica, this one included, as `id=host:port/raftPort` (`port` the "
                    + "master protocol's, which must be this one's `port`; `raftPort` Ratis's, between replicas), 1 to "
                    + GroupConfig.MAX_REPLICAS + " of them. With it the master is one replica of a group that agrees on "
                    + "every change through Raft (Apache Ratis): a change is acknowledged once a majority has it in its "
                    + "log on disk (PROTOCOL.md 3.8). Every replica is given the same list.");
    public static final Setting<String> REPLICA_ID = Setting.text("replica-id", null).shownAs("none: required")
            .accepting("an id in replicas").onlyWith(REPLICAS)
            .means("Which of the replicas this process is.");
    public static final Setting<Path> RAFT_DIR = Setting.path("raft-dir").shownAs("none: required").onlyWith(REPLICAS)
            .means("This replica's Raft log, vote and snapshots; it must survive restarts.");
    public static final Setting<String> GROUP = Setting.text("group", "main").onlyWith(REPLICAS)
            .means("The group's name; every replica of a group gives the same.");
    public static final Setting<Boolean> SYNC_LOG = Setting.bool("sync-log", true).onlyWith(REPLICAS)
            .means("Force each log write to disk before it counts toward a majority. False trades that for speed: a "
                    + "simultaneous crash of a majority (a power cut) can then lose the last changes.");
    public static final Setting<Duration> ELECTION_TIMEOUT = Setting.duration("election-timeout",
                    Duration.ofMillis(DEFAULT_ELECTION_TIMEOUT_MILLIS), Duration.ofMillis(50), Duration.ofMinutes(1))
            .onlyWith(REPLICAS)
            .means("The shortest time without the leader's heartbeat before a follower stands for election (the "
                    + "longest is twice that).");
    public static final Setting<Duration> LEASE_MARGIN = Setting.duration("lease-margin", Duration.ofMillis(200),
                    Duration.ZERO, Duration.ofMinutes(1)).onlyWith(REPLICAS)
            .means("What a new leader waits beyond one `lease` before it acknowledges writes: the old leader's "
                    + "sidecars stop serving their caches meanwhile.");
    public static final Setting<Integer> SNAPSHOT_EVERY = Setting.integer("snapshot-every", DEFAULT_SNAPSHOT_EVERY, 16,
                    Integer.MAX_VALUE).onlyWith(REPLICAS)
            .means("Log entries between snapshots, so that a restart replays little.");
    public static final Setting<String> RAFT_TRANSPORT = Setting.choice("raft-transport", GroupConfig.TRANSPORTS.get(0),
                    GroupConfig.TRANSPORTS).shownAs("netty; grpc with TLS").onlyWith(REPLICAS)
            .means("Ratis's transport between replicas: `netty`, or `grpc` (streaming appends; measured slower here: "
                    + "benchmarks/RESULTS.md 9 at 1f3fa7a). With TLS only grpc, Ratis's one transport with TLS: netty is refused.");
    public static final Setting<String> REGISTRY_OWNER = Setting.text("registry-owner", null)
            .shownAs("group:<name>, or the bound host:port").onlyWith(RegistrySettings.URL)
            .means("The name the registry records as the holder of this master's sessions: a re-sync ends the active "
                    + "rows of this name that its store no longer holds, so it must be stable across restarts and unique "
                    + "to this master (or group).");

    /** The master's own settings, in the order the reference lists them. */
    public static final SettingList OWN = SettingList.of(BIND, PLAINTEXT_BEYOND_LOOPBACK, PORT, ADMIN_PORT, ADMIN_BIND, IO_THREADS, IO_TRANSPORT,
            IDLE_TIMEOUT, MAX_IDLE_TIMEOUT, MAX_LIFETIME, MAX_ATTRIBUTE, MAX_SECTION, MAX_SESSION, MAX_SECTIONS,
            MAX_ATTRIBUTES_PER_SECTION, MAX_SESSIONS, MAX_STORE, MAX_SCHEMAS, MAX_SCHEMA,
            MAX_FRAME, MAX_CONNECTIONS, MAX_IN_FLIGHT, MAX_OUTBOUND, CONNECTION_IDLE_TIMEOUT, SHUTDOWN_GRACE, LEASE,
            MAX_HOLDERS_PER_PEER, TLS_CERT, TLS_KEY, TLS_TRUST, READY_FILE,
            REPLICAS, REPLICA_ID, RAFT_DIR, GROUP, SYNC_LOG, ELECTION_TIMEOUT, LEASE_MARGIN, SNAPSHOT_EVERY, RAFT_TRANSPORT,
            REGISTRY_OWNER);
    /** Everything a master reads: its own settings and the registry writer's. */
    public static final SettingList ALL = OWN.and(RegistrySettings.WRITER);

    private MasterSettings() {
    }
}
