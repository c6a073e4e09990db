package io.sessionmesh.master.replication;

import io.sessionmesh.wire.tls.PeerCertificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Who may speak Raft with this replica (SECURITY.md, "Roles"): on Ratis's port, both ways (a peer that connects and
 * a peer this replica dials), a certificate the trusted authorities signed ({@code delegate}) that also names the role
 * replica and the host of one of this group's replicas ({@code --replicas}). A sidecar's or an operator's certificate,
 * or a replica's of another group on another host, fails the handshake.
 */
final class ReplicaTrust extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager delegate;
    private final String group;
    /** The group's replicas, {@code host:raftPort}. */
    private final List<String> replicas;

    ReplicaTrust(X509ExtendedTrustManager delegate, GroupConfig config) {
        this.delegate = delegate;
        this.group = config.name();
        this.replicas = config.replicas().stream().map(r -> r.host() + ":" + r.raftPort()).toList();
    }

    private void requireReplica(X509Certificate[] chain) throws CertificateException {
        PeerCertificate peer = PeerCertificate.of(chain[0]);
        if (!peer.isReplicaOf(replicas)) {
            throw new CertificateException("Raft in group " + group + " is for its replicas only (" + String.join(" ", replicas)
                    + ", role replica): the certificate " + peer.subject() + " names " + peer.roles() + " " + peer.hosts());
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkClientTrusted(chain, authType);
        requireReplica(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        delegate.checkClientTrusted(chain, authType, socket);
        requireReplica(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        delegate.checkClientTrusted(chain, authType, engine);
        requireReplica(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        delegate.checkServerTrusted(chain, authType);
        requireReplica(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        delegate.checkServerTrusted(chain, authType, socket);
        requireReplica(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        delegate.checkServerTrusted(chain, authType, engine);
        requireReplica(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return delegate.getAcceptedIssuers();
    }
}
