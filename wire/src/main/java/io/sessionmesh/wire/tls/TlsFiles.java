package io.sessionmesh.wire.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One peer's side of mutual TLS on the master protocol (PROTOCOL.md 3.10): its certificate chain and private key, and
 * the certificates of the authorities it trusts to sign the other side's, all PEM files. A master built with these
 * accepts only connections whose client presents a certificate those authorities signed; a sidecar (or a master
 * calling another) presents its own and checks that the master's certificate names the address it dialled.
 *
 * <p>TLS 1.3 only. The engine is OpenSSL's when netty-tcnative is on the class path, the JDK's otherwise
 * ({@link #provider()}). {@code docker/tls/make-dev-certs.sh} makes a development authority and certificates.
 *
 * @param certificateChain the peer's certificate, then any intermediates (PEM)
 * @param privateKey       its private key, PKCS#8 PEM, unencrypted, readable by its owner only (0600; 0640 when root
 *                         owns it), else refused (it is read at start only)
 * @param trustedAuthorities the certificates that sign the other side's (PEM, one or more)
 */
public record TlsFiles(Path certificateChain, Path privateKey, Path trustedAuthorities) {
    /** The only protocol offered. */
    public static final String PROTOCOL = "TLSv1.3";
    /** How long a TLS handshake may take before the connection is closed, in milliseconds. */
    public static final long HANDSHAKE_TIMEOUT_MILLIS = 5_000;

    public TlsFiles {
        readable("certificate chain", certificateChain);
        readable("private key", privateKey);
        readable("trusted authorities", trustedAuthorities);
        privateToItsOwner(privateKey);
    }

    /**
     * Refuses a private key file that others may read: any permission for others, or for the group unless root owns
     * the file (an administrator sharing it with the service's group: 0640 root:group), the rule PostgreSQL applies to
     * its server key. Refusing rather than warning: a key every local user can read is a key any of them can pose
     * with. On a file system without POSIX permissions nothing is checked.
     */
    private static void privateToItsOwner(Path key) {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> mode;
        String owner;
        try {
            mode = Files.getPosixFilePermissions(key);
            owner = Files.getOwner(key).getName();
        } catch (UnsupportedOperationException e) {
            return;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("TLS private key file " + key + ": cannot read its permissions: " + e, e);
        }
        boolean others = mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
                || mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE)
                || mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE);
        boolean group = mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
                || mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
                || mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_EXECUTE);
        boolean groupShared = group && owner.equals("root")
                && !mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE);
        if (others || group && !groupShared) {
            throw new IllegalArgumentException("TLS private key file " + key + " is mode "
                    + java.nio.file.attribute.PosixFilePermissions.toString(mode) + " (owner " + owner + "): "
                    + (others ? "every local user" : "its group") + " may read it; make it readable by its owner only "
                    + "(chmod 600 " + key + "), or 0640 owned by root to share it with the service's group");
        }
    }

    /**
     * The files named by three options that are either all set or all absent: null when all are null;
     * IllegalArgumentException naming what is missing otherwise.
     */
    public static TlsFiles ofOptional(String what, Path certificateChain, Path privateKey, Path trustedAuthorities) {
        if (certificateChain == null && privateKey == null && trustedAuthorities == null) {
            return null;
        }
        if (certificateChain == null || privateKey == null || trustedAuthorities == null) {
            throw new IllegalArgumentException(what + ": TLS needs all three files, the certificate chain, the private key"
                    + " and the trusted authorities; missing: "
                    + (certificateChain == null ? "certificate chain " : "")
                    + (privateKey == null ? "private key " : "")
                    + (trustedAuthorities == null ? "trusted authorities" : "").trim());
        }
        return new TlsFiles(certificateChain, privateKey, trustedAuthorities);
    }

    private static void readable(String what, Path file) {
        Objects.requireNonNull(file, what);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("TLS " + what + " file " + file + " does not exist or cannot be read");
        }
    }

    /** The context of a master's listening side: a client certificate signed by a trusted authority is required. */
    public SslContext serverContext() {
        try {
            return SslContextBuilder.forServer(certificateChain.toFile(), privateKey.toFile())
                    .trustManager(trustedAuthorities.toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .protocols(PROTOCOL)
                    .sslProvider(provider())
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    /**
     * The context of a connecting side: presents this certificate, trusts only the given authorities, and checks that
     * the master's certificate names the host it dialled (its subject alternative names).
     */
    public SslContext clientContext() {
        try {
            return SslContextBuilder.forClient()
                    .keyManager(certificateChain.toFile(), privateKey.toFile())
                    .trustManager(trustedAuthorities.toFile())
                    .endpointIdentificationAlgorithm("HTTPS")
                    .protocols(PROTOCOL)
                    .sslProvider(provider())
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    /**
     * This peer's certificate and key as a JSSE key manager, for an engine that takes one rather than PEM files
     * (Ratis's gRPC transport, where the trust side checks roles: {@code ReplicaTrust}).
     */
    public javax.net.ssl.X509KeyManager keyManager() {
        try {
            java.security.cert.X509Certificate[] chain = certificates(certificateChain).toArray(
                    java.security.cert.X509Certificate[]::new);
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("peer", privateKey(privateKey), password, chain);
            javax.net.ssl.KeyManagerFactory f = javax.net.ssl.KeyManagerFactory.getInstance(
                    javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            f.init(store, password);
            for (javax.net.ssl.KeyManager m : f.getKeyManagers()) {
                if (m instanceof javax.net.ssl.X509KeyManager x509) {
                    return x509;
                }
            }
            throw new IllegalArgumentException("no X.509 key manager");
        } catch (java.io.IOException | java.security.GeneralSecurityException e) {
            throw invalid(e);
        }
    }

    /** The trusted authorities as a JSSE trust manager (the chain's signatures and dates; no role, no name). */
    public javax.net.ssl.X509ExtendedTrustManager trustManager() {
        try {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (java.security.cert.X509Certificate ca : certificates(trustedAuthorities)) {
                store.setCertificateEntry("authority-" + i++, ca);
            }
            javax.net.ssl.TrustManagerFactory f = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            f.init(store);
            for (javax.net.ssl.TrustManager m : f.getTrustManagers()) {
                if (m instanceof javax.net.ssl.X509ExtendedTrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalArgumentException("no X.509 trust manager");
        } catch (java.io.IOException | java.security.GeneralSecurityException e) {
            throw invalid(e);
        }
    }

    private static java.util.List<java.security.cert.X509Certificate> certificates(Path pem)
            throws java.io.IOException, java.security.cert.CertificateException {
        java.util.List<java.security.cert.X509Certificate> out = new java.util.ArrayList<>();
        try (java.io.InputStream in = Files.newInputStream(pem)) {
            for (java.security.cert.Certificate c : java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificates(in)) {
                out.add((java.security.cert.X509Certificate) c);
            }
        }
        if (out.isEmpty()) {
            throw new java.security.cert.CertificateException(pem + " holds no certificate");
        }
        return out;
    }

    /** An unencrypted PKCS#8 key ({@code BEGIN PRIVATE KEY}): EC, RSA or Ed25519. */
    private static java.security.PrivateKey privateKey(Path pem) throws java.io.IOException,
            java.security.GeneralSecurityException {
        String text = Files.readString(pem, java.nio.charset.StandardCharsets.US_ASCII);
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new java.security.spec.InvalidKeySpecException(pem + " holds no unencrypted PKCS#8 key (BEGIN PRIVATE KEY)");
        }
        byte[] der = java.util.Base64.getMimeDecoder().decode(text.substring(begin + 27, end));
        java.security.spec.PKCS8EncodedKeySpec spec = new java.security.spec.PKCS8EncodedKeySpec(der);
        java.security.GeneralSecurityException last = null;
        for (String algorithm : new String[] {"EC", "RSA", "Ed25519"}) {
            try {
                return java.security.KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (java.security.GeneralSecurityException e) {
                last = e;
            }
        }
        throw last;
    }

    private IllegalArgumentException invalid(Exception e) {
        return new IllegalArgumentException("TLS files " + certificateChain + ", " + privateKey + ", "
                + trustedAuthorities + " do not make a TLS context: " + e.getMessage(), e);
    }

    /** OpenSSL (netty-tcnative) when it loads, else the JDK's engine. */
    public static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    @Override
    public String toString() {
        return "TlsFiles[" + certificateChain + ", " + privateKey + ", " + trustedAuthorities + "]";
    }
}
