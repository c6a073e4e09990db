package io.sessionmesh.integration.consistency;

import io.sessionmesh.integration.registry.RegistryRows;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry with a replicated master group: only the leader writes it; the leader is killed, and the new leader
 * resumes: the rows converge to what the group holds, row by row, each at its session's version, with nothing lost and
 * no row of a session that ended left active.
 */
class GroupRegistryIT {
    static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");

    /** The row a session should have: state, principal, version. */
    record Expected(String state, String principal, long version) {
    }

    @Test
    void aNewLeaderResumesTheRegistryWithoutLosingOrLeavingAnything(@TempDir Path raft) throws Exception {
        String db = PostgresServer.freshDatabase("sm_group_it");
        try (GroupCluster cluster = new GroupCluster(2, Duration.ofSeconds(1), raft,
                List.of("--registry-url", db, "--registry-flush", "5ms", "--config", RegistryRows.settingsFile().toString()))) {
            Map<String, Expected> expected = new LinkedHashMap<>();
            for (int i = 0; i < 20; i++) {
                String principal = "user" + (i % 4);
                expected.put(create(cluster.api(i % 2), principal), new Expected("active", principal, 1));
            }
            Await.until("20 rows, by the leader alone", Duration.ofSeconds(30), () -> RegistryRows.all(db).size() == 20);
            int leader = cluster.leader();
            for (int r = 0; r < GroupCluster.REPLICAS; r++) {
                long written = cluster.statOf(r, "registry_written");
                assertTrue(r == leader ? written >= 20 : written == 0, "replica " + r + " (leader " + leader + ") wrote " + written);
            }

            cluster.kill(leader);
            int next = cluster.leader();
            assertTrue(next != leader);
            for (int s = 0; s < 2; s++) {
                cluster.awaitLease(s);
            }
            // after the failover: more sessions, principal changes, deletes, and a logout everywhere
            for (int i = 0; i < 10; i++) {
                String principal = "user" + (i % 4);
                expected.put(create(cluster.api(i % 2), principal), new Expected("active", principal, 1));
            }
            List<String> ids = List.copyOf(expected.keySet());
            for (int i = 0; i < 5; i++) {
                String id = ids.get(i);
                assertEquals(204, call(cluster.api(1), "PUT", "/v1/sessions/" + id + "/principal", "{\"principal\":\"user9\"}").statusCode());
                expected.put(id, new Expected("active", "user9", 2));
            }
            for (int i = 5; i < 10; i++) {
                String id = ids.get(i);
                assertEquals(204, call(cluster.api(0), "DELETE", "/v1/sessions/" + id, null).statusCode());
                expected.put(id, new Expected("deleted", expected.get(id).principal(), 2));
            }
            HttpResponse<String> out = call(URI.create("http://127.0.0.1:" + cluster.adminPort(0)), "POST",
                    "/admin/principals/user1/logout", null);
            assertEquals(200, out.statusCode(), out.body());
            int loggedOut = 0;
            for (Map.Entry<String, Expected> e : expected.entrySet()) {
                Expected x = e.getValue();
                if (x.state().equals("active") && x.principal().equals("user1")) {
                    e.setValue(new Expected("logged_out", "user1", x.version() + 1));
                    loggedOut++;
                }
            }
            assertTrue(out.body().contains("\"deleted\":" + loggedOut), out.body() + " expected " + loggedOut);

            Await.until("the registry to converge to the group", Duration.ofSeconds(30), () -> {
                Map<String, RegistryRows.Row> rows = RegistryRows.all(db);
                return expected.entrySet().stream().allMatch(e -> {
                    RegistryRows.Row r = rows.get(RegistryRows.key(e.getKey()));
                    return r != null && r.state().equals(e.getValue().state()) && r.version() == e.getValue().version();
                });
            });
            Map<String, RegistryRows.Row> rows = RegistryRows.all(db);
            assertEquals(expected.size(), rows.size(), "one row per session, none else: " + rows.keySet());
            for (Map.Entry<String, Expected> e : expected.entrySet()) {
                RegistryRows.Row r = rows.get(RegistryRows.key(e.getKey()));
                Expected x = e.getValue();
                assertEquals(new RegistryRows.Row(RegistryRows.key(e.getKey()), x.version(), x.state(), x.principal(), "127.0.0.1", "group:main"), r);
            }
            assertTrue(cluster.statOf(next, "registry_resyncs") >= 1, "the new leader re-synced when it started to lead");
        } finally {
            PostgresServer.dropDatabase(db);
        }
    }

    static String create(URI api, String principal) throws Exception {
        HttpResponse<String> r = call(api, "POST", "/v1/sessions", "{\"principal\":\"" + principal + "\"}");
        assertEquals(201, r.statusCode(), r.body());
        Matcher m = ID.matcher(r.body());
        assertTrue(m.find(), r.body());
        return m.group(1);
    }

    static HttpResponse<String> call(URI base, String method, String path, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        return ConsistencyCluster.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
