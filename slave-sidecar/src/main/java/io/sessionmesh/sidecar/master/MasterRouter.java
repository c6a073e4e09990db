package io.sessionmesh.sidecar.master;

import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.client.InvalidationListener;

import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Which master (or master group: one pool follows its leader) holds a session: the session id's place on a
 * {@link HashRing} of the masters ({@code vnodes} virtual
 * nodes each, 65,535 by default: {@link io.sessionmesh.sidecar.config.SidecarConfig#DEFAULT_VNODES}), so every
 * sidecar with the same master list and vnodes sends a session to the same master. A new session is
 * created on the next reachable master in turn, which is sent the ring ({@link Placement}) so that it makes an id
 * whose place is its own. Schemas are placed by their uid, so a schema published through any sidecar is found
 * through any other.
 */
public final class MasterRouter implements AutoCloseable {
    private final List<MasterPool> pools;
    private final HashRing<MasterPool> ring;
    private final List<Placement> placements;

    /** One master per address (each a group of one). */
    public static MasterRouter of(List<InetSocketAddress> masters, int vnodes, MasterPool.Options options, EventLoopGroup group,
                                  InvalidationListener pushes) {
        return new MasterRouter(masters.stream().map(List::of).toList(), vnodes, options, group, pushes);
    }

    /** One pool per master group ({@code groups}: each group's replicas; a master on its own is a group of one). */
    public MasterRouter(List<List<InetSocketAddress>> groups, int vnodes, MasterPool.Options options, EventLoopGroup group,
                        InvalidationListener pushes) {
        List<MasterPool> p = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (List<InetSocketAddress> replicas : groups) {
            MasterPool pool = new MasterPool(replicas, options, group, pushes);
            p.add(pool);
            names.add(pool.name());
        }
        this.pools = List.copyOf(p);
        this.ring = new HashRing<>(pools, names, vnodes);
        List<Placement> pl = new ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            pl.add(pools.size() == 1 ? null : new Placement(names, vnodes, i));
        }
        this.placements = java.util.Collections.unmodifiableList(pl);
    }

    /** What to send with a CREATE to the pool at {@code index}: null when there is one master. */
    public Placement placement(int index) {
        return placements.get(index);
    }

    public void start() {
        pools.forEach(MasterPool::start);
    }

    /** The master of a session. */
    public MasterPool forSession(String sessionId) {
        return ring.nodeFor(sessionId);
    }

    /** The master of a schema uid. */
    public MasterPool forSchema(long uid) {
        return ring.nodeFor("schema:" + Long.toHexString(uid));
    }

    /** The index of the master a new session is created on: the next reachable one in turn. */
    public int forCreate(long counter) {
        int n = pools.size();
        for (int i = 0; i < n; i++) {
            int index = (int) Math.floorMod(counter + i, (long) n);
            if (pools.get(index).isUp()) {
                return index;
            }
        }
        return (int) Math.floorMod(counter, (long) n);
    }

    public List<MasterPool> pools() {
        return pools;
    }

    public HashRing<MasterPool> ring() {
        return ring;
    }

    /** Whether any master is reachable. */
    public boolean anyUp() {
        return pools.stream().anyMatch(MasterPool::isUp);
    }

    @Override
    public void close() {
        pools.forEach(MasterPool::close);
    }
}
