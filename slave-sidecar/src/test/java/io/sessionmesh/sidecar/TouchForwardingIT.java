package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.testing.Await;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Touches of many cached sessions go to the master in batches that stay under its in-flight limit: found by the load
 * generator, where 5,500 touches sent at once made the master refuse users' writes on the same connection (503).
 */
class TouchForwardingIT {
    static final HttpClient http = HttpClient.newHttpClient();
    /** Above one batch of touches, far below the sessions touched. */
    static final int MASTER_MAX_IN_FLIGHT = SidecarService.MAX_TOUCHES_IN_FLIGHT + 32;
    static final int SESSIONS = 5 * MASTER_MAX_IN_FLIGHT;

    @Test
    void manyTouches_areSentInBatches_andNoneIsRefused() throws Exception {
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0",
                "max-in-flight", String.valueOf(MASTER_MAX_IN_FLIGHT))));
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                     "port", "0", "admin-port", "0", "touch-interval", "1h", "vnodes", "16")))) {
            TestHttp.awaitHealthy(sidecar);
            String base = "http://127.0.0.1:" + sidecar.address().getPort() + "/v1/sessions";
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                Matcher m = Pattern.compile("\"id\":\"([^\"]+)\"").matcher(send("POST", base, null).body());
                assertTrue(m.find());
                ids.add(m.group(1));
                assertEquals(200, send("PATCH", base + "/" + m.group(1), "{\"sections\":{\"s\":{\"set\":{\"k\":\"AQ==\"}}}}").statusCode());
            }
            for (String id : ids) {
                assertEquals(200, send("GET", base + "/" + id + "?sections=s", null).statusCode()); // fills the cache
                assertEquals(200, send("GET", base + "/" + id + "?sections=s", null).statusCode()); // a hit: to touch
            }
            long touchesBefore = master.stats().get("touches");
            assertEquals(SESSIONS, sidecar.service().pendingTouches());

            sidecar.service().forwardTouches();
            Await.until(SESSIONS + " touches to reach the master", Duration.ofSeconds(10),
                    () -> master.stats().get("touches") - touchesBefore >= SESSIONS);
            assertEquals(SESSIONS, master.stats().get("touches") - touchesBefore, "touches that reached the master");
            assertEquals(0L, master.stats().get("in_flight_refused"), "the master refused requests: the batch was too big");
            assertEquals(0, sidecar.service().pendingTouches());
        }
    }

    static HttpResponse<String> send(String method, String uri, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
