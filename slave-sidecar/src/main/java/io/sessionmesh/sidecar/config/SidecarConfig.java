package io.sessionmesh.sidecar.config;

import io.sessionmesh.registry.RegistryConfig;
import io.sessionmesh.settings.ReadyFile;
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

/**
 * Everything a sidecar is started with, read once from a properties file and flags ({@link Settings}),
 * validated and printed ({@link #describe()}). Sizes and durations take units.
 *
 * <table>
 *   <caption>Settings (flag or file key) and defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>masters</td><td>127.0.0.1:7400</td><td>comma-separated host:port of every master, or of every master
 *       group with its replicas joined by {@code |} ({@code a1:7400|a2:7400|a3:7400,b1:7400|...}: the sidecar follows
 *       each group's leader); or
 *       {@value #EMBEDDED_MASTER}: local development mode, a master inside this process on a free loopback port
 *       (its defaults; sessions live as long as the process)</td></tr>
 *   <tr><td>bind, port</td><td>127.0.0.1, {@value #DEFAULT_PORT}</td><td>the REST API (0: any free port)</td></tr>
 *   <tr><td>unix-socket</td><td>none</td><td>a path: the REST API also listens on this Unix domain socket (file mode
 *       0660: only this user and its group may connect), which services on the host reach as
 *       {@code sessionmesh.sidecar-uri=unix:<path>}: no TCP stack on either side, about a fifth less CPU per call
 *       (benchmarks/RESULTS.md 12). A file left there by an earlier run is replaced; the file is removed on stop</td></tr>
 *   <tr><td>admin-bind, admin-port</td><td>127.0.0.1, {@value #DEFAULT_ADMIN_PORT}</td><td>the admin endpoint</td></tr>
 *   <tr><td>registry-url, registry-user, registry-password, registry-connect-timeout</td><td>none</td><td>the
 *       PostgreSQL active-session registry the masters write ({@link RegistryConfig}); the admin endpoint's counts and
 *       lists read it (read-only, a pool of 2). Without it those calls answer 503; logging a principal out everywhere
 *       and looking a session up on its master work either way</td></tr>
 *   <tr><td>admin-token-file</td><td>none</td><td>a file whose first line is the admin token; then admin calls need
 *   {@code Authorization: Bearer <token>}. Or the environment variable {@value #ADMIN_TOKEN_ENV}, or
 *   {@code admin-token} in a {@code --config} file; never a flag. Required when admin-bind is not loopback.</td></tr>
 *   <tr><td>io-threads</td><td>cores / 2, at least 1 ({@link #defaultIoThreads})</td><td>Netty threads of the REST API
 *       (the admin endpoint has one of its own)</td></tr>
 *   <tr><td>io-transport</td><td>auto</td><td>the sockets' event loops: {@code epoll} (Linux's, through Netty's
 *       native library: less CPU a request), {@code nio} (the JDK's selector, anywhere), or {@code auto}: epoll where
 *       its library loads, else nio ({@link IoTransport})</td></tr>
 *   <tr><td>master-io-threads</td><td>cores / 4, at least 1</td><td>Netty threads of the master connections, apart
 *       from the REST API's: a busy REST loop (a large JSON body) does not delay invalidation confirmations and lease
 *       renewals</td></tr>
 *   <tr><td>max-body</td><td>32m</td><td>one request body; larger is 413</td></tr>
 *   <tr><td>max-http-connections</td><td>{@value #DEFAULT_MAX_HTTP_CONNECTIONS}</td><td>open REST connections; more are closed</td></tr>
 *   <tr><td>max-pipelined</td><td>{@value #DEFAULT_MAX_PIPELINED}</td><td>requests of one HTTP connection waiting for their answers</td></tr>
 *   <tr><td>body-budget</td><td>256m (at least max-body)</td><td>request bodies held at once, over every REST
 *       connection (reserved as a body arrives, given back once its answer is written); a body that does not fit is
 *       answered 503 with Retry-After, and skipped</td></tr>
 *   <tr><td>max-outbound</td><td>64m</td><td>answers queued for one REST connection whose client does not read them
 *       (it is not read either meanwhile); past it the connection is closed</td></tr>
 *   <tr><td>http-idle-timeout</td><td>5m</td><td>a keep-alive connection unused this long is closed</td></tr>
 *   <tr><td>head-timeout</td><td>10s</td><td>the longest a request's head (request line and headers) may take to arrive
 *       once its first byte has; later, the request is answered 408 and the connection closes</td></tr>
 *   <tr><td>body-timeout</td><td>30s</td><td>the longest a request body may take to arrive once its head is read (its
 *       budget is reserved meanwhile); later, the request is answered 408 and the connection closes</td></tr>
 *   <tr><td>cache-max-bytes</td><td>256m</td><td>the section cache's bound, by bytes</td></tr>
 *   <tr><td>cache-ttl</td><td>5m</td><td>the longest a session stays cached after its master last answered for it (its own idle timeout is shorter or equal)</td></tr>
 *   <tr><td>touch-interval</td><td>5s</td><td>how often reads served from the cache extend sessions' idle time on their master</td></tr>
 *   <tr><td>master-connections</td><td>{@value #DEFAULT_MASTER_CONNECTIONS}</td><td>connections to each master when
 *       master-on-rest-loops is false</td></tr>
 *   <tr><td>master-on-rest-loops</td><td>true</td><td>each REST loop has a data connection of its own to each master, on
 *       that loop: a miss or a write is sent and answered on the thread that read the request, with no hand-off
 *       between threads (two fewer wake-ups a call); the control connection (invalidations, their confirmations,
 *       lease renewals) stays on the master-io-threads. False: master-connections connections on the
 *       master-io-threads</td></tr>
 *   <tr><td>master-connect-timeout, master-timeout</td><td>1s, 5s</td><td>connecting; one request (a write may wait up
 *       to the master's lease, 2 s by default, for a cache that does not confirm an invalidation: keep it above)</td></tr>
 *   <tr><td>master-max-in-flight</td><td>{@value #DEFAULT_MASTER_MAX_IN_FLIGHT}</td><td>requests sent on one master
 *       connection and waiting for their answers: no more than the master's {@code max-in-flight}, which refuses
 *       the rest</td></tr>
 *   <tr><td>master-max-queued</td><td>{@value #DEFAULT_MASTER_MAX_QUEUED}</td><td>requests of one master connection
 *       waiting for an in-flight slot (their {@code master-timeout} runs); more are 503 at once</td></tr>
 *   <tr><td>master-tls-cert, master-tls-key, master-tls-trust</td><td>none (plain TCP)</td><td>mutual TLS to the
 *       masters (all three or none, PEM files): this sidecar's certificate chain and PKCS#8 key, and the authorities that
 *       sign the masters' certificates, which must name the addresses in {@code masters} (PROTOCOL.md 3.10)</td></tr>
 *   <tr><td>reconnect-min, reconnect-max</td><td>100ms, 5s</td><td>backoff between reconnect attempts (doubling)</td></tr>
 *   <tr><td>heartbeat-interval</td><td>1s</td><td>a PING on every master connection, to find a dead one (the control
 *       connection pings more often when the lease needs it: a quarter of the lease less its margin)</td></tr>
 *   <tr><td>lease-margin</td><td>200ms</td><td>how much sooner than the master this sidecar counts its lease as
 *       over, for the two clocks' drift</td></tr>
 *   <tr><td>stale-read-window</td><td>0 (off)</td><td>with no master reachable, serve cached sections, marked
 *       {@code X-SessionMesh-Stale: true}, for this long after the lease ran out</td></tr>
 *   <tr><td>read-ahead</td><td>{@value #DEFAULT_READ_AHEAD}</td><td>on a miss, also fetch up to this many other
 *       section names that reads through this sidecar have asked for (of any session) and the session's entry does
 *       not hold: a session's first read here then brings the sections its next reads here will want (the master
 *       counts this sidecar as their holder, so writes of them elsewhere push it an invalidation); 0: off; at most
 *       {@value #MAX_READ_AHEAD}</td></tr>
 *   <tr><td>vnodes</td><td>{@value #DEFAULT_VNODES}</td><td>virtual nodes per master on the hash ring</td></tr>
 *   <tr><td>ready-file</td><td>none</td><td>once listening, write {@code pid}, {@code api}, {@code admin} (and
 *       {@code embedded-master}) as {@code host:port} there ({@link ReadyFile})</td></tr>
 *   <tr><td>schema-cache</td><td>{@value #DEFAULT_SCHEMA_CACHE}</td><td>one-nio schemas kept in memory</td></tr>
 * </table>
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
    public static final int DEFAULT_MASTER_CONNECTIONS = 2;
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
     * per request (benchmarks/RESULTS.md 12.7).
     */
    public static final int DEFAULT_READ_AHEAD = 8;

    private final List<List<InetSocketAddress>> masters;
    private final boolean embeddedMaster;
    private final String bind;
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
    private final Duration httpIdleTimeout;
    private final Duration headTimeout;
    private final Duration bodyTimeout;
    private final long cacheMaxBytes;
    private final Duration cacheTtl;
    private final Duration touchInterval;
    private final int masterConnections;
    private final boolean masterOnRestLoops;
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
    /** The settings with what each accepts, for {@code --help}. */
    private final String usage;

    /** Reads a sidecar's settings; the caller checks that nothing else was given ({@link Settings#checkAllUsed()}). */
    public SidecarConfig(Settings c) {
        this(c, System.getenv());
    }

    /** {@link #SidecarConfig(Settings)} with this environment (where {@value #ADMIN_TOKEN_ENV} is looked up). */
    SidecarConfig(Settings c, Map<String, String> environment) {
        embeddedMaster = EMBEDDED_MASTER.equals(c.string("masters", DEFAULT_MASTERS));
        masters = embeddedMaster ? List.of() : c.hostPortGroups("masters", DEFAULT_MASTERS);
        if (embeddedMaster) {
            c.show("masters", EMBEDDED_MASTER + " (a master in this process: local development mode)");
        }
        bind = c.string("bind", "127.0.0.1");
        port = c.port("port", DEFAULT_PORT);
        unixSocket = unixSocket(c);
        adminBind = c.string("admin-bind", "127.0.0.1");
        adminPort = c.port("admin-port", DEFAULT_ADMIN_PORT);
        adminToken = adminToken(c, environment);
        registry = RegistryConfig.forQueries(c);
        if (adminToken == null && !isLoopback(adminBind)) {
            throw new IllegalArgumentException(c.origin("admin-bind") + " = " + adminBind + " is not a loopback address: the "
                    + "admin endpoint would be open to the network; set an admin token (--admin-token-file <file>, or the "
                    + "environment variable " + ADMIN_TOKEN_ENV + ") or bind it to 127.0.0.1");
        }
        ioThreads = c.integer("io-threads", defaultIoThreads(Runtime.getRuntime().availableProcessors()), 1, 256);
        String transport = c.choice("io-transport", "auto", IoTransport.SETTING_VALUES);
        ioTransport = IoTransport.choose(transport);
        c.show("io-transport", IoTransport.describe(transport, ioTransport));
        masterIoThreads = c.integer("master-io-threads", Math.max(1, Runtime.getRuntime().availableProcessors() / 4), 1, 64);
        maxBodyBytes = (int) c.size("max-body", 32 << 20, 1024, TransportLimits.MAX_MESSAGE_BYTES_CEILING);
        maxHttpConnections = c.integer("max-http-connections", DEFAULT_MAX_HTTP_CONNECTIONS, 1, 1_000_000);
        maxPipelined = c.integer("max-pipelined", DEFAULT_MAX_PIPELINED, 1, 100_000);
        bodyBudgetBytes = c.size("body-budget", DEFAULT_BODY_BUDGET_BYTES, 1024, 1L << 40);
        if (bodyBudgetBytes < maxBodyBytes) {
            throw new IllegalArgumentException(c.origin("body-budget") + " = " + Units.formatSize(bodyBudgetBytes)
                    + " is below max-body " + Units.formatSize(maxBodyBytes) + ": a body of max-body could never be read; "
                    + "raise body-budget or lower max-body");
        }
        maxOutboundBytes = c.size("max-outbound", DEFAULT_MAX_OUTBOUND_BYTES, 64 << 10, 1L << 40);
        httpIdleTimeout = c.duration("http-idle-timeout", Duration.ofMinutes(5), Duration.ofMillis(100), Duration.ofDays(1));
        headTimeout = c.duration("head-timeout", DEFAULT_HEAD_TIMEOUT, Duration.ofMillis(100), Duration.ofHours(1));
        bodyTimeout = c.duration("body-timeout", DEFAULT_BODY_TIMEOUT, Duration.ofMillis(100), Duration.ofHours(1));
        cacheMaxBytes = c.size("cache-max-bytes", 256L << 20, 0, 1L << 40);
        cacheTtl = c.duration("cache-ttl", Duration.ofMinutes(5), Duration.ofMillis(1), Duration.ofDays(1));
        touchInterval = c.duration("touch-interval", Duration.ofSeconds(5), Duration.ofMillis(10), Duration.ofHours(1));
        masterConnections = c.integer("master-connections", DEFAULT_MASTER_CONNECTIONS, 1, 64);
        masterOnRestLoops = c.bool("master-on-rest-loops", true);
        masterConnectTimeout = c.duration("master-connect-timeout", Duration.ofSeconds(1), Duration.ofMillis(10),
                Duration.ofMinutes(1));
        masterTimeout = c.duration("master-timeout", Duration.ofSeconds(5), Duration.ofMillis(10), Duration.ofMinutes(10));
        masterMaxInFlight = c.integer("master-max-in-flight", DEFAULT_MASTER_MAX_IN_FLIGHT, 1, 1 << 20);
        masterTls = TlsFiles.ofOptional("master-tls-cert, master-tls-key, master-tls-trust", c.path("master-tls-cert", null),
                c.path("master-tls-key", null), c.path("master-tls-trust", null));
        masterMaxQueued = c.integer("master-max-queued", DEFAULT_MASTER_MAX_QUEUED, 0, 1 << 20);
        reconnectMin = c.duration("reconnect-min", Duration.ofMillis(100), Duration.ofMillis(1), Duration.ofMinutes(1));
        reconnectMax = c.duration("reconnect-max", Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofMinutes(10));
        heartbeatInterval = c.duration("heartbeat-interval", Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMinutes(10));
        leaseMargin = c.duration("lease-margin", Duration.ofMillis(200), Duration.ofMillis(1), Duration.ofSeconds(10));
        staleReadWindow = c.duration("stale-read-window", Duration.ZERO, Duration.ZERO, Duration.ofHours(1));
        if (staleReadWindow.isZero()) {
            c.show("stale-read-window", "0 (off)");
        }
        readAhead = c.integer("read-ahead", DEFAULT_READ_AHEAD, 0, MAX_READ_AHEAD);
        vnodes = c.integer("vnodes", DEFAULT_VNODES, 1, Placement.MAX_VNODES);
        schemaCache = c.integer("schema-cache", DEFAULT_SCHEMA_CACHE, 1, 10_000_000);
        readyFile = c.path(ReadyFile.SETTING, null);
        description = c.describe();
        usage = c.usage();
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
        String inline = c.secret("admin-token");
        if (inline != null && c.origin("admin-token").startsWith("flag ")) {
            throw new IllegalArgumentException("flag --admin-token: a token on the command line is visible to every user "
                    + "of the host (ps); put it in a file (--admin-token-file <file>) or the environment variable "
                    + ADMIN_TOKEN_ENV);
        }
        String file = c.string("admin-token-file", null);
        String env = environment.get(ADMIN_TOKEN_ENV);
        String token = env != null && !env.isBlank() ? env.strip() : null;
        if (token == null && file != null) {
            try {
                List<String> lines = java.nio.file.Files.readAllLines(Path.of(file), java.nio.charset.StandardCharsets.UTF_8);
                token = lines.isEmpty() ? "" : lines.get(0).strip();
            } catch (java.io.IOException | RuntimeException e) {
                throw c.bad("admin-token-file", file, "a readable file whose first line is the admin token (" + e + ")");
            }
            if (token.isEmpty()) {
                throw c.bad("admin-token-file", file, "a file whose first line is the admin token, not an empty one");
            }
        }
        if (token == null) {
            token = inline;
        }
        if (token != null && token.length() < MIN_ADMIN_TOKEN_CHARS) {
            throw new IllegalArgumentException("the admin token is " + token.length() + " characters: at least "
                    + MIN_ADMIN_TOKEN_CHARS + " (openssl rand -hex 16 makes one)");
        }
        c.show("admin-token", token == null ? "(none: admin calls are open; the admin endpoint is on loopback)"
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

    /** The REST API's Unix domain socket (an absolute path), or null when it listens on TCP only. */
    public Path unixSocket() {
        return unixSocket;
    }

    private static Path unixSocket(Settings c) {
        String v = c.string("unix-socket", null);
        if (v == null || v.isBlank()) {
            return null;
        }
        Path p = Path.of(v).toAbsolutePath().normalize();
        if (p.getParent() == null || !Files.isDirectory(p.getParent())) {
            throw new IllegalArgumentException(c.origin("unix-socket") + " = " + v + ": the directory " + p.getParent()
                    + " does not exist");
        }
        if (Files.isDirectory(p) || Files.isRegularFile(p)) {
            throw new IllegalArgumentException(c.origin("unix-socket") + " = " + v + " is an existing "
                    + (Files.isDirectory(p) ? "directory" : "file") + ", not a socket: refusing to replace it");
        }
        if (p.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_UNIX_SOCKET_PATH_BYTES) {
            throw new IllegalArgumentException(c.origin("unix-socket") + " = " + v + " is longer than "
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

    /** The admin token, or null when admin calls need none. */
    /** The active-session registry the admin endpoint queries, or null (its registry calls answer 503). */
    public RegistryConfig registry() {
        return registry;
    }

    public String adminToken() {
        return adminToken;
    }

    /** The sockets' transport, epoll or NIO: {@code io-transport}. */
    public IoTransport ioTransport() {
        return ioTransport;
    }

    /**
     * The REST API's event loops by default on a host of {@code cores}: half of them, at least one. The services on the
     * host spend about four times the sidecar's CPU on each request (RESULTS.md 12.14: 0.12-0.14 ms against 0.035-0.045 ms
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

    public int masterConnections() {
        return masterConnections;
    }

    /** Whether each REST loop has its own data connection to each master (see the class comment). */
    public boolean masterOnRestLoops() {
        return masterOnRestLoops;
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

    /** For {@code --help}: each setting with its value (the default, for a configuration of no settings) and what it accepts. */
    public String usage() {
        return usage;
    }
}
