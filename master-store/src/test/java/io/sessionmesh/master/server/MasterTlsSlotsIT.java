package io.sessionmesh.master.server;

import io.sessionmesh.testing.DevCertificates;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.tls.TlsFiles;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * A master with TLS counts a connection against {@code max-connections} only once its TLS handshake is done: peers
 * that open TCP connections and never handshake (no certificate needed for that) cannot take the slots and lock the
 * sidecars out; they are closed by the handshake timeout. A real master process, real sockets.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MasterTlsSlotsIT {
    @Test
    void stalledHandshakes_takeNoConnectionSlot_aSidecarStillGetsIn() throws Exception {
        Path dir = Files.createTempDirectory("sessionmesh-tls-slots");
        DevCertificates certs = DevCertificates.make(dir, "--role", "replica", "master:localhost,127.0.0.1", "--role", "sidecar", "sidecar-a");
        int slots = 4;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<Socket> stalled = new ArrayList<>();
        try (ServerProcess master = MasterServerIT.startMaster("--tls-cert", certs.chain("master").toString(),
                "--tls-key", certs.key("master").toString(), "--tls-trust", certs.authority().toString(),
                "--max-connections", Integer.toString(slots))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", master.port());
            for (int i = 0; i < slots * 2; i++) {
                Socket s = new Socket(address.getAddress(), address.getPort()); // TCP only: no ClientHello, ever
                stalled.add(s);
            }
            Thread.sleep(500); // the master has accepted them all
            MasterConnectionOptions options = MasterConnectionOptions.builder()
                    .tls(new TlsFiles(certs.chain("sidecar-a"), certs.key("sidecar-a"), certs.authority()).clientContext())
                    .build();
            try (MasterConnection c = MasterConnection.connect(group, address, options, null).join()) {
                assertArrayEquals(new byte[] {9}, c.ping(new byte[] {9}).get(10, TimeUnit.SECONDS).payload(),
                        "a sidecar with a valid certificate was locked out by " + stalled.size() + " stalled handshakes");
            }
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
