package io.sessionmesh.sidecar.config;

import io.sessionmesh.registry.RegistrySettings;
import io.sessionmesh.settings.ReadyFile;
import io.sessionmesh.settings.Setting;
import io.sessionmesh.settings.SettingList;
import io.sessionmesh.wire.io.IoTransport;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.transport.TransportLimits;

import java.nio.file.Path;
import java.time.Duration;

import static io.sessionmesh.sidecar.config.SidecarConfig.ADMIN_TOKEN_ENV;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_ADMIN_PORT;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_BODY_BUDGET_BYTES;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_BODY_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_HEAD_TIMEOUT;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MASTERS;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MASTER_MAX_IN_FLIGHT;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MASTER_MAX_QUEUED;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MAX_HTTP_CONNECTIONS;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MAX_OUTBOUND_BYTES;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_MAX_PIPELINED;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_OUTBOUND_BUDGET_BYTES;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_PORT;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_READ_AHEAD;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_SCHEMA_CACHE;
import static io.sessionmesh.sidecar.config.SidecarConfig.DEFAULT_VNODES;
import static io.sessionmesh.sidecar.config.SidecarConfig.EMBEDDED_MASTER;
import static io.sessionmesh.sidecar.config.SidecarConfig.MAX_ADMIN_BODY_BYTES;
import static io.sessionmesh.sidecar.config.SidecarConfig.MAX_READ_AHEAD;
import static io.sessionmesh.sidecar.config.SidecarConfig.MAX_UNIX_SOCKET_PATH_BYTES;
import static io.sessionmesh.sidecar.config.SidecarConfig.MIN_ADMIN_TOKEN_CHARS;

/**
 * Every setting of a sidecar, declared once: name, default, range and meaning. {@link SidecarConfig} reads its values
 * through these declarations; {@code --help} and docs/configuration.md are rendered from them. The registry's settings
 * are {@link RegistrySettings}'s, shared with the master.
 */
public final class SidecarSettings {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    public static final Setting<String> MASTERS = Setting.text("masters", DEFAULT_MASTERS)
            .accepting("host:port,... ('|' joins a group's replicas), or " + EMBEDDED_MASTER)
            .means("Every master as comma-separated `host:port`, the same list on every sidecar: a session id's place "
                    + "on a hash ring decides its master. A master group names its replicas joined by `|` "
                    + "(`a1:7401|a2:7402|a3:7403,b1:7401|...`): the sidecar follows each group's leader, and the first "
                    + "group's cluster map then says which groups there are (this list only seeds it). `"
                    + EMBEDDED_MASTER + "`: local development mode, a master inside this process; only "
                    + "`sessionmesh-local.jar` carries one (the sidecar's jar exits with status 2 and says so).");
    public static final Setting<String> BIND = Setting.text("bind", "127.0.0.1").accepting("an address or host name")
            .means("The REST API's address. The API has no authentication: a bind beyond loopback is for a network only "
                    + "the host's services reach, such as a pod's or a container's own, and the sidecar refuses to "
                    + "start with one unless `bind-beyond-loopback` is set.");
    public static final Setting<Boolean> BIND_BEYOND_LOOPBACK = Setting.bool("bind-beyond-loopback", false)
            .means("Allows a `bind` that is not loopback (0.0.0.0, an interface's address): say so only where that "
                    + "network is the host's own, such as a container's or a pod's network namespace (the images set "
                    + "it). Without it such a bind fails start-up, as Redis's protected mode does.");
    public static final Setting<String> ALLOWED_HOSTS = Setting.text("allowed-hosts", "")
            .shownAs("none: the loopback names and the binds")
            .accepting("host names or addresses, comma-separated, no port")
            .means("More names the REST API (and the admin endpoint without an admin token) answer to in the `Host` "
                    + "header, beside `localhost`, `127.0.0.1`, `::1` and the address it is bound to: a request naming "
                    + "another host is 421 Misdirected Request, so a page in a browser on the host that a DNS name "
                    + "pointed at 127.0.0.1 (DNS rebinding) reaches nothing. The port is not compared; a request "
                    + "without a Host header (HTTP/1.0) is let through.");
    public static final Setting<Integer> PORT = Setting.port("port", DEFAULT_PORT)
            .means("The REST API's TCP port; 0 picks a free one, printed at start and written to the ready file.");
    public static final Setting<Path> UNIX_SOCKET = Setting.path("unix-socket")
            .means("The REST API also listens on this Unix domain socket (file mode 0660: only this user and its group "
                    + "may connect; bound in a private directory beside it and moved into place, so it is never "
                    + "reachable with a looser mode), which services on the host reach as `sessionmesh.sidecar-uri=unix:<path>`: no TCP "
                    + "stack on either side, about a fifth less CPU per call (benchmarks/RESULTS.md 12.6 at 1f3fa7a). The "
                    + "directory must exist and the path be at most " + MAX_UNIX_SOCKET_PATH_BYTES + " bytes; a socket "
                    + "left by an earlier run is replaced, the file is removed on stop, and a regular file or a "
                    + "directory there is refused.");
    public static final Setting<String> ADMIN_BIND = Setting.text("admin-bind", "127.0.0.1")
            .accepting("an address or host name")
            .means("The admin endpoint's address. Beyond loopback it needs an admin token (`admin-token`), or the "
                    + "sidecar refuses to start.");
    public static final Setting<Integer> ADMIN_PORT = Setting.port("admin-port", DEFAULT_ADMIN_PORT)
            .means("The admin endpoint, on a thread of its own: `/admin/health`, `/admin/stats`, `/metrics` "
                    + "(Prometheus), the operators' page, the registry's queries, logging a principal out everywhere; 0 "
                    + "picks a free port. Admin requests are at most " + (MAX_ADMIN_BODY_BYTES >> 10) + " KiB.");
    public static final Setting<String> ADMIN_TOKEN = Setting.secret("admin-token")
            .means("The admin token; then every admin call needs `Authorization: Bearer <token>`, checked on the "
                    + "headers before a body is read. At least " + MIN_ADMIN_TOKEN_CHARS + " characters (`openssl rand "
                    + "-hex 16`). Only in a `--config` file: as a flag it is refused, since `ps` shows flags to every "
                    + "user. The environment variable `" + ADMIN_TOKEN_ENV + "` wins over `admin-token-file`, which "
                    + "wins over this.");
    public static final Setting<Path> ADMIN_TOKEN_FILE = Setting.path("admin-token-file")
            .means("A file whose first line is the admin token (`admin-token`).");
    public static final Setting<Integer> IO_THREADS = Setting.integer("io-threads", SidecarConfig.defaultIoThreads(CORES),
                    1, 256).shownAs("cores / 2, at least 1")
            .means("Event loops of the REST API and of its data connections to the masters. Half the cores: the "
                    + "services beside it need the rest, and fewer loops batch more (on 2 cores one loop instead of two "
                    + "took 7-27% off the whole stack's CPU a request, benchmarks/RESULTS.md 12.14 at 1f3fa7a).");
    public static final Setting<String> IO_TRANSPORT = Setting.choice("io-transport", "auto", IoTransport.SETTING_VALUES)
            .means(IoTransport.SETTING_MEANING);
    public static final Setting<Integer> MASTER_IO_THREADS = Setting.integer("master-io-threads", Math.max(1, CORES / 4),
                    1, 64).shownAs("cores / 4, at least 1")
            .means("Event loops of the masters' control connections (invalidations, their confirmations, lease "
                    + "renewals), apart from the REST API's: a busy REST loop (a large JSON body) delays no "
                    + "confirmation or renewal.");
    public static final Setting<Long> MAX_BODY = Setting.size("max-body", 32 << 20, 1024,
                    TransportLimits.MAX_MESSAGE_BYTES_CEILING)
            .means("One request body: a larger one is 413, refused from its Content-Length before it is read; the "
                    + "connection goes on.");
    public static final Setting<Integer> MAX_HTTP_CONNECTIONS = Setting.integer("max-http-connections",
                    DEFAULT_MAX_HTTP_CONNECTIONS, 1, 1_000_000)
            .means("Open REST connections; a new one beyond them is closed at once.");
    public static final Setting<Integer> MAX_PIPELINED = Setting.integer("max-pipelined", DEFAULT_MAX_PIPELINED, 1, 100_000)
            .means("Requests of one connection waiting for their answers: it is not read again until half are answered.");
    public static final Setting<Long> BODY_BUDGET = Setting.size("body-budget", DEFAULT_BODY_BUDGET_BYTES, 1024, 1L << 40)
            .means("Request bodies held at once over every REST connection, reserved as a body arrives and given back "
                    + "once it is answered or its connection closes: a body that does not fit is 503 with "
                    + "`Retry-After: 1`, and skipped (`bodies_over_budget`, `body_bytes_reserved` in `/admin/stats`). "
                    + "At least `max-body`, or the sidecar refuses to start.");
    public static final Setting<Long> MAX_OUTBOUND = Setting.size("max-outbound", DEFAULT_MAX_OUTBOUND_BYTES, 64 << 10,
                    1L << 40)
            .means("Answers queued for a connection whose client does not read them (it is not read either "
                    + "meanwhile): past it the connection is closed (`http_slow_consumers_closed`).");
    public static final Setting<Long> OUTBOUND_BUDGET = Setting.size("outbound-budget", DEFAULT_OUTBOUND_BUDGET_BYTES,
                    64 << 10, 1L << 40)
            .means("Answers queued for their sockets over every REST connection at once (each connection's own bound is "
                    + "`max-outbound`): past it the connections holding the most queued bytes, those whose clients do "
                    + "not read, are closed until the rest fit (`http_slow_consumers_closed`; `outbound_bytes_queued` in "
                    + "`/admin/stats`). At least `max-outbound`, or the sidecar refuses to start.");
    public static final Setting<Duration> HTTP_IDLE_TIMEOUT = Setting.duration("http-idle-timeout", Duration.ofMinutes(5),
                    Duration.ofMillis(100), Duration.ofDays(1))
            .means("A keep-alive connection unused this long is closed.");
    public static final Setting<Duration> HEAD_TIMEOUT = Setting.duration("head-timeout", DEFAULT_HEAD_TIMEOUT,
                    Duration.ofMillis(100), Duration.ofHours(1))
            .means("The longest a request's head (request line and headers: at most 8 KiB and 16 KiB together) may take "
                    + "to arrive once its first byte after any empty lines has (more than 16 bytes of empty lines are "
                    + "refused 400); a deadline that runs out while the sidecar is not reading starts again. Past it "
                    + "the request is answered 408 and the connection closes, so a head trickled in a byte at a time "
                    + "cannot hold a connection slot. The admin port has the same deadline for a whole admin request, "
                    + "from the read that begins it: 408 and closed, before the token is read.");
    public static final Setting<Duration> BODY_TIMEOUT = Setting.duration("body-timeout", DEFAULT_BODY_TIMEOUT,
                    Duration.ofMillis(100), Duration.ofHours(1))
            .means("The longest a request body may take to arrive once its head is read (its share of `body-budget` is "
                    + "held meanwhile): past it the request is answered 408 and the connection closes, so a body "
                    + "trickled in a byte at a time cannot hold the budget. A refused body (413, 503) being skipped has "
                    + "the same deadline.");
    public static final Setting<Long> CACHE_MAX_BYTES = Setting.size("cache-max-bytes", 256L << 20, 0, 1L << 40)
            .means("The section cache's bound, by bytes of sections in the masters' wire form (Caffeine's size-aware "
                    + "eviction).");
    public static final Setting<Duration> CACHE_TTL = Setting.duration("cache-ttl", Duration.ofMinutes(5),
                    Duration.ofMillis(1), Duration.ofDays(1))
            .means("The longest a session stays cached after its master last answered for it; never longer than the "
                    + "master said the session may live.");
    public static final Setting<Duration> TOUCH_INTERVAL = Setting.duration("touch-interval", Duration.ofSeconds(5),
                    Duration.ofMillis(10), Duration.ofHours(1))
            .means("How often reads served from the cache are forwarded to their masters as touches, in batches, so "
                    + "that the sessions' idle time restarts there.");
    public static final Setting<Duration> MASTER_CONNECT_TIMEOUT = Setting.duration("master-connect-timeout",
                    Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMinutes(1))
            .means("Connecting to a master.");
    public static final Setting<Duration> MASTER_TIMEOUT = Setting.duration("master-timeout", Duration.ofSeconds(5),
                    Duration.ofMillis(10), Duration.ofMinutes(10))
            .means("One request to a master, including its sending again to a group's new leader after NOT_LEADER. A "
                    + "write may wait up to the master's `lease` (2s by default) for a sidecar that does not confirm "
                    + "an invalidation: keep this above it.");
    public static final Setting<Integer> MASTER_MAX_IN_FLIGHT = Setting.integer("master-max-in-flight",
                    DEFAULT_MASTER_MAX_IN_FLIGHT, 1, 1 << 20).shownAs(DEFAULT_MASTER_MAX_IN_FLIGHT + " (the master's)")
            .means("Requests sent on one master connection and waiting for their answers; the rest wait in its queue. "
                    + "No more than the master's `max-in-flight`, which refuses the rest.");
    public static final Setting<Integer> MASTER_MAX_QUEUED = Setting.integer("master-max-queued",
                    DEFAULT_MASTER_MAX_QUEUED, 0, 1 << 20)
            .means("Requests of one master connection waiting for an in-flight slot (their `master-timeout` runs); "
                    + "more are 503 at once.");
    public static final Setting<Path> MASTER_TLS_CERT = Setting.path("master-tls-cert").shownAs("none (plain TCP)")
            .means("This sidecar's certificate chain, PEM. Mutual TLS to the masters takes all three of "
                    + "`master-tls-cert`, `master-tls-key` and `master-tls-trust`, or none. The masters' certificates "
                    + "must name the addresses in `masters` (a DNS name or IP in their subject alternative names), and "
                    + "this sidecar's holder id is bound to its certificate (PROTOCOL.md 3.10).");
    public static final Setting<Path> MASTER_TLS_KEY = Setting.path("master-tls-key").shownAs("none (plain TCP)")
            .means("This sidecar's private key, PKCS#8 PEM.");
    public static final Setting<Path> MASTER_TLS_TRUST = Setting.path("master-tls-trust").shownAs("none (plain TCP)")
            .means("The authorities that sign the masters' certificates, PEM.");
    public static final Setting<Duration> RECONNECT_MIN = Setting.duration("reconnect-min", Duration.ofMillis(100),
                    Duration.ofMillis(1), Duration.ofMinutes(1))
            .means("The first wait before a dead master connection is replaced; it doubles up to `reconnect-max`, which "
                    + "it may not exceed.");
    public static final Setting<Duration> RECONNECT_MAX = Setting.duration("reconnect-max", Duration.ofSeconds(5),
                    Duration.ofMillis(1), Duration.ofMinutes(10))
            .means("The longest wait between reconnect attempts.");
    public static final Setting<Duration> HEARTBEAT_INTERVAL = Setting.duration("heartbeat-interval", Duration.ofSeconds(1),
                    Duration.ofMillis(10), Duration.ofMinutes(10))
            .means("A PING on every master connection, to find a dead one; the control connection pings more often when "
                    + "the lease needs it (a quarter of the lease less its margin).");
    public static final Setting<Duration> LEASE_MARGIN = Setting.duration("lease-margin", Duration.ofMillis(200),
                    Duration.ofMillis(1), Duration.ofSeconds(10))
            .means("How much sooner than the master this sidecar counts its lease as over, for the two clocks' drift: "
                    + "it serves its cache for the master's `lease` less this.");
    public static final Setting<Duration> STALE_READ_WINDOW = Setting.duration("stale-read-window", Duration.ZERO,
                    Duration.ZERO, Duration.ofHours(1)).shownAs("0 (off)")
            .means("With no master reachable, answer reads from the cache for up to this long after the lease ran out, "
                    + "with the header `X-SessionMesh-Stale: true`.");
    public static final Setting<Integer> READ_AHEAD = Setting.integer("read-ahead", DEFAULT_READ_AHEAD, 0, MAX_READ_AHEAD)
            .means("On a miss, also fetch up to this many other section names that reads through this sidecar have asked "
                    + "for (of any session) and the session's entry does not hold: a session's first read here then "
                    + "brings what its next reads here want, for more bytes from the master and more invalidations to "
                    + "confirm (the master counts this sidecar as their holder). 0: off. On the standard workload it "
                    + "takes the open loop's hit ratio from 77% to 85% (benchmarks/RESULTS.md 12.7 at 1f3fa7a).");
    public static final Setting<Integer> VNODES = Setting.integer("vnodes", DEFAULT_VNODES, 1, Placement.MAX_VNODES)
            .means("Virtual nodes per master on the hash ring. The default, the most a CREATE's placement carries, "
                    + "leaves under 2% between the most and the least loaded master, where 256 left 14-25% "
                    + "(HashRingSpreadTest).");
    public static final Setting<Integer> SCHEMA_CACHE = Setting.integer("schema-cache", DEFAULT_SCHEMA_CACHE, 1, 10_000_000)
            .means("One-nio schemas kept in memory.");
    public static final Setting<Path> READY_FILE = Setting.path(ReadyFile.SETTING)
            .means("Once listening, write `pid`, `api` and `admin` (and `embedded-master` in local mode) as `host:port` "
                    + "to this file, a temporary file moved into place: how a supervisor or a test learns the ports.");

    /** The sidecar's own settings, in the order the reference lists them. */
    public static final SettingList OWN = SettingList.of(MASTERS, BIND, BIND_BEYOND_LOOPBACK, ALLOWED_HOSTS, PORT,
            UNIX_SOCKET, ADMIN_BIND, ADMIN_PORT,
            ADMIN_TOKEN, ADMIN_TOKEN_FILE, IO_THREADS, IO_TRANSPORT, MASTER_IO_THREADS,
            MAX_BODY, MAX_HTTP_CONNECTIONS, MAX_PIPELINED, BODY_BUDGET, MAX_OUTBOUND, OUTBOUND_BUDGET, HTTP_IDLE_TIMEOUT, HEAD_TIMEOUT,
            BODY_TIMEOUT, CACHE_MAX_BYTES, CACHE_TTL, TOUCH_INTERVAL,
            MASTER_CONNECT_TIMEOUT, MASTER_TIMEOUT, MASTER_MAX_IN_FLIGHT, MASTER_MAX_QUEUED, MASTER_TLS_CERT,
            MASTER_TLS_KEY, MASTER_TLS_TRUST, RECONNECT_MIN, RECONNECT_MAX, HEARTBEAT_INTERVAL, LEASE_MARGIN,
            STALE_READ_WINDOW, READ_AHEAD, VNODES, SCHEMA_CACHE, READY_FILE);
    /** Everything a sidecar reads: its own settings and the registry's, for its admin endpoint's queries. */
    public static final SettingList ALL = OWN.and(RegistrySettings.QUERIES);

    private SidecarSettings() {
    }
}
