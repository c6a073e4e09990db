package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.testing.Await;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expiry stays the master's: reads served from the cache keep a session alive there (their touches are forwarded),
 * and once they stop it dies everywhere at once. A real master and sidecar on loopback, but both clocks of expiry,
 * the master store's and the sidecar cache's, are moved by hand: nothing here waits for a session to expire.
 */
class SessionExpiryIT {
    static final AtomicLong masterMillis = new AtomicLong(1_000_000);
    static final AtomicLong cacheNanos = new AtomicLong(1_000_000_000L);
    static MasterServer master;
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        MasterConfig config = MasterConfig.of(Map.of("port", "0"));
        master = MasterServer.start(config, new SessionStore(StoreLimits.DEFAULT, masterMillis::get));
        // touch-interval 1h: the test forwards touches itself, at the moments it chooses.
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "touch-interval", "1h", "vnodes", "16")), cacheNanos::get);
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    /** Both clocks move on together. */
    static void advance(Duration d) {
        masterMillis.addAndGet(d.toMillis());
        cacheNanos.addAndGet(d.toNanos());
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
        for (int i = 0; i < 15; i++) { // three idle timeouts, a read every 200 ms
            advance(Duration.ofMillis(200));
            assertEquals(200, call("GET", "/v1/sessions/" + id + "?sections=s", null).statusCode());
            long touches = master.stats().get("touches");
            sidecar.service().forwardTouches();
            Await.until("the forwarded touch to reach the master", Duration.ofSeconds(5),
                    () -> master.stats().get("touches") > touches);
        }
        assertTrue(master.stats().get("reads") - readsBefore <= 1, "reads went to the master instead of the cache");
        assertTrue(sidecar.service().metrics().touchesForwarded.sum() >= 15, "reads from the cache were not forwarded");

        advance(Duration.ofMillis(1600)); // no use for longer than the idle timeout
        HttpResponse<String> gone = call("GET", "/v1/sessions/" + id + "?sections=s", null);
        assertEquals(404, gone.statusCode(), "an expired session was served from the cache: " + gone.body());
        assertTrue(master.stats().get("expiries") >= 1);
    }
}
