package io.sessionmesh.integration.consistency;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sessionmesh.integration.consistency.WriteAllocateIT.call;
import static io.sessionmesh.integration.consistency.WriteAllocateIT.create;
import static io.sessionmesh.integration.consistency.WriteAllocateIT.figure;
import static io.sessionmesh.integration.consistency.WriteAllocateIT.set;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sidecar with {@code --read-ahead}: a miss also fetches the other section names reads there asked for, so the
 * session's next read of another section there is a hit; the sections read ahead are held like any read (another
 * sidecar's write invalidates them), and a read is answered with exactly the sections it named.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadAheadIT {
    @Test
    void aMiss_bringsTheSectionsOtherReadsAskedFor_andAnotherSidecarsWriteStillInvalidatesThem() throws Exception {
        try (ConsistencyCluster c = new ConsistencyCluster(2, Duration.ofSeconds(2), List.of("--read-ahead", "8"))) {
            // sidecar 0 learns the names "a" and "b" from reads of a first session
            String first = create(c, 1);
            call(c, 1, "PATCH", "/v1/sessions/" + first, "{\"sections\":{\"a\":{\"set\":{\"n\":\"AQ==\"}},\"b\":{\"set\":{\"n\":\"Ag==\"}}}}");
            call(c, 0, "GET", "/v1/sessions/" + first + "?sections=a", null);
            call(c, 0, "GET", "/v1/sessions/" + first + "?sections=b", null);

            String id = create(c, 1);
            String path = "/v1/sessions/" + id;
            call(c, 1, "PATCH", path, "{\"sections\":{\"a\":{\"set\":{\"n\":\"Aw==\"}},\"b\":{\"set\":{\"n\":\"BA==\"}}}}");
            HttpResponse<String> a = call(c, 0, "GET", path + "?sections=a", null);
            assertTrue(a.body().contains("\"n\":\"Aw==\"") && !a.body().contains("\"b\""), "only what was asked: " + a.body());
            long hits = figure(c, 0, "hits");
            HttpResponse<String> b = call(c, 0, "GET", path + "?sections=b", null);
            assertTrue(b.body().contains("\"n\":\"BA==\""), b.body());
            assertEquals(hits + 1, figure(c, 0, "hits"), "b was not read ahead");
            assertTrue(figure(c, 0, "sections_read_ahead") >= 1);

            call(c, 1, "PATCH", path, set("b", "BQ==")); // sidecar 0 holds b: it is told
            HttpResponse<String> after = call(c, 0, "GET", path + "?sections=b", null);
            assertTrue(after.body().contains("\"n\":\"BQ==\"") && after.body().contains("\"version\":2"),
                    "a section read ahead was served after another sidecar's write: " + after.body());
            assertTrue(c.troubles().isEmpty(), String.join("\n", c.troubles()));
        }
    }
}
