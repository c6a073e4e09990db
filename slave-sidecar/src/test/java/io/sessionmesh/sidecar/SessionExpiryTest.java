package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expiry stays the master's: reads served from the cache keep a session alive there, and it dies everywhere at once. */
class SessionExpiryTest {
    static MasterServer master;
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "touch-interval", "200ms", "vnodes", "16")));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    static HttpResponse<String> call(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readsFromTheCache_keepTheSessionAliveOnItsMaster_thenItExpiresEverywhere() throws Exception {
        HttpResponse<String> created = call("POST", "/v1/sessions", "{\"idleTimeoutSeconds\": 1}");
        Matcher m = Pattern.compile("\"id\":\"([^\"]+)\"").matcher(created.body());
        assertTrue(m.find(), created.body());
        String id = m.group(1);
        assertEquals(200, call("PATCH", "/v1/sessions/" + id, "{\"sections\":{\"s\":{\"set\":{\"k\":\"AQ==\"}}}}").statusCode());
        long readsBefore = master.stats().get("reads");
        long end = System.nanoTime() + 3_000_000_000L; // three idle timeouts
        while (System.nanoTime() < end) {
            assertEquals(200, call("GET", "/v1/sessions/" + id + "?sections=s", null).statusCode());
            Thread.sleep(50);
        }
        assertTrue(master.stats().get("reads") - readsBefore <= 3, "reads went to the master instead of the cache");
        assertTrue(sidecar.service().metrics().touchesForwarded.sum() >= 5, "reads from the cache were not forwarded as touches");
        Thread.sleep(1600); // no use for longer than the idle timeout
        HttpResponse<String> gone = call("GET", "/v1/sessions/" + id + "?sections=s", null);
        assertEquals(404, gone.statusCode(), "an expired session was served from the cache: " + gone.body());
        assertTrue(master.stats().get("expiries") >= 1);
    }
}
