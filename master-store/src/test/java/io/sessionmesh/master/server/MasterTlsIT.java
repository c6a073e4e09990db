package io.sessionmesh.master.server;

import io.sessionmesh.testing.DevCertificates;
import io.sessionmesh.testing.FreePorts;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.tls.TlsFiles;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master process with mutual TLS (PROTOCOL.md 3.10): only a peer whose certificate the configured authority signed
 * gets an answer; a holder id is bound to the certificate that registered it; a sidecar checks the master's
 * certificate names the address it dialled. Certificates come from docker/tls/make-dev-certs.sh.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MasterTlsIT {
    static ServerProcess master;
    static EventLoopGroup group;
    static DevCertificates certs;
    static DevCertificates strangers;
    static InetSocketAddress address;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("sessionmesh-tls");
        certs = DevCertificates.make(dir.resolve("ours"), "master:localhost,127.0.0.1", "sidecar-a", "sidecar-b",
                "wrong-name:elsewhere.example");
        strangers = DevCertificates.make(dir.resolve("theirs"), "intruder");
        master = MasterServerIT.startMaster("--tls-cert", certs.chain("master").toString(), "--tls-key",
                certs.key("master").toString(), "--tls-trust", certs.authority().toString(), "--max-holders-per-peer", "2");
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        address = new InetSocketAddress("127.0.0.1", master.port());
    }

    @AfterAll
    static void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        master.stop();
        assertEquals(List.of(), master.leaks(), "the master leaked buffers");
    }

    static MasterConnectionOptions options(DevCertificates from, String name) {
        return MasterConnectionOptions.builder()
                .tls(new TlsFiles(from.chain(name), from.key(name), certs.authority()).clientContext()).build();
    }

    static MasterConnection connect(MasterConnectionOptions options) {
        return MasterConnection.connect(group, address, options, null).join();
    }

    @Test
    void aSidecarWithACertificateOfTheAuthority_talksToTheMaster() {
        try (MasterConnection c = connect(options(certs, "sidecar-a"))) {
            String id = c.create(null).join().sessionId();
            c.write(new WriteRequest(id, List.of(new SectionDelta("s", Map.of("k", "v".getBytes(StandardCharsets.UTF_8)),
                    List.of())))).join();
            MasterAnswer.Read read = c.read(new ReadRequest(id, List.of("s"))).join();
            assertEquals(1, read.result().sections().size());
            assertArrayEquals(new byte[] {5}, c.ping(new byte[] {5}).join().payload());
        }
    }

    /** Every way in without a certificate the authority signed: none gets a single answer. */
    @Test
    void noConnectionWithoutAValidClientCertificate_getsAnAnswer() throws Exception {
        // plain TCP: a PING frame in the clear is not TLS; the master closes without answering it
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(10_000);
            ByteBuf ping = Unpooled.buffer();
            FrameHeader.write(ping, Opcodes.PING, 0, 0, 1, 1);
            ping.writeByte(7);
            byte[] frame = new byte[ping.readableBytes()];
            ping.readBytes(frame);
            OutputStream out = s.getOutputStream();
            out.write(frame);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] back = in.readNBytes(FrameHeader.BYTES + 1);
            assertTrue(back.length < FrameHeader.BYTES + 1 || back[0] != frame[0] || back[1] != frame[1],
                    "no frame comes back to a plaintext client");
        }
        // TLS without a client certificate
        SslContext anonymous = SslContextBuilder.forClient().trustManager(certs.authority().toFile())
                .protocols(TlsFiles.PROTOCOL).build();
        assertRefused(MasterConnectionOptions.builder().tls(anonymous).build());
        // TLS with a certificate another authority signed
        assertRefused(options(strangers, "intruder"));
    }

    private static void assertRefused(MasterConnectionOptions options) {
        Exception e = assertThrows(Exception.class, () -> {
            // TLS 1.3: the client may finish its side of the handshake before the master has checked its certificate;
            // the refusal then arrives as the first request's failure. Either way nothing is answered.
            try (MasterConnection c = connect(options)) {
                c.create(null).join();
            }
        });
        assertTrue(e instanceof CompletionException, String.valueOf(e));
        assertEquals(Status.UNAVAILABLE, MasterException.statusOf(e.getCause()), String.valueOf(e.getCause()));
    }

    @Test
    void aSidecarRefusesAMasterWhoseCertificateDoesNotNameTheAddressItDialled() throws Exception {
        ServerProcess misnamed = MasterServerIT.startMaster("--tls-cert", certs.chain("wrong-name").toString(), "--tls-key",
                certs.key("wrong-name").toString(), "--tls-trust", certs.authority().toString());
        try {
            CompletionException e = assertThrows(CompletionException.class, () -> MasterConnection.connect(group,
                    new InetSocketAddress("127.0.0.1", misnamed.port()), options(certs, "sidecar-a"), null).join());
            assertEquals(Status.UNAVAILABLE, MasterException.statusOf(e.getCause()));
            assertTrue(e.getCause().getMessage().contains("TLS handshake"), e.getCause().getMessage());
        } finally {
            misnamed.stop();
        }
    }

    /**
     * Another sidecar (another certificate) cannot REGISTER as a holder it learned the id of: it would take that
     * holder's invalidation pushes, and the holder would serve stale copies.
     */
    @Test
    void aHolderIdBelongsToTheCertificateThatRegisteredItFirst() {
        UUID holder = UUID.randomUUID();
        try (MasterConnection a = connect(options(certs, "sidecar-a"));
             MasterConnection b = connect(options(certs, "sidecar-b"))) {
            MasterAnswer.Registered registered = a.register(holder, true, 1).join();
            assertTrue(registered.leaseMillis() > 0);
            assertTrue(a.ping(new byte[0]).join().granted(), "the control connection's pings grant the lease");
            CompletionException e = assertThrows(CompletionException.class, () -> b.register(holder, true, 2).join());
            assertEquals(Status.FORBIDDEN, MasterException.statusOf(e.getCause()));
            assertTrue(e.getCause().getMessage().contains("registered by another peer"), e.getCause().getMessage());
            assertTrue(a.ping(new byte[0]).join().granted(), "the holder keeps its control connection and its lease");
        }
    }

    @Test
    void onePeerMayRegisterAtMostMaxHoldersPerPeer() {
        try (MasterConnection c1 = connect(options(certs, "sidecar-b"));
             MasterConnection c2 = connect(options(certs, "sidecar-b"));
             MasterConnection c3 = connect(options(certs, "sidecar-b"))) {
            c1.register(UUID.randomUUID(), false, 0).join();
            c2.register(UUID.randomUUID(), false, 0).join();
            CompletionException e = assertThrows(CompletionException.class,
                    () -> c3.register(UUID.randomUUID(), false, 0).join());
            assertEquals(Status.UNAVAILABLE, MasterException.statusOf(e.getCause()));
            assertTrue(e.getCause().getMessage().contains("max-holders-per-peer"), e.getCause().getMessage());
        }
    }

    /**
     * A group with TLS: Raft runs over gRPC with mutual TLS (writes are acknowledged only once a majority has them, so
     * an acknowledged write proves the replicas talk), and the Raft port, too, refuses a peer without a certificate.
     */
    @Test
    void aGroupWithTls_replicatesOverMutualTls_andItsRaftPortRefusesAPeerWithoutACertificate() throws Exception {
        Path dir = Files.createTempDirectory("sessionmesh-tls-group");
        int[][] ports = new int[3][];
        List<String> parts = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ports[i] = new int[] {FreePorts.next(), FreePorts.next()};
            parts.add("m" + i + "=127.0.0.1:" + ports[i][0] + "/" + ports[i][1]);
        }
        List<ServerProcess> replicas = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                replicas.add(ServerProcess.start(ServerProcess.command(MasterServerIT.jar(), "--port",
                        String.valueOf(ports[i][0]), "--replicas", String.join(",", parts), "--replica-id", "m" + i,
                        "--raft-dir", dir.resolve("m" + i).toString(), "--io-threads", "1", "--lease", "500ms",
                        "--tls-cert", certs.chain("master").toString(), "--tls-key", certs.key("master").toString(),
                        "--tls-trust", certs.authority().toString())));
            }
            int[] leader = {-1};
            io.sessionmesh.testing.Await.until("a leader elected over TLS", java.time.Duration.ofSeconds(60), () -> {
                for (int i = 0; i < 3; i++) {
                    try (MasterConnection c = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", ports[i][0]),
                            options(certs, "sidecar-a"), null).join()) {
                        if (c.stats().get(5, TimeUnit.SECONDS).contains("\"replica_leads\":1")) {
                            leader[0] = i;
                            return true;
                        }
                    } catch (Exception e) {
                        // not up yet
                    }
                }
                return false;
            });
            try (MasterConnection c = MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", ports[leader[0]][0]),
                    options(certs, "sidecar-a"), null).join()) {
                String id = c.create(null).get(30, TimeUnit.SECONDS).sessionId();
                MasterAnswer.Write w = c.write(new WriteRequest(id, List.of(new SectionDelta("s",
                        Map.of("k", new byte[] {1}), List.of())))).get(30, TimeUnit.SECONDS);
                assertEquals(1L, w.result().versions().get("s"), "acknowledged: a majority has it, over TLS");
            }
            int raftPort = ports[(leader[0] + 1) % 3][1];
            javax.net.ssl.SSLContext noCertificate = javax.net.ssl.SSLContext.getInstance("TLSv1.3");
            java.security.KeyStore trust = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(certs.authority())) {
                trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(in));
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            noCertificate.init(null, tmf.getTrustManagers(), null);
            try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) noCertificate.getSocketFactory()
                    .createSocket("127.0.0.1", raftPort)) {
                s.setSoTimeout(10_000);
                Exception refused = assertThrows(Exception.class, () -> {
                    s.startHandshake();
                    s.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    if (s.getInputStream().read() < 0) {
                        throw new java.io.EOFException("closed");
                    }
                });
                assertTrue(refused instanceof java.io.IOException, String.valueOf(refused));
            }
        } finally {
            for (ServerProcess p : replicas) {
                p.close();
            }
        }
    }
}
