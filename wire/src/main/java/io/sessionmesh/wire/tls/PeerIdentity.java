package io.sessionmesh.wire.tls;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * Who is at the other end of a master connection, as far as the master can tell: with TLS, the subject of the
 * certificate the peer presented (and a trusted authority signed), {@code "cert CN=sidecar-a"}; without TLS, only
 * its IP address, {@code "address 127.0.0.1"}, which any process on that host shares. Holders are bound to it
 * (PROTOCOL.md 3.7, 3.10).
 */
public final class PeerIdentity {
    private PeerIdentity() {
    }

    /**
     * The peer as an operator names its host (what the active-session registry records): the common name of its
     * certificate's subject with TLS (the whole subject when it has none), its IP address without.
     */
    public static String host(Channel channel) {
        String identity = of(channel);
        if (identity.startsWith("address ")) {
            return identity.substring("address ".length());
        }
        String subject = identity.substring("cert ".length());
        for (String part : subject.split(",")) {
            if (part.startsWith("CN=")) {
                return part.substring(3);
            }
        }
        return subject;
    }

    /**
     * The certificate the peer of {@code channel} presented, null without TLS (or before its handshake is done).
     */
    public static X509Certificate certificate(Channel channel) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null) {
            return null;
        }
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x509 ? x509 : null;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** The identity of the peer of {@code channel}; call once its TLS handshake (if any) is done. */
    public static String of(Channel channel) {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls != null) {
            try {
                Certificate[] chain = tls.engine().getSession().getPeerCertificates();
                if (chain.length > 0 && chain[0] instanceof X509Certificate x509) {
                    return "cert " + x509.getSubjectX500Principal().getName();
                }
            } catch (SSLPeerUnverifiedException e) {
                return "cert (none)"; // not reached with client authentication required
            }
        }
        SocketAddress remote = channel.remoteAddress();
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return "address " + inet.getAddress().getHostAddress();
        }
        return "address " + remote;
    }
}
