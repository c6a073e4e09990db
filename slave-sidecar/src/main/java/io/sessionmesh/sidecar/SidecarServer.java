package io.sessionmesh.sidecar;

import io.sessionmesh.registry.RegistryQueries;
import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.embedded.EmbeddedMaster;
import io.sessionmesh.sidecar.http.SidecarHttpInitializer;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.sidecar.master.MasterRouter;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.InvalidationHandler;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.io.IoTransport;

import com.github.benmanes.caffeine.cache.Ticker;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A running sidecar: connections to the masters, the cache, the REST server and the admin server. Each of the three
 * has event loops of its own ({@code io-threads} for the REST API, {@code master-io-threads} for the masters, one
 * thread for the admin endpoint): a REST loop busy with a large body cannot hold up an invalidation's confirmation or
 * a lease renewal (the master would then hold another service's write for up to a lease), nor a health check. {@link #start} binds both ports and starts connecting to the masters (it does not wait for them:
 * until one answers, calls get 503); {@link #close} stops accepting, closes every connection and the masters'.
 * With {@code masters=embedded} it first starts a master of its own on a free loopback port (local development
 * mode: one process, real TCP between the two; {@link EmbeddedMaster}) and stops it last.
 */
public final class SidecarServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SidecarServer.class);

    /**
     * When an HTTP connection stops taking answers (unwritable: it then stops being read) and takes them again: the
     * master's marks. Above Netty's 64 KiB so that one large read answer does not stop a connection at once.
     */
    static final WriteBufferWaterMark WRITE_BUFFER = new WriteBufferWaterMark(256 << 10, 1 << 20);

    private final SidecarConfig config;
    private final EventLoopGroup boss;
    /** The REST API's connections. */
    private final EventLoopGroup workers;
    /** The masters' connections, their heartbeats and lease renewals, the touches forwarded to them. */
    private final EventLoopGroup masterLoops;
    /** The admin endpoint's connections. */
    private final EventLoopGroup adminLoop;
    private final MasterRouter router;
    private final SidecarService service;
    private final Channel api;
    /** The REST API on a Unix domain socket ({@code unix-socket}), or null. */
    private final Channel apiUnix;
    private final Channel admin;
    /** The in-process master of local development mode, or null. */
    private final EmbeddedMaster embeddedMaster;
    private volatile boolean closed;
    /** This sidecar's name to the masters, new for every start: a restarted sidecar trusts nothing it cached before. */
    private final UUID holderId;

    private SidecarServer(SidecarConfig config, Ticker cacheTicker, UUID holderId) throws InterruptedException {
        this.config = config;
        this.holderId = holderId;
        IoTransport io = config.ioTransport();
        this.boss = io.eventLoops(1, "sidecar-accept");
        this.workers = io.eventLoops(config.ioThreads(), "sidecar-io");
        this.masterLoops = io.eventLoops(config.masterIoThreads(), "sidecar-master");
        this.adminLoop = io.eventLoops(1, "sidecar-admin");
        SidecarMetrics metrics = new SidecarMetrics();
        MasterConnectionOptions connection = MasterConnectionOptions.builder()
                .connectTimeout(config.masterConnectTimeout())
                .requestTimeout(config.masterTimeout())
                .maxInFlight(config.masterMaxInFlight())
                .maxQueued(config.masterMaxQueued())
                .limits(config.transportLimits())
                .traffic(metrics.masterTraffic)
                .tls(config.masterTls() == null ? null : config.masterTls().clientContext())
                .build();
        // each REST loop has its own data connection to each master: a miss or a write is sent and answered on the
        // thread that read its request; the control connection stays on the master loops
        MasterPool.Options pool = new MasterPool.Options(connection, config.reconnectMin(), config.reconnectMax(),
                config.heartbeatInterval(), holderId, config.leaseMargin(), workers);
        SectionCache cache = new SectionCache(config.cacheMaxBytes(), config.cacheTtl(), cacheTicker);
        this.embeddedMaster = config.embeddedMaster() ? startEmbeddedMaster() : null;
        List<List<InetSocketAddress>> masters = embeddedMaster == null ? config.masters() : List.of(List.of(embeddedMaster.address()));
        this.router = new MasterRouter(masters, config.vnodes(), pool, masterLoops,
                new InvalidationHandler(cache, metrics));
        this.service = new SidecarService(router, cache, metrics, config.schemaCache(), config.staleReadWindow());
        service.readAhead(config.readAhead());
        if (config.registry() != null) {
            service.registry(new RegistryQueries(config.registry()));
        }
        try {
            router.start();
            SidecarHttpInitializer apiPipeline = new SidecarHttpInitializer(config, service, false);
            api = bind(config.bind(), config.port(), apiPipeline);
            apiUnix = config.unixSocket() == null ? null : bindUnix(config.unixSocket(), apiPipeline);
            admin = bind(config.adminBind(), config.adminPort(), new SidecarHttpInitializer(config, service, true));
        } catch (RuntimeException | InterruptedException e) {
            shutdown();
            throw e;
        }
        long touch = config.touchInterval().toMillis();
        masterLoops.next().scheduleAtFixedRate(this::forwardTouches, touch, touch, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts a sidecar.
     *
     * @throws IllegalStateException with {@code masters=embedded} when no master can run in this process
     *     ({@link EmbeddedMaster#MISSING})
     */
    public static SidecarServer start(SidecarConfig config) throws InterruptedException {
        return start(config, Ticker.systemTicker());
    }

    /** A sidecar whose cache keeps time by {@code cacheTicker} (tests move it by hand, so expiry needs no waiting). */
    static SidecarServer start(SidecarConfig config, Ticker cacheTicker) throws InterruptedException {
        return start(config, cacheTicker, UUID.randomUUID());
    }

    /** A sidecar with this holder id (tests: another peer registered it first). */
    static SidecarServer start(SidecarConfig config, UUID holderId) throws InterruptedException {
        return start(config, Ticker.systemTicker(), holderId);
    }

    private static SidecarServer start(SidecarConfig config, Ticker cacheTicker, UUID holderId) throws InterruptedException {
        if (config.embeddedMaster() && EmbeddedMaster.factory().isEmpty()) {
            throw new IllegalStateException(EmbeddedMaster.MISSING);
        }
        return new SidecarServer(config, cacheTicker, holderId);
    }

    private static EmbeddedMaster startEmbeddedMaster() throws InterruptedException {
        return EmbeddedMaster.factory().orElseThrow(() -> new IllegalStateException(EmbeddedMaster.MISSING)).start();
    }

    private Channel bind(String host, int port, SidecarHttpInitializer pipeline) throws InterruptedException {
        return new ServerBootstrap()
                .group(boss, pipeline.isAdmin() ? adminLoop : workers)
                .channel(config.ioTransport().serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WRITE_BUFFER)
                .childHandler(pipeline)
                .bind(host, port).sync().channel();
    }

    /**
     * The REST API on a Unix domain socket at {@code path}, sharing the TCP server's pipeline and so its connection
     * limit and body budget. A socket file left by an earlier run is removed first (binding would fail on it); the
     * file is made 0660, so only this user and its group may connect.
     */
    /**
     * Binds the REST API's Unix domain socket so that it is never reachable with a looser mode than 0660: bound inside a
     * fresh directory only this user may enter (0700, beside the socket's path, so on the same file system), made 0660
     * there, then renamed into place, where it appears already 0660. A bind at the path itself would create the file
     * with the umask's mode (0777 less it) and leave it so until a chmod, a window in which any local user could connect.
     */
    private Channel bindUnix(Path path, SidecarHttpInitializer pipeline) throws InterruptedException {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the old socket file " + path, e);
        }
        Path privateDir;
        try {
            privateDir = Files.createTempDirectory(path.getParent(), ".sessionmesh-bind-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException | UnsupportedOperationException e) {
            throw new IllegalStateException("cannot make a private directory in " + path.getParent() + " to bind the "
                    + "socket in: " + e.getMessage(), e);
        }
        Path inside = privateDir.resolve("s");
        Channel ch = null;
        try {
            ch = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(config.ioTransport().serverDomainSocketChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WRITE_BUFFER)
                    .childHandler(pipeline)
                    .bind(config.ioTransport().domainSocketAddress(inside)).sync().channel();
            Files.setPosixFilePermissions(inside, PosixFilePermissions.fromString("rw-rw----"));
            Files.move(inside, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return ch;
        } catch (IOException | UnsupportedOperationException e) {
            if (ch != null) {
                ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
            throw new IllegalStateException("cannot put the socket file " + path + " in place with mode 0660: "
                    + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(inside);
                Files.deleteIfExists(privateDir);
            } catch (IOException e) {
                log.warn("could not remove the private directory {} the socket was bound in: {}", privateDir, e.toString());
            }
        }
    }

    private void forwardTouches() {
        try {
            service.forwardTouches();
        } catch (RuntimeException e) {
            log.error("forwarding touches failed", e);
        }
    }

    /** The REST API's address. */
    public InetSocketAddress address() {
        return (InetSocketAddress) api.localAddress();
    }

    /** The REST API's Unix domain socket, or null when it has none. */
    public Path unixSocket() {
        return apiUnix == null ? null : config.unixSocket();
    }

    /** The admin endpoint's address. */
    public InetSocketAddress adminAddress() {
        return (InetSocketAddress) admin.localAddress();
    }

    /** The REST API's event loops (tests make them busy). */
    EventLoopGroup httpLoops() {
        return workers;
    }

    public SidecarService service() {
        return service;
    }

    /** The in-process master's effective configuration in local development mode, or null. */
    public String embeddedMasterDescription() {
        return embeddedMaster == null ? null : embeddedMaster.describe();
    }

    /** The in-process master's address in local development mode, or null. */
    public InetSocketAddress embeddedMasterAddress() {
        return embeddedMaster == null ? null : embeddedMaster.address();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        api.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (apiUnix != null) {
            apiUnix.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            try {
                Files.deleteIfExists(config.unixSocket());
            } catch (IOException e) {
                log.warn("cannot remove the socket file {}: {}", config.unixSocket(), e.toString());
            }
        }
        admin.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        shutdown();
        log.info("sidecar stopped: {}", service.metrics().snapshot());
    }

    private void shutdown() {
        router.close();
        service.directory().close();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        adminLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        masterLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (embeddedMaster != null) {
            embeddedMaster.close();
        }
    }
}
