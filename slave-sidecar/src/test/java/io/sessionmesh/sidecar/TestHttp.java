package io.sessionmesh.sidecar;

import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.testing.Await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers for tests that run a sidecar in-process. */
final class TestHttp {
    private TestHttp() {
    }

    /** Waits until the sidecar has a connection to every master. */
    static void awaitHealthy(SidecarServer sidecar) {
        Await.until("the sidecar to connect to all its masters", Duration.ofSeconds(10),
                () -> sidecar.service().router().pools().stream().allMatch(MasterPool::isUp));
    }

    /** Creates a session through the REST API at {@code sessions} ({@code POST /v1/sessions}); its id. */
    static String createSession(HttpClient http, URI sessions) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(sessions).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        Matcher m = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"").matcher(r.body());
        assertTrue(m.find(), r.body());
        return m.group(1);
    }
}
