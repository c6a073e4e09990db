package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The REST contract through real HTTP: a master and a sidecar on loopback ports, in this JVM. */
class SidecarApiIT {
    static MasterServer master;
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final BinaryTransportCodec codec = new BinaryTransportCodec();
    static final String BINARY = "application/x-sessionmesh";

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "max-attribute", "64k", "max-section", "256k",
                "max-session", "1m")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "max-body", "512k", "vnodes", "256")));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    static URI api(String path) {
        return URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path);
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<byte[]> sendBytes(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String create() throws Exception {
        return TestHttp.createSession(http, api("/v1/sessions"));
    }

    static HttpResponse<String> patchJson(String id, String body) throws Exception {
        return send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)));
    }

    static long masterReads() {
        return master.stats().get("reads");
    }

    @Test
    void json_createWriteReadTouchDelete() throws Exception {
        HttpResponse<String> created = send(HttpRequest.newBuilder(api("/v1/sessions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"idleTimeoutSeconds\": 600}")));
        assertEquals(201, created.statusCode());
        assertTrue(created.body().contains("\"idleTimeoutSeconds\":600"), created.body());
        String id = create();
        HttpResponse<String> w = patchJson(id, "{\"sections\": {\"cart\": {\"set\": {\"n\": \"Kg==\", \"sku\": \"yv4=\"}}}}");
        assertEquals(200, w.statusCode(), w.body());
        assertEquals("{\"id\":\"" + id + "\",\"sections\":{\"cart\":{\"version\":1}}}", w.body());
        w = patchJson(id, "{\"sections\": {\"cart\": {\"ifVersion\": 1, \"set\": {\"n\": \"Kw==\"}, \"remove\": [\"sku\"]}}}");
        assertEquals(200, w.statusCode(), w.body());
        HttpResponse<String> r = send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=cart,user")).GET());
        assertEquals(200, r.statusCode());
        assertEquals("{\"id\":\"" + id + "\",\"sections\":{\"cart\":{\"version\":2,\"attributes\":{\"n\":\"Kw==\"}},"
                + "\"user\":{\"version\":0,\"attributes\":{}}}}", r.body());
        assertEquals(204, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "/touch"))
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode());
        assertEquals(204, send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).DELETE()).statusCode());
        HttpResponse<String> gone = send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=cart")).GET());
        assertEquals(404, gone.statusCode());
        assertTrue(gone.body().startsWith("{\"error\":\"NOT_FOUND\""), gone.body());
        assertEquals(404, send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).DELETE()).statusCode());
    }

    @Test
    void binary_sameModel_sameAnswers() throws Exception {
        HttpResponse<byte[]> c = sendBytes(HttpRequest.newBuilder(api("/v1/sessions")).header("Accept", BINARY)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(201, c.statusCode());
        String id = codec.decode(c.body(), SessionCreated.class).sessionId();
        byte[] value = new byte[3000];
        value[7] = 7;
        byte[] write = codec.encode(new WriteRequest(id, List.of(new SectionDelta("clientInfo", Map.of("record", value), List.of()))));
        HttpResponse<byte[]> w = sendBytes(HttpRequest.newBuilder(api("/v1/sessions/" + id)).header("Content-Type", BINARY)
                .header("Accept", BINARY).method("PATCH", HttpRequest.BodyPublishers.ofByteArray(write)));
        assertEquals(200, w.statusCode());
        assertEquals(BINARY, w.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(Map.of("clientInfo", 1L), codec.decode(w.body(), WriteResult.class).versions());
        HttpResponse<byte[]> r = sendBytes(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=clientInfo"))
                .header("Accept", BINARY).GET());
        assertArrayEquals(value, codec.decode(r.body(), ReadResult.class).sections().get(0).attributes().get("record"));
        HttpResponse<byte[]> conflict = sendBytes(HttpRequest.newBuilder(api("/v1/sessions/" + id)).header("Content-Type", BINARY)
                .header("Accept", BINARY).method("PATCH", HttpRequest.BodyPublishers.ofByteArray(codec.encode(new WriteRequest(id,
                        List.of(new SectionDelta("clientInfo", 0, Map.of("x", new byte[1]), List.of())))))));
        assertEquals(409, conflict.statusCode());
        assertEquals(Status.CONFLICT, codec.decode(conflict.body(), ErrorMessage.class).status());
    }

    @Test
    void cache_hitMakesNoMasterCall_partialHitMakesOne_writeMerges() throws Exception {
        String id = create();
        patchJson(id, "{\"sections\": {\"a\": {\"set\": {\"k\": \"AQ==\"}}, \"b\": {\"set\": {\"k\": \"Ag==\"}}}}");
        long before = masterReads();
        get(id, "a,b"); // a and b came into the cache with the write (new sections): no master read
        assertEquals(before, masterReads(), "a read of sections the write created went to the master");
        get(id, "a,b,c,d"); // c and d are missing: one master call for both
        assertEquals(before + 1, masterReads());
        get(id, "a,b,c,d");
        assertEquals(before + 1, masterReads(), "a full hit went to the master");
        patchJson(id, "{\"sections\": {\"a\": {\"set\": {\"k\": \"Aw==\", \"j\": \"BA==\"}}}}");
        String body = get(id, "a");
        assertEquals(before + 1, masterReads(), "the write's delta was not merged into the cached section");
        assertTrue(body.contains("\"version\":2,\"attributes\":{\"k\":\"Aw==\",\"j\":\"BA==\"}"), body);
    }

    @Test
    void write_fromAnotherPathToTheMaster_isNotHiddenForeverByTheCache() throws Exception {
        String id = create();
        patchJson(id, "{\"sections\": {\"s\": {\"set\": {\"k\": \"AQ==\"}}}}");
        get(id, "s");
        // Another writer (straight to the master): this sidecar's copy is behind by one version.
        try (var c = io.sessionmesh.wire.client.MasterConnection.connect(sidecarGroup(), master.address(),
                io.sessionmesh.wire.client.MasterConnectionOptions.DEFAULT, null).join()) {
            c.write(new WriteRequest(id, List.of(new SectionDelta("s", Map.of("k", new byte[] {9}), List.of())))).join();
        }
        // The next write through the sidecar learns version 3: its cached version 1 missed one, so it is dropped.
        patchJson(id, "{\"sections\": {\"s\": {\"set\": {\"other\": \"AQ==\"}}}}");
        String body = get(id, "s");
        assertTrue(body.contains("\"k\":\"CQ==\""), body);
    }

    @Test
    void errors_haveTheirStatusAndANamingMessage() throws Exception {
        String id = create();
        assertError(400, "BAD_REQUEST", "sections", send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).GET()));
        assertError(400, "BAD_REQUEST", "session id", send(HttpRequest.newBuilder(api("/v1/sessions/bad%20id?sections=a")).GET()));
        assertError(404, "NOT_FOUND", null, send(HttpRequest.newBuilder(api("/v1/sessions/unknown?sections=a")).GET()));
        assertError(400, "BAD_REQUEST", "JSON", patchJson(id, "{\"sections\": "));
        assertError(400, "BAD_REQUEST", "base64", patchJson(id, "{\"sections\": {\"a\": {\"set\": {\"k\": \"!!\"}}}}"));
        assertError(400, "BAD_REQUEST", "content type", send(HttpRequest.newBuilder(api("/v1/sessions/" + id))
                .header("Content-Type", "text/plain").method("PATCH", HttpRequest.BodyPublishers.ofString("x"))));
        assertError(400, "BAD_REQUEST", "another session", patchJson(id, "{\"id\": \"someoneElse\", \"sections\": {}}"));
        assertError(409, "CONFLICT", "version", patchJson(id, "{\"sections\": {\"a\": {\"ifVersion\": 5, \"set\": {}}}}"));
        String big = Base64.getEncoder().encodeToString(new byte[65 << 10]);
        assertError(413, "TOO_LARGE", "limit", patchJson(id, "{\"sections\": {\"a\": {\"set\": {\"k\": \"" + big + "\"}}}}"));
        HttpResponse<String> tooBig = patchJson(id, "{\"sections\": {\"a\": {\"set\": {\"k\": \""
                + Base64.getEncoder().encodeToString(new byte[600 << 10]) + "\"}}}}");
        assertEquals(413, tooBig.statusCode());
        assertError(404, "NOT_FOUND", "endpoint", send(HttpRequest.newBuilder(api("/v2/nothing")).GET()));
        HttpResponse<String> method = send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).PUT(HttpRequest.BodyPublishers.noBody()));
        assertError(405, "BAD_REQUEST", "allowed", method);
        assertEquals("GET, PATCH, DELETE", method.headers().firstValue("Allow").orElseThrow());
        // The connection pool kept working through all of it.
        assertEquals(200, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=a")).GET()).statusCode());
    }

    @Test
    void schemas_publishThenFetch_bothForms() throws Exception {
        byte[] schema = {1, 2, 3, 4};
        assertEquals(204, send(HttpRequest.newBuilder(api("/v1/schemas/1a2b3c4d5e6f7a8b"))
                .header("Content-Type", "application/octet-stream").PUT(HttpRequest.BodyPublishers.ofByteArray(schema))).statusCode());
        HttpResponse<byte[]> got = sendBytes(HttpRequest.newBuilder(api("/v1/schemas/1a2b3c4d5e6f7a8b")).header("Accept", BINARY).GET());
        assertArrayEquals(schema, got.body());
        HttpResponse<String> json = send(HttpRequest.newBuilder(api("/v1/schemas/1a2b3c4d5e6f7a8b")).GET());
        assertEquals("{\"uid\":\"1a2b3c4d5e6f7a8b\",\"schema\":\"AQIDBA==\"}", json.body());
        assertEquals(404, send(HttpRequest.newBuilder(api("/v1/schemas/ff")).GET()).statusCode());
        assertEquals(400, send(HttpRequest.newBuilder(api("/v1/schemas/xyz")).GET()).statusCode());
        // other bytes under the same uid: 409, and neither the master nor this sidecar's cache takes them
        HttpResponse<String> poisoned = send(HttpRequest.newBuilder(api("/v1/schemas/1a2b3c4d5e6f7a8b"))
                .header("Content-Type", "application/octet-stream").PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[]{9, 9})));
        assertEquals(409, poisoned.statusCode(), poisoned.body());
        assertTrue(poisoned.body().contains("already published with other content"), poisoned.body());
        assertArrayEquals(schema, sendBytes(HttpRequest.newBuilder(api("/v1/schemas/1a2b3c4d5e6f7a8b")).header("Accept", BINARY).GET()).body());
    }

    @Test
    void admin_statsSessionsAndEviction() throws Exception {
        String id = create();
        patchJson(id, "{\"sections\": {\"cards\": {\"set\": {\"visa\": \"AQID\"}}}}");
        URI admin = URI.create("http://127.0.0.1:" + sidecar.adminAddress().getPort());
        HttpResponse<String> session = send(HttpRequest.newBuilder(admin.resolve("/admin/sessions/" + id)).GET());
        assertEquals("{\"sections\":{\"cards\":{\"version\":1,\"bytes\":17,\"attributes\":{\"visa\":3}}}}", session.body());
        HttpResponse<String> stats = send(HttpRequest.newBuilder(admin.resolve("/admin/stats")).GET());
        assertTrue(stats.body().contains("\"hit_ratio\"") && stats.body().contains("\"master_latency\""), stats.body());
        HttpResponse<String> metrics = send(HttpRequest.newBuilder(admin.resolve("/metrics")).GET());
        assertTrue(metrics.body().contains("sessionmesh_sidecar_requests_total{operation=\"write\"}"), metrics.body());
        assertEquals(200, send(HttpRequest.newBuilder(admin.resolve("/admin/cache?session=" + id)).DELETE()).statusCode());
        assertEquals(404, send(HttpRequest.newBuilder(admin.resolve("/admin/sessions/" + id)).GET()).statusCode());
        HttpResponse<String> health = send(HttpRequest.newBuilder(admin.resolve("/admin/health")).GET());
        assertEquals(200, health.statusCode());
        assertTrue(health.body().startsWith("{\"status\":\"UP\""), health.body());
    }

    /**
     * Pipelined on one connection: a read, a body over max-body, another read. The answers come back in request
     * order, and the oversized body is skipped without losing the connection's step.
     */
    @Test
    void pipelined_oversizedBodyBetweenReads_answersStayInOrder() throws Exception {
        String id = create();
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", sidecar.address().getPort())) {
            s.setSoTimeout(10_000);
            String read = "GET /v1/sessions/" + id + "?sections=a HTTP/1.1\r\nHost: localhost\r\n\r\n";
            String big = "PATCH /v1/sessions/" + id + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (600 << 10) + "\r\n\r\n";
            String last = "GET /v1/sessions/" + id + "?sections=b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
            s.getOutputStream().write((read + big).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().write(new byte[600 << 10]);
            s.getOutputStream().write(last.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answers = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            int ok = answers.indexOf("HTTP/1.1 200");
            int tooLarge = answers.indexOf("HTTP/1.1 413");
            int okAgain = answers.indexOf("HTTP/1.1 200", tooLarge);
            assertTrue(ok >= 0 && tooLarge > ok && okAgain > tooLarge, "answers out of order: " + answers);
            assertTrue(answers.contains("\"b\":{\"version\":0"), answers);
        }
    }

    /**
     * A request the HTTP decoder cannot take is answered with a status that says why (here 431, header lines over
     * 16 KiB; it was a bare 400 with Netty's codec) and its connection closed (not left hanging).
     */
    @Test
    void oversizedHeaders_is431NamingTheLimit_andTheConnectionCloses() throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", sidecar.address().getPort())) {
            s.setSoTimeout(10_000);
            String header = "GET /v1/sessions/x?sections=a HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "y".repeat(20_000) + "\r\n\r\n";
            s.getOutputStream().write(header.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 431"), answer);
            assertTrue(answer.contains("16384 bytes"), answer);
            assertTrue(answer.contains("connection: close"), answer);
        }
    }

    static String get(String id, String sections) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=" + sections)).GET());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    static void assertError(int http, String code, String contains, HttpResponse<String> r) {
        assertEquals(http, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"error\":\"" + code + "\""), r.body());
        if (contains != null) {
            assertTrue(r.body().toLowerCase(java.util.Locale.ROOT).contains(contains.toLowerCase(java.util.Locale.ROOT)), r.body());
        }
    }

    static io.netty.channel.EventLoopGroup group;

    static synchronized io.netty.channel.EventLoopGroup sidecarGroup() {
        if (group == null) {
            group = new io.netty.channel.MultiThreadIoEventLoopGroup(1, io.netty.channel.nio.NioIoHandler.newFactory());
        }
        return group;
    }
}
