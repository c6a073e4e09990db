package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.master.Lease;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sidecar's REST loop is busy (a task holds its only thread for three seconds, as a handler stuck on a huge JSON
 * body would): its master links are not, so the lease keeps being renewed and an invalidation is confirmed at once,
 * and another writer's write of a section this sidecar caches is not held for the lease. A real master in this JVM,
 * over loopback; the writer is a plain connection of the test's own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MasterLinkLoopIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");
    static final long BUSY_MILLIS = 3000;

    @Test
    void restLoopBusy_masterLinksStillRenewTheLeaseAndConfirmInvalidations() throws Exception {
        EventLoopGroup writerLoop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "lease", "1s")));
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                     + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16", "io-threads", "1",
                     "heartbeat-interval", "200ms")))) {
            TestHttp.awaitHealthy(sidecar);
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + sidecar.address().getPort() + "/v1/sessions";
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = ID.matcher(created.body());
            assertTrue(m.find(), created.body());
            String id = m.group(1);
            assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base + "/" + id)).header("Content-Type", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"sections\":{\"cart\":{\"set\":{\"n\":\"Kg==\"}}}}"))
                    .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base + "/" + id + "?sections=cart")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()); // now cached here: a write elsewhere invalidates it

            MasterConnection writer = MasterConnection.connect(writerLoop, master.address(), MasterConnectionOptions.DEFAULT,
                    null).get(5, TimeUnit.SECONDS);
            Lease lease = sidecar.service().router().pools().get(0).lease();
            CountDownLatch busy = new CountDownLatch(1);
            sidecar.httpLoops().next().execute(() -> {
                busy.countDown();
                try {
                    Thread.sleep(BUSY_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            busy.await();
            long renewalsBefore = lease.renewals();
            long start = System.nanoTime();
            writer.write(new WriteRequest(id, List.of(new SectionDelta("cart", Map.of("n", new byte[] {43}), List.of()))))
                    .get(5, TimeUnit.SECONDS);
            long writeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            Thread.sleep(1500); // longer than the lease: only renewals keep it valid
            long renewals = lease.renewals() - renewalsBefore;
            boolean valid = lease.isValid(System.nanoTime());
            assertTrue(writeMillis < 500, "the write waited " + writeMillis + " ms for this sidecar's confirmation "
                    + "(the lease is 1 s): the invalidation was not acted on while the REST loop was busy");
            assertTrue(renewals > 0 && valid, renewals + " lease renewals in 1.5 s of a busy REST loop, lease valid: " + valid);
            writer.close();
        } finally {
            writerLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
