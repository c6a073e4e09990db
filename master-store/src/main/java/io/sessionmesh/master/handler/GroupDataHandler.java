package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.groups.GroupOps;
import io.sessionmesh.master.placement.Placements;
import io.sessionmesh.master.replication.GroupMoves;
import io.sessionmesh.master.replication.ReplicaCommand;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.master.store.MemoryBudget;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.placement.GroupMap;
import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The data operations of a master that is a replica of a group (PROTOCOL.md 3.8), in front of {@link DataHandler}:
 * on a replica that does not lead, every one is answered NOT_LEADER with the leader's address; on the leader, each
 * change (WRITE, CREATE, DELETE, TOUCH, RENAME, PRINCIPAL, LOGOUT, SCHEMA_PUBLISH) is proposed to the group and answered once applied, and each
 * read (READ, SCHEMA_FETCH, DESCRIBE, PRINCIPAL_SESSIONS) waits for a read barrier. The answers are {@link DeferredAnswer}s, made off the loop. A
 * write's or delete's acknowledgement also waits for its invalidations (its {@link Fence}) and, on a leader just
 * elected, for every lease the old leader granted to run out ({@link ReplicaGroup#writesOpenNanos()}). STATS and what
 * earlier handlers rejected pass on to {@link DataHandler}. A CREATE or a new schema that does not fit in the store's
 * memory budget is answered UNAVAILABLE before it is proposed; a WRITE is refused, alike on every replica, when its
 * entry is applied ({@link MemoryBudget}).
 */
public final class GroupDataHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(GroupDataHandler.class);

    private final SessionStore store;
    private final ReplicaGroup group;
    private final ConnectionRegistration registration;
    private final ServerCounters counters;
    /** Releases the acknowledgements a new leader holds back until writes are open. */
    private final ScheduledExecutorService timer;

    /** GROUP_* operations (PROTOCOL.md 3.9). */
    private final GroupOps ops;

    public GroupDataHandler(SessionStore store, ReplicaGroup group, ConnectionRegistration registration, ServerCounters counters,
                            ScheduledExecutorService timer, GroupOps ops) {
        this.ops = ops;
        this.store = store;
        this.group = group;
        this.registration = registration;
        this.counters = counters;
        this.timer = timer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Received received) || received.request() instanceof MasterRequest.Stats) {
            ctx.fireChannelRead(msg);
            return;
        }
        int id = received.requestId();
        MasterRequest<?> request = received.request();
        CompletableFuture<MasterAnswer> answer;
        try {
            answer = group.leads() ? answer(ctx, id, request) : CompletableFuture.failedFuture(group.notLeader());
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        ctx.write(new DeferredAnswer(answer.exceptionally(failure -> error(ctx, request, id, failure))),
                ctx.voidPromise());
    }

    private CompletableFuture<MasterAnswer> answer(ChannelHandlerContext ctx, int id, MasterRequest<?> request) {
        long bit = registration.holderBit();
        if (request instanceof MasterRequest.GroupOp g) {
            return ops.answer(g.opcode(), g.body(), registration.peer(ctx.channel())).thenApply(body -> new MasterAnswer.Bytes(g.opcode(), id, body));
        }
        if (request instanceof MasterRequest.Read r) {
            return group.readBarrier().thenApply(ok -> {
                EncodedReadResult result = store.read(r.message(), bit);
                return new MasterAnswer.Read(id, result, times(result.sessionId()));
            });
        }
        if (request instanceof MasterRequest.FetchSchema f) {
            return group.readBarrier().thenApply(ok -> {
                byte[] schema = store.schemas().fetch(f.uid());
                if (schema == null) {
                    throw new StoreException(Status.NOT_FOUND, "no schema " + Long.toHexString(f.uid()));
                }
                return new MasterAnswer.Bytes(Opcodes.SCHEMA_FETCH, id, schema);
            });
        }
        if (request instanceof MasterRequest.Write w) {
            requireLive(w.message().sessionId());
            // with a write id, every replica applies it once however often it is sent (PROTOCOL.md 3.12)
            ReplicaCommand change = w.writeId() == null ? new ReplicaCommand.Write(w.message())
                    : new ReplicaCommand.WriteOnce(w.writeId(), w.message());
            return group.propose(change, bit, registration.invalidator()).thenCompose(outcome -> {
                SessionStore.Written written = (SessionStore.Written) outcome;
                return acknowledged(written.fence(),
                        new MasterAnswer.Write(id, written.result(),
                                w.wholeSections() ? written.wholeSections(w.message()) : List.of(), times(w.message().sessionId())));
            });
        }
        if (request instanceof MasterRequest.Delete d) {
            requireLive(d.sessionId());
            return group.propose(new ReplicaCommand.Delete(d.sessionId()), bit, registration.invalidator())
                    .thenCompose(outcome -> acknowledged(((ReplicaGroup.Deleted) outcome).fence(),
                            MasterAnswer.Bytes.empty(Opcodes.DELETE, id)));
        }
        if (request instanceof MasterRequest.Touch t) {
            requireLive(t.sessionId());
            return group.propose(new ReplicaCommand.Sessions(ReplicaCommand.TOUCH, List.of(t.sessionId())), bit,
                    registration.invalidator()).thenApply(outcome -> new MasterAnswer.Touched(id, times(t.sessionId())));
        }
        if (request instanceof MasterRequest.Create c) {
            // refused here, before the log grows, on everything this leader counts (MemoryBudget)
            store.budget().checkBeforeProposing(MemoryBudget.SESSION_OVERHEAD, "CREATE");
            if (c.principal() != null) {
                TransportLimits.checkPrincipal(c.principal());
            }
            long idle = c.idleTimeout() == null ? 0 : c.idleTimeout().toMillis();
            String host = registration.peerHost(ctx.channel());
            if (c.sessionId() != null) {
                // the id places itself: MOVED when the map gives it to another group, MOVING while it moves
                StoreException elsewhere = whereNow(c.sessionId());
                if (elsewhere != null) {
                    throw elsewhere;
                }
                return group.propose(new ReplicaCommand.Create(c.sessionId(), idle, c.principal(), host), bit,
                        registration.invalidator()).thenApply(outcome -> created(id, outcome));
            }
            // a ring not built yet is built off this loop (Placements); the id is chosen once it is
            CompletableFuture<HashRing<Integer>> ring = c.placement() == null || movedFrom(c)
                    ? CompletableFuture.completedFuture(null) : Placements.ring(c.placement());
            return ring.thenCompose(r -> group.propose(new ReplicaCommand.Create(newId(c, r), idle, c.principal(), host), bit,
                            registration.invalidator()))
                    .thenApply(outcome -> created(id, outcome));
        }
        if (request instanceof MasterRequest.Rename r) {
            if (!r.keepsId()) {
                StoreException elsewhere = whereNow(r.newId());
                if (elsewhere != null) {
                    // MOVED for the new id would send the caller to retry the old id's group: CONFLICT tells it to pick another
                    throw elsewhere.status() == Status.MOVED
                            ? new StoreException(Status.CONFLICT, io.sessionmesh.wire.transport.RenameRequest.NEW_ID_ON_ANOTHER_MASTER + " group") : elsewhere;
                }
            }
            requireLive(r.oldId());
            long idle = r.idleTimeout() == null ? 0 : r.idleTimeout().toMillis();
            return group.propose(new ReplicaCommand.Rename(r.oldId(), r.newId(), idle), bit, registration.invalidator())
                    .thenCompose(outcome -> {
                        SessionStore.Renamed renamed = (SessionStore.Renamed) outcome;
                        return acknowledged(renamed.fence(), new MasterAnswer.Renamed(id, renamed.times()));
                    });
        }
        if (request instanceof MasterRequest.SetPrincipal p) {
            requireLive(p.sessionId());
            return group.propose(new ReplicaCommand.Principal(p.sessionId(), p.principal()), bit, registration.invalidator())
                    .thenApply(outcome -> MasterAnswer.Bytes.empty(Opcodes.PRINCIPAL, id));
        }
        if (request instanceof MasterRequest.Logout l) {
            // bit 0: the sender's own cache is told too, since it does not know which sessions went
            // answered once no batch of the outbox taken before it applied is still on its way (GroupOps): a session of
            // the principal sent meanwhile is at its new group by then, where "log out everywhere" asks next
            return group.propose(new ReplicaCommand.Logout(l.principal()), 0, registration.everyone())
                    .thenCompose(outcome -> ops.afterBatchesInFlight(timer).thenApply(done -> outcome))
                    .thenCompose(outcome -> {
                        SessionStore.LoggedOut out = (SessionStore.LoggedOut) outcome;
                        return acknowledged(out.fence(), new MasterAnswer.LoggedOut(id, out.sessions()));
                    });
        }
        if (request instanceof MasterRequest.Describe d) {
            return group.readBarrier().thenApply(ok -> DataHandler.described(store, id, d.sessionId()));
        }
        if (request instanceof MasterRequest.PrincipalSessions p) {
            // after a read barrier, as READ: every session created (or renamed, or given the principal) and acknowledged
            // before this was sent is in the leader's applied state
            // ... and the sessions of the principal in flight out of this group (its outbox), which no store holds now
            return group.readBarrier().thenApply(ok -> sessionsOf(id, p.principal()));
        }
        if (request instanceof MasterRequest.PublishSchema p) {
            store.schemas().checkBeforeProposing(p.uid(), p.schema());
            return group.propose(new ReplicaCommand.Schema(p.uid(), p.schema()), bit, registration.invalidator())
                    .thenApply(outcome -> MasterAnswer.Bytes.empty(Opcodes.SCHEMA_PUBLISH, id));
        }
        return CompletableFuture.completedFuture(new MasterAnswer.Error(request.opcode(), id, Status.UNSUPPORTED_VERSION,
                Opcodes.name(request.opcode()) + " is not a data operation of this master"));
    }

    /**
     * The leader decides whether a change's session is still live, before the change is proposed: it has served every
     * read, which the log does not hold, so its replicas apply the change to any session their log has not removed,
     * without judging expiry by their own clocks (SessionStore#changing). A change to an expired session is NOT_FOUND
     * here (MOVED or MOVING during a move, as {@link #error} answers), never proposed.
     */
    private void requireLive(String sessionId) {
        if (store.times(sessionId) == null) {
            StoreException elsewhere = whereNow(sessionId);
            throw elsewhere != null ? elsewhere : StoreException.notFound();
        }
    }

    private static MasterAnswer created(int id, Object outcome) {
        SessionStore.CreatedSession created = (SessionStore.CreatedSession) outcome;
        return new MasterAnswer.Created(id, created.id(), created.idleTimeout(), created.maxLifetime());
    }

    /**
     * The answer, once the fence is done and writes are open (a leader just elected waits out the old leader's leases).
     */
    private CompletableFuture<MasterAnswer> acknowledged(Fence fence, MasterAnswer answer) {
        CompletableFuture<MasterAnswer> done = new CompletableFuture<>();
        Runnable release = () -> {
            long wait = group.writesOpenNanos() - System.nanoTime();
            if (wait <= 0) {
                done.complete(answer);
            } else {
                timer.schedule(() -> done.complete(answer), wait, TimeUnit.NANOSECONDS);
            }
        };
        if (fence == null) {
            release.run();
        } else {
            fence.whenDone(release);
        }
        return done;
    }

    /** Whether the sender's placement is not this group's map (the sender must fetch the map: MOVED). */
    private boolean movedFrom(MasterRequest.Create create) {
        GroupMap map = group.moves().map();
        return map != null && (create.placement() == null ? map.groups().size() > 1
                : !create.placement().names().equals(map.names()) || create.placement().vnodes() != map.vnodes());
    }

    /**
     * A fresh id whose place on the sender's ring of groups ({@code ring}, null without a placement) is this group's,
     * chosen before the creation is proposed.
     */
    private String newId(MasterRequest.Create create, HashRing<Integer> ring) {
        GroupMap map = group.moves().map();
        if (movedFrom(create)) {
            throw new StoreException(Status.MOVED, Long.toString(map.epoch())); // the sender's map is not this group's
        }
        if (create.placement() == null) {
            return store.newId();
        }
        int self = create.placement().self();
        Predicate<String> accept = candidate -> ring.indexFor(candidate) == self;
        for (int attempt = 0; attempt < SessionStore.MAX_ID_ATTEMPTS; attempt++) {
            String id = store.newId();
            if (accept.test(id)) {
                return id;
            }
        }
        throw new StoreException(Status.BAD_REQUEST, "no id out of " + SessionStore.MAX_ID_ATTEMPTS
                + " falls on this master's part of the ring: is the placement right?");
    }

    private SessionTimes times(String sessionId) {
        SessionTimes t = store.times(sessionId);
        return t == null ? SessionTimes.NONE : t;
    }

    /**
     * Why a session this group does not have may live elsewhere (PROTOCOL.md 3.9): MOVING while it is in this group's
     * outbox, or on its way here during a move; MOVED (with the map's epoch) when the map gives it to another group;
     * null when it is simply not found.
     */
    private StoreException whereNow(String sessionId) {
        GroupMoves moves = group.moves();
        GroupMap map = moves.map();
        if (map == null) {
            return null;
        }
        if (moves.isLeaving(sessionId)) {
            return new StoreException(Status.MOVING, "session is moving to group " + map.owner(sessionId));
        }
        String self = moves.selfName(map);
        if (!map.owner(sessionId).equals(self)) {
            return new StoreException(Status.MOVED, Long.toString(map.epoch()));
        }
        if (map.moving() && !map.previousOwner(sessionId).equals(self)) {
            return new StoreException(Status.MOVING, "session is moving here from group " + map.previousOwner(sessionId));
        }
        return null;
    }

    private static String sessionIdOf(MasterRequest<?> request) {
        if (request instanceof MasterRequest.Read r) {
            return r.message().sessionId();
        }
        if (request instanceof MasterRequest.Write w) {
            return w.message().sessionId();
        }
        if (request instanceof MasterRequest.CarriesSessionId<?> c) {
            return c.sessionId();
        }
        if (request instanceof MasterRequest.SetPrincipal p) {
            return p.sessionId();
        }
        if (request instanceof MasterRequest.Rename r) {
            return r.oldId(); // NOT_FOUND is the old id's: MOVED or MOVING when it lives elsewhere, as for a write
        }
        return null;
    }

    /** PRINCIPAL_SESSIONS on a group's leader: the store's live sessions of the principal, then its outbox's. */
    private MasterAnswer sessionsOf(int id, String principal) {
        int max = MasterAnswer.SessionsOfPrincipal.MAX_SESSIONS;
        SessionStore.PrincipalSessionIds found = store.sessionsOf(principal, max);
        List<String> leaving = group.moves().leavingOf(principal, max + 1);
        if (leaving.isEmpty()) {
            return new MasterAnswer.SessionsOfPrincipal(id, found.ids(), found.truncated());
        }
        java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>(found.ids());
        boolean truncated = found.truncated();
        for (String s : leaving) {
            if (ids.size() == max) {
                truncated = true;
                break;
            }
            ids.add(s);
        }
        return new MasterAnswer.SessionsOfPrincipal(id, List.copyOf(ids), truncated);
    }

    private MasterAnswer error(ChannelHandlerContext ctx, MasterRequest<?> request, int id, Throwable failure) {
        int opcode = request.opcode();
        String sessionId = sessionIdOf(request);
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof StoreException e) {
            counters.errors.increment();
            if (e.status() == Status.NOT_FOUND && sessionId != null) {
                StoreException moved = whereNow(sessionId);
                if (moved != null) {
                    return new MasterAnswer.Error(opcode, id, moved.status(), moved.getMessage());
                }
            }
            return new MasterAnswer.Error(opcode, id, e.status(), e.getMessage());
        }
        counters.internalErrors.increment();
        log.error("{} request failed on {}", Opcodes.name(opcode), ctx.channel(), cause);
        return new MasterAnswer.Error(opcode, id, Status.INTERNAL, Opcodes.name(opcode) + " failed: " + cause);
    }
}
