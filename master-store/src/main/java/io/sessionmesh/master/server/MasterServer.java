package io.sessionmesh.master.server;

import io.sessionmesh.master.admin.MasterAdminServer;
import io.sessionmesh.master.admin.MasterMetrics;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.handler.ServerCounters;
import io.sessionmesh.master.replication.ReplicaCommand;
import io.sessionmesh.master.groups.GroupOps;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.registry.RegistryStatus;
import io.sessionmesh.registry.RegistryWriter;
import io.sessionmesh.master.store.Ticker;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.sessionmesh.wire.transport.BinaryTransportCodec;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A running master: the store, the Netty server in front of it, the caches registered with it, and the timer
 * thread (expiry sweeps, lease ends). {@link #start} binds
 * and returns; {@link #close} shuts down gracefully: stops accepting, stops reading, lets the answers already
 * made reach their sockets (up to the shutdown grace), then closes every connection.
 */
public final class MasterServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MasterServer.class);

    private final MasterConfig config;
    private final SessionStore store;
    private final ServerCounters counters = new ServerCounters();
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ChannelGroup channels = new DefaultChannelGroup("master-connections", GlobalEventExecutor.INSTANCE);
    private final ScheduledExecutorService sweeper;
    private final HolderRegistry holders;
    private final Channel serverChannel;
    /** This master's replica of its group; null for a master on its own. */
    private final ReplicaGroup group;
    /** The leader's expiry, retried until it commits (in a group only). */
    private ExpirySweep expirySweep;
    /** Elastic groups on this replica (null for a master on its own). */
    private final GroupOps groupOps;
    /** The active-session registry's writer, or null when it is off. */
    private final RegistryWriter registry;
    /** The HTTP admin endpoint ({@code admin-port}), or null when it is off. */
    private final MasterAdminServer admin;
    private volatile boolean closed;

    private MasterServer(MasterConfig config, SessionStore store) throws InterruptedException, IOException {
        this.config = config;
        this.store = store;
        this.boss = config.ioTransport().eventLoops(1, "master-accept");
        this.workers = config.ioTransport().eventLoops(config.ioThreads(), "master-io");
        this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "master-timers");
            t.setDaemon(true);
            return t;
        });
        this.holders = new HolderRegistry(config.lease().toMillis(), config.maxHoldersPerPeer(), sweeper);
        SslContext serverTls = config.tls() == null ? null : config.tls().serverContext();
        SslContext clientTls = config.tls() == null ? null : config.tls().clientContext();
        ReplicaGroup replica = null;
        GroupOps ops = null;
        try {
            if (config.group() != null) {
                BinaryTransportCodec logCodec = new BinaryTransportCodec(config.transportLimits());
                replica = ReplicaGroup.start(config.group(), store, logCodec, holders.invalidatorFor(null),
                        config.lease().toMillis(), config.tls());
                ops = new GroupOps(replica, store, logCodec, holders.invalidatorFor(null), clientTls);
            }
            ServerBootstrap b = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(config.ioTransport().serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
                    .childHandler(new MasterServerInitializer(config, store, counters, this::statsJson, channels,
                            holders, replica, sweeper, ops, serverTls));
            serverChannel = b.bind(config.bind(), config.port()).sync().channel();
        } catch (RuntimeException | InterruptedException | IOException e) {
            if (ops != null) {
                ops.close();
            }
            if (replica != null) {
                replica.close();
            }
            shutdownLoops();
            throw e;
        }
        this.group = replica;
        if (replica != null) {
            ReplicaGroup g = replica;
            Invalidator anonymous = holders.invalidatorFor(null);
            this.expirySweep = new ExpirySweep(store, ids -> g.propose(new ReplicaCommand.Sessions(ReplicaCommand.EXPIRE, ids),
                    0, anonymous), System::currentTimeMillis);
        }
        this.groupOps = ops;
        this.registry = config.registry() == null ? null : startRegistry(config, store, replica, address());
        if (registry == null) {
            log.info("registry: off (no --registry-url): the list of active sessions is kept by no one but the masters");
        }
        sweeper.scheduleAtFixedRate(this::sweep, SessionStore.EXPIRY_RESOLUTION_MILLIS,
                SessionStore.EXPIRY_RESOLUTION_MILLIS, TimeUnit.MILLISECONDS);
        this.admin = config.adminPort() < 0 ? null : startAdmin(config);
    }

    private MasterAdminServer startAdmin(MasterConfig config) throws InterruptedException {
        try {
            MasterMetrics metrics = new MasterMetrics(() -> stats(false), config.lease().toMillis());
            holders.counters().onFenceWait(metrics::fenceWait);
            return MasterAdminServer.start(config.ioTransport(), config.adminBind(), config.adminPort(), metrics,
                    store::sessionCount, () -> closed || counters.isDraining());
        } catch (Exception e) { // also the bind's IOException (a port in use), which Netty throws undeclared
            close();
            throw e;
        }
    }

    /** Where the HTTP admin endpoint listens, or null when it is off. */
    public InetSocketAddress adminAddress() {
        return admin == null ? null : admin.address();
    }

    /**
     * Starts a master with a new store: on the system's monotonic clock, or on the wall clock for a replica of a group
     * (its log carries the leader's time). A replica also starts its Raft server and replays its log.
     */
    public static MasterServer start(MasterConfig config) throws InterruptedException, IOException {
        return new MasterServer(config, new SessionStore(config.store(), config.group() == null ? Ticker.SYSTEM : Ticker.WALL));
    }

    /** Starts a master in front of a given store (tests, a sidecar's in-process master). */
    public static MasterServer start(MasterConfig config, SessionStore store) throws InterruptedException, IOException {
        return new MasterServer(config, store);
    }

    /**
     * Every second. On its own, the master removes what expired. In a group, the leader proposes the removal of what
     * expired by its clock (every replica removes it when the entry is applied); a follower only keeps its expiry wheel
     * from growing.
     */
    private void sweep() {
        try {
            if (group == null) {
                int expired = store.expireDue();
                if (expired > 0) {
                    log.debug("expired {} sessions", expired);
                }
            } else if (group.leads()) {
                expirySweep.run();
            } else {
                store.forgetDue(System.currentTimeMillis());
            }
        } catch (RuntimeException e) {
            log.error("expiry sweep failed", e);
        }
    }

    /**
     * Starts the registry's writer (docs/operations.md, "The active-session registry"). A replica of a group records
     * only while it leads, and re-syncs when it starts to lead: events the old leader had not written yet are covered,
     * and the version guard makes those it had written harmless.
     */
    private static RegistryWriter startRegistry(MasterConfig config, SessionStore store, ReplicaGroup replica,
                                                InetSocketAddress bound) {
        String owner = config.registryOwner() != null ? config.registryOwner()
                : replica != null ? "group:" + config.group().name()
                : bound.getHostString() + ":" + bound.getPort();
        RegistryWriter writer = new RegistryWriter(config.registry(), owner, store.activeSessions());
        if (replica == null) {
            store.recordLifecycle(writer, owner);
        } else {
            store.recordLifecycle(event -> {
                if (replica.leads()) {
                    writer.record(event);
                }
            }, owner);
            replica.onLead(writer::requestResync);
        }
        writer.start();
        log.info("registry: recording sessions as {} in {}", owner, config.registry().describe());
        return writer;
    }

    /** The registry's writer, or null when this master has no registry. */
    public RegistryWriter registry() {
        return registry;
    }

    /** This master's replica of its group, or null. */
    public ReplicaGroup group() {
        return group;
    }

    /** Where the master listens (the real port when the config said 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public SessionStore store() {
        return store;
    }

    public MasterConfig config() {
        return config;
    }

    /** The caches registered with this master. */
    public HolderRegistry holders() {
        return holders;
    }

    /**
     * The store's and the server's figures. The registry's {@code registry_lag_*} percentiles are since start; its
     * {@code registry_lag_interval_*} and {@code registry_backlog_interval_peak} are since the previous call.
     */
    public Map<String, Long> stats() {
        return stats(true);
    }

    /**
     * {@link #stats()}, with the registry writer's figures or without them: reading them ends the interval that the
     * {@code registry_*_interval_*} figures cover, which a Prometheus scrape must not do.
     */
    private Map<String, Long> stats(boolean registryFigures) {
        Map<String, Long> stats = new LinkedHashMap<>(store.stats());
        counters.putInto(stats);
        holders.putInto(stats);
        if (group != null) {
            stats.put("replica_leads", group.leads() ? 1L : 0L);
            stats.put("replica_pending_proposals", (long) group.pendingProposals());
            stats.put("replica_changes_proposed", group.changesProposed());
            stats.put("replica_entries_proposed", group.entriesProposed());
            stats.put("replica_applied_index", group.appliedIndex());
            stats.put("replica_commit_index", group.commitIndex());
            var map = group.moves().map();
            stats.put("group_map_epoch", map == null ? 0L : map.epoch());
            stats.put("group_map_moving", map != null && map.moving() ? 1L : 0L);
            stats.put("group_outbox_sessions", (long) group.moves().outboxSize());
            stats.put("group_sessions_handed_off", groupOps.movedSessions());
            stats.put("replica_refused_entries", group.moves().refusedEntries());
        }
        stats.put("registry_enabled", registry == null ? 0L : 1L);
        if (registry != null && registryFigures) {
            RegistryStatus r = registry.status();
            stats.put("registry_degraded", RegistryStatus.UP.equals(r.state()) ? 0L : 1L);
            stats.put("registry_backlog", r.backlog());
            stats.put("registry_bound", r.bound());
            stats.put("registry_written", r.written());
            stats.put("registry_batches", r.batches());
            stats.put("registry_resyncs", r.resyncs());
            stats.put("registry_resync_rows", r.resyncRows());
            stats.put("registry_resync_covered_events", r.coveredByResync());
            stats.put("registry_failures", r.failures());
            stats.put("registry_lag_p50_micros", r.lagSinceStartP50Micros());
            stats.put("registry_lag_p99_micros", r.lagSinceStartP99Micros());
            stats.put("registry_lag_max_micros", r.lagSinceStartMaxMicros());
            // Since the previous STATS: two calls bracket a measured window (benchmarks/run-registry-benchmark.sh).
            stats.put("registry_lag_interval_p50_micros", r.lagP50Micros());
            stats.put("registry_lag_interval_p99_micros", r.lagP99Micros());
            stats.put("registry_lag_interval_max_micros", r.lagMaxMicros());
            stats.put("registry_backlog_interval_peak", r.backlogPeak());
        }
        return stats;
    }

    private byte[] statsJson() {
        StringBuilder b = new StringBuilder("{");
        stats().forEach((k, v) -> b.append(b.length() > 1 ? ",\"" : "\"").append(k).append("\":").append(v));
        return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        long graceMillis = config.shutdownGrace().toMillis();
        serverChannel.close().awaitUninterruptibly(graceMillis + 1000);
        counters.startDraining();
        for (Channel ch : channels) {
            ch.config().setAutoRead(false);
        }
        // Answers already made are flushed, then each connection closes; a client that does not read is cut at the grace.
        channels.writeAndFlush(Unpooled.EMPTY_BUFFER).awaitUninterruptibly(graceMillis);
        channels.close().awaitUninterruptibly(graceMillis + 1000);
        sweeper.shutdownNow();
        if (admin != null) { // before what its figures read is closed; until here /health said DRAINING
            admin.close();
        }
        if (registry != null) {
            registry.close();
        }
        if (groupOps != null) {
            groupOps.close();
        }
        if (group != null) {
            try {
                group.close();
            } catch (IOException e) {
                log.warn("replica did not close cleanly", e);
            }
        }
        shutdownLoops();
        log.info("master stopped: {}", stats());
    }

    private void shutdownLoops() {
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
