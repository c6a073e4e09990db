package io.sessionmesh.integration.consistency;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sidecar cut off from its master (the proxy refuses and resets its connections): by default it stops serving its
 * cache and answers 503; with a stale-read window it answers from the cache, marked stale, for that long, then 503;
 * once the master is back, fresh answers again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StaleReadWindowIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    static final String VALUE = "{\"sections\":{\"cart\":{\"set\":{\"n\":\"Kg==\"}}}}";

    static HttpResponse<String> call(ConsistencyCluster c, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(c.api(0).resolve(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return ConsistencyCluster.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A session with cart cached at the sidecar; its id. */
    static String cachedSession(ConsistencyCluster c) throws Exception {
        Matcher m = ID.matcher(call(c, "POST", "/v1/sessions", null).body());
        assertTrue(m.find());
        String id = m.group(1);
        assertEquals(200, call(c, "PATCH", "/v1/sessions/" + id, VALUE).statusCode());
        assertEquals(200, call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null).statusCode());
        assertTrue(c.admin(0, "/admin/sessions/" + id).body().contains("cart"), "cart is not cached");
        return id;
    }

    static boolean stale(HttpResponse<String> r) {
        return r.headers().firstValue("X-SessionMesh-Stale").map("true"::equals).orElse(false);
    }

    @Test
    void byDefault_aCutOffSidecarAnswers503_notItsCache() throws Exception {
        try (ConsistencyCluster c = new ConsistencyCluster(1, Duration.ofSeconds(1), List.of())) {
            String id = cachedSession(c);
            c.proxy.cut();
            c.awaitLeaseLost(0); // until it has seen the cut, its lease is still valid and its cache rightly served
            HttpResponse<String> r = call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null);
            assertTrue(r.statusCode() == 503 || r.statusCode() == 504, r.statusCode() + " " + r.body());
            assertFalse(stale(r));
            c.proxy.heal();
            c.awaitLease(0);
            HttpResponse<String> back = call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null);
            assertEquals(200, back.statusCode());
            assertFalse(stale(back));
        }
    }

    @Test
    void withAStaleReadWindow_theCacheAnswersMarkedStale_untilTheWindowEnds() throws Exception {
        try (ConsistencyCluster c = new ConsistencyCluster(1, Duration.ofSeconds(1), List.of("--stale-read-window", "3s"))) {
            String id = cachedSession(c);
            c.proxy.cut();
            long cut = System.nanoTime();
            c.awaitLeaseLost(0);
            HttpResponse<String> r = call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null);
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(stale(r), "not marked stale: " + r.headers().map());
            assertTrue(r.body().contains("\"n\":\"Kg==\""), r.body());
            // a session never cached has nothing to serve stale
            HttpResponse<String> other = call(c, "GET", "/v1/sessions/NeverCachedSession?sections=cart", null);
            assertTrue(other.statusCode() == 503 || other.statusCode() == 504, other.statusCode() + " " + other.body());
            assertTrue(c.admin(0, "/admin/stats").body().contains("\"stale_reads\":1"));

            Thread.sleep(Math.max(0, 3_500 - (System.nanoTime() - cut) / 1_000_000));
            HttpResponse<String> after = call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null);
            assertTrue(after.statusCode() == 503 || after.statusCode() == 504, after.statusCode() + " " + after.body());

            c.proxy.heal();
            c.awaitLease(0);
            HttpResponse<String> back = call(c, "GET", "/v1/sessions/" + id + "?sections=cart", null);
            assertEquals(200, back.statusCode());
            assertFalse(stale(back));
        }
    }
}
