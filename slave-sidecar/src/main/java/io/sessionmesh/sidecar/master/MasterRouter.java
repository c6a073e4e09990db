package io.sessionmesh.sidecar.master;

import io.sessionmesh.wire.client.InvalidationListener;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Which master (or master group: one pool follows its leader) holds a session: the session id's place on a
 * {@link HashRing} of the groups ({@code vnodes} virtual nodes each, 65,535 by default:
 * {@link io.sessionmesh.sidecar.config.SidecarConfig#DEFAULT_VNODES}), so every sidecar with the same groups and vnodes
 * sends a session to the same group. A new session is created on the next reachable group in turn, which is sent the
 * ring ({@link Placement}) so that it makes an id whose place is its own. Schemas are placed by their uid, so a schema
 * published through any sidecar is found through any other.
 *
 * <p>Replicated groups keep the ring's groups in the consensus layer (PROTOCOL.md 3.9): the router fetches the cluster
 * map from the directory (the first group) every {@link #MAP_REFRESH_MILLIS} and whenever a group answers MOVED, opens
 * pools to groups it did not know and closes those the map dropped. The first sidecar of a cluster offers its own
 * {@code --masters} as the first map. While ranges move, a session is asked of the group that had it first and, once
 * that one answers MOVED, of the group that has it now; MOVING (a session between the two) is asked again shortly.
 * Masters that are not replicated (no map) keep the ring of {@code --masters}.
 */
public final class MasterRouter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MasterRouter.class);

    /** How often the cluster map is fetched from the directory. */
    public static final long MAP_REFRESH_MILLIS = 1_000;
    /** How often a sidecar that has no map yet asks the directory again (at start, while its masters come up). */
    static final long PENDING_MAP_RETRY_MILLIS = 100;
    /** How long past the request timeout a pool of a group that left the map stays open. */
    static final long CLOSE_GRACE_MILLIS = 1_000;
    /** Pause before asking again for a session that is MOVING between groups. */
    static final long MOVING_RETRY_MILLIS = 20;

    /** A master's answer and the pool that gave it (the session's first choice, or where it moved to). */
    public record Routed<T>(T value, MasterPool pool) {
    }

    /** Everything a lookup needs, swapped whole when the map changes. */
    private record Layout(GroupMap map, List<MasterPool> pools, Map<String, MasterPool> byName, HashRing<MasterPool> ring,
                          List<Placement> placements) {
        /** The group asked first for a key: its owner, or while ranges move the group that had it before. */
        MasterPool first(String key) {
            return map == null ? ring.nodeFor(key) : byName.get(map.previousOwner(key));
        }

        /** The group that owns a key in the map (the same as {@link #first} unless ranges move). */
        MasterPool owner(String key) {
            return map == null ? ring.nodeFor(key) : byName.get(map.owner(key));
        }
    }

    /** Builds the rings of a new map and swaps it in, off the event loops. */
    private static final java.util.concurrent.Executor ADOPTER = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "sidecar-map");
        t.setDaemon(true);
        return t;
    });

    private final int vnodes;
    private final MasterPool.Options options;
    private final EventLoopGroup group;
    private final InvalidationListener pushes;
    /** Groups as configured: the first map a new cluster gets, and where the directory is. */
    private final List<List<String>> configured;
    private volatile Layout layout;
    private volatile boolean started;
    private volatile boolean closed;
    /** False once the directory answered that its masters keep no map (not replicated). */
    private volatile boolean mapped = true;
    private volatile CompletableFuture<GroupMap> refreshing;
    private volatile long lastRefreshNanos = System.nanoTime();

    /** One master per address (each a group of one). */
    public static MasterRouter of(List<InetSocketAddress> masters, int vnodes, MasterPool.Options options, EventLoopGroup group,
                                  InvalidationListener pushes) {
        return new MasterRouter(masters.stream().map(List::of).toList(), vnodes, options, group, pushes);
    }

    /** One pool per master group ({@code groups}: each group's replicas; a master on its own is a group of one). */
    public MasterRouter(List<List<InetSocketAddress>> groups, int vnodes, MasterPool.Options options, EventLoopGroup group,
                        InvalidationListener pushes) {
        this.vnodes = vnodes;
        this.options = options;
        this.group = group;
        this.pushes = pushes;
        this.configured = groups.stream().map(g -> g.stream().map(MasterRouter::nameOf).toList()).toList();
        Map<String, MasterPool> byName = new LinkedHashMap<>();
        List<MasterPool> pools = new ArrayList<>();
        for (List<InetSocketAddress> replicas : groups) {
            MasterPool pool = new MasterPool(replicas, options, group, pushes);
            pools.add(pool);
            byName.put(pool.name(), pool);
        }
        this.layout = staticLayout(pools, byName);
    }

    private Layout staticLayout(List<MasterPool> pools, Map<String, MasterPool> byName) {
        List<String> names = pools.stream().map(MasterPool::name).toList();
        List<Placement> placements = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            placements.add(pools.size() == 1 ? null : new Placement(names, vnodes, i));
        }
        return new Layout(null, List.copyOf(pools), Map.copyOf(byName), new HashRing<>(pools, names, vnodes),
                java.util.Collections.unmodifiableList(placements));
    }

    private static String nameOf(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** What to send with a CREATE to the pool at {@code index}: null when there is one master. */
    public Placement placement(int index) {
        return layout.placements().get(index);
    }

    public void start() {
        started = true;
        layout.byName().values().forEach(MasterPool::start);
        group.next().scheduleWithFixedDelay(this::tick, 0, PENDING_MAP_RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Fetches the map every {@link #MAP_REFRESH_MILLIS}, or every {@link #PENDING_MAP_RETRY_MILLIS} until one is known. */
    private void tick() {
        long now = System.nanoTime();
        if (layout.map() == null || now - lastRefreshNanos >= TimeUnit.MILLISECONDS.toNanos(MAP_REFRESH_MILLIS)) {
            lastRefreshNanos = now;
            refresh();
        }
    }

    /** How long one request to a master may take ({@code master-timeout}). */
    public java.time.Duration requestTimeout() {
        return options.connection().requestTimeout();
    }

    /** The cluster map in use: null while none has been fetched, and for masters that keep none. */
    public GroupMap map() {
        return layout.map();
    }

    /**
     * How sessions are routed: {@code "map"} (the directory's cluster map), {@code "static"} (masters that keep no map:
     * the ring of {@code --masters}), or {@code "pending"} (replicated masters whose map has not been fetched yet:
     * the ring of {@code --masters} meanwhile).
     */
    public String routing() {
        return !mapped ? "static" : layout.map() == null ? "pending" : "map";
    }

    /** The group asked first for a session (its owner, or the one that had it before while ranges move). */
    public MasterPool forSession(String sessionId) {
        return layout.first(sessionId);
    }

    /** The group of a schema uid (schemas are copied to their new group at the start of a move). */
    public MasterPool forSchema(long uid) {
        return layout.owner(schemaKey(uid));
    }

    /** Where else a schema may be while ranges move (the group that had it before), or null. */
    public MasterPool schemaFallback(long uid) {
        Layout l = layout;
        MasterPool before = l.first(schemaKey(uid));
        return before == l.owner(schemaKey(uid)) ? null : before;
    }

    private static String schemaKey(long uid) {
        return "schema:" + Long.toHexString(uid);
    }

    /** The index of the group a new session is created on: the next reachable one in turn. */
    public int forCreate(long counter) {
        List<MasterPool> pools = layout.pools();
        int n = pools.size();
        for (int i = 0; i < n; i++) {
            int index = (int) Math.floorMod(counter + i, (long) n);
            if (pools.get(index).isUp()) {
                return index;
            }
        }
        return (int) Math.floorMod(counter, (long) n);
    }

    /** The groups sessions are placed on (in map order). */
    public List<MasterPool> pools() {
        return layout.pools();
    }

    /** The ring sessions are placed by (built anew for a cluster map: for tests and tools, not the request path). */
    public HashRing<MasterPool> ring() {
        Layout l = layout;
        return l.ring() != null ? l.ring()
                : new HashRing<>(l.pools(), l.pools().stream().map(MasterPool::name).toList(), l.map().vnodes());
    }

    /** Times {@link #callEveryGroup} starts over when the map changed under it, before it answers "not settled". */
    public static final int MAX_EVERY_GROUP_ATTEMPTS = 3;

    /**
     * One call to every group's leader, for what must see every session of a principal ("log out everywhere", a
     * principal's sessions), with its pools and whether the map held still meanwhile.
     *
     * @param mapHeld the directory's map had the same epoch before the first call and after the last (and this
     *                sidecar routed by it): no move began or ended in between, so no session was missed in flight
     */
    public record EveryGroup<T>(List<MasterPool> pools, List<CompletableFuture<T>> results, boolean mapHeld) {
    }

    /**
     * Calls every group's leader so that no session of a move in progress is missed (PROTOCOL.md 3.11): while the map
     * is MOVING, the groups sessions leave first, then the others, since a session goes from its old group's store to
     * its outbox to its new group's store, and leaves the outbox only once its new group has it. The directory's map
     * is fetched before and after; if its epoch changed (a move began or ended meanwhile), it starts over, at most
     * {@link #MAX_EVERY_GROUP_ATTEMPTS} times. Never completes exceptionally: each result holds its own failure.
     */
    public <T> CompletableFuture<EveryGroup<T>> callEveryGroup(java.util.function.Function<MasterPool, CompletableFuture<T>> call) {
        return callEveryGroup(call, MAX_EVERY_GROUP_ATTEMPTS);
    }

    private <T> CompletableFuture<EveryGroup<T>> callEveryGroup(java.util.function.Function<MasterPool, CompletableFuture<T>> call,
                                                               int attempts) {
        return directoryEpoch().thenCompose(before -> {
            Layout l = layout;
            GroupMap map = l.map();
            List<List<MasterPool>> phases = new ArrayList<>();
            List<MasterPool> pools = new ArrayList<>(l.byName().values());
            if (map != null && map.moving()) {
                List<MasterPool> leaving = new ArrayList<>();
                for (List<String> g : map.previous()) {
                    MasterPool p = l.byName().get(g.get(0));
                    if (p != null) {
                        leaving.add(p);
                    }
                }
                List<MasterPool> rest = new ArrayList<>(pools);
                rest.removeAll(leaving);
                phases.add(leaving);
                phases.add(rest);
                pools = new ArrayList<>(leaving);
                pools.addAll(rest);
            } else {
                phases.add(pools);
            }
            List<MasterPool> order = List.copyOf(pools);
            List<CompletableFuture<T>> results = new ArrayList<>();
            CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
            for (List<MasterPool> phase : phases) {
                chain = chain.thenCompose(ignored -> {
                    List<CompletableFuture<T>> these = new ArrayList<>();
                    for (MasterPool p : phase) {
                        CompletableFuture<T> f;
                        try {
                            f = call.apply(p);
                        } catch (RuntimeException e) {
                            f = CompletableFuture.failedFuture(e);
                        }
                        these.add(f);
                    }
                    results.addAll(these);
                    return CompletableFuture.allOf(these.toArray(CompletableFuture[]::new)).handle((v, e) -> null);
                });
            }
            return chain.thenCompose(ignored -> directoryEpoch()).thenCompose(after -> {
                boolean held = !mapped || (before >= 0 && before.equals(after)
                        && (map == null ? before == 0 : map.epoch() == before));
                if (!held && attempts > 1) {
                    return callEveryGroup(call, attempts - 1);
                }
                return CompletableFuture.completedFuture(new EveryGroup<>(order, List.copyOf(results), held));
            });
        });
    }

    /**
     * The epoch of the directory's map now (0: none yet; -1: the directory did not answer), after taking that map
     * if it is newer than this sidecar's. For masters that keep no map (they answer GROUP_MAP UNSUPPORTED_VERSION), 0.
     */
    private CompletableFuture<Long> directoryEpoch() {
        if (!mapped || closed) {
            return CompletableFuture.completedFuture(0L);
        }
        return directory().call(c -> c.groupOp(Opcodes.GROUP_MAP, new byte[0])).thenCompose(bytes -> {
            if (bytes.length == 0) {
                return CompletableFuture.completedFuture(0L);
            }
            long epoch = GroupMap.decode(bytes).epoch();
            GroupMap now = layout.map();
            return now != null && now.epoch() >= epoch ? CompletableFuture.completedFuture(epoch)
                    : refresh().thenApply(map -> epoch);
        }).exceptionally(e -> MasterException.statusOf(e) == Status.UNSUPPORTED_VERSION ? 0L : -1L); // none kept: no move
    }

    /** Every pool this router has open: the map's groups and, while ranges move, the groups before. */
    public List<MasterPool> allPools() {
        return List.copyOf(layout.byName().values());
    }

    /** Whether any master is reachable. */
    public boolean anyUp() {
        return layout.byName().values().stream().anyMatch(MasterPool::isUp);
    }

    /**
     * Runs a request for a session on its group: MOVED sends it to the group that has the session now (after fetching
     * the map if the answer names a newer one), MOVING sends it again after {@link #MOVING_RETRY_MILLIS}, until the
     * request timeout.
     */
    public <T> CompletableFuture<Routed<T>> call(String sessionId, Function<MasterConnection, CompletableFuture<T>> request) {
        return attempt(sessionId, request, System.nanoTime() + options.connection().requestTimeout().toNanos(), null);
    }

    private <T> CompletableFuture<Routed<T>> attempt(String sessionId, Function<MasterConnection, CompletableFuture<T>> request,
                                                     long deadline, MasterPool movedFrom) {
        Layout l = layout;
        MasterPool pool = l.first(sessionId);
        if (movedFrom != null && pool == movedFrom) {
            pool = l.owner(sessionId);
            if (pool == movedFrom) { // this map still places it there: a newer map is on its way
                return later(() -> attempt(sessionId, request, deadline, null), deadline);
            }
        }
        MasterPool asked = pool;
        return pool.call(request).thenApply(v -> new Routed<>(v, asked)).exceptionallyCompose(e -> {
            int status = MasterException.statusOf(e);
            if ((status != Status.MOVED && status != Status.MOVING) || closed) {
                return CompletableFuture.failedFuture(e);
            }
            if (System.nanoTime() - deadline >= 0) {
                return CompletableFuture.failedFuture(new MasterException(Status.UNAVAILABLE, "session "
                        + io.sessionmesh.wire.transport.RedactedIds.redact(sessionId)
                        + " is moving between master groups and was not reachable within the master timeout; try again"));
            }
            if (status == Status.MOVING) {
                return later(() -> attempt(sessionId, request, deadline, null), deadline);
            }
            long epoch = epochOf(e);
            GroupMap map = layout.map();
            if (map == null || epoch > map.epoch()) {
                return refresh().thenCompose(m -> attempt(sessionId, request, deadline, asked));
            }
            return attempt(sessionId, request, deadline, asked);
        });
    }

    /**
     * A CREATE on the next reachable group, with the placement of the map in use; a MOVED answer (the group's map is
     * not this router's) fetches the map and tries again, until the request timeout.
     */
    public <T> CompletableFuture<T> create(long counter, BiFunction<MasterConnection, Placement, CompletableFuture<T>> request) {
        return create(counter, request, System.nanoTime() + options.connection().requestTimeout().toNanos());
    }

    private <T> CompletableFuture<T> create(long counter, BiFunction<MasterConnection, Placement, CompletableFuture<T>> request,
                                            long deadline) {
        Layout l = layout;
        int index = forCreate(counter);
        Placement placement = l.placements().get(index);
        return l.pools().get(index).call(c -> request.apply(c, placement)).exceptionallyCompose(e -> {
            if (MasterException.statusOf(e) != Status.MOVED || System.nanoTime() - deadline >= 0 || closed) {
                return CompletableFuture.failedFuture(e);
            }
            return refresh().thenCompose(m -> later(() -> create(counter, request, deadline), deadline));
        });
    }

    private <T> CompletableFuture<T> later(java.util.function.Supplier<CompletableFuture<T>> again, long deadline) {
        CompletableFuture<T> result = new CompletableFuture<>();
        group.next().schedule(() -> again.get().whenComplete((v, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(v);
            }
        }), MOVING_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        return result;
    }

    private static long epochOf(Throwable e) {
        MasterException m = MasterException.of(e);
        try {
            return m == null || m.masterMessage() == null ? Long.MAX_VALUE : Long.parseLong(m.masterMessage().trim());
        } catch (NumberFormatException ex) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Fetches the cluster map from the directory and takes it if it is newer (one fetch at a time; callers share it).
     * Completes with the map in use (null for masters that keep none); never exceptionally.
     */
    public CompletableFuture<GroupMap> refresh() {
        if (!mapped || closed) {
            return CompletableFuture.completedFuture(layout.map());
        }
        CompletableFuture<GroupMap> running = refreshing;
        if (running != null && !running.isDone()) {
            return running;
        }
        CompletableFuture<GroupMap> f = fetch().handle((bytes, e) -> {
            if (e != null) {
                int status = MasterException.statusOf(e);
                if (status == Status.UNSUPPORTED_VERSION) {
                    mapped = false; // masters on their own: the ring of --masters stays
                    log.info("masters keep no cluster map (not replicated): routing by --masters");
                } else {
                    log.debug("cluster map not fetched: {}", e.toString());
                }
                return layout.map();
            }
            return bytes.length == 0 ? layout.map() : GroupMap.decode(bytes); // none yet: --masters still routes
        }).thenApplyAsync(map -> {
            if (map != null && (layout.map() == null || map.epoch() > layout.map().epoch())) {
                map.ring(); // the rings are built here, off the event loops (65,535 virtual nodes a group)
                map.previousOwner("");
                adopt(map);
            }
            return layout.map();
        }, ADOPTER);
        refreshing = f;
        return f;
    }

    /**
     * The directory's map; a directory with none is offered this sidecar's groups as the first map, unless it refused
     * that once (FORBIDDEN: with TLS, the first map is an operator's, SECURITY.md): then the sidecar routes by
     * {@code --masters} and only reads the map until one exists.
     */
    private CompletableFuture<byte[]> fetch() {
        MasterPool directory = directory();
        return directory.call(c -> c.groupOp(Opcodes.GROUP_MAP, new byte[0])).thenCompose(bytes -> {
            if (bytes.length > 0 || firstRefused) {
                return CompletableFuture.completedFuture(bytes);
            }
            byte[] first = GroupMap.first(configured, vnodes).encode();
            byte[] body = new byte[1 + first.length];
            body[0] = 1; // FIRST
            System.arraycopy(first, 0, body, 1, first.length);
            return directory.call(c -> c.groupOp(Opcodes.GROUP_CHANGE, body)).exceptionally(e -> {
                if (MasterException.statusOf(e) != Status.FORBIDDEN) {
                    throw e instanceof java.util.concurrent.CompletionException c ? c : new java.util.concurrent.CompletionException(e);
                }
                firstRefused = true;
                log.warn("the directory has no cluster map and does not take one from this sidecar ({}): an operator sets"
                        + " it (java -jar sessionmesh-master.jar groups --directory ... first ...); routing by --masters"
                        + " until then", MasterException.of(e) == null ? e.toString() : MasterException.of(e).masterMessage());
                return new byte[0];
            });
        });
    }

    /** Set once the directory refused this sidecar's first map (FORBIDDEN): it is not offered again. */
    private volatile boolean firstRefused;

    /** The directory's pool: the first group of the map in use, or of {@code --masters}. */
    private MasterPool directory() {
        Layout l = layout;
        String name = l.map() == null ? configured.get(0).get(0) : l.map().names().get(0);
        MasterPool p = l.byName().get(name);
        return p != null ? p : l.pools().get(0);
    }

    /** Takes a newer map: pools for groups it names that have none, the layout swapped, pools it no longer names closed. */
    synchronized void adopt(GroupMap map) {
        Layout old = layout;
        if (old.map() != null && map.epoch() <= old.map().epoch()) {
            return;
        }
        Map<String, MasterPool> byName = new LinkedHashMap<>();
        List<MasterPool> opened = new ArrayList<>();
        for (List<String> replicas : map.allGroups()) {
            MasterPool pool = old.byName().get(replicas.get(0));
            if (pool == null) {
                pool = new MasterPool(replicas.stream().map(MasterRouter::address).toList(), options, group, pushes);
                opened.add(pool);
            }
            byName.put(replicas.get(0), pool);
        }
        List<MasterPool> pools = map.names().stream().map(byName::get).toList();
        List<Placement> placements = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            placements.add(map.placement(i));
        }
        if (started) {
            opened.forEach(MasterPool::start);
            awaitUp(opened);
        }
        layout = new Layout(map, List.copyOf(pools), Map.copyOf(byName), null, java.util.Collections.unmodifiableList(placements));
        if (old.map() == null || !old.map().equals(map)) {
            log.info("cluster {}", map);
        }
        long grace = options.connection().requestTimeout().toMillis() + CLOSE_GRACE_MILLIS;
        for (MasterPool p : old.byName().values()) {
            if (!byName.containsValue(p)) {
                // Requests routed by the old layout may still be on their way to it: they get their answer (MOVED,
                // which sends them on) before the connections close.
                log.info("master group {} left the map; closing its connections in {} ms", p.name(), grace);
                group.next().schedule(p::close, grace, TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Waits (on the map's own thread, at most the connect timeout and a second) until new pools are connected and
     * registered: the layout that sends sessions to a group goes live only once requests to it find a connection.
     */
    private void awaitUp(List<MasterPool> pools) {
        long deadline = System.nanoTime() + options.connection().connectTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
        for (MasterPool p : pools) {
            while (!p.isUp() && System.nanoTime() - deadline < 0 && !closed) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (!p.isUp()) {
                log.warn("master group {} is in the map but not reachable yet: {}", p.name(), p.lastError());
            }
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return InetSocketAddress.createUnresolved(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    @Override
    public void close() {
        closed = true;
        layout.byName().values().forEach(MasterPool::close);
    }
}
