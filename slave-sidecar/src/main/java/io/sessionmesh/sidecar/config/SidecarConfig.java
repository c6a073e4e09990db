package io.sessionmesh.sidecar.config;

import io.sessionmesh.registry.RegistryConfig;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.tls.TlsFiles;
import io.sessionmesh.wire.transport.TransportLimits;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.sessionmesh.sidecar.config.SidecarSettings.ADMIN_BIND;
import static io.sessionmesh.sidecar.config.SidecarSettings.ADMIN_PORT;
import static io.sessionmesh.sidecar.config.SidecarSettings.ADMIN_TOKEN;
import static io.sessionmesh.sidecar.config.SidecarSettings.ADMIN_TOKEN_FILE;
import static io.sessionmesh.sidecar.config.SidecarSettings.ALLOWED_HOSTS;
import static io.sessionmesh.sidecar.config.SidecarSettings.BIND;
import static io.sessionmesh.sidecar.config.SidecarSettings.BIND_BEYOND_LOOPBACK;
import static io.sessionmesh.sidecar.config.SidecarSettings.BODY_BUDGET;
import static io.sessionmesh.sidecar.config.SidecarSettings.BODY_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarSettings.CACHE_MAX_BYTES;
import static io.sessionmesh.sidecar.config.SidecarSettings.CACHE_TTL;
import static io.sessionmesh.sidecar.config.SidecarSettings.HEAD_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarSettings.HEARTBEAT_INTERVAL;
import static io.sessionmesh.sidecar.config.SidecarSettings.HTTP_IDLE_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarSettings.IO_THREADS;
import static io.sessionmesh.sidecar.config.SidecarSettings.IO_TRANSPORT;
import static io.sessionmesh.sidecar.config.SidecarSettings.LEASE_MARGIN;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTERS;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_CONNECT_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_IO_THREADS;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_MAX_IN_FLIGHT;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_MAX_QUEUED;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_TLS_CERT;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_TLS_KEY;
import static io.sessionmesh.sidecar.config.SidecarSettings.MASTER_TLS_TRUST;
import static io.sessionmesh.sidecar.config.SidecarSettings.MAX_BODY;
import static io.sessionmesh.sidecar.config.SidecarSettings.MAX_HTTP_CONNECTIONS;
import static io.sessionmesh.sidecar.config.SidecarSettings.MAX_OUTBOUND;
import static io.sessionmesh.sidecar.config.SidecarSettings.MAX_PIPELINED;
import static io.sessionmesh.sidecar.config.SidecarSettings.OUTBOUND_BUDGET;
import static io.sessionmesh.sidecar.config.SidecarSettings.PORT;
import static io.sessionmesh.sidecar.config.SidecarSettings.READY_FILE;
import static io.sessionmesh.sidecar.config.SidecarSettings.READ_AHEAD;
import static io.sessionmesh.sidecar.config.SidecarSettings.RECONNECT_MAX;
import static io.sessionmesh.sidecar.config.SidecarSettings.RECONNECT_MIN;
import static io.sessionmesh.sidecar.config.SidecarSettings.SCHEMA_CACHE;
import static io.sessionmesh.sidecar.config.SidecarSettings.STALE_READ_WINDOW;
import static io.sessionmesh.sidecar.config.SidecarSettings.TOUCH_INTERVAL;
import static io.sessionmesh.sidecar.config.SidecarSettings.UNIX_SOCKET;
import static io.sessionmesh.sidecar.config.SidecarSettings.VNODES;

/**
 * Everything a sidecar is started with, read once from a properties file and flags ({@link Settings}),
 * validated and printed ({@link #describe()}). Sizes and durations take units.
 *
 * <p>Every setting, its default, range and meaning is declared once in {@link SidecarSettings}, and read here through
 * those declarations; the reference, docs/configuration.md, is generated from them.
 */
public final class SidecarConfig {
    /** The {@code masters} value that starts a master inside the sidecar's process (local development mode). */
    public static final String EMBEDDED_MASTER = "embedded";
    /** One master on this host, at the master's default port. */
    public static final String DEFAULT_MASTERS = "127.0.0.1:7400";
    public static final int DEFAULT_PORT = 7500;
    /** The longest path a Unix domain socket may have on Linux ({@code sun_path} holds 108 bytes with its NUL). */
    public static final int MAX_UNIX_SOCKET_PATH_BYTES = 107;
    public static final int DEFAULT_ADMIN_PORT = 7501;
    public static final int DEFAULT_MAX_HTTP_CONNECTIONS = 10_000;
    public static final int DEFAULT_MAX_PIPELINED = 128;
    /**
     * How long a request's head may take to arrive once it has begun: a head is at most 24 KiB, which a localhost client
     * writes at once; a head trickled a byte at a time would otherwise hold its connection slot (and its buffer) forever.
     */
    public static final Duration DEFAULT_HEAD_TIMEOUT = Duration.ofSeconds(10);
    /** How long a request body may take to arrive; 32 MiB at 30 s is about 1 MiB/s, slower than any localhost client. */
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(30);
    /** Request bodies a sidecar holds at once: eight bodies of the default max-body. */
    public static final long DEFAULT_BODY_BUDGET_BYTES = 256L << 20;
    /** Answers queued for one REST connection that does not read them (the master's max-outbound). */
    public static final long DEFAULT_MAX_OUTBOUND_BYTES = 64L << 20;
    /**
     * Answers queued over every REST connection at once: four connections at {@code max-outbound}; without it,
     * 10,000 connections at 64 MiB each were what clients that do not read could make a sidecar hold.
     */
    public static final long DEFAULT_OUTBOUND_BUDGET_BYTES = 256L << 20;
    /** The master's default {@code max-in-flight} per connection (MasterInFlightIT checks they agree). */
    public static final int DEFAULT_MASTER_MAX_IN_FLIGHT = MasterConnectionOptions.DEFAULT_MAX_IN_FLIGHT;
    /** Four rounds of the in-flight limit wait rather than fail. */
    public static final int DEFAULT_MASTER_MAX_QUEUED = MasterConnectionOptions.DEFAULT_MAX_QUEUED;
    /**
     * Not the 256 of the first design: measured, 256 leaves 14-25% between the most and least loaded master, 65,536
     * under 2% (HashRingSpreadTest). 65,535 is the most a CREATE's placement carries (a u16): a sidecar with several
     * masters at 65,536 could not start.
     */
    public static final int DEFAULT_VNODES = Placement.MAX_VNODES;
    /** The environment variable an admin token is read from. */
    public static final String ADMIN_TOKEN_ENV = "SESSIONMESH_ADMIN_TOKEN";
    /** The shortest admin token accepted: 128 bits as hex (a guessable token is no token). */
    public static final int MIN_ADMIN_TOKEN_CHARS = 32;
    /** The largest admin request body: admin calls carry no data (a cache clear, a session lookup). */
    public static final int MAX_ADMIN_BODY_BYTES = 64 << 10;
    public static final int DEFAULT_SCHEMA_CACHE = 10_000;
    /** The most section names a miss may read ahead. */
    public static final int MAX_READ_AHEAD = 256;
    /**
     * Section names a miss reads ahead by default: on the standard workload's open loop the hit ratio goes from 77%
     * (off) to 83-86% for 41-58% more bytes from the master, fewer round trips to it, and no change in latency or CPU
     * per request (benchmarks/RESULTS.md 12.7 at 1f3fa7a).
     */
    public static final int DEFAULT_READ_AHEAD = 8;

    private final List<List<InetSocketAddress>> masters;
    private final boolean embeddedMaster;
    private final String bind;
    /** The {@code allowed-hosts} names, beside the loopback names and the binds. */
    private final List<String> allowedHosts;
    private final int port;
    /** The REST API's Unix domain socket, or null. */
    private final Path unixSocket;
    private final String adminBind;
    private final int adminPort;
    private final String adminToken;
    private final RegistryConfig registry;
    private final int ioThreads;
    private final IoTransport ioTransport;
    private final int masterIoThreads;
    private final int maxBodyBytes;
    private final int maxHttpConnections;
    private final int maxPipelined;
    private final long bodyBudgetBytes;
    private final long maxOutboundBytes;
    private final long outboundBudgetBytes;
    private final Duration httpIdleTimeout;
    private final Duration headTimeout;
    private final Duration bodyTimeout;
    private final long cacheMaxBytes;
    private final Duration cacheTtl;
    private final Duration touchInterval;
    private final Duration masterConnectTimeout;
    private final Duration masterTimeout;
    private final int masterMaxInFlight;
    private final TlsFiles masterTls;
    private final int masterMaxQueued;
    private final Duration reconnectMin;
    private final Duration reconnectMax;
    private final Duration heartbeatInterval;
    private final Duration leaseMargin;
    private final Duration staleReadWindow;
    private final int readAhead;
    private final int vnodes;
    private final int schemaCache;
    private final Path readyFile;
    private final String description;

    /** Reads a sidecar's settings; the caller checks that nothing else was given ({@link Settings#checkAllUsed()}). */
    public SidecarConfig(Settings c) {
        this(c, System.getenv());
    }

    /** {@link #SidecarConfig(Settings)} with this environment (where {@value #ADMIN_TOKEN_ENV} is looked up). */
    SidecarConfig(Settings c, Map<String, String> environment) {
        String mastersGiven = MASTERS.read(c);
        embeddedMaster = EMBEDDED_MASTER.equals(mastersGiven);
        masters = embeddedMaster ? List.of() : c.hostPortGroups(MASTERS.name(), mastersGiven);
        if (embeddedMaster) {
            c.show(MASTERS.name(), EMBEDDED_MASTER + " (a master in this process: local development mode)");
        }
        bind = BIND.read(c);
        boolean beyondLoopback = BIND_BEYOND_LOOPBACK.read(c);
        if (!beyondLoopback && !isLoopback(bind)) {
            throw new IllegalArgumentException(c.origin(BIND.name()) + " = " + bind + " is not a loopback address: the REST "
                    + "API has no authentication and would be open to that network; bind it to 127.0.0.1, or, where that "
                    + "network is the host's own (a container's or a pod's), say so with " + BIND_BEYOND_LOOPBACK.name()
                    + "=true (--" + BIND_BEYOND_LOOPBACK.name() + ")");
        }
        allowedHosts = java.util.Arrays.stream(ALLOWED_HOSTS.read(c).split(",")).map(String::strip)
                .filter(h -> !h.isEmpty()).toList();
        for (String h : allowedHosts) {
            if (h.contains("/") || h.contains(" ") || h.indexOf(':') >= 0 && h.indexOf(':') == h.lastIndexOf(':')) {
                throw c.bad(ALLOWED_HOSTS.name(), ALLOWED_HOSTS.read(c), "host names or addresses without a port or a "
                        + "scheme, comma-separated (" + h + " is not one)");
            }
        }
        port = PORT.read(c);
        unixSocket = unixSocket(c);
        adminBind = ADMIN_BIND.read(c);
        adminPort = ADMIN_PORT.read(c);
        adminToken = adminToken(c, environment);
        registry = RegistryConfig.forQueries(c);
        if (adminToken == null && !isLoopback(adminBind)) {
            throw new IllegalArgumentException(c.origin(ADMIN_BIND.name()) + " = " + adminBind + " is not a loopback address: the "
                    + "admin endpoint would be open to the network; set an admin token (--admin-token-file <file>, or the "
                    + "environment variable " + ADMIN_TOKEN_ENV + ") or bind it to 127.0.0.1");
        }
        ioThreads = IO_THREADS.read(c);
        String transport = IO_TRANSPORT.read(c);
        ioTransport = IoTransport.choose(transport);
        c.show(IO_TRANSPORT.name(), IoTransport.describe(transport, ioTransport));
        masterIoThreads = MASTER_IO_THREADS.read(c);
        maxBodyBytes = MAX_BODY.read(c).intValue();
        maxHttpConnections = MAX_HTTP_CONNECTIONS.read(c);
        maxPipelined = MAX_PIPELINED.read(c);
        bodyBudgetBytes = BODY_BUDGET.read(c);
        if (bodyBudgetBytes < maxBodyBytes) {
            throw new IllegalArgumentException(c.origin(BODY_BUDGET.name()) + " = " + Units.formatSize(bodyBudgetBytes)
                    + " is below max-body " + Units.formatSize(maxBodyBytes) + ": a body of max-body could never be read; "
                    + "raise body-budget or lower max-body");
        }
        maxOutboundBytes = MAX_OUTBOUND.read(c);
        outboundBudgetBytes = OUTBOUND_BUDGET.read(c);
        if (outboundBudgetBytes < maxOutboundBytes) {
            throw new IllegalArgumentException(c.origin(OUTBOUND_BUDGET.name()) + " = " + Units.formatSize(outboundBudgetBytes)
                    + " is below max-outbound " + Units.formatSize(maxOutboundBytes) + ": one connection could pass the "
                    + "budget of all; raise outbound-budget or lower max-outbound");
        }
        httpIdleTimeout = HTTP_IDLE_TIMEOUT.read(c);
        headTimeout = HEAD_TIMEOUT.read(c);
        bodyTimeout = BODY_TIMEOUT.read(c);
        cacheMaxBytes = CACHE_MAX_BYTES.read(c);
        cacheTtl = CACHE_TTL.read(c);
        touchInterval = TOUCH_INTERVAL.read(c);
        masterConnectTimeout = MASTER_CONNECT_TIMEOUT.read(c);
        masterTimeout = MASTER_TIMEOUT.read(c);
        masterMaxInFlight = MASTER_MAX_IN_FLIGHT.read(c);
        masterTls = TlsFiles.ofOptional("master-tls-cert, master-tls-key, master-tls-trust", MASTER_TLS_CERT.read(c),
                MASTER_TLS_KEY.read(c), MASTER_TLS_TRUST.read(c));
        masterMaxQueued = MASTER_MAX_QUEUED.read(c);
        reconnectMin = RECONNECT_MIN.read(c);
        reconnectMax = RECONNECT_MAX.read(c);
        heartbeatInterval = HEARTBEAT_INTERVAL.read(c);
        leaseMargin = LEASE_MARGIN.read(c);
        staleReadWindow = STALE_READ_WINDOW.read(c);
        if (staleReadWindow.isZero()) {
            c.show(STALE_READ_WINDOW.name(), STALE_READ_WINDOW.shownDefault());
        }
        readAhead = READ_AHEAD.read(c);
        vnodes = VNODES.read(c);
        schemaCache = SCHEMA_CACHE.read(c);
        readyFile = READY_FILE.read(c);
        description = c.describe();
        if (reconnectMin.compareTo(reconnectMax) > 0) {
            throw new IllegalArgumentException("reconnect-min " + Units.formatDuration(reconnectMin) + " is above reconnect-max "
                    + Units.formatDuration(reconnectMax));
        }
    }

    /**
     * The admin token, from (first found) the environment variable {@value #ADMIN_TOKEN_ENV}, the file
     * {@code admin-token-file} names (its first line), or {@code admin-token} in the properties file; never from a
     * command-line flag, which every user of the host sees in {@code ps}. Null when none is set.
     */
    private static String adminToken(Settings c, Map<String, String> environment) {
        String inline = ADMIN_TOKEN.read(c);
        if (inline != null && c.origin(ADMIN_TOKEN.name()).startsWith("flag ")) {
            throw new IllegalArgumentException("flag --admin-token: a token on the command line is visible to every user "
                    + "of the host (ps); put it in a file (--admin-token-file <file>) or the environment variable "
                    + ADMIN_TOKEN_ENV);
        }
        Path tokenFile = ADMIN_TOKEN_FILE.read(c);
        String file = tokenFile == null ? null : tokenFile.toString();
        String env = environment.get(ADMIN_TOKEN_ENV);
        String token = env != null && !env.isBlank() ? env.strip() : null;
        if (token == null && file != null) {
            try {
                List<String> lines = java.nio.file.Files.readAllLines(tokenFile, java.nio.charset.StandardCharsets.UTF_8);
                token = lines.isEmpty() ? "" : lines.get(0).strip();
            } catch (java.io.IOException | RuntimeException e) {
                throw c.bad(ADMIN_TOKEN_FILE.name(), file, "a readable file whose first line is the admin token (" + e + ")");
            }
            if (token.isEmpty()) {
                throw c.bad(ADMIN_TOKEN_FILE.name(), file, "a file whose first line is the admin token, not an empty one");
            }
        }
        if (token == null) {
            token = inline;
        }
        if (token != null && token.length() < MIN_ADMIN_TOKEN_CHARS) {
            throw new IllegalArgumentException("the admin token is " + token.length() + " characters: at least "
                    + MIN_ADMIN_TOKEN_CHARS + " (openssl rand -hex 16 makes one)");
        }
        c.show(ADMIN_TOKEN.name(), token == null ? "(none: admin calls are open; the admin endpoint is on loopback)"
                : "(set" + (env != null && !env.isBlank() ? ", from " + ADMIN_TOKEN_ENV : file != null ? ", from " + file : "") + ")");
        return token;
    }

    /** Whether this host name or address is the loopback interface (an unresolvable name is not). */
    static boolean isLoopback(String host) {
        try {
            java.net.InetAddress[] all = java.net.InetAddress.getAllByName(host);
            for (java.net.InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The configuration of the flags and the file they name. */
    public static SidecarConfig fromArgs(String... args) {
        return checked(Settings.fromArgs(args));
    }

    /** The configuration of a map of settings (tests, embedded sidecars). */
    public static SidecarConfig of(Map<String, String> settings) {
        return checked(Settings.of(settings));
    }

    private static SidecarConfig checked(Settings settings) {
        SidecarConfig config = new SidecarConfig(settings);
        settings.checkAllUsed();
        return config;
    }

    /** The masters to connect to; empty with an {@linkplain #embeddedMaster() embedded master}. */
    public List<List<InetSocketAddress>> masters() {
        return masters;
    }

    /** Whether the sidecar runs its own master in its process (local development mode). */
    public boolean embeddedMaster() {
        return embeddedMaster;
    }

    public String bind() {
        return bind;
    }

    /**
     * The names given in {@code allowed-hosts}: with the loopback names and the binds, the {@code Host} headers the
     * REST API (and an admin endpoint without a token) answer.
     */
    public List<String> allowedHosts() {
        return allowedHosts;
    }

    /** The REST API's Unix domain socket (an absolute path), or null when it listens on TCP only. */
    public Path unixSocket() {
        return unixSocket;
    }

    private static Path unixSocket(Settings c) {
        Path given = UNIX_SOCKET.read(c);
        String v = given == null ? "" : given.toString();
        if (v.isBlank()) {
            return null;
        }
        Path p = given.toAbsolutePath().normalize();
        if (p.getParent() == null || !Files.isDirectory(p.getParent())) {
            throw new IllegalArgumentException(c.origin(UNIX_SOCKET.name()) + " = " + v + ": the directory " + p.getParent()
                    + " does not exist");
        }
        if (Files.isDirectory(p) || Files.isRegularFile(p)) {
            throw new IllegalArgumentException(c.origin(UNIX_SOCKET.name()) + " = " + v + " is an existing "
                    + (Files.isDirectory(p) ? "directory" : "file") + ", not a socket: refusing to replace it");
        }
        if (p.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_UNIX_SOCKET_PATH_BYTES) {
            throw new IllegalArgumentException(c.origin(UNIX_SOCKET.name()) + " = " + v + " is longer than "
                    + MAX_UNIX_SOCKET_PATH_BYTES + " bytes, the most a Unix domain socket's path may be on Linux");
        }
        return p;
    }

    public int port() {
        return port;
    }

    public String adminBind() {
        return adminBind;
    }

    public int adminPort() {
        return adminPort;
    }

    /** The active-session registry the admin endpoint queries, or null (its registry calls answer 503). */
    public RegistryConfig registry() {
        return registry;
    }

    /** The admin token, or null when admin calls need none. */
    public String adminToken() {
        return adminToken;
    }

    /** The sockets' transport, epoll or NIO: {@code io-transport}. */
    public IoTransport ioTransport() {
        return ioTransport;
    }

    /**
     * The REST API's event loops by default on a host of {@code cores}: half of them, at least one. The services on the
     * host spend about four times the sidecar's CPU on each request (RESULTS.md 12.14 at 1f3fa7a: 0.12-0.14 ms against 0.035-0.045 ms
     * a write), so a sidecar with every core as a loop only splits its batches: on 2 cores one loop instead of two took
     * the whole stack's CPU a write request from 0.187 to 0.158-0.174 ms and its p99 from 11.5 to 8.4-9.9 ms, the
     * sidecar's own CPU by 12-21% and the master's by 40% (one data connection a master carries the loop's writes in
     * fewer, larger batches). Half the cores still leaves it twice the threads its share of a saturated host needs.
     */
    public static int defaultIoThreads(int cores) {
        return Math.max(1, cores / 2);
    }

    public int ioThreads() {
        return ioThreads;
    }

    public int masterIoThreads() {
        return masterIoThreads;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public int maxHttpConnections() {
        return maxHttpConnections;
    }

    public int maxPipelined() {
        return maxPipelined;
    }

    /** Request bodies held at once over every REST connection. */
    public long bodyBudgetBytes() {
        return bodyBudgetBytes;
    }

    /** Answers queued for one REST connection before it is closed as a slow consumer. */
    public long maxOutboundBytes() {
        return maxOutboundBytes;
    }

    /** Answers queued over every REST connection at once before the largest holders are closed. */
    public long outboundBudgetBytes() {
        return outboundBudgetBytes;
    }

    public Duration httpIdleTimeout() {
        return httpIdleTimeout;
    }

    /**
     * The longest a request's head may take to arrive once its first byte has (empty lines before it do not start it;
     * more than 16 bytes of them are refused): a head trickled in a byte at a time never leaves the connection idle, so
     * {@code http-idle-timeout} never closes it.
     */
    public Duration headTimeout() {
        return headTimeout;
    }

    /**
     * The longest a request body may take to arrive once its head is read: a body trickled in a byte at a time would
     * otherwise hold its share of {@code body-budget} (and refuse other connections' bodies) for as long as it likes.
     */
    public Duration bodyTimeout() {
        return bodyTimeout;
    }

    public long cacheMaxBytes() {
        return cacheMaxBytes;
    }

    public Duration cacheTtl() {
        return cacheTtl;
    }

    public Duration touchInterval() {
        return touchInterval;
    }

    public Duration masterConnectTimeout() {
        return masterConnectTimeout;
    }

    public Duration masterTimeout() {
        return masterTimeout;
    }

    public int masterMaxInFlight() {
        return masterMaxInFlight;
    }

    /** The TLS files of this sidecar's master connections, or null for plain TCP. */
    public TlsFiles masterTls() {
        return masterTls;
    }

    public int masterMaxQueued() {
        return masterMaxQueued;
    }

    public Duration reconnectMin() {
        return reconnectMin;
    }

    public Duration reconnectMax() {
        return reconnectMax;
    }

    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    public Duration leaseMargin() {
        return leaseMargin;
    }

    /** How long cached sections are served stale while no master is reachable (zero: not at all). */
    public Duration staleReadWindow() {
        return staleReadWindow;
    }

    /** Section names a miss may also fetch (0: only those asked for). */
    public int readAhead() {
        return readAhead;
    }

    public int vnodes() {
        return vnodes;
    }

    public int schemaCache() {
        return schemaCache;
    }

    /** Where to write the ready file once listening, or null. */
    public Path readyFile() {
        return readyFile;
    }

    /** Limits for the transport codecs: messages as large as a body may be. */
    public TransportLimits transportLimits() {
        return TransportLimits.builder().maxMessageBytes(Math.max(TransportLimits.MIN_MESSAGE_BYTES, maxBodyBytes)).build();
    }

    /** The effective configuration, one setting a line. The admin token is never printed. */
    public String describe() {
        return description;
    }
}
