package io.sessionmesh.master.config;

import io.sessionmesh.master.replication.GroupConfig;
import io.sessionmesh.master.store.MemoryBudget;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.registry.RegistryConfig;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.tls.TlsFiles;
import io.sessionmesh.wire.transport.TransportLimits;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sessionmesh.master.config.MasterSettings.ADMIN_BIND;
import static io.sessionmesh.master.config.MasterSettings.ADMIN_PORT;
import static io.sessionmesh.master.config.MasterSettings.BIND;
import static io.sessionmesh.master.config.MasterSettings.PLAINTEXT_BEYOND_LOOPBACK;
import static io.sessionmesh.master.config.MasterSettings.CONNECTION_IDLE_TIMEOUT;
import static io.sessionmesh.master.config.MasterSettings.ELECTION_TIMEOUT;
import static io.sessionmesh.master.config.MasterSettings.GROUP;
import static io.sessionmesh.master.config.MasterSettings.IDLE_TIMEOUT;
import static io.sessionmesh.master.config.MasterSettings.IO_THREADS;
import static io.sessionmesh.master.config.MasterSettings.IO_TRANSPORT;
import static io.sessionmesh.master.config.MasterSettings.LEASE;
import static io.sessionmesh.master.config.MasterSettings.LEASE_MARGIN;
import static io.sessionmesh.master.config.MasterSettings.MAX_ATTRIBUTE;
import static io.sessionmesh.master.config.MasterSettings.MAX_ATTRIBUTES_PER_SECTION;
import static io.sessionmesh.master.config.MasterSettings.MAX_CONNECTIONS;
import static io.sessionmesh.master.config.MasterSettings.MAX_FRAME;
import static io.sessionmesh.master.config.MasterSettings.MAX_HOLDERS_PER_PEER;
import static io.sessionmesh.master.config.MasterSettings.MAX_IDLE_TIMEOUT;
import static io.sessionmesh.master.config.MasterSettings.MAX_IN_FLIGHT;
import static io.sessionmesh.master.config.MasterSettings.MAX_LIFETIME;
import static io.sessionmesh.master.config.MasterSettings.MAX_OUTBOUND;
import static io.sessionmesh.master.config.MasterSettings.MAX_SCHEMA;
import static io.sessionmesh.master.config.MasterSettings.MAX_SCHEMAS;
import static io.sessionmesh.master.config.MasterSettings.MAX_SECTION;
import static io.sessionmesh.master.config.MasterSettings.MAX_SECTIONS;
import static io.sessionmesh.master.config.MasterSettings.MAX_SESSION;
import static io.sessionmesh.master.config.MasterSettings.MAX_SESSIONS;
import static io.sessionmesh.master.config.MasterSettings.MAX_STORE;
import static io.sessionmesh.master.config.MasterSettings.PORT;
import static io.sessionmesh.master.config.MasterSettings.RAFT_DIR;
import static io.sessionmesh.master.config.MasterSettings.RAFT_TRANSPORT;
import static io.sessionmesh.master.config.MasterSettings.READY_FILE;
import static io.sessionmesh.master.config.MasterSettings.REGISTRY_OWNER;
import static io.sessionmesh.master.config.MasterSettings.REPLICAS;
import static io.sessionmesh.master.config.MasterSettings.REPLICA_ID;
import static io.sessionmesh.master.config.MasterSettings.SHUTDOWN_GRACE;
import static io.sessionmesh.master.config.MasterSettings.SNAPSHOT_EVERY;
import static io.sessionmesh.master.config.MasterSettings.SYNC_LOG;
import static io.sessionmesh.master.config.MasterSettings.TLS_CERT;
import static io.sessionmesh.master.config.MasterSettings.TLS_KEY;
import static io.sessionmesh.master.config.MasterSettings.TLS_TRUST;

/**
 * Everything a master is started with: where it listens, the limits of its connections, and the limits of its
 * store. Read once at start from a properties file and flags ({@link Settings}), validated, and printed
 * ({@link #describe()}). Sizes and durations take units ({@code 64m}, {@code 30s}).
 *
 * <p>Every setting, its default, range and meaning is declared once in {@link MasterSettings}, and read here through
 * those declarations; the reference, docs/configuration.md, is generated from them.
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

    /** Protected mode: without TLS, only loopback unless plaintext-beyond-loopback says otherwise. */
    private static void refuseBeyondLoopback(String what, String host) {
        boolean loopback;
        try {
            loopback = java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            loopback = false;
        }
        if (!loopback) {
            throw new IllegalArgumentException(what + " is not a loopback address, and there is no TLS: anything that "
                    + "reaches it could read and write every session and steer the cluster. Set tls-cert, tls-key and "
                    + "tls-trust (SECURITY.md), or plaintext-beyond-loopback=true on a network nothing else reaches");
        }
    }

    /** Reads a master's settings; the caller checks that nothing else was given ({@link Settings#checkAllUsed()}). */
    public MasterConfig(Settings c) {
        bind = BIND.read(c);
        adminBind = ADMIN_BIND.read(c);
        adminPort = ADMIN_PORT.isSet(c) ? ADMIN_PORT.read(c) : -1;
        if (adminPort < 0) {
            c.show(ADMIN_PORT.name(), ADMIN_PORT.shownDefault());
        }
        port = PORT.read(c);
        ioThreads = IO_THREADS.read(c);
        String transport = IO_TRANSPORT.read(c);
        ioTransport = IoTransport.choose(transport);
        c.show(IO_TRANSPORT.name(), IoTransport.describe(transport, ioTransport));
        maxConnections = MAX_CONNECTIONS.read(c);
        maxInFlight = MAX_IN_FLIGHT.read(c);
        maxFrameBytes = MAX_FRAME.read(c).intValue();
        maxOutboundBytes = MAX_OUTBOUND.read(c);
        connectionIdleTimeout = CONNECTION_IDLE_TIMEOUT.read(c);
        shutdownGrace = SHUTDOWN_GRACE.read(c);
        lease = LEASE.read(c);
        readyFile = READY_FILE.read(c);
        tls = TlsFiles.ofOptional("tls-cert, tls-key, tls-trust", TLS_CERT.read(c), TLS_KEY.read(c), TLS_TRUST.read(c));
        maxHoldersPerPeer = MAX_HOLDERS_PER_PEER.read(c);
        group = group(c, port, tls != null);
        if (tls == null && !PLAINTEXT_BEYOND_LOOPBACK.read(c)) {
            refuseBeyondLoopback("bind " + bind, bind);
            if (group != null) {
                refuseBeyondLoopback("replica " + group.self().id() + "'s Raft address " + group.self().host(),
                        group.self().host());
            }
        }
        registry = RegistryConfig.forWriter(c);
        registryOwner = registry == null ? null : REGISTRY_OWNER.read(c);
        store = StoreLimits.builder()
                .defaultIdleTimeout(IDLE_TIMEOUT.read(c))
                .maxIdleTimeout(MAX_IDLE_TIMEOUT.read(c))
                .maxLifetime(MAX_LIFETIME.read(c))
                .maxAttributeBytes(MAX_ATTRIBUTE.read(c).intValue())
                .maxAttributesPerSection(MAX_ATTRIBUTES_PER_SECTION.read(c))
                .maxSectionBytes(MAX_SECTION.read(c).intValue())
                .maxSectionsPerSession(MAX_SECTIONS.read(c))
                .maxSessionBytes(MAX_SESSION.read(c).intValue())
                .maxSessions(MAX_SESSIONS.read(c))
                .maxStoreBytes(MAX_STORE.read(c))
                .maxSchemas(MAX_SCHEMAS.read(c))
                .maxSchemaBytes(MAX_SCHEMA.read(c).intValue())
                .build();
        description = c.describe();
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
        String spec = REPLICAS.read(c);
        if (spec == null) {
            return null;
        }
        List<GroupConfig.Replica> replicas;
        GroupConfig.Replica self;
        try {
            replicas = GroupConfig.parseReplicas(spec);
            String id = REPLICA_ID.read(c);
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
        Path dir = RAFT_DIR.read(c);
        if (dir == null) {
            throw new IllegalArgumentException("--replicas needs --raft-dir: where this replica keeps its Raft log");
        }
        return new GroupConfig(GROUP.read(c), replicas, self, dir, SYNC_LOG.read(c), ELECTION_TIMEOUT.read(c).toMillis(),
                LEASE_MARGIN.read(c).toMillis(), SNAPSHOT_EVERY.read(c), raftTransport(c, tls));
    }

    /** With TLS, Raft between replicas runs over gRPC, Ratis's only transport with TLS; netty is then refused. */
    private static String raftTransport(Settings c, boolean tls) {
        String transport = RAFT_TRANSPORT.read(c, tls ? "grpc" : RAFT_TRANSPORT.defaultValue());
        if (tls && !transport.equals("grpc")) {
            throw c.bad(RAFT_TRANSPORT.name(), transport, "grpc with TLS (tls-cert): Ratis's netty transport has no TLS, and "
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

    /** Limits for the transport codec, in line with the store's. */
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
}
