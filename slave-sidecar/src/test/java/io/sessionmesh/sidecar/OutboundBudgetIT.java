package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The answers queued over every REST connection together are bounded ({@code outbound-budget}), not only each
 * connection's ({@code max-outbound}): several clients that pipeline reads of a large section and never read the
 * answers, each under its own bound, together past the budget, get the largest of them closed, and the bytes queued
 * stay within the budget while others are served. A sidecar and a master in this JVM, raw sockets on loopback.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutboundBudgetIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");
    static final int VALUE_BYTES = 1 << 20;
    static final long BUDGET = 20L << 20;
    static final int ABUSERS = 4;
    /** Reads each abuser pipelines: 12 MiB of answers each, under max-outbound (16m); 48 MiB together. */
    static final int READS = 12;

    @Test
    void abusersEachUnderMaxOutbound_togetherOverTheBudget_areClosed_andTheRestIsServed() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:"
                     + master.address().getPort(), "port", "0", "admin-port", "0", "vnodes", "16",
                     "max-outbound", "16m", "outbound-budget", "20m")))) {
            TestHttp.awaitHealthy(sidecar);
            String base = "http://127.0.0.1:" + sidecar.address().getPort() + "/v1/sessions";
            String id = TestHttp.createSession(http, URI.create(base));
            byte[] value = new byte[VALUE_BYTES];
            new Random(7).nextBytes(value);
            String body = "{\"sections\":{\"big\":{\"set\":{\"v\":\"" + Base64.getEncoder().encodeToString(value) + "\"}}}}";
            assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(base + "/" + id)).header("Content-Type",
                    "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
            URI read = URI.create(base + "/" + id + "?sections=big");
            assertEquals(200, http.send(HttpRequest.newBuilder(read).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode()); // cached now: every read below is answered at once

            SidecarMetrics metrics = sidecar.service().metrics();
            long closedBefore = metrics.httpSlowConsumersClosed.sum();
            byte[] one = ("GET /v1/sessions/" + id + "?sections=big HTTP/1.1\r\nHost: localhost\r\n"
                    + "Accept: application/x-sessionmesh\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            List<Socket> abusers = new ArrayList<>();
            try {
                for (int i = 0; i < ABUSERS; i++) {
                    Socket s = new Socket();
                    s.setReceiveBufferSize(16 << 10);
                    s.connect(sidecar.address());
                    OutputStream out = s.getOutputStream();
                    for (int r = 0; r < READS; r++) {
                        out.write(one);
                    }
                    out.flush();
                    abusers.add(s);
                }
                io.sessionmesh.testing.Await.until("the abusers' reads answered or their connections closed",
                        Duration.ofSeconds(30), () -> metrics.httpSlowConsumersClosed.sum() > closedBefore
                                && metrics.outboundBytesQueued.get() <= BUDGET);
                Thread.sleep(500);
                long queued = metrics.outboundBytesQueued.get();
                assertTrue(queued <= BUDGET, queued + " bytes of answers queued over every connection, above the budget "
                        + BUDGET);
                assertTrue(metrics.httpSlowConsumersClosed.sum() - closedBefore >= 1, "no connection was closed");
                assertEquals(200, http.send(HttpRequest.newBuilder(read).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode(), "another client is served meanwhile");
            } finally {
                for (Socket s : abusers) {
                    s.close();
                }
            }
            io.sessionmesh.testing.Await.until("every queued answer given back", Duration.ofSeconds(10),
                    () -> metrics.outboundBytesQueued.get() == 0);
        }
    }
}
