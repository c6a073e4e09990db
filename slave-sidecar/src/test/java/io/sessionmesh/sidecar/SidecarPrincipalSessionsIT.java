package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.PrincipalSessions;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /admin/principals/{principal}/live-sessions (the admin port's; it was the REST API's
 * {@code /v1/principals/{principal}/sessions}, which any local process could call) through real HTTP: two masters on a
 * hash ring and a sidecar on loopback ports,
 * in this JVM, as SidecarPrincipalIT runs them. The list holds the principal's sessions on both masters, right after
 * each change (create, delete, rename, a new principal), in both content types; a master that does not answer makes
 * it incomplete, none answering makes it 503.
 */
class SidecarPrincipalSessionsIT {
    static final List<MasterServer> masters = new ArrayList<>();
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final BinaryTransportCodec codec = new BinaryTransportCodec();
    static final JsonTransportCodec json = new JsonTransportCodec();
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
        sidecar = startSidecar(addresses);
    }

    static SidecarServer startSidecar(List<String> addresses) throws Exception {
        SidecarServer s = SidecarServer.start(SidecarConfig.of(Map.of("masters", String.join(",", addresses), "port", "0",
                "admin-port", "0", "vnodes", "256", "master-timeout", "3s")));
        TestHttp.awaitHealthy(s);
        return s;
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        masters.forEach(MasterServer::close);
    }

    static HttpRequest.Builder api(SidecarServer s, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + path)).timeout(Duration.ofSeconds(10));
    }

    /** A principal's live sessions on the admin port: {@code GET /admin/principals/{segment}/live-sessions}. */
    static HttpRequest.Builder live(SidecarServer s, String segment) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.adminAddress().getPort() + "/admin/principals/"
                + segment + "/live-sessions")).timeout(Duration.ofSeconds(10));
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The principal percent-encoded for a path segment: a space is %20, a plus %2B. */
    static String segment(String principal) {
        return URLEncoder.encode(principal, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static HttpResponse<String> list(SidecarServer s, String principal) throws Exception {
        return send(live(s, segment(principal)).GET());
    }

    static PrincipalSessions listed(String principal) throws Exception {
        HttpResponse<String> r = list(sidecar, principal);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(JSON, r.headers().firstValue("Content-Type").orElseThrow());
        return json.decode(r.body().getBytes(StandardCharsets.UTF_8), PrincipalSessions.class);
    }

    static Set<String> ids(String principal) throws Exception {
        PrincipalSessions p = listed(principal);
        assertEquals(principal, p.principal());
        assertTrue(p.complete(), "both masters answered in full");
        return Set.copyOf(p.sessionIds());
    }

    static String create(SidecarServer s, String body) throws Exception {
        HttpResponse<String> r = send(api(s, "/v1/sessions").header("Content-Type", JSON).POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(201, r.statusCode(), r.body());
        Matcher m = ID.matcher(r.body());
        assertTrue(m.find(), r.body());
        return m.group(1);
    }

    static String principal(String name) {
        return name + "-" + UUID.randomUUID();
    }

    static int home(String id) {
        MasterPool owner = sidecar.service().router().forSession(id);
        return owner.name().equals("127.0.0.1:" + masters.get(0).address().getPort()) ? 0 : 1;
    }

    @Test
    void list_holdsThePrincipalsSessionsOnEveryMasterAndNoOther() throws Exception {
        String alice = principal("alice");
        Set<String> created = new HashSet<>();
        Set<Integer> homes = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            String id = create(sidecar, "{\"principal\":\"" + alice + "\"}");
            created.add(id);
            homes.add(home(id));
        }
        create(sidecar, "{\"principal\":\"" + principal("bob") + "\"}");
        create(sidecar, "{}");
        assertEquals(Set.of(0, 1), homes, "sessions on both masters");
        assertEquals(created, ids(alice));
        assertEquals(Set.of(), ids(principal("nobody")));
    }

    @Test
    void list_rightAfterEachChange_followsIt() throws Exception {
        String alice = principal("alice");
        String bob = principal("bob");
        String a = create(sidecar, "{\"principal\":\"" + alice + "\"}");
        assertEquals(Set.of(a), ids(alice), "right after the create");

        String requested = UUID.randomUUID().toString();
        assertEquals(requested, create(sidecar, "{\"id\":\"" + requested + "\",\"principal\":\"" + alice + "\"}"));
        assertEquals(Set.of(a, requested), ids(alice), "a create with the application's id");

        String renamed;
        do {
            renamed = UUID.randomUUID().toString();
        } while (home(renamed) != home(requested)); // a rename stays on its master
        HttpResponse<String> r = send(api(sidecar, "/v1/sessions/" + requested + "/rename").header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofString("{\"newId\":\"" + renamed + "\"}")));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(Set.of(a, renamed), ids(alice), "after a rename: the new id, not the old");

        r = send(api(sidecar, "/v1/sessions/" + a + "/principal").header("Content-Type", JSON)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"principal\":\"" + bob + "\"}")));
        assertEquals(204, r.statusCode(), r.body());
        assertEquals(Set.of(renamed), ids(alice), "after the principal changed: not under the old one");
        assertEquals(Set.of(a), ids(bob), "under the new one");

        assertEquals(204, send(api(sidecar, "/v1/sessions/" + renamed).DELETE()).statusCode());
        assertEquals(Set.of(), ids(alice), "after the delete");
    }

    @Test
    void list_leavesOutExpiredSessions() throws Exception {
        String alice = principal("alice");
        String shortLived = create(sidecar, "{\"idleTimeoutSeconds\":1,\"principal\":\"" + alice + "\"}");
        String kept = create(sidecar, "{\"principal\":\"" + alice + "\"}");
        assertEquals(Set.of(shortLived, kept), ids(alice));
        io.sessionmesh.testing.Await.until("the one-second session expired", Duration.ofSeconds(10),
                () -> masters.get(home(shortLived)).store().describe(shortLived) == null);
        assertEquals(Set.of(kept), ids(alice));
    }

    @Test
    void list_binary_isAPrincipalSessionsMessage() throws Exception {
        String principal = principal("zoë+tag@example.com 1");
        String id = create(sidecar, "{\"principal\":\"" + principal + "\"}");
        HttpResponse<byte[]> r = http.send(live(sidecar, segment(principal))
                .header("Accept", BINARY).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(BINARY, r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(new PrincipalSessions(principal, List.of(id), true), codec.decode(r.body(), PrincipalSessions.class));
    }

    @Test
    void list_usesNoSessionAndNoCache() throws Exception {
        String alice = principal("alice");
        String id = create(sidecar, "{\"idleTimeoutSeconds\":600,\"principal\":\"" + alice + "\"}");
        long lastUse = masters.get(home(id)).store().describe(id).lastAccess();
        long reads = masters.stream().mapToLong(m -> m.stats().get("reads")).sum();
        long lists = masters.stream().mapToLong(m -> m.stats().get("principal_lists")).sum();
        assertEquals(Set.of(id), ids(alice));
        assertEquals(Set.of(id), ids(alice));
        assertEquals(lastUse, masters.get(home(id)).store().describe(id).lastAccess(), "listing is not a use");
        assertEquals(reads, masters.stream().mapToLong(m -> m.stats().get("reads")).sum(), "no READ");
        assertEquals(lists + 4, masters.stream().mapToLong(m -> m.stats().get("principal_lists")).sum(),
                "each listing asked both masters: nothing was answered from a cache");
        assertFalse(sidecar.service().cache().contains(id), "nothing cached");
    }

    @Test
    void list_badPrincipal_400_tooLong_413_otherMethods_405() throws Exception {
        HttpResponse<String> control = send(live(sidecar, "a%01b").GET());
        assertEquals(400, control.statusCode(), control.body());
        assertTrue(control.body().startsWith("{\"error\":\"BAD_REQUEST\""), control.body());
        String tooLong = "x".repeat(257);
        HttpResponse<String> big = send(live(sidecar, tooLong).GET());
        assertEquals(413, big.statusCode(), big.body());
        assertFalse(big.body().contains(tooLong), big.body());
        HttpResponse<String> post = send(live(sidecar, "alice").POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, post.statusCode(), post.body());
        assertEquals("GET", post.headers().firstValue("Allow").orElseThrow());
    }

    @Test
    void list_oneMasterDown_listsTheOthersAsIncomplete_noneUp_503() throws Exception {
        List<MasterServer> own = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            MasterServer m = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
            own.add(m);
            addresses.add("127.0.0.1:" + m.address().getPort());
        }
        SidecarServer s = startSidecar(addresses);
        try {
            String alice = principal("alice");
            Map<Integer, Set<String>> byMaster = Map.of(0, new HashSet<>(), 1, new HashSet<>());
            while (byMaster.get(0).isEmpty() || byMaster.get(1).isEmpty()) {
                String id = create(s, "{\"principal\":\"" + alice + "\"}");
                String owner = s.service().router().forSession(id).name();
                byMaster.get(owner.equals(addresses.get(0)) ? 0 : 1).add(id);
            }
            own.get(1).close();
            HttpResponse<String> r = list(s, alice);
            assertEquals(200, r.statusCode(), r.body());
            PrincipalSessions partial = json.decode(r.body().getBytes(StandardCharsets.UTF_8), PrincipalSessions.class);
            assertFalse(partial.complete(), "a master did not answer");
            assertEquals(byMaster.get(0), Set.copyOf(partial.sessionIds()));

            own.get(0).close();
            HttpResponse<String> none = list(s, alice);
            assertEquals(503, none.statusCode(), none.body());
            assertTrue(none.body().startsWith("{\"error\":\"UNAVAILABLE\""), none.body());
        } finally {
            s.close();
            own.forEach(MasterServer::close);
        }
    }

    /** The OpenAPI document kept in the repo has the route (on the admin port, not the API's) and its schema. */
    @Test
    void openApiDocument_describesTheRoute() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("openapi.yaml"));
        assertTrue(doc.contains("\n  /admin/principals/{principal}/live-sessions:\n"), "openapi.yaml lacks the route");
        assertFalse(doc.contains("\n  /v1/principals/{principal}/sessions:\n"), "openapi.yaml still has the API's route");
        for (String s : new String[] {"operationId: listPrincipalSessions", "\n    PrincipalSessions:\n"}) {
            assertTrue(doc.contains(s), "openapi.yaml lacks " + s);
        }
    }
}
