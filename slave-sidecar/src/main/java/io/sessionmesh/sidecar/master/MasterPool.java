package io.sessionmesh.sidecar.master;

import io.sessionmesh.wire.client.InvalidationListener;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A few persistent, pipelined connections to one master. Requests go round-robin over the open ones. A
 * connection that closes, or whose heartbeat PING gets no answer in time, is replaced: reconnect attempts back
 * off from {@code reconnectMin}, doubling to {@code reconnectMax}, and start over at the minimum once one
 * succeeds. With no open connection a request fails at once with UNAVAILABLE, naming the master and its last
 * error. Thread-safe.
 *
 * <p>Every connection is registered (REGISTER) as this sidecar's before it carries a request, so the master knows
 * what this sidecar caches. The first is the control connection: the master pushes invalidations on it, and its
 * REGISTER and PINGs (every {@link #renewInterval}) renew the {@link Lease}.
 */
public final class MasterPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MasterPool.class);
    private static final byte[] PING = {'h', 'b'};

    /** Settings of a pool. */
    public record Options(int connections, MasterConnectionOptions connection, Duration reconnectMin,
                          Duration reconnectMax, Duration heartbeatInterval, UUID holder, Duration leaseMargin) {
    }

    /** The slot of the control connection. */
    static final int CONTROL = 0;

    private final InetSocketAddress address;
    private final String name;
    private final Options options;
    private final EventLoopGroup group;
    private final InvalidationListener pushes;
    private final Lease lease;
    /** The sequence of the latest control connection's REGISTER (MasterRequest.Register). */
    private final AtomicLong controlSequence = new AtomicLong();
    private final Slot[] slots;
    private final AtomicInteger next = new AtomicInteger();
    private volatile boolean closed;
    private volatile String lastError = "not connected yet";

    public MasterPool(InetSocketAddress address, Options options, EventLoopGroup group, InvalidationListener pushes) {
        this.lease = new Lease(options.leaseMargin().toMillis());
        this.address = address;
        this.name = address.getHostString() + ":" + address.getPort();
        this.options = options;
        this.group = group;
        this.pushes = pushes;
        this.slots = new Slot[options.connections()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot(i);
        }
    }

    /** Starts connecting every slot; returns at once. */
    public void start() {
        for (Slot s : slots) {
            s.connect();
        }
        group.next().scheduleAtFixedRate(this::heartbeat, options.heartbeatInterval().toMillis(),
                options.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** "host:port". */
    public String name() {
        return name;
    }

    /** This sidecar's lease with the master. */
    public Lease lease() {
        return lease;
    }

    /** How often the control connection renews the lease: a quarter of what is left of it after the margin. */
    long renewInterval(long leaseMillis) {
        long usable = leaseMillis - options.leaseMargin().toMillis();
        return Math.max(10, Math.min(options.heartbeatInterval().toMillis(), usable / 4));
    }

    /** An open connection, round-robin, or null when none is open. */
    public MasterConnection connection() {
        int start = Math.floorMod(next.getAndIncrement(), slots.length);
        for (int i = 0; i < slots.length; i++) {
            MasterConnection c = slots[(start + i) % slots.length].connection;
            if (c != null && c.isOpen()) {
                return c;
            }
        }
        return null;
    }

    /** Runs one request on an open connection; UNAVAILABLE at once when there is none. */
    public <T> CompletableFuture<T> call(Function<MasterConnection, CompletableFuture<T>> request) {
        MasterConnection c = connection();
        if (c == null) {
            return CompletableFuture.failedFuture(new MasterException(Status.UNAVAILABLE, "master " + name
                    + " is not reachable: " + lastError));
        }
        return request.apply(c);
    }

    /** Whether at least one connection is open. */
    public boolean isUp() {
        return openConnections() > 0;
    }

    public int openConnections() {
        int n = 0;
        for (Slot s : slots) {
            MasterConnection c = s.connection;
            if (c != null && c.isOpen()) {
                n++;
            }
        }
        return n;
    }

    /** The last connection error, for health reports. */
    public String lastError() {
        return lastError;
    }

    private void heartbeat() {
        if (closed) {
            return;
        }
        lease.check(System.nanoTime());
        for (Slot s : slots) {
            MasterConnection c = s.connection;
            if (c != null && c.isOpen() && s.index != CONTROL) {
                ping(c);
            }
        }
    }

    /** A heartbeat PING; true when it is answered. Only a ping that got no answer in time means a hung master. */
    private CompletableFuture<Boolean> ping(MasterConnection c) {
        return c.ping(PING).handle((r, e) -> {
            if (e != null && c.isOpen() && MasterException.statusOf(e) == Status.TIMEOUT) {
                lastError = "heartbeat got no answer: " + e.getMessage();
                log.warn("master {}: heartbeat got no answer, reconnecting: {}", name, e.getMessage());
                c.close();
            }
            return e == null;
        });
    }

    /** Renews the lease on the control connection, until it closes. */
    private void renew(MasterConnection c, int epoch, long intervalMillis) {
        if (closed || !c.isOpen() || lease.epoch() != epoch) {
            return;
        }
        long sent = System.nanoTime();
        ping(c).thenAccept(ok -> {
            if (ok) {
                lease.renewed(sent, epoch);
            }
        });
        c.eventLoop().schedule(() -> renew(c, epoch, intervalMillis), intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        closed = true;
        for (Slot s : slots) {
            MasterConnection c = s.connection;
            if (c != null) {
                c.close();
            }
        }
    }

    /** One connection's place in the pool, and its reconnect schedule. */
    private final class Slot {
        private final int index;
        private volatile MasterConnection connection;
        private long backoffMillis = options.reconnectMin().toMillis();

        Slot(int index) {
            this.index = index;
        }

        void connect() {
            if (closed) {
                return;
            }
            InetSocketAddress resolved = new InetSocketAddress(address.getHostString(), address.getPort());
            MasterConnection.connect(group, resolved, options.connection(), pushes).whenComplete((c, e) -> {
                if (e != null) {
                    lastError = e.getMessage();
                    retryLater();
                    return;
                }
                if (closed) {
                    c.close();
                    return;
                }
                // Registered before it carries a request: a read on an unregistered connection would not make the
                // master tell this sidecar of later writes.
                long sent = System.nanoTime();
                boolean control = index == CONTROL;
                c.closeFuture().addListener(f -> {
                    connection = null;
                    if (control) {
                        lease.lost();
                    }
                    if (!closed) {
                        lastError = "connection closed";
                        log.warn("master {}: connection {} closed; reconnecting", name, index);
                        retryLater();
                    }
                });
                // Control connections are numbered: a REGISTER of one given up here that reaches the master late
                // (from a buffer on the way) is refused there instead of taking the pushes away from this one.
                // (u32 on the wire: 4 billion reconnections, years of them at reconnect-min, before it would run out.)
                long sequence = control ? controlSequence.incrementAndGet() : 0;
                c.register(options.holder(), control, sequence).whenComplete((answer, failure) -> {
                    if (failure != null) {
                        lastError = "REGISTER failed: " + failure.getMessage();
                        log.warn("master {}: connection {}: {}", name, index, lastError);
                        c.close();
                        return;
                    }
                    // The backoff starts over only once the master answers: one that accepts and then refuses (at its
                    // connection limit) must not be hammered every reconnect-min.
                    if (backoffMillis > options.reconnectMin().toMillis()) {
                        log.info("master {}: connection {} up again", name, index);
                    }
                    backoffMillis = options.reconnectMin().toMillis();
                    if (control) {
                        lease.registered(sent, answer.leaseMillis());
                        int epoch = lease.epoch();
                        long interval = renewInterval(answer.leaseMillis());
                        c.eventLoop().schedule(() -> renew(c, epoch, interval), interval, TimeUnit.MILLISECONDS);
                    }
                    connection = c;
                });
            });
        }

        private void retryLater() {
            if (closed) {
                return;
            }
            long delay = backoffMillis;
            backoffMillis = Math.min(backoffMillis * 2, options.reconnectMax().toMillis());
            group.next().schedule(this::connect, delay, TimeUnit.MILLISECONDS);
        }
    }
}
