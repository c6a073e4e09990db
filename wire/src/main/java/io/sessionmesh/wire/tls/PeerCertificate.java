package io.sessionmesh.wire.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a peer's certificate (signed by a trusted authority: the handshake checked that) says about it: its roles
 * ({@link PeerRole}) and the hosts it names, its DNS names and IP addresses. A replica is known by a host of
 * {@code --replicas} (or of the cluster map) that its certificate names, and by the role {@link PeerRole#REPLICA}.
 *
 * <p>A certificate that names no role is a sidecar's ({@link #LEGACY_ROLE}): certificates made before roles existed
 * keep their data access and gain nothing else.
 *
 * @param subject the subject, {@code CN=...}, for messages and logs
 * @param roles   the roles it names; never empty
 * @param hosts   its DNS names (lower case) and IP addresses (as {@link InetAddress#getHostAddress()} writes them)
 */
public record PeerCertificate(String subject, Set<PeerRole> roles, Set<String> hosts) {
    /** The role of a certificate that names none. */
    public static final PeerRole LEGACY_ROLE = PeerRole.SIDECAR;
    /** Subject alternative name types (RFC 5280): dNSName, uniformResourceIdentifier, iPAddress. */
    private static final int DNS = 2;
    private static final int URI = 6;
    private static final int IP = 7;

    public PeerCertificate {
        roles = Set.copyOf(roles);
        hosts = Set.copyOf(hosts);
    }

    /** What {@code certificate} says. */
    public static PeerCertificate of(X509Certificate certificate) {
        Set<PeerRole> roles = EnumSet.noneOf(PeerRole.class);
        Set<String> hosts = new LinkedHashSet<>();
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            names = null; // a certificate whose names cannot be read names nothing here
        }
        if (names != null) {
            for (List<?> name : names) {
                if (name.size() < 2 || !(name.get(0) instanceof Integer type) || !(name.get(1) instanceof String value)) {
                    continue;
                }
                if (type == URI) {
                    PeerRole role = PeerRole.ofUri(value);
                    if (role != null) {
                        roles.add(role);
                    }
                } else if (type == DNS) {
                    hosts.add(value.toLowerCase(Locale.ROOT));
                } else if (type == IP) {
                    hosts.add(normalIp(value));
                }
            }
        }
        if (roles.isEmpty()) {
            roles.add(LEGACY_ROLE);
        }
        return new PeerCertificate(certificate.getSubjectX500Principal().getName(), roles, hosts);
    }

    public boolean has(PeerRole role) {
        return roles.contains(role);
    }

    /** Whether the certificate names {@code host} (a DNS name or an IP address, as {@code --replicas} writes it). */
    public boolean names(String host) {
        return hosts.contains(isIpLiteral(host) ? normalIp(host) : host.toLowerCase(Locale.ROOT));
    }

    /** Whether it is a replica's certificate naming the host of one of {@code replicas} ({@code host:port} each). */
    public boolean isReplicaOf(Collection<String> replicas) {
        if (!has(PeerRole.REPLICA)) {
            return false;
        }
        for (String replica : replicas) {
            int colon = replica.lastIndexOf(':');
            if (colon > 0 && names(replica.substring(0, colon))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isIpLiteral(String host) {
        return host.matches("[0-9.]+") || host.indexOf(':') >= 0;
    }

    private static String normalIp(String ip) {
        if (!isIpLiteral(ip)) {
            return ip;
        }
        try {
            return InetAddress.getByName(ip).getHostAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            return ip;
        }
    }

    @Override
    public String toString() {
        return subject + " " + roles + " " + hosts;
    }
}
