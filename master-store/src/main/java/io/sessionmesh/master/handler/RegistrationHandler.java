package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Holder;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.PushTable;
import io.sessionmesh.master.replication.ReplicaGroup;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.tls.PeerIdentity;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.CompletableFuture;

/**
 * Registration and leases (PROTOCOL.md 3.7): REGISTER makes this connection a cache's (its reads then make the cache a
 * holder of what it read, its writes do not invalidate itself); on the cache's control connection it also sets up the
 * pushes, and the answer to it, as every PING answer there, grants the cache's lease for the registry's lease length
 * from now, and says so (a PING answer carries the lease granted, 0 elsewhere: on other connections, and on a control
 * connection a newer one superseded). A holder is bound to the peer that registered it ({@link PeerIdentity}). Everything else passes on to {@link DataHandler}.
 */
public final class RegistrationHandler extends ChannelInboundHandlerAdapter {
    private final HolderRegistry holders;
    private final ConnectionRegistration registration;
    private final PushHandler pushHandler;
    private final ServerCounters counters;
    /** This master's group when it is a replica of one; null for a master on its own. */
    private final ReplicaGroup group;

    public RegistrationHandler(HolderRegistry holders, ConnectionRegistration registration, PushHandler pushHandler,
                               ServerCounters counters) {
        this(holders, registration, pushHandler, counters, null);
    }

    public RegistrationHandler(HolderRegistry holders, ConnectionRegistration registration, PushHandler pushHandler,
                               ServerCounters counters, ReplicaGroup group) {
        this.holders = holders;
        this.registration = registration;
        this.pushHandler = pushHandler;
        this.counters = counters;
        this.group = group;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Received r)
                || !(r.request() instanceof MasterRequest.Register || r.request() instanceof MasterRequest.Ping)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (group == null) {
            ctx.write(answer(ctx, r), ctx.voidPromise());
            return;
        }
        // A replica grants leases only while it leads, and its answer (the grant) leaves only after a read barrier has
        // confirmed it still does: a lease it grants must end before another replica can be elected and acknowledge
        // writes (PROTOCOL.md 3.8). The registration itself takes effect at once, so requests behind it see it.
        int opcode = r.request().opcode();
        CompletableFuture<MasterAnswer> answer;
        if (group.leads()) {
            MasterAnswer now = answer(ctx, r);
            answer = group.readBarrier().thenApply(ok -> now);
        } else {
            answer = CompletableFuture.failedFuture(group.notLeader());
        }
        ctx.write(new DeferredAnswer(answer.exceptionally(failure -> {
            counters.errors.increment();
            return new MasterAnswer.Error(opcode, r.requestId(), Status.NOT_LEADER, group.leaderAddress());
        })), ctx.voidPromise());
    }

    /** The answer to REGISTER or PING, with its lease grant on the holder's control connection. */
    private MasterAnswer answer(ChannelHandlerContext ctx, Received r) {
        if (r.request() instanceof MasterRequest.Register register) {
            return register(ctx, r.requestId(), register);
        }
        long granted = 0;
        if (registration.isCurrentControl()) {
            registration.holder().granted(System.nanoTime() + holders.leaseNanos());
            granted = holders.leaseMillis();
        }
        return new MasterAnswer.Pong(r.requestId(), granted, ((MasterRequest.Ping) r.request()).payload());
    }

    private MasterAnswer register(ChannelHandlerContext ctx, int id, MasterRequest.Register request) {
        Holder holder = registration.holder();
        if (holder != null && !holder.id().equals(request.holder())) {
            return refused(id, "this connection is already registered as another holder");
        }
        if (holder == null) {
            try {
                holder = holders.connect(request.holder(), PeerIdentity.of(ctx.channel()));
            } catch (HolderRegistry.Refused e) {
                counters.errors.increment();
                return new MasterAnswer.Error(Opcodes.REGISTER, id, e.status(), "REGISTER: " + e.getMessage());
            }
            registration.registered(holder, holders.invalidatorFor(holder));
        }
        if (request.control()) {
            if (registration.pushes() != null) {
                return refused(id, "this connection is already a control connection");
            }
            PushTable table = new PushTable(holder, pushHandler, ctx.channel().eventLoop(), holders.counters());
            if (!holder.takeControl(table, request.sequence())) {
                return refused(id, "control sequence " + request.sequence() + " is superseded: a newer control connection of "
                        + holder + " registered");
            }
            registration.control(table);
        }
        if (registration.isCurrentControl()) {
            holder.granted(System.nanoTime() + holders.leaseNanos());
        }
        return new MasterAnswer.Registered(id, holders.leaseMillis(), holder.slot());
    }

    private MasterAnswer refused(int id, String why) {
        counters.errors.increment();
        return new MasterAnswer.Error(Opcodes.REGISTER, id, Status.BAD_REQUEST, "REGISTER: " + why);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (registration.pushes() != null) {
            registration.pushes().closed();
        }
        if (registration.holder() != null) {
            holders.disconnect(registration.holder());
        }
        super.channelInactive(ctx);
    }
}
