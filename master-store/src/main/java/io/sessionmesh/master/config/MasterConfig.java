package io.sessionmesh.master.config;

import io.sessionmesh.master.replication.GroupConfig;
import io.sessionmesh.master.store.MemoryBudget;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.registry.RegistryConfig;
import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.tls.TlsFiles;
import io.sessionmesh.wire.transport.TransportLimits;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Everything a master is started with: where it listens, the limits of its connections, and the limits of its
 * store. Read once at start from a properties file and flags ({@link Settings}), validated, and printed
 * ({@link #describe()}). Sizes and durations take units ({@code 64m}, {@code 30s}).
 *
 * <table>
 *   <caption>Settings (flag or file key) and defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>bind</td><td>127.0.0.1</td><td>address to listen on</td></tr>
 *   <tr><td>port</td><td>{@value #DEFAULT_PORT}</td><td>TCP port; 0 picks a free one (printed at start)</td></tr>
 *   <tr><td>admin-port</td><td>off</td><td>the HTTP admin endpoint, read-only: {@code GET /health} and
 *       {@code GET}/{@code HEAD /metrics} (Prometheus text, {@link io.sessionmesh.master.admin.MasterAdminServer});
 *       0 picks a free port (printed at start and written to the ready file as {@code admin})</td></tr>
 *   <tr><td>admin-bind</td><td>127.0.0.1</td><td>its address; it shows figures, never a session's data</td></tr>
 *   <tr><td>io-threads</td><td>number of cores</td><td>Netty event loop threads</td></tr>
 *   <tr><td>io-transport</td><td>auto</td><td>the sockets' event loops: {@code epoll} (Linux's, through Netty's
 *       native library: less CPU a request), {@code nio} (the JDK's selector, anywhere), or {@code auto}: epoll where
 *       its library loads, else nio ({@link IoTransport})</td></tr>
 *   <tr><td>max-connections</td><td>{@value #DEFAULT_MAX_CONNECTIONS}</td><td>open connections; more are answered UNAVAILABLE and closed</td></tr>
 *   <tr><td>max-in-flight</td><td>{@value #DEFAULT_MAX_IN_FLIGHT}</td><td>requests of one connection read but not yet answered on the socket</td></tr>
 *   <tr><td>max-frame</td><td>32m</td><td>body of one frame; a larger one is answered TOO_LARGE and skipped</td></tr>
 *   <tr><td>max-outbound</td><td>64m</td><td>answers queued for one connection that does not read them; past it the connection is closed</td></tr>
 *   <tr><td>connection-idle-timeout</td><td>2m</td><td>a connection from which nothing is read this long is closed</td></tr>
 *   <tr><td>shutdown-grace</td><td>10s</td><td>on SIGTERM: time to finish answering before connections are cut</td></tr>
 *   <tr><td>lease</td><td>2s</td><td>how long a cache (sidecar) may serve what it holds after the master last heard
 *       from it on its control connection; the longest a write waits for a cache that does not confirm an invalidation</td></tr>
 *   <tr><td>tls-cert, tls-key, tls-trust</td><td>none (plain TCP)</td><td>mutual TLS on this port (all three or none,
 *       PEM files: this master's certificate chain, its PKCS#8 key, the authorities that sign the sidecars'): a
 *       connection without a client certificate those authorities signed is closed in its handshake; the same files
 *       serve this master's own connections to other masters ({@link TlsFiles}, PROTOCOL.md 3.10)</td></tr>
 *   <tr><td>max-holders-per-peer</td><td>{@value #DEFAULT_MAX_HOLDERS_PER_PEER}</td><td>caches (holder ids) one peer
 *       may have registered at once: one certificate subject with TLS, one IP address without (PROTOCOL.md 3.7)</td></tr>
 *   <tr><td>replicas</td><td>none (a master on its own)</td><td>this master's group, every replica as
 *       {@code id=host:port/raftPort} (port: this protocol's, raftPort: Ratis's), 1 to {@value GroupConfig#MAX_REPLICAS};
 *       with it the master is a replica ({@link io.sessionmesh.master.replication.ReplicaGroup})</td></tr>
 *   <tr><td>replica-id</td><td>required with replicas</td><td>which of the replicas this process is</td></tr>
 *   <tr><td>raft-dir</td><td>required with replicas</td><td>this replica's Raft log, vote and snapshots; must survive restarts</td></tr>
 *   <tr><td>group</td><td>main</td><td>the group's name (every replica of a group gives the same)</td></tr>
 *   <tr><td>sync-log</td><td>true</td><td>force each log write to disk before it counts toward a majority</td></tr>
 *   <tr><td>election-timeout</td><td>{@value #DEFAULT_ELECTION_TIMEOUT_MILLIS}ms</td><td>the shortest time without a
 *       leader's heartbeat before a follower stands for election (the longest is twice that)</td></tr>
 *   <tr><td>lease-margin</td><td>200ms</td><td>what a new leader waits beyond one lease before acknowledging writes</td></tr>
 *   <tr><td>raft-transport</td><td>netty (grpc with TLS)</td><td>Ratis's transport between replicas: netty, or grpc (streaming
 *       appends; measured slower here: benchmarks/RESULTS.md 9)</td></tr>
 *   <tr><td>snapshot-every</td><td>{@value #DEFAULT_SNAPSHOT_EVERY}</td><td>log entries between snapshots</td></tr>
 *   <tr><td>registry-url and the other registry-* settings</td><td>none (no registry)</td><td>the PostgreSQL
 *       active-session registry this master records its sessions' lifecycle in ({@link RegistryConfig}: user,
 *       password, pool, buffer, batch, flush, retention, connect-timeout); off the request path, a database that is
 *       down never fails a session operation</td></tr>
 *   <tr><td>registry-owner</td><td>the group's name, or the bound host:port</td><td>the name the registry records as
 *       the holder of this master's sessions: a re-sync ends the active rows of this name its store no longer has, so
 *       it must be stable across restarts and unique to this master (or group)</td></tr>
 *   <tr><td>ready-file</td><td>none</td><td>once listening, write {@code pid} and {@code master=host:port} there
 *       ({@link ReadyFile}): how a supervisor or a test learns the port</td></tr>
 *   <tr><td>idle-timeout, max-idle-timeout, max-lifetime, max-attribute, max-attributes-per-section,
 *       max-section, max-sections, max-session, max-sessions, max-store, max-schemas, max-schema</td>
 *       <td>see {@link StoreLimits}</td><td>the store's limits; max-store is the store's one memory budget
 *       ({@link MemoryBudget}), at most 70% of the JVM's maximum heap (more is refused at start)</td></tr>
 * </table>
 */
public final class MasterConfig {
    public static final int DEFAULT_PORT = 7400;
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;
    public static final int DEFAULT_MAX_IN_FLIGHT = 1024;
    public static final int DEFAULT_MAX_FRAME_BYTES = 32 << 20;
    public static final long DEFAULT_MAX_OUTBOUND_BYTES = 64L << 20;
    public static final Duration DEFAULT_CONNECTION_IDLE_TIMEOUT = Duration.ofMinutes(2);
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(2);
    public static final long DEFAULT_ELECTION_TIMEOUT_MILLIS = 500;
    public static final int DEFAULT_SNAPSHOT_EVERY = 100_000;
    /**
     * Holders one peer may have registered at once. A sidecar registers one per process; a restarted one registers a
     * new one while the old one's slot is kept until its lease runs out, so a few are needed for restarts in a row.
     */
    public static final int DEFAULT_MAX_HOLDERS_PER_PEER = 8;

    private final String bind;
    private final String adminBind;
    /** The HTTP admin endpoint's port (0: any free one), or -1 when it is off. */
    private final int adminPort;
    private final int port;
    private final int ioThreads;
    private final IoTransport ioTransport;
    private final int maxConnections;
    private final int maxInFlight;
    private final int maxFrameBytes;
    private final long maxOutboundBytes;
    private final Duration connectionIdleTimeout;
    private final Duration shutdownGrace;
    private final Duration lease;
    private final StoreLimits store;
    private final Path readyFile;
    private final GroupConfig group;
    private final TlsFiles tls;
    private final int maxHoldersPerPeer;
    private final RegistryConfig registry;
    private final String registryOwner;
    private final String description;
    /** The settings with what each accepts, for {@code --help}. */
    private final String usage;

    /** Reads a master's settings; the caller checks that nothing else was given ({@link Settings#checkAllUsed()}). */
    public MasterConfig(Settings c) {
        bind = c.string("bind", "127.0.0.1");
        adminBind = c.string("admin-bind", "127.0.0.1");
        adminPort = c.isSet("admin-port") ? c.port("admin-port", 0) : -1;
        if (adminPort < 0) {
            c.show("admin-port", "off");
        }
        port = c.port("port", DEFAULT_PORT);
        ioThreads = c.integer("io-threads", Runtime.getRuntime().availableProcessors(), 1, 256);
        String transport = c.choice("io-transport", "auto", IoTransport.SETTING_VALUES);
        ioTransport = IoTransport.choose(transport);
        c.show("io-transport", IoTransport.describe(transport, ioTransport));
        maxConnections = c.integer("max-connections", DEFAULT_MAX_CONNECTIONS, 1, 1_000_000);
        maxInFlight = c.integer("max-in-flight", DEFAULT_MAX_IN_FLIGHT, 1, 1 << 20);
        maxFrameBytes = (int) c.size("max-frame", DEFAULT_MAX_FRAME_BYTES, 1024, TransportLimits.MAX_MESSAGE_BYTES_CEILING);
        maxOutboundBytes = c.size("max-outbound", DEFAULT_MAX_OUTBOUND_BYTES, 64 << 10, 1L << 40);
        connectionIdleTimeout = c.duration("connection-idle-timeout", DEFAULT_CONNECTION_IDLE_TIMEOUT,
                Duration.ofMillis(100), Duration.ofDays(1));
        shutdownGrace = c.duration("shutdown-grace", DEFAULT_SHUTDOWN_GRACE, Duration.ZERO, Duration.ofMinutes(10));
        lease = c.duration("lease", DEFAULT_LEASE, Duration.ofMillis(100), Duration.ofMinutes(1));
        readyFile = c.path(ReadyFile.SETTING, null);
        tls = TlsFiles.ofOptional("tls-cert, tls-key, tls-trust", c.path("tls-cert", null), c.path("tls-key", null),
                c.path("tls-trust", null));
        maxHoldersPerPeer = c.integer("max-holders-per-peer", DEFAULT_MAX_HOLDERS_PER_PEER, 1, 1024);
        group = group(c, port, tls != null);
        registry = RegistryConfig.forWriter(c);
        registryOwner = registry == null ? null : c.string("registry-owner", null);
        StoreLimits d = StoreLimits.DEFAULT;
        Duration day = Duration.ofDays(1);
        Duration year = Duration.ofDays(365);
        store = StoreLimits.builder()
                .defaultIdleTimeout(c.duration("idle-timeout", d.defaultIdleTimeout(), Duration.ofMillis(1), year))
                .maxIdleTimeout(c.duration("max-idle-timeout", d.maxIdleTimeout(), Duration.ofMillis(1), year))
                .maxLifetime(c.duration("max-lifetime", d.maxLifetime(), Duration.ofMillis(1), year.multipliedBy(10)))
                .maxAttributeBytes((int) c.size("max-attribute", d.maxAttributeBytes(), 1, 1 << 30))
                .maxAttributesPerSection(c.integer("max-attributes-per-section", d.maxAttributesPerSection(), 1,
                        TransportLimits.DEFAULT_MAX_ATTRIBUTES_PER_SECTION))
                .maxSectionBytes((int) c.size("max-section", d.maxSectionBytes(), 1, 1 << 30))
                .maxSectionsPerSession(c.integer("max-sections", d.maxSectionsPerSession(), 1,
                        TransportLimits.DEFAULT_MAX_SECTIONS_PER_MESSAGE))
                .maxSessionBytes((int) c.size("max-session", d.maxSessionBytes(), 1, 1 << 30))
                .maxSessions(c.integer("max-sessions", d.maxSessions(), 1, Integer.MAX_VALUE))
                .maxStoreBytes(c.size("max-store", d.maxStoreBytes(), 1, Long.MAX_VALUE))
                .maxSchemas(c.integer("max-schemas", d.maxSchemas(), 1, Integer.MAX_VALUE))
                .maxSchemaBytes((int) c.size("max-schema", d.maxSchemaBytes(), 1, 16 << 20))
                .build();
        description = c.describe();
        usage = c.usage();
        if (store.maxSessionBytes() > maxFrameBytes - 1024) {
            throw new IllegalArgumentException("max-session " + Units.formatSize(store.maxSessionBytes())
                    + " does not fit in max-frame " + Units.formatSize(maxFrameBytes) + ": a whole session could not be read");
        }
        long heap = Runtime.getRuntime().maxMemory();
        if (store.maxStoreBytes() > (long) (heap * MemoryBudget.MAX_HEAP_SHARE)) {
            // Refused, not warned: the budget is what stands between a client and an OutOfMemoryError.
            throw new IllegalArgumentException("max-store " + Units.formatSize(store.maxStoreBytes()) + " is above "
                    + Math.round(MemoryBudget.MAX_HEAP_SHARE * 100) + "% of this JVM's maximum heap ("
                    + Units.formatSize(heap) + "): the store could fill the heap before it refuses anything; give a "
                    + "max-store of at most " + Units.formatSize((long) (heap * MemoryBudget.MAX_HEAP_SHARE))
                    + " or a larger -Xmx");
        }
        if (store.maxIdleTimeout().toMillis() > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("max-idle-timeout " + Units.formatDuration(store.maxIdleTimeout())
                    + " does not fit the protocol's 32-bit milliseconds (at most 49 days)");
        }
    }

    private static GroupConfig group(Settings c, int port, boolean tls) {
        String spec = c.string("replicas", null);
        if (spec == null) {
            return null;
        }
        List<GroupConfig.Replica> replicas;
        GroupConfig.Replica self;
        try {
            replicas = GroupConfig.parseReplicas(spec);
            String id = c.string("replica-id", null);
            if (id == null) {
                throw new IllegalArgumentException("--replicas needs --replica-id: which of them this process is");
            }
            self = GroupConfig.find(replicas, id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--replicas " + spec + ": " + e.getMessage());
        }
        if (self.dataPort() != port) {
            throw new IllegalArgumentException("--replicas gives replica " + self.id() + " port " + self.dataPort()
                    + " but --port is " + port);
        }
        Path dir = c.path("raft-dir", null);
        if (dir == null) {
            throw new IllegalArgumentException("--replicas needs --raft-dir: where this replica keeps its Raft log");
        }
        return new GroupConfig(c.string("group", "main"), replicas, self, dir, c.bool("sync-log", true),
                c.duration("election-timeout", Duration.ofMillis(DEFAULT_ELECTION_TIMEOUT_MILLIS), Duration.ofMillis(50),
                        Duration.ofMinutes(1)).toMillis(),
                c.duration("lease-margin", Duration.ofMillis(200), Duration.ZERO, Duration.ofMinutes(1)).toMillis(),
                c.integer("snapshot-every", DEFAULT_SNAPSHOT_EVERY, 16, Integer.MAX_VALUE),
                raftTransport(c, tls));
    }

    /** With TLS, Raft between replicas runs over gRPC, Ratis's only transport with TLS; netty is then refused. */
    private static String raftTransport(Settings c, boolean tls) {
        String transport = c.choice("raft-transport", tls ? "grpc" : GroupConfig.TRANSPORTS.get(0), GroupConfig.TRANSPORTS);
        if (tls && !transport.equals("grpc")) {
            throw c.bad("raft-transport", transport, "grpc with TLS (tls-cert): Ratis's netty transport has no TLS, and "
                    + "the Raft port would take connections without a certificate");
        }
        return transport;
    }

    /** The configuration of the flags and the file they name. */
    public static MasterConfig fromArgs(String... args) {
        return checked(Settings.fromArgs(args));
    }

    /** The configuration of a map of settings (tests, embedded masters). */
    public static MasterConfig of(Map<String, String> settings) {
        return checked(Settings.of(settings));
    }

    private static MasterConfig checked(Settings settings) {
        MasterConfig config = new MasterConfig(settings);
        settings.checkAllUsed();
        return config;
    }

    /** The address of the HTTP admin endpoint. */
    public String adminBind() {
        return adminBind;
    }

    /** The HTTP admin endpoint's port (0: any free one), or -1 when it is off ({@code admin-port} not given). */
    public int adminPort() {
        return adminPort;
    }

    public String bind() {
        return bind;
    }

    public int port() {
        return port;
    }

    /** The sockets' transport, epoll or NIO: {@code io-transport}. */
    public IoTransport ioTransport() {
        return ioTransport;
    }

    public int ioThreads() {
        return ioThreads;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    public long maxOutboundBytes() {
        return maxOutboundBytes;
    }

    public Duration connectionIdleTimeout() {
        return connectionIdleTimeout;
    }

    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    public StoreLimits store() {
        return store;
    }

    /** Where to write the ready file once listening, or null. */
    public Path readyFile() {
        return readyFile;
    }

    /** This master's group when it is a replica of one; null for a master on its own. */
    public GroupConfig group() {
        return group;
    }

    /** This master's TLS files, or null when its port speaks plain TCP. */
    public TlsFiles tls() {
        return tls;
    }

    /** How many holders one peer (certificate subject, or IP address without TLS) may have registered at once. */
    public int maxHoldersPerPeer() {
        return maxHoldersPerPeer;
    }

    /** How long a cache's lease runs from the master's last answer to it on its control connection. */
    public Duration lease() {
        return lease;
    }

    /** Limits for the transport codec, in line with the store's. */
    /** The active-session registry this master writes to, or null (off). */
    public RegistryConfig registry() {
        return registry;
    }

    /**
     * The name the registry records as the holder of this master's sessions (a re-sync ends the active rows of this
     * name that the store no longer has), or null for the default: the group's name, or the bound host:port.
     */
    public String registryOwner() {
        return registryOwner;
    }

    public TransportLimits transportLimits() {
        return TransportLimits.builder()
                .maxAttributeValueBytes(store.maxAttributeBytes())
                .maxAttributesPerSection(store.maxAttributesPerSection())
                .maxMessageBytes(Math.max(TransportLimits.MIN_MESSAGE_BYTES, maxFrameBytes))
                .build();
    }

    /** The effective configuration, one setting a line, in the units it can be written in. */
    public String describe() {
        return description;
    }

    /** For {@code --help}: each setting with its value (the default, for a configuration of no settings) and what it accepts. */
    public String usage() {
        return usage;
    }
}
