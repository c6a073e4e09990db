package io.sessionmesh.integration.registry;

import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.PostgresServer;
import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry on the real PostgreSQL with two master processes and three sidecar processes: lifecycle rows appear
 * as sessions are created, change principal and are deleted; "log out everywhere" through one sidecar's admin
 * endpoint deletes every session of a principal on both masters, and a read through any sidecar right after is 404
 * (no cached copy survives); the admin endpoint counts, lists and looks up from the registry.
 */
class LogoutEverywhereIT {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");

    static String db;
    static final List<ServerProcess> masters = new ArrayList<>();
    static final List<ServerProcess> sidecars = new ArrayList<>();

    static Path jar(String property, String fromRoot) {
        return ServerProcess.jar(property, "../" + fromRoot);
    }

    @BeforeAll
    static void start() throws Exception {
        db = PostgresServer.freshDatabase("sm_logout_it");
        for (int i = 0; i < 2; i++) {
            ServerProcess m = ServerProcess.start(ServerProcess.command(jar("master.jar", "master-store/target/sessionmesh-master.jar"),
                    "--port", "0", "--io-threads", "1", "--registry-url", db, "--registry-flush", "5ms",
                    "--config", RegistryRows.settingsFile().toString()));
            masters.add(m);
        }
        String list = "127.0.0.1:" + masters.get(0).port() + ",127.0.0.1:" + masters.get(1).port();
        for (int i = 0; i < 3; i++) {
            ServerProcess s = ServerProcess.start(ServerProcess.command(jar("sidecar.jar", "slave-sidecar/target/sessionmesh-sidecar.jar"),
                    "--masters", list, "--port", "0", "--admin-port", "0", "--io-threads", "1", "--vnodes", "256",
                    "--registry-url", db, "--config", RegistryRows.settingsFile().toString()));
            sidecars.add(s);
        }
        for (ServerProcess s : sidecars) {
            s.awaitHealthy("\"valid\":true");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (ServerProcess s : sidecars) {
            s.close();
        }
        for (ServerProcess m : masters) {
            m.close();
        }
        if (db != null) {
            PostgresServer.dropDatabase(db);
        }
    }

    static HttpResponse<String> call(String method, URI uri, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static URI api(int sidecar, String path) {
        return URI.create("http://127.0.0.1:" + sidecars.get(sidecar).port() + path);
    }

    static URI admin(int sidecar, String path) {
        return URI.create("http://127.0.0.1:" + sidecars.get(sidecar).port("admin") + path);
    }

    static String create(int sidecar, String principal) throws Exception {
        HttpResponse<String> r = call("POST", api(sidecar, "/v1/sessions"),
                principal == null ? null : "{\"principal\":\"" + principal + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        Matcher m = ID.matcher(r.body());
        assertTrue(m.find(), r.body());
        String id = m.group(1);
        HttpResponse<String> w = call("PATCH", api(sidecar, "/v1/sessions/" + id),
                "{\"sections\":{\"cart\":{\"set\":{\"n\":\"Kg==\"}}}}");
        assertEquals(200, w.statusCode(), w.body());
        return id;
    }

    static int read(int sidecar, String id) throws Exception {
        return call("GET", api(sidecar, "/v1/sessions/" + id + "?sections=cart"), null).statusCode();
    }

    @Test
    void logoutEverywhereLeavesNoCopyAndTheRegistryFollowsEveryStep() throws Exception {
        List<String> alice = new ArrayList<>();
        List<String> bob = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            alice.add(create(i % 3, "alice"));
        }
        for (int i = 0; i < 3; i++) {
            bob.add(create(i % 3, "bob"));
        }
        String anonymous = create(0, null);
        String deleted = create(1, null);
        List<String> all = new ArrayList<>(alice);
        all.addAll(bob);
        all.add(anonymous);
        // every sidecar reads every session twice: the second read is served from its cache
        for (int s = 0; s < 3; s++) {
            for (String id : all) {
                assertEquals(200, read(s, id));
                assertEquals(200, read(s, id));
                assertEquals(200, call("GET", admin(s, "/admin/sessions/" + id), null).statusCode(),
                        "sidecar " + s + " caches " + id);
            }
        }
        // the rows: created, with principal, host and owner; both masters own some
        Await.until("11 rows in the registry", Duration.ofSeconds(20), () -> RegistryRows.all(db).size() == 11);
        Map<String, RegistryRows.Row> rows = RegistryRows.all(db);
        for (String id : alice) {
            String key = RegistryRows.key(id);
            assertEquals(new RegistryRows.Row(key, 1, "active", "alice", "127.0.0.1", rows.get(key).owner()), rows.get(key));
        }
        assertNull(rows.get(RegistryRows.key(anonymous)).principal());
        assertEquals(2, rows.values().stream().map(RegistryRows.Row::owner).distinct().count(), "both masters record: " + rows);

        // a principal changed (bob's first session is alice's now), a session deleted
        String moved = bob.remove(0);
        assertEquals(204, call("PUT", api(2, "/v1/sessions/" + moved + "/principal"), "{\"principal\":\"alice\"}").statusCode());
        alice.add(moved);
        assertEquals(204, call("DELETE", api(1, "/v1/sessions/" + deleted), null).statusCode());
        Await.until("the principal change and the delete recorded", Duration.ofSeconds(20), () -> {
            Map<String, RegistryRows.Row> r = RegistryRows.all(db);
            RegistryRows.Row m = r.get(RegistryRows.key(moved));
            RegistryRows.Row d = r.get(RegistryRows.key(deleted));
            return "alice".equals(m.principal()) && m.version() == 2 && "deleted".equals(d.state()) && d.version() == 2;
        });

        // log alice out everywhere through sidecar 1
        HttpResponse<String> out = call("POST", admin(1, "/admin/principals/alice/logout"), null);
        assertEquals(200, out.statusCode(), out.body());
        assertTrue(out.body().contains("\"deleted\":7"), out.body());
        assertTrue(out.body().contains("\"complete\":true"), out.body());
        // right after: no sidecar serves any of alice's sessions, bob's are untouched
        for (int s = 0; s < 3; s++) {
            for (String id : alice) {
                assertEquals(404, read(s, id), "sidecar " + s + " still serves " + id + " after the logout");
            }
            for (String id : bob) {
                assertEquals(200, read(s, id));
            }
        }
        Await.until("the logout recorded", Duration.ofSeconds(20), () -> RegistryRows.all(db).values().stream()
                .filter(r -> alice.stream().map(RegistryRows::key).anyMatch(r.key()::equals))
                .allMatch(r -> r.state().equals("logged_out")));

        // the admin endpoint's questions, answered from the registry
        String count = call("GET", admin(0, "/admin/registry/count?by=principal"), null).body();
        assertTrue(count.contains("\"active\":3"), count);
        assertTrue(count.contains("\"bob\":2"), count);
        assertTrue(!count.contains("alice"), count);
        String byHost = call("GET", admin(0, "/admin/registry/count?by=host"), null).body();
        assertTrue(byHost.contains("\"127.0.0.1\":3"), byHost);
        String bobs = call("GET", admin(2, "/admin/principals/bob/sessions"), null).body();
        assertTrue(bobs.contains("\"count\":2") && bobs.contains(RegistryRows.key(bob.get(0)))
                && bobs.contains(RegistryRows.key(bob.get(1))), bobs);
        assertTrue(!bobs.contains(bob.get(0)) && !bobs.contains(bob.get(1)), "the registry lists no session id: " + bobs);
        String live = call("GET", admin(0, "/admin/registry/sessions/" + bob.get(0)), null).body();
        assertTrue(live.contains("\"active\":true") && live.contains("\"principal\":\"bob\"") && live.contains("\"state\":\"active\""), live);
        HttpResponse<String> gone = call("GET", admin(0, "/admin/registry/sessions/" + alice.get(0)), null);
        assertEquals(200, gone.statusCode(), "the registry still has the row of a session logged out");
        assertTrue(gone.body().contains("\"active\":false") && gone.body().contains("\"state\":\"logged_out\""), gone.body());
        assertEquals(404, call("GET", admin(0, "/admin/registry/sessions/NoSuchSessionAnywhere1"), null).statusCode());
        // bad input: a control character in the principal, an unknown count
        assertEquals(400, call("POST", admin(0, "/admin/principals/a%07b/logout"), null).statusCode());
        assertEquals(400, call("GET", admin(0, "/admin/registry/count?by=planet"), null).statusCode());
        String health = call("GET", admin(0, "/admin/registry/health"), null).body();
        assertTrue(health.contains("\"status\":\"UP\""), health);
        for (ServerProcess p : masters) {
            assertTrue(p.leaks().isEmpty(), p.leaks().toString());
        }
    }
}
