package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.placement.Placements;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreException;
import io.sessionmesh.wire.placement.HashRing;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Predicate;

/**
 * The data operations, on the connection's event loop (a store operation takes a fraction of a microsecond; there
 * is nothing to gain from another thread): READ, WRITE, TOUCH, CREATE, DELETE, RENAME, the principal's operations (PRINCIPAL,
 * LOGOUT, DESCRIBE, PRINCIPAL_SESSIONS), the schema registry and STATS, each
 * answered with {@code ctx.write} in the order requests arrive (the encoder batches and flushes them). A write, delete or
 * rename that other caches must hear of first is answered with a {@link FencedAnswer}. The last handler of the pipeline: it
 * also answers what earlier handlers {@link Rejected}, and closes a connection whose stream broke.
 */
public final class DataHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(DataHandler.class);

    /** Where the STATS answer comes from. */
    @FunctionalInterface
    public interface StatsSource {
        byte[] statsJson();
    }

    private final SessionStore store;
    private final ConnectionRegistration registration;
    private final ServerCounters counters;
    private final StatsSource stats;

    public DataHandler(SessionStore store, ConnectionRegistration registration, ServerCounters counters, StatsSource stats) {
        this.store = store;
        this.registration = registration;
        this.counters = counters;
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Rejected rejected) {
            reject(ctx, rejected);
            return;
        }
        Received received = (Received) msg;
        int id = received.requestId();
        int op = received.request().opcode();
        Object answer;
        try {
            answer = answer(ctx, id, received.request());
        } catch (RuntimeException e) {
            answer = errorAnswer(op, id, e);
        }
        ctx.write(answer, ctx.voidPromise());
    }

    /** The answer to a request that failed, now or later (a CREATE waiting for its ring): its status, or INTERNAL. */
    private MasterAnswer errorAnswer(int op, int id, Throwable failure) {
        return errorAnswer(counters, op, id, failure);
    }

    /** {@link #errorAnswer(int, int, Throwable)}, counted in {@code counters}: for every handler that answers data requests. */
    static MasterAnswer errorAnswer(ServerCounters counters, int op, int id, Throwable failure) {
        Throwable e = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (e instanceof StoreException s) {
            counters.errors.increment();
            return new MasterAnswer.Error(op, id, s.status(), s.getMessage());
        }
        counters.internalErrors.increment();
        log.error("{} request failed", Opcodes.name(op), e);
        return new MasterAnswer.Error(op, id, Status.INTERNAL, Opcodes.name(op) + " failed: " + e);
    }

    /** The answer to one request: a {@link MasterAnswer}, or a {@link FencedAnswer} that waits for invalidations. */
    private Object answer(ChannelHandlerContext ctx, int id, MasterRequest<?> request) {
        if (request instanceof MasterRequest.Read r) {
            EncodedReadResult result = store.read(r.message(), registration.holderBit());
            return new MasterAnswer.Read(id, result, times(result.sessionId()));
        }
        if (request instanceof MasterRequest.Write w) {
            SessionStore.Written written = w.writeId() == null
                    ? store.write(w.message(), registration.holderBit(), registration.invalidator())
                    : writeOnce(w);
            return fenced(new MasterAnswer.Write(id, written.result(),
                    w.wholeSections() ? written.wholeSections(w.message()) : List.of(), written.times()), written.fence());
        }
        if (request instanceof MasterRequest.Touch t) {
            store.touch(t.sessionId());
            return new MasterAnswer.Touched(id, times(t.sessionId()));
        }
        if (request instanceof MasterRequest.Create c) {
            if (c.sessionId() != null) {
                SessionStore.CreatedSession created = store.createWithId(c.sessionId(), c.idleTimeout(), c.principal(),
                        registration.peerHost(ctx.channel()));
                return new MasterAnswer.Created(id, created.id(), created.idleTimeout(), created.maxLifetime());
            }
            if (c.placement() == null) {
                return created(id, c, null, registration.peerHost(ctx.channel()));
            }
            HashRing<Integer> ring = Placements.cached(c.placement());
            if (ring != null) {
                return created(id, c, ring, registration.peerHost(ctx.channel()));
            }
            // a ring not built yet is built off this loop; the CREATE is answered once it is (DeferredAnswer)
            return new DeferredAnswer(Placements.ring(c.placement())
                    .thenApplyAsync(built -> created(id, c, built, registration.peerHost(ctx.channel())), ctx.executor())
                    .exceptionally(failure -> errorAnswer(c.opcode(), id, failure)));
        }
        if (request instanceof MasterRequest.Delete d) {
            return fenced(MasterAnswer.Bytes.empty(Opcodes.DELETE, id),
                    store.delete(d.sessionId(), registration.holderBit(), registration.invalidator()));
        }
        if (request instanceof MasterRequest.Rename r) {
            SessionStore.Renamed renamed = store.rename(r.oldId(), r.newId(), r.idleTimeout(), registration.holderBit(),
                    registration.invalidator());
            return fenced(new MasterAnswer.Renamed(id, renamed.times()), renamed.fence());
        }
        if (request instanceof MasterRequest.SetPrincipal p) {
            store.setPrincipal(p.sessionId(), p.principal());
            return MasterAnswer.Bytes.empty(Opcodes.PRINCIPAL, id);
        }
        if (request instanceof MasterRequest.Logout l) {
            SessionStore.LoggedOut out = store.logout(l.principal(), 0, registration.everyone());
            return fenced(new MasterAnswer.LoggedOut(id, out.sessions()), out.fence());
        }
        if (request instanceof MasterRequest.Describe d) {
            return described(store, id, d.sessionId());
        }
        if (request instanceof MasterRequest.PrincipalSessions p) {
            return sessionsOf(store, id, p.principal());
        }
        if (request instanceof MasterRequest.PublishSchema p) {
            store.schemas().publish(p.uid(), p.schema());
            return MasterAnswer.Bytes.empty(Opcodes.SCHEMA_PUBLISH, id);
        }
        if (request instanceof MasterRequest.FetchSchema f) {
            byte[] schema = store.schemas().fetch(f.uid());
            if (schema == null) {
                throw new StoreException(Status.NOT_FOUND, "no schema " + Long.toHexString(f.uid()));
            }
            return new MasterAnswer.Bytes(Opcodes.SCHEMA_FETCH, id, schema);
        }
        if (request instanceof MasterRequest.Stats) {
            return new MasterAnswer.Bytes(Opcodes.STATS, id, stats.statsJson());
        }
        // REGISTER and PING are the registration handler's; a prepared request never reaches a master decoded.
        return new MasterAnswer.Error(request.opcode(), id, Status.UNSUPPORTED_VERSION,
                Opcodes.name(request.opcode()) + " is not a data operation of this master");
    }

    /** A write with its write id: applied unless a write of that id to the session is remembered (PROTOCOL.md 3.12). */
    private SessionStore.Written writeOnce(MasterRequest.Write w) {
        long now = store.now();
        return store.recentWrites().write(w.writeId(), w.message(), now,
                () -> store.write(w.message(), registration.holderBit(), registration.invalidator(), now),
                () -> store.times(w.message().sessionId()));
    }

    /** DESCRIBE's answer, or NOT_FOUND. */
    static MasterAnswer described(SessionStore store, int id, String sessionId) {
        SessionStore.Description d = store.describe(sessionId);
        if (d == null) {
            throw StoreException.notFound();
        }
        return new MasterAnswer.Description(id, d.createdAt(), d.lastAccess(), d.expiresAt(), d.idleTimeout(),
                d.registryVersion(), d.principal());
    }

    /** PRINCIPAL_SESSIONS's answer: the principal's live sessions, at most {@link MasterAnswer.SessionsOfPrincipal#MAX_SESSIONS}. */
    static MasterAnswer sessionsOf(SessionStore store, int id, String principal) {
        SessionStore.PrincipalSessionIds found = store.sessionsOf(principal, MasterAnswer.SessionsOfPrincipal.MAX_SESSIONS);
        return new MasterAnswer.SessionsOfPrincipal(id, found.ids(), found.truncated());
    }

    private static Object fenced(MasterAnswer answer, Fence fence) {
        return fence == null || fence.isDone() ? answer : new FencedAnswer(answer, fence);
    }

    /** A CREATE answered; {@code ring} is its placement's (null for none): ids whose place on it is this master's. */
    private MasterAnswer created(int id, MasterRequest.Create create, HashRing<Integer> ring, String host) {
        Predicate<String> ids = ring == null ? candidate -> true : candidate -> ring.indexFor(candidate) == create.placement().self();
        SessionStore.CreatedSession created = store.create(create.idleTimeout(), ids, create.principal(), host);
        return new MasterAnswer.Created(id, created.id(), created.idleTimeout(), created.maxLifetime());
    }

    /** The session's times for an answer (PROTOCOL.md 3.2); zeros when it is already gone. */
    private SessionTimes times(String sessionId) {
        SessionTimes t = store.times(sessionId);
        return t == null ? SessionTimes.NONE : t;
    }

    private void reject(ChannelHandlerContext ctx, Rejected rejected) {
        if (!rejected.fatal()) {
            ctx.write(rejected.answer(), ctx.voidPromise());
            return;
        }
        log.debug("closing {}: {}", ctx.channel().remoteAddress(), rejected.answer().message());
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(rejected.answer()).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
