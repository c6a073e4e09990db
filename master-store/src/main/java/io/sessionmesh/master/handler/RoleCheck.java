package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.tls.PeerCertificate;
import io.sessionmesh.wire.tls.PeerRole;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.EnumSet;
import java.util.Set;

/**
 * Who may send what (SECURITY.md, "Roles"), after {@link RequestDecoder}: with TLS, every request is checked against
 * the roles its peer's certificate names ({@link PeerCertificate}), and one its roles do not allow is answered
 * FORBIDDEN, naming the operation and the roles that may send it; the connection stays open. Without TLS a peer has no
 * identity to check, and every request passes: such a master listens on loopback only unless told otherwise
 * ({@code allow-plaintext-beyond-loopback}).
 *
 * <p>Which replica, too, is checked where the map is known: GROUP_APPLY only from a replica of the directory group,
 * GROUP_IMPORT only from a replica of a group of the map ({@link io.sessionmesh.master.groups.GroupOps}); Ratis's port
 * takes only the replicas of this group ({@link io.sessionmesh.master.replication.ReplicaTrust}).
 */
public final class RoleCheck extends ChannelInboundHandlerAdapter {
    private static final Set<PeerRole> ANY = EnumSet.allOf(PeerRole.class);
    private static final Set<PeerRole> SIDECAR = EnumSet.of(PeerRole.SIDECAR);
    private static final Set<PeerRole> OPERATOR = EnumSet.of(PeerRole.OPERATOR);
    private static final Set<PeerRole> REPLICA = EnumSet.of(PeerRole.REPLICA);
    private static final Set<PeerRole> SIDECAR_OR_OPERATOR = EnumSet.of(PeerRole.SIDECAR, PeerRole.OPERATOR);

    private final ConnectionRegistration registration;
    private final ServerCounters counters;

    public RoleCheck(ConnectionRegistration registration, ServerCounters counters) {
        this.registration = registration;
        this.counters = counters;
    }

    /** The roles that may send {@code opcode}. */
    public static Set<PeerRole> allowed(int opcode) {
        return switch (opcode) {
            case Opcodes.PING, Opcodes.STATS, Opcodes.GROUP_MAP -> ANY;
            case Opcodes.GROUP_CHANGE -> OPERATOR;
            case Opcodes.GROUP_APPLY, Opcodes.GROUP_IMPORT -> REPLICA;
            case Opcodes.DESCRIBE -> SIDECAR_OR_OPERATOR;
            default -> SIDECAR; // REGISTER and the data operations; an unknown opcode is refused later by its number
        };
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Received received) {
            PeerCertificate peer = registration.peer(ctx.channel());
            int opcode = received.request().opcode();
            Set<PeerRole> allowed = allowed(opcode);
            if (peer != null && java.util.Collections.disjoint(allowed, peer.roles())) { // no stream per request
                counters.forbidden.increment();
                ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(opcode, received.requestId(), Status.FORBIDDEN,
                        Opcodes.name(opcode) + " is for " + allowed.stream().map(PeerRole::uri).toList()
                                + " only; this connection's certificate " + peer.subject() + " names " + peer.roles()), false));
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }
}
