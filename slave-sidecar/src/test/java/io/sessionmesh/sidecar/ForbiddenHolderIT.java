package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.DevCertificates;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.tls.TlsFiles;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sidecar whose holder id another peer registered first is refused FORBIDDEN by the master, and that refusal does
 * not change by itself: the sidecar backs off (MasterPool.FORBIDDEN_RETRY) instead of registering again every
 * reconnect interval, logs it once, and says so in {@code /admin/health}. A master with TLS (a holder belongs to a
 * certificate) and a sidecar in this JVM, with a rogue connection of another certificate.
 */
class ForbiddenHolderIT {
    @TempDir
    Path dir;

    @Test
    void forbiddenHolder_backsOff_logsOnce_andHealthSaysForbidden() throws Exception {
        DevCertificates certs = DevCertificates.make(dir, "--role", "replica", "master:localhost,127.0.0.1", "--role", "sidecar", "sidecar-a", "rogue");
        UUID holder = UUID.randomUUID();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0",
                "tls-cert", certs.chain("master").toString(), "tls-key", certs.key("master").toString(),
                "tls-trust", certs.authority().toString())))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", master.address().getPort());
            MasterConnectionOptions rogueTls = MasterConnectionOptions.builder()
                    .tls(new TlsFiles(certs.chain("rogue"), certs.key("rogue"), certs.authority()).clientContext()).build();
            try (MasterConnection rogue = MasterConnection.connect(group, address, rogueTls, null).join()) {
                rogue.register(holder, true, 1).join(); // the rogue learned the sidecar's holder id and came first
                System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
                try (SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "localhost:"
                        + address.getPort(), "port", "0", "admin-port", "0", "vnodes", "16", "io-threads", "1",
                        "reconnect-min", "10ms", "reconnect-max", "50ms",
                        "master-tls-cert", certs.chain("sidecar-a").toString(),
                        "master-tls-key", certs.key("sidecar-a").toString(),
                        "master-tls-trust", certs.authority().toString())), holder)) {
                    Await.until("the master refused the sidecar's REGISTER", Duration.ofSeconds(10),
                            () -> refused(master) >= 2);
                    long after = refused(master);
                    Thread.sleep(2_000); // 40 reconnect intervals of 50 ms
                    assertTrue(refused(master) - after <= 0, "the sidecar kept registering its forbidden holder id: "
                            + (refused(master) - after) + " more refusals in 2 s");
                    HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                            "http://127.0.0.1:" + sidecar.adminAddress().getPort() + "/admin/health")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(503, health.statusCode(), health.body());
                    assertTrue(health.body().contains("\"status\":\"FORBIDDEN\""), health.body());
                    assertTrue(health.body().contains("registered by another peer"), health.body());
                }
            } finally {
                System.setErr(err);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        long lines = log.lines().filter(l -> l.contains("holder id is registered by another peer")).count();
        assertEquals(1, lines, "logged once, clearly:\n" + log);
    }

    private static long refused(MasterServer master) {
        return master.stats().get("holder_registrations_refused");
    }
}
