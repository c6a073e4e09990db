package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.ErrorMessage;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SessionCreated;
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
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CREATE with the application's id and RENAME through real HTTP: two masters on a hash ring (so a new id may belong to
 * the other one) and two sidecars on loopback ports, in this JVM, as SidecarPrincipalIT runs them. Sidecar {@code one}
 * makes the calls; {@code two} holds cached copies that a rename must take away.
 */
class SidecarRenameIT {
    static final List<MasterServer> masters = new ArrayList<>();
    static SidecarServer one;
    static SidecarServer two;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final BinaryTransportCodec codec = new BinaryTransportCodec();
    static final String BINARY = "application/x-sessionmesh";
    static final String JSON = "application/json";
    static final String CART = "{\"sections\": {\"cart\": {\"set\": {\"n\": \"Kg==\"}}}}";

    @BeforeAll
    static void start() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            MasterServer m = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
            masters.add(m);
            addresses.add("127.0.0.1:" + m.address().getPort());
        }
        for (int i = 0; i < 2; i++) {
            SidecarServer s = SidecarServer.start(SidecarConfig.of(Map.of("masters", String.join(",", addresses), "port", "0",
                    "admin-port", "0", "vnodes", "256")));
            TestHttp.awaitHealthy(s);
            if (i == 0) {
                one = s;
            } else {
                two = s;
            }
        }
    }

    @AfterAll
    static void stop() {
        one.close();
        two.close();
        masters.forEach(MasterServer::close);
    }

    static HttpRequest.Builder api(SidecarServer sidecar, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path))
                .timeout(Duration.ofSeconds(10));
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> create(String json) throws Exception {
        return send(api(one, "/v1/sessions").header("Content-Type", JSON).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    static HttpResponse<String> rename(String id, String json) throws Exception {
        return send(api(one, "/v1/sessions/" + id + "/rename").header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    static HttpResponse<String> readCart(SidecarServer sidecar, String id) throws Exception {
        return send(api(sidecar, "/v1/sessions/" + id + "?sections=cart").GET());
    }

    static String createdWith(String id) throws Exception {
        HttpResponse<String> r = create("{\"id\":\"" + id + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        return id;
    }

    static MasterPool owner(String id) {
        return one.service().router().forSession(id);
    }

    /** A fresh UUID whose master is (or, with {@code same} false, is not) {@code id}'s. */
    static String idOn(String id, boolean same) {
        while (true) {
            String candidate = UUID.randomUUID().toString();
            if ((owner(candidate) == owner(id)) == same) {
                return candidate;
            }
        }
    }

    @Test
    void json_createWithId_is201WithThatId_thenTheSameIdIs409() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = create("{\"id\":\"" + id + "\",\"idleTimeoutSeconds\":600,\"principal\":\"alice\"}");
        assertEquals(201, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"id\":\"" + id + "\",\"idleTimeoutSeconds\":600,"), r.body());
        int home = owner(id).name().equals(masterName(0)) ? 0 : 1;
        assertEquals("alice", masters.get(home).store().describe(id).principal(), "on the master its id places it on");
        assertEquals(null, masters.get(1 - home).store().describe(id));
        HttpResponse<String> again = create("{\"id\":\"" + id + "\"}");
        assertEquals(409, again.statusCode(), again.body());
        assertTrue(again.body().startsWith("{\"error\":\"CONFLICT\""), again.body());
        assertFalse(again.body().contains(id), again.body());
    }

    @Test
    void createWithABadId_is400NamingTheRule() throws Exception {
        HttpResponse<String> shortId = create("{\"id\":\"abc123\"}");
        assertEquals(400, shortId.statusCode(), shortId.body());
        assertTrue(shortId.body().contains("at least 16"), shortId.body());
        assertFalse(shortId.body().contains("abc123"), shortId.body());
        HttpResponse<String> badChar = create("{\"id\":\"0b7e1f4c.58d2.4a1e.9c3b\"}");
        assertEquals(400, badChar.statusCode(), badChar.body());
    }

    @Test
    void binary_createWithIdAndRename() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<byte[]> c = http.send(api(one, "/v1/sessions").header("Content-Type", BINARY).header("Accept", BINARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(codec.encode(new CreateRequest(0, null, id)))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(201, c.statusCode());
        assertEquals(id, codec.decode(c.body(), SessionCreated.class).sessionId());
        String to = idOn(id, true);
        HttpResponse<byte[]> r = http.send(api(one, "/v1/sessions/" + id + "/rename").header("Content-Type", BINARY)
                .header("Accept", BINARY).POST(HttpRequest.BodyPublishers.ofByteArray(codec.encode(new RenameRequest(to, 90))))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        SessionCreated renamed = codec.decode(r.body(), SessionCreated.class);
        assertEquals(to, renamed.sessionId());
        assertEquals(90, renamed.idleTimeoutSeconds());
    }

    @Test
    void rename_movesTheSession_theOldIdIs404_andNoSidecarServesItsCachedCopy() throws Exception {
        String id = createdWith(UUID.randomUUID().toString());
        assertEquals(200, send(api(one, "/v1/sessions/" + id).header("Content-Type", JSON)
                .method("PATCH", HttpRequest.BodyPublishers.ofString(CART))).statusCode());
        assertEquals(200, readCart(one, id).statusCode());
        assertEquals(200, readCart(two, id).statusCode());
        assertTrue(two.service().cache().contains(id), "sidecar two holds a copy of the old id");
        String to = idOn(id, true);

        HttpResponse<String> r = rename(id, "{\"newId\":\"" + to + "\",\"idleTimeoutSeconds\":600}");

        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"id\":\"" + to + "\",\"idleTimeoutSeconds\":600,"), r.body());
        assertFalse(one.service().cache().contains(id), "the renaming sidecar dropped the old id");
        assertFalse(two.service().cache().contains(id), "the master told sidecar two before it answered");
        assertEquals(404, readCart(one, id).statusCode());
        assertEquals(404, readCart(two, id).statusCode());
        HttpResponse<String> moved = readCart(two, to);
        assertEquals(200, moved.statusCode(), moved.body());
        assertEquals("{\"id\":\"" + to + "\",\"sections\":{\"cart\":{\"version\":1,\"attributes\":{\"n\":\"Kg==\"}}}}", moved.body());
        HttpResponse<String> second = rename(id, "{\"newId\":\"" + idOn(id, true) + "\"}");
        assertEquals(404, second.statusCode(), "the first rename won: " + second.body());
    }

    @Test
    void renameOntoALiveSession_is409_andNothingMoves() throws Exception {
        String id = createdWith(UUID.randomUUID().toString());
        String taken = createdWith(idOn(id, true));
        HttpResponse<String> r = rename(id, "{\"newId\":\"" + taken + "\"}");
        assertEquals(409, r.statusCode(), r.body());
        assertFalse(r.body().contains(RenameRequest.NEW_ID_ON_ANOTHER_MASTER), r.body());
        assertFalse(r.body().contains(taken), r.body());
        assertEquals(200, readCart(one, id).statusCode());
    }

    @Test
    void renameToAnIdOfAnotherMaster_is409SayingSo_andTheSessionStays() throws Exception {
        String id = createdWith(UUID.randomUUID().toString());
        String elsewhere = idOn(id, false);
        HttpResponse<String> r = rename(id, "{\"newId\":\"" + elsewhere + "\"}");
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(r.body().contains(RenameRequest.NEW_ID_ON_ANOTHER_MASTER), r.body());
        assertEquals(200, readCart(one, id).statusCode());
        assertEquals(404, readCart(one, elsewhere).statusCode());
        String same = idOn(id, true);
        assertEquals(200, rename(id, "{\"newId\":\"" + same + "\"}").statusCode(), "an id on the same master works");
        assertEquals(200, readCart(one, same).statusCode());
    }

    @Test
    void timeoutOnly_keepsTheId() throws Exception {
        String id = createdWith(UUID.randomUUID().toString());
        HttpResponse<String> r = rename(id, "{\"idleTimeoutSeconds\":42}");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().startsWith("{\"id\":\"" + id + "\",\"idleTimeoutSeconds\":42,"), r.body());
        assertEquals(200, readCart(one, id).statusCode());
    }

    @Test
    void badRenames_are400Or404Or405() throws Exception {
        String id = createdWith(UUID.randomUUID().toString());
        assertEquals(400, rename(id, "{}").statusCode());
        assertEquals(400, rename(id, "{\"newId\":\"short\"}").statusCode());
        assertEquals(400, send(api(one, "/v1/sessions/" + id + "/rename").POST(HttpRequest.BodyPublishers.noBody())).statusCode());
        HttpResponse<String> unknown = rename(UUID.randomUUID().toString(), "{\"idleTimeoutSeconds\":60}");
        assertEquals(404, unknown.statusCode(), unknown.body());
        HttpResponse<String> get = send(api(one, "/v1/sessions/" + id + "/rename").GET());
        assertEquals(405, get.statusCode());
        assertEquals("POST", get.headers().firstValue("Allow").orElseThrow());
        HttpResponse<byte[]> bin = http.send(api(one, "/v1/sessions/" + UUID.randomUUID() + "/rename")
                .header("Content-Type", BINARY).header("Accept", BINARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(codec.encode(new RenameRequest(null, 60)))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(Status.NOT_FOUND, codec.decode(bin.body(), ErrorMessage.class).status());
    }

    /** The OpenAPI document kept in the repo has the route and CREATE_REQUEST's id. */
    @Test
    void openApiDocument_describesTheRenameRoute() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("openapi.yaml"));
        assertTrue(doc.contains("\n  /v1/sessions/{id}/rename:\n"), "openapi.yaml lacks the route");
        for (String s : new String[] {"operationId: renameSession", "\n    RenameRequest:\n"}) {
            assertTrue(doc.contains(s), "openapi.yaml lacks " + s);
        }
    }

    private static String masterName(int i) {
        return "127.0.0.1:" + masters.get(i).address().getPort();
    }
}
