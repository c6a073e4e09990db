package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session's principal through real HTTP: two masters (so each call must reach the session's own) and a sidecar on
 * loopback ports, in this JVM, as SidecarApiIT runs them.
 */
class SidecarPrincipalIT {
    static final List<MasterServer> masters = new ArrayList<>();
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final BinaryTransportCodec codec = new BinaryTransportCodec();
    static final String BINARY = "application/x-sessionmesh";
    static final String JSON = "application/json";
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");

    @BeforeAll
    static void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            MasterServer m = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
            masters.add(m);
            addresses.add("127.0.0.1:" + m.address().getPort());
        }
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", String.join(",", addresses), "port", "0",
                "admin-port", "0", "vnodes", "256")));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        masters.forEach(MasterServer::close);
    }

    static HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path))
                .timeout(Duration.ofSeconds(10));
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<byte[]> sendBytes(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String createJson(String body) throws Exception {
        HttpResponse<String> r = send(api("/v1/sessions").header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(201, r.statusCode(), r.body());
        Matcher m = ID.matcher(r.body());
        assertTrue(m.find(), r.body());
        return m.group(1);
    }

    static HttpResponse<String> put(String id, String json) throws Exception {
        return send(api("/v1/sessions/" + id + "/principal").header("Content-Type", JSON)
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    static HttpResponse<String> get(String id) throws Exception {
        return send(api("/v1/sessions/" + id + "/principal").GET());
    }

    static long masterReads() {
        return masters.stream().mapToLong(m -> m.stats().get("reads")).sum();
    }

    @Test
    void json_createWithPrincipal_thenGetPutDelete() throws Exception {
        String id = createJson("{\"idleTimeoutSeconds\": 600, \"principal\": \"alice\"}");
        HttpResponse<String> got = get(id);
        assertEquals(200, got.statusCode(), got.body());
        assertEquals(JSON, got.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"id\":\"" + id + "\",\"principal\":\"alice\"}", got.body());

        HttpResponse<String> changed = put(id, "{\"principal\":\"Zo\\u00eb\"}");
        assertEquals(204, changed.statusCode(), changed.body());
        assertEquals("{\"id\":\"" + id + "\",\"principal\":\"Zoë\"}", get(id).body());

        assertEquals(204, put(id, "{\"id\":\"" + id + "\",\"principal\":\"bob\"}").statusCode());
        assertEquals("{\"id\":\"" + id + "\",\"principal\":\"bob\"}", get(id).body());

        assertEquals(204, send(api("/v1/sessions/" + id + "/principal").DELETE()).statusCode());
        assertEquals("{\"id\":\"" + id + "\"}", get(id).body());
    }

    @Test
    void createWithoutPrincipal_hasNone() throws Exception {
        String id = createJson("{}");
        assertEquals("{\"id\":\"" + id + "\"}", get(id).body());
    }

    @Test
    void binary_createPutGet() throws Exception {
        HttpResponse<byte[]> c = sendBytes(api("/v1/sessions").header("Content-Type", BINARY).header("Accept", BINARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(codec.encode(new CreateRequest(0, "carol")))));
        assertEquals(201, c.statusCode());
        String id = codec.decode(c.body(), SessionCreated.class).sessionId();
        HttpResponse<byte[]> got = sendBytes(api("/v1/sessions/" + id + "/principal").header("Accept", BINARY).GET());
        assertEquals(200, got.statusCode());
        assertEquals(BINARY, got.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(new SessionPrincipal(id, "carol"), codec.decode(got.body(), SessionPrincipal.class));

        HttpResponse<byte[]> put = sendBytes(api("/v1/sessions/" + id + "/principal").header("Content-Type", BINARY)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(codec.encode(new SessionPrincipal(id, "dave")))));
        assertEquals(204, put.statusCode());
        got = sendBytes(api("/v1/sessions/" + id + "/principal").header("Accept", BINARY).GET());
        assertEquals(Optional.of("dave"), codec.decode(got.body(), SessionPrincipal.class).principal());
    }

    @Test
    void manySessions_overTwoMasters_eachCallReachesItsSessionsMaster() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String id = createJson("{}");
            assertEquals(204, put(id, "{\"principal\":\"user-" + i + "\"}").statusCode());
            ids.add(id);
        }
        for (int i = 0; i < ids.size(); i++) {
            assertEquals("{\"id\":\"" + ids.get(i) + "\",\"principal\":\"user-" + i + "\"}", get(ids.get(i)).body());
        }
        assertTrue(masters.stream().allMatch(m -> m.stats().get("sessions") > 0), "both masters hold sessions");
    }

    @Test
    void unknownOrDeletedSession_is404() throws Exception {
        HttpResponse<String> unknown = get("no-such-session");
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().startsWith("{\"error\":\"NOT_FOUND\""), unknown.body());
        assertEquals(404, put("no-such-session", "{\"principal\":\"alice\"}").statusCode());
        assertEquals(404, send(api("/v1/sessions/no-such-session/principal").DELETE()).statusCode());
        String id = createJson("{\"principal\":\"alice\"}");
        assertEquals(204, send(api("/v1/sessions/" + id).DELETE()).statusCode());
        assertEquals(404, get(id).statusCode());
        HttpResponse<byte[]> bin = sendBytes(api("/v1/sessions/" + id + "/principal").header("Accept", BINARY).GET());
        assertEquals(Status.NOT_FOUND, codec.decode(bin.body(), ErrorMessage.class).status());
    }

    @Test
    void badInput_is400Or413Or405_andNeverEchoesThePrincipal() throws Exception {
        String id = createJson("{}");
        String secret = "mallory@example.com";
        HttpResponse<String> control = put(id, "{\"principal\":\"" + secret + "\\u0000\"}");
        assertEquals(400, control.statusCode(), control.body());
        assertTrue(control.body().contains("control character"), control.body());
        assertFalse(control.body().contains(secret), control.body());

        HttpResponse<String> big = put(id, "{\"principal\":\"" + secret.repeat(14) + "\"}");
        assertEquals(413, big.statusCode(), big.body());
        assertFalse(big.body().contains(secret), big.body());

        HttpResponse<String> createBig = send(api("/v1/sessions").header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofString("{\"principal\":\"" + secret.repeat(14) + "\"}")));
        assertEquals(413, createBig.statusCode(), createBig.body());

        String other = createJson("{}");
        HttpResponse<String> mismatch = put(id, "{\"id\":\"" + other + "\",\"principal\":\"alice\"}");
        assertEquals(400, mismatch.statusCode());
        assertFalse(mismatch.body().contains(other), mismatch.body());

        HttpResponse<String> none = put(id, "{\"principal\":null}");
        assertEquals(400, none.statusCode());

        HttpResponse<String> post = send(api("/v1/sessions/" + id + "/principal").POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, post.statusCode());
        assertEquals("GET, PUT, DELETE", post.headers().firstValue("Allow").orElseThrow());
        assertEquals("{\"id\":\"" + id + "\"}", get(id).body(), "nothing was set");
    }

    /** The OpenAPI document kept in the repo has the route, its three operations and the message's schema. */
    @Test
    void openApiDocument_describesThePrincipalRoute() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("openapi.yaml"));
        assertTrue(doc.contains("\n  /v1/sessions/{id}/principal:\n"), "openapi.yaml lacks the route");
        for (String s : new String[] {"operationId: getSessionPrincipal", "operationId: setSessionPrincipal",
            "operationId: clearSessionPrincipal", "\n    SessionPrincipal:\n"}) {
            assertTrue(doc.contains(s), "openapi.yaml lacks " + s);
        }
    }

    @Test
    void principalCalls_leaveTheSectionCacheAlone() throws Exception {
        String id = createJson("{}");
        HttpResponse<String> w = send(api("/v1/sessions/" + id).header("Content-Type", JSON).method("PATCH",
                HttpRequest.BodyPublishers.ofString("{\"sections\": {\"cart\": {\"set\": {\"n\": \"Kg==\"}}}}")));
        assertEquals(200, w.statusCode(), w.body());
        String read = "/v1/sessions/" + id + "?sections=cart";
        assertEquals(200, send(api(read).GET()).statusCode());
        long before = masterReads();
        assertEquals(204, put(id, "{\"principal\":\"alice\"}").statusCode());
        assertEquals(200, get(id).statusCode());
        assertEquals(204, send(api("/v1/sessions/" + id + "/principal").DELETE()).statusCode());
        HttpResponse<String> r = send(api(read).GET());
        assertEquals("{\"id\":\"" + id + "\",\"sections\":{\"cart\":{\"version\":1,\"attributes\":{\"n\":\"Kg==\"}}}}", r.body());
        assertEquals(before, masterReads(), "the read after the principal calls was still a cache hit");
    }
}
