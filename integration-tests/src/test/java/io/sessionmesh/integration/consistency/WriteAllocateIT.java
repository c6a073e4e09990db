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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Write-allocate (PROTOCOL.md 3.7, "The writer's own copy"), with a real master and two real sidecars: a sidecar that
 * writes a section it never read keeps the written version (its WRITE asks the master for the section whole), so the
 * next read there is a hit; the master made it a holder, so another sidecar's write of that section invalidates the
 * copy, and the next read there gets the new value. And a login (a new session's sections in one write) is read back
 * from the writer's cache.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WriteAllocateIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    static HttpResponse<String> call(ConsistencyCluster c, int sidecar, String method, String path, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(c.api(sidecar).resolve(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = ConsistencyCluster.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 200 || r.statusCode() == 201, method + " " + path + ": " + r.statusCode() + " " + r.body());
        return r;
    }

    static String set(String section, String base64) {
        return "{\"sections\":{\"" + section + "\":{\"set\":{\"n\":\"" + base64 + "\"}}}}";
    }

    static long figure(ConsistencyCluster c, int sidecar, String name) throws Exception {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(c.admin(sidecar, "/admin/stats").body());
        assertTrue(m.find(), name + " is not in the stats");
        return Long.parseLong(m.group(1));
    }

    static String create(ConsistencyCluster c, int sidecar) throws Exception {
        Matcher m = ID.matcher(call(c, sidecar, "POST", "/v1/sessions", null).body());
        assertTrue(m.find());
        return m.group(1);
    }

    @Test
    void aSectionWrittenButNeverReadHere_isReadAsAHit_untilAnotherSidecarsWriteInvalidatesIt() throws Exception {
        try (ConsistencyCluster c = new ConsistencyCluster(2, Duration.ofSeconds(2), List.of())) {
            String id = create(c, 0);
            String path = "/v1/sessions/" + id;
            call(c, 1, "PATCH", path, set("cart", "AQ==")); // version 1, by sidecar 1
            call(c, 0, "PATCH", path, set("cart", "Ag==")); // version 2, by sidecar 0, which never read cart

            long hits = figure(c, 0, "hits");
            HttpResponse<String> read = call(c, 0, "GET", path + "?sections=cart", null);
            assertTrue(read.body().contains("\"version\":2") && read.body().contains("\"n\":\"Ag==\""), read.body());
            assertEquals(hits + 1, figure(c, 0, "hits"), "the write's version was not kept: " + read.body());

            call(c, 1, "PATCH", path, set("cart", "Aw==")); // version 3, by sidecar 1: sidecar 0 is told
            HttpResponse<String> after = call(c, 0, "GET", path + "?sections=cart", null);
            assertTrue(after.body().contains("\"version\":3") && after.body().contains("\"n\":\"Aw==\""),
                    "sidecar 0 served its copy after another sidecar's write: " + after.body());
            assertEquals(hits + 1, figure(c, 0, "hits"), "that read was no hit");
            assertTrue(c.admin(0, "/admin/stats").body().contains("\"invalidated\":1"), c.admin(0, "/admin/stats").body());
            assertTrue(c.troubles().isEmpty(), String.join("\n", c.troubles()));
        }
    }

    @Test
    void login_theNewSessionsSections_areReadFromTheWritersCache() throws Exception {
        try (ConsistencyCluster c = new ConsistencyCluster(1, Duration.ofSeconds(2), List.of())) {
            String id = create(c, 0);
            call(c, 0, "PATCH", "/v1/sessions/" + id,
                    "{\"sections\":{\"a\":{\"set\":{\"n\":\"AQ==\"}},\"b\":{\"set\":{\"n\":\"Ag==\"}}}}");
            long hits = figure(c, 0, "hits");
            HttpResponse<String> read = call(c, 0, "GET", "/v1/sessions/" + id + "?sections=b,a", null);
            assertTrue(read.body().contains("\"n\":\"AQ==\"") && read.body().contains("\"n\":\"Ag==\""), read.body());
            assertEquals(hits + 1, figure(c, 0, "hits"), "the first read after the login missed");
        }
    }
}
