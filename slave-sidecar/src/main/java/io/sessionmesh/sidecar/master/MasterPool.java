package io.sessionmesh.sidecar.master;

import io.sessionmesh.wire.client.InvalidationListener;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A few persistent, pipelined connections to one master, or to the leader of one group of masters (PROTOCOL.md 3.8):
 * the control connection on the pool's own group, and a data connection on each loop of {@link Options#dataLoops()}
 * (the sidecar's REST loops), so that a request made on one of those loops is written, and its answer handled, on the
 * caller's thread, with no hand-off between threads either way; a request made elsewhere (the admin endpoint, the
 * touch forwarder) goes round-robin over the open ones. A
 * connection that closes, or whose heartbeat PING gets no answer in time, is replaced: reconnect attempts back
 * off from {@code reconnectMin}, doubling to {@code reconnectMax}, and start over at the minimum once one
 * succeeds. With no open connection a request fails at once with UNAVAILABLE, naming the master and its last
 * error. Thread-safe.
 *
 * <p>Every connection is registered (REGISTER) as this sidecar's before it carries a request, so the master knows
 * what this sidecar caches. The first is the control connection: the master pushes invalidations on it, and its
 * REGISTER and PINGs (every {@link #renewInterval}) renew the {@link Lease}.
 *
 * <p>A group's replicas: the pool connects to the one it takes for the leader. A replica that answers NOT_LEADER names
 * the leader (or no one, during an election): the pool closes its connections, which loses its lease and so starts a
 * new epoch (nothing cached from the old leader is served again), and connects to the named replica, or to the next
 * one. A request answered NOT_LEADER was not applied: it is sent again once the pool is connected to the new leader,
 * for at most the request timeout. A replica that cannot be reached makes the pool try the next one.
 */
public final class MasterPool implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MasterPool.class);
    private static final byte[] PING = {'h', 'b'};

    /**
     * Settings of a pool.
     *
     * @param dataLoops where the data connections run: one on each of its loops (the sidecar's REST loops)
     */
    public record Options(MasterConnectionOptions connection, Duration reconnectMin, Duration reconnectMax,
                          Duration heartbeatInterval, UUID holder, Duration leaseMargin, EventLoopGroup dataLoops) {
        public Options {
            java.util.Objects.requireNonNull(dataLoops, "dataLoops");
        }
    }

    /**
     * How long a connection waits before registering again once the master refused this sidecar's holder id FORBIDDEN
     * (another peer registered it first, PROTOCOL.md 3.7): the refusal does not change by itself, so registering again
     * every {@code reconnect-max} only floods both logs; a restart of the sidecar takes a new holder id.
     */
    public static final Duration FORBIDDEN_RETRY = Duration.ofMinutes(1);

    /** The slot of the control connection. */
    static final int CONTROL = 0;
    /** How often a request waiting for a group's new leader looks for a connection to it. */
    static final long RETRY_MILLIS = 20;

    /** The group's replicas (one for a master on its own), as configured. */
    private final List<InetSocketAddress> replicas;
    /** The replica taken for the leader: where new connections go. */
    private volatile InetSocketAddress target;
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
    /** The master's FORBIDDEN refusal of this sidecar's holder id while it stands, else null (health shows it). */
    private volatile String forbidden;
    /** Whether the standing FORBIDDEN refusal was logged: it is logged once, not at every retry. */
    private final java.util.concurrent.atomic.AtomicBoolean forbiddenLogged = new java.util.concurrent.atomic.AtomicBoolean();
    private final LongAdder leaderChanges = new LongAdder();
    /** The replica the pool last moved away from, and when (guarded by this). */
    private InetSocketAddress cameFrom;
    private long movedAt;
    /** A hint back to the replica just left, within this long, is taken as no hint. */
    static final long HINT_LOOP_NANOS = TimeUnit.SECONDS.toNanos(2);

    public MasterPool(InetSocketAddress address, Options options, EventLoopGroup group, InvalidationListener pushes) {
        this(List.of(address), options, group, pushes);
    }

    /** A pool to the leader of a group of {@code replicas}; named after the first (every sidecar names it alike). */
    public MasterPool(List<InetSocketAddress> replicas, Options options, EventLoopGroup group, InvalidationListener pushes) {
        this.lease = new Lease(options.leaseMargin().toMillis());
        this.replicas = List.copyOf(replicas);
        this.target = this.replicas.get(0);
        this.name = nameOf(this.replicas.get(0));
        this.options = options;
        this.group = group;
        this.pushes = pushes;
        List<EventLoopGroup> loops = new ArrayList<>();
        options.dataLoops().forEach(loop -> loops.add((EventLoop) loop));
        this.slots = new Slot[1 + loops.size()];
        slots[CONTROL] = new Slot(CONTROL, group);
        for (int i = 1; i < slots.length; i++) {
            slots[i] = new Slot(i, loops.get(i - 1));
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

    /** "host:port" of the master, or of a group's first replica. */
    public String name() {
        return name;
    }

    private static String nameOf(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** The replica this pool takes for its group's leader ("host:port"). */
    public String leader() {
        return nameOf(target);
    }

    /** How many times this pool moved to another replica (NOT_LEADER, or one it could not reach). */
    public long leaderChanges() {
        return leaderChanges.sum();
    }

    /**
     * A replica named {@code from} said it does not lead ({@code hint}: the leader's address, or "" when it knows of
     * none), or could not be reached (hint ""): aim at the leader it names, or the next replica, and drop the
     * connections to {@code from}; each reconnects to the new target at once.
     */
    void moveFrom(InetSocketAddress from, String hint) {
        if (replicas.size() == 1) {
            return;
        }
        InetSocketAddress to;
        synchronized (this) {
            if (!target.equals(from)) {
                return; // already moved on
            }
            to = hint.isEmpty() ? next(from) : parse(hint, from);
            // A replica's view of the leader can be stale: two that name each other (or one that names the replica
            // just left) would bounce the pool between them forever. A hint back to where the pool just came from is
            // taken as no hint: the next replica in turn.
            if (to.equals(cameFrom) && System.nanoTime() - movedAt < HINT_LOOP_NANOS) {
                to = next(from);
            }
            if (to.equals(from)) {
                return;
            }
            cameFrom = from;
            movedAt = System.nanoTime();
            target = to;
        }
        leaderChanges.increment();
        log.info("master group {}: leaving {} for {}{}", name, nameOf(from), nameOf(to),
                hint.isEmpty() ? " (no leader named)" : " (named leader)");
        for (Slot s : slots) {
            s.backoffMillis = options.reconnectMin().toMillis();
            MasterConnection c = s.connection;
            if (c != null && from.equals(s.address)) {
                c.close();
            }
        }
    }

    private InetSocketAddress next(InetSocketAddress from) {
        return replicas.get((replicas.indexOf(from) + 1) % replicas.size());
    }

    /** A replica's NOT_LEADER hint ("host:port"): one of the configured replicas when it names one. */
    private InetSocketAddress parse(String hint, InetSocketAddress fallback) {
        for (InetSocketAddress r : replicas) {
            if (nameOf(r).equals(hint)) {
                return r;
            }
        }
        int colon = hint.lastIndexOf(':');
        try {
            return InetSocketAddress.createUnresolved(hint.substring(0, colon), Integer.parseInt(hint.substring(colon + 1)));
        } catch (RuntimeException e) {
            log.warn("master group {}: NOT_LEADER named \"{}\", not host:port; trying the next replica", name, hint);
            return next(fallback);
        }
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
        Slot s = openSlot();
        return s == null ? null : s.connection;
    }

    private Slot openSlot() {
        for (int i = CONTROL + 1; i < slots.length; i++) {
            MasterConnection c = slots[i].connection;
            if (c != null && c.eventLoop().inEventLoop() && c.isOpen()) {
                return slots[i]; // this thread's own connection: no hand-off
            }
        }
        int start = Math.floorMod(next.getAndIncrement(), slots.length);
        for (int i = 0; i < slots.length; i++) {
            Slot s = slots[(start + i) % slots.length];
            MasterConnection c = s.connection;
            if (c != null && c.isOpen()) {
                return s;
            }
        }
        return null;
    }

    /**
     * Runs one request on an open connection; UNAVAILABLE at once when there is none. In a group, a NOT_LEADER answer
     * moves the pool to the leader and sends the request again there (it was not applied), for at most the request
     * timeout.
     */
    public <T> CompletableFuture<T> call(Function<MasterConnection, CompletableFuture<T>> request) {
        return call(request, System.nanoTime() + options.connection().requestTimeout().toNanos());
    }

    private <T> CompletableFuture<T> call(Function<MasterConnection, CompletableFuture<T>> request, long deadline) {
        Slot s = openSlot();
        if (s == null) {
            if (replicas.size() > 1 && System.nanoTime() - deadline < 0 && !closed) {
                return later(request, deadline); // between two leaders: wait for the connection to the new one
            }
            return CompletableFuture.failedFuture(new MasterException(Status.UNAVAILABLE, "master " + name
                    + " is not reachable: " + lastError));
        }
        InetSocketAddress at = s.address;
        CompletableFuture<T> answer = request.apply(s.connection);
        if (replicas.size() == 1) {
            return answer;
        }
        return answer.exceptionallyCompose(e -> {
            MasterException refused = MasterException.of(e);
            if (refused == null || refused.status() != Status.NOT_LEADER || System.nanoTime() - deadline >= 0) {
                return CompletableFuture.failedFuture(e);
            }
            moveFrom(at, refused.masterMessage());
            return later(request, deadline);
        });
    }

    private <T> CompletableFuture<T> later(Function<MasterConnection, CompletableFuture<T>> request, long deadline) {
        CompletableFuture<T> retried = new CompletableFuture<>();
        group.next().schedule(() -> call(request, deadline).whenComplete((v, e) -> {
            if (e != null) {
                retried.completeExceptionally(e);
            } else {
                retried.complete(v);
            }
        }), RETRY_MILLIS, TimeUnit.MILLISECONDS);
        return retried;
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

    /**
     * The master's FORBIDDEN refusal of this sidecar's holder id, while it stands (another peer registered the id
     * first): null otherwise. The pool then registers again only every {@link #FORBIDDEN_RETRY}.
     */
    public String forbidden() {
        return forbidden;
    }

    private void heartbeat() {
        if (closed) {
            return;
        }
        lease.check(System.nanoTime());
        for (Slot s : slots) {
            MasterConnection c = s.connection;
            if (c != null && c.isOpen() && s.index != CONTROL) {
                ping(c, s.address);
            }
        }
    }

    /**
     * A heartbeat PING; its answer (null when it failed). Only a ping that got no answer in time means a hung master;
     * one answered NOT_LEADER means the group has another leader.
     */
    private CompletableFuture<MasterAnswer.Pong> ping(MasterConnection c, InetSocketAddress at) {
        return c.ping(PING).handle((r, e) -> {
            MasterException refused = e == null ? null : MasterException.of(e);
            if (refused != null && refused.status() == Status.NOT_LEADER) {
                moveFrom(at, refused.masterMessage());
            }
            if (e != null && c.isOpen() && MasterException.statusOf(e) == Status.TIMEOUT) {
                lastError = "heartbeat got no answer: " + e.getMessage();
                log.warn("master {}: heartbeat got no answer, reconnecting: {}", name, e.getMessage());
                c.close();
            }
            return e == null ? r : null;
        });
    }

    /** Renews the lease on the control connection, until it closes. */
    private void renew(MasterConnection c, InetSocketAddress at, int epoch, long intervalMillis) {
        if (closed || !c.isOpen() || lease.epoch() != epoch) {
            return;
        }
        long sent = System.nanoTime();
        ping(c, at).thenAccept(pong -> {
            if (pong != null && pong.granted()) {
                lease.renewed(sent, epoch);
            } else if (pong != null && c.isOpen()) {
                // Answered, but not as our control connection: another connection registered as this holder with a
                // newer sequence and takes the pushes now. Serving on would miss them: give this one up (a new
                // epoch; nothing cached so far is served again).
                lastError = "the master no longer counts connection 0 as this sidecar's control connection";
                log.warn("master {}: a ping on the control connection granted no lease; reconnecting", name);
                c.close();
            }
        });
        c.eventLoop().schedule(() -> renew(c, at, epoch, intervalMillis), intervalMillis, TimeUnit.MILLISECONDS);
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
        /** Where its connection runs: the pool's group, or one REST loop. */
        private final EventLoopGroup home;
        private volatile MasterConnection connection;
        /** The replica {@link #connection} goes to. */
        private volatile InetSocketAddress address;
        private volatile long backoffMillis = options.reconnectMin().toMillis();
        /** Whether this slot's last REGISTER was refused FORBIDDEN: its next try waits {@link #FORBIDDEN_RETRY}. */
        private volatile boolean refusedForbidden;

        Slot(int index, EventLoopGroup home) {
            this.index = index;
            this.home = home;
        }

        void connect() {
            if (closed) {
                return;
            }
            InetSocketAddress to = target;
            InetSocketAddress resolved = new InetSocketAddress(to.getHostString(), to.getPort());
            MasterConnection.connect(home, resolved, options.connection(), pushes).whenComplete((c, e) -> {
                if (e != null) {
                    lastError = e.getMessage();
                    refusedForbidden = false; // not reached this time: the usual backoff
                    moveFrom(to, ""); // in a group: try the next replica
                    retryLater();
                    return;
                }
                address = to;
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
                        if (!refusedForbidden) {
                            lastError = "connection closed";
                            log.warn("master {}: connection {} closed; reconnecting", name, index);
                        }
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
                        MasterException refused = MasterException.of(failure);
                        if (refused != null && refused.status() == Status.NOT_LEADER) {
                            moveFrom(to, refused.masterMessage()); // closes c; it reconnects to the leader at once
                        } else if (refused != null && refused.status() == Status.FORBIDDEN) {
                            // Another peer registered this sidecar's holder id first (PROTOCOL.md 3.7): it learned the
                            // id somewhere. Nothing is served from this master's cache meanwhile (no lease). The
                            // refusal stands until that holder ends: said once, tried again every FORBIDDEN_RETRY.
                            refusedForbidden = true;
                            forbidden = lastError;
                            if (forbiddenLogged.compareAndSet(false, true)) {
                                log.error("master {}: this sidecar's holder id is registered by another peer; restart "
                                        + "the sidecar (it takes a new id) and find who knows the old one; trying again "
                                        + "every {} s meanwhile: {}", name, FORBIDDEN_RETRY.toSeconds(), lastError);
                            }
                        } else {
                            log.warn("master {}: connection {}: {}", name, index, lastError);
                        }
                        c.close();
                        return;
                    }
                    // The backoff starts over only once the master answers: one that accepts and then refuses (at its
                    // connection limit) must not be hammered every reconnect-min.
                    if (backoffMillis > options.reconnectMin().toMillis() || refusedForbidden) {
                        log.info("master {}: connection {} up again", name, index);
                    }
                    if (refusedForbidden) {
                        refusedForbidden = false;
                        forbidden = null;
                        forbiddenLogged.set(false);
                    }
                    backoffMillis = options.reconnectMin().toMillis();
                    if (control) {
                        lease.registered(sent, answer.leaseMillis());
                        int epoch = lease.epoch();
                        long interval = renewInterval(answer.leaseMillis());
                        c.eventLoop().schedule(() -> renew(c, to, epoch, interval), interval, TimeUnit.MILLISECONDS);
                    }
                    connection = c;
                });
            });
        }

        private void retryLater() {
            if (closed) {
                return;
            }
            long delay = refusedForbidden ? FORBIDDEN_RETRY.toMillis() : backoffMillis;
            backoffMillis = Math.min(backoffMillis * 2, options.reconnectMax().toMillis());
            group.next().schedule(this::connect, delay, TimeUnit.MILLISECONDS);
        }
    }
}
