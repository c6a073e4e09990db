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
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        certs = DevCertificates.make(dir.resolve("ours"), "--role", "replica", "master:localhost,127.0.0.1",
                "wrong-name:elsewhere.example", "--role", "sidecar", "sidecar-a", "sidecar-b", "--role", "operator", "operator");
        strangers = DevCertificates.make(dir.resolve("theirs"), "--role", "sidecar", "intruder");
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

    /**
     * Each role sends its own operations only (SECURITY.md, "Roles"): a sidecar's certificate gets FORBIDDEN for every
     * GROUP_* change, an operator's for the data operations, and the connection goes on serving what the role may send.
     */
    @Test
    void aCertificateMaySendWhatItsRoleMaySendOnly() {
        try (MasterConnection sidecar = connect(options(certs, "sidecar-a"))) {
            for (int opcode : new int[] {Opcodes.GROUP_CHANGE, Opcodes.GROUP_APPLY, Opcodes.GROUP_IMPORT}) {
                CompletionException e = assertThrows(CompletionException.class,
                        () -> sidecar.groupOp(opcode, new byte[] {1, 2, 3}).join());
                assertEquals(Status.FORBIDDEN, MasterException.statusOf(e.getCause()), Opcodes.name(opcode));
                assertTrue(e.getCause().getMessage().contains("urn:sessionmesh:role:"), e.getCause().getMessage());
            }
            assertEquals(22, sidecar.create(null).join().sessionId().length(), "the sidecar's data still flows");
        }
        try (MasterConnection operator = connect(options(certs, "operator"))) {
            CompletionException e = assertThrows(CompletionException.class, () -> operator.create(null).join());
            assertEquals(Status.FORBIDDEN, MasterException.statusOf(e.getCause()));
            assertTrue(operator.stats().join().contains("\"forbidden\":"), "STATS counts the refusals");
        }
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

    private static void assertGroupOpRefused(MasterConnection c, int opcode, byte[] body, int status, String why) {
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> c.groupOp(opcode, body).get(30, TimeUnit.SECONDS));
        assertEquals(status, MasterException.statusOf(e.getCause()), Opcodes.name(opcode) + ": " + e.getCause().getMessage());
        assertTrue(e.getCause().getMessage().contains(why), e.getCause().getMessage());
    }

    /** GROUP_CHANGE FIRST with {@code map}. */
    private static byte[] change(io.sessionmesh.wire.placement.GroupMap map) {
        byte[] m = map.encode();
        byte[] body = new byte[1 + m.length];
        body[0] = 1;
        System.arraycopy(m, 0, body, 1, m.length);
        return body;
    }

    /** GROUP_APPLY (no handoff) of {@code map} with its epoch made {@code epoch}. */
    private static byte[] apply(io.sessionmesh.wire.placement.GroupMap map, long epoch) {
        byte[] m = map.encode();
        java.nio.ByteBuffer.wrap(m, 1, 8).putLong(epoch);
        byte[] body = new byte[1 + m.length];
        System.arraycopy(m, 0, body, 1, m.length);
        return body;
    }

    /**
     * Whether the gRPC (HTTP/2) server on a Raft port answers a TLS client presenting {@code name}'s certificate (null:
     * none) with its first frame: only a replica of the group gets that far.
     */
    private static boolean raftSpeaks(int raftPort, String name) throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLSv1.3");
        TlsFiles trust = new TlsFiles(certs.chain("master"), certs.key("master"), certs.authority());
        context.init(name == null ? null : new javax.net.ssl.KeyManager[] {
                new TlsFiles(certs.chain(name), certs.key(name), certs.authority()).keyManager()},
                new javax.net.ssl.TrustManager[] {trust.trustManager()}, null);
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", raftPort)) {
            s.setSoTimeout(10_000);
            javax.net.ssl.SSLParameters parameters = s.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            s.setSSLParameters(parameters);
            s.startHandshake();
            s.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            s.getOutputStream().flush();
            return s.getInputStream().read() >= 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * A group with TLS: Raft runs over gRPC with mutual TLS (writes are acknowledged only once a majority has them, so
     * an acknowledged write proves the replicas talk); its Raft port takes only this group's replicas (no certificate,
     * a sidecar's, an operator's or another host's replica certificate fail the handshake); and the cluster map is
     * set by an operator, then taken only from a replica of the directory group, one epoch at a time: a map of a skipped
     * epoch (the takeover with epoch 2^63-1 among them) or a stale one is refused.
     */
    @Test
    void aGroupWithTls_replicatesOverMutualTls_andOnlyItsRolesSteerIt() throws Exception {
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
            assertTrue(raftSpeaks(raftPort, "master"), "a replica of the group is let in (the check below can fail)");
            for (String peer : new String[] {"", "sidecar-a", "operator", "wrong-name"}) {
                assertFalse(raftSpeaks(raftPort, peer.isEmpty() ? null : peer), "Raft refuses " + (peer.isEmpty()
                        ? "a peer without a certificate" : peer + "'s certificate"));
            }
            assertTrue(raftSpeaks(raftPort, "master"), "...and a replica's certificate again");

            // the cluster map: set by an operator, taken from the directory's replicas only, one epoch at a time
            InetSocketAddress leads = new InetSocketAddress("127.0.0.1", ports[leader[0]][0]);
            List<String> data = new java.util.ArrayList<>();
            for (int[] p : ports) {
                data.add("127.0.0.1:" + p[0]);
            }
            io.sessionmesh.wire.placement.GroupMap first = io.sessionmesh.wire.placement.GroupMap.first(List.of(data), 64);
            try (MasterConnection sidecar = MasterConnection.connect(group, leads, options(certs, "sidecar-a"), null).join();
                 MasterConnection operator = MasterConnection.connect(group, leads, options(certs, "operator"), null).join();
                 MasterConnection replica = MasterConnection.connect(group, leads, options(certs, "master"), null).join();
                 MasterConnection far = MasterConnection.connect(group, leads, options(certs, "wrong-name"), null).join()) {
                assertGroupOpRefused(sidecar, Opcodes.GROUP_CHANGE, change(first), Status.FORBIDDEN, "role:operator");
                assertEquals(1, io.sessionmesh.wire.placement.GroupMap.decode(
                        operator.groupOp(Opcodes.GROUP_CHANGE, change(first)).get(30, TimeUnit.SECONDS)).epoch());
                assertGroupOpRefused(sidecar, Opcodes.GROUP_APPLY, apply(first, 2), Status.FORBIDDEN, "role:replica");
                assertGroupOpRefused(sidecar, Opcodes.GROUP_IMPORT, new byte[12], Status.FORBIDDEN, "role:replica");
                assertGroupOpRefused(far, Opcodes.GROUP_APPLY, apply(first, 2), Status.FORBIDDEN, "directory group");
                assertGroupOpRefused(far, Opcodes.GROUP_IMPORT, new byte[12], Status.FORBIDDEN, "a group of map 1");
                assertGroupOpRefused(replica, Opcodes.GROUP_APPLY, apply(first, Long.MAX_VALUE), Status.CONFLICT,
                        "skips an epoch");
                assertGroupOpRefused(replica, Opcodes.GROUP_APPLY, apply(first, 3), Status.CONFLICT, "skips an epoch");
                replica.groupOp(Opcodes.GROUP_APPLY, apply(first, 2)).get(30, TimeUnit.SECONDS);
                assertGroupOpRefused(replica, Opcodes.GROUP_APPLY, apply(first, 1), Status.CONFLICT, "stale");
                assertEquals(2, io.sessionmesh.wire.placement.GroupMap.decode(
                        sidecar.groupOp(Opcodes.GROUP_MAP, new byte[0]).get(30, TimeUnit.SECONDS)).epoch(),
                        "the map a sidecar reads is the one taken, never a refused one");
            }
        } finally {
            for (ServerProcess p : replicas) {
                p.close();
            }
        }
    }
}
