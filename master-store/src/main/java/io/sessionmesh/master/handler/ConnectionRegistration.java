package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Holder;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.coherence.PushTable;
import io.sessionmesh.wire.tls.PeerIdentity;

/**
 * Which cache one connection belongs to, as its REGISTER made it (PROTOCOL.md 3.7): the holder (null: an anonymous
 * client, which caches nothing), the invalidator of its writes, and its push table when this is the holder's control
 * connection. Set by {@link RegistrationHandler}; read by {@link DataHandler} (whose reads make the holder hold what it
 * reads) and {@link PushHandler} (confirmations). Lives on the connection's event loop.
 */
public final class ConnectionRegistration {
    private Holder holder;
    private Invalidator invalidator;
    private PushTable pushes;
    /** Tells every holder, this connection's own included: for changes its cache cannot know of (LOGOUT). */
    private final Invalidator everyone;

    public ConnectionRegistration(HolderRegistry holders) {
        this.invalidator = holders.invalidatorFor(null);
        this.everyone = invalidator;
    }

    /** The peer as the registry records the host that created a session: one string per connection, shared. */
    private String peerHost;

    /** The peer of this connection as an operator names its host ({@link PeerIdentity#host}), worked out once. */
    String peerHost(io.netty.channel.Channel channel) {
        if (peerHost == null) {
            peerHost = PeerIdentity.host(channel);
        }
        return peerHost;
    }

    /** What the peer's certificate says (roles, hosts); null without TLS. Worked out once the handshake is done. */
    private io.sessionmesh.wire.tls.PeerCertificate peer;
    private boolean peerKnown;

    /**
     * What the certificate of this connection's peer says ({@link io.sessionmesh.wire.tls.PeerCertificate}), or null
     * on a connection without TLS, whose peer has no identity to check (SECURITY.md, "Roles").
     */
    public io.sessionmesh.wire.tls.PeerCertificate peer(io.netty.channel.Channel channel) {
        if (!peerKnown) {
            java.security.cert.X509Certificate certificate = PeerIdentity.certificate(channel);
            peer = certificate == null ? null : io.sessionmesh.wire.tls.PeerCertificate.of(certificate);
            peerKnown = true;
        }
        return peer;
    }

    /** The invalidator that tells every holder, this connection's own included. */
    Invalidator everyone() {
        return everyone;
    }

    /** The cache's holder, or null for an anonymous client. */
    Holder holder() {
        return holder;
    }

    /** The holder's bit in the sessions' holder masks; 0 for an anonymous client. */
    long holderBit() {
        return holder == null ? 0 : holder.bit();
    }

    Invalidator invalidator() {
        return invalidator;
    }

    /** The push table when this is a control connection, else null. */
    PushTable pushes() {
        return pushes;
    }

    void registered(Holder holder, Invalidator invalidator) {
        this.holder = holder;
        this.invalidator = invalidator;
    }

    void control(PushTable pushes) {
        this.pushes = pushes;
    }

    /** Whether this connection is its holder's current control connection: only its answers grant the lease. */
    boolean isCurrentControl() {
        return pushes != null && holder.isControl(pushes);
    }
}
