package io.sessionmesh.registry;

import io.sessionmesh.registry.RegistryFixtures.FakeStore;
import io.sessionmesh.testing.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sessionmesh.registry.LifecycleEvent.Kind.CREATED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.DELETED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.LOGGED_OUT;
import static io.sessionmesh.registry.RegistryFixtures.awaitWritten;
import static io.sessionmesh.registry.RegistryFixtures.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin endpoint's questions, against rows a writer wrote. */
class RegistryQueriesIT {
    private static String url;
    private static RegistryQueries queries;

    private static LifecycleEvent session(String id, String principal, String host, long createdAt) {
        return new LifecycleEvent(CREATED, id, 1, principal, host, "master-a", createdAt, createdAt);
    }

    @BeforeAll
    static void writeSessions() {
        url = PostgresServer.freshDatabase("registry_queries");
        FakeStore store = new FakeStore();
        long t = System.currentTimeMillis();
        List<LifecycleEvent> events = List.of(
                session("a1", "alice", "h1", t - 3_000), session("a2", "alice", "h2", t - 1_000),
                session("a3", "alice", "h1", t - 2_000), session("b1", "bob", "h1", t),
                session("b2", "bob", "h2", t), session("n1", null, "h3", t), session("gone", "alice", "h1", t),
                new LifecycleEvent(LOGGED_OUT, "gone", 2, "alice", "h1", "master-a", t, t + 5),
                session("gone2", "carol", "h1", t),
                new LifecycleEvent(DELETED, "gone2", 2, "carol", "h1", "master-a", t, t + 5));
        try (RegistryWriter writer = new RegistryWriter(config(url), "master-a", store)) {
            writer.start();
            events.forEach(e -> writer.record(store.apply(e)));
            awaitWritten(writer, events.size());
        }
        queries = new RegistryQueries(config(url));
    }

    @AfterAll
    static void tearDown() {
        if (queries != null) {
            queries.close();
        }
        PostgresServer.dropDatabase(url);
    }

    @Test
    void countActive_onlyActiveRows() {
        assertEquals(6, queries.countActive());
    }

    @Test
    void countActiveByHost_largestFirst_limited() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("h1", 3L);
        expected.put("h2", 2L);
        assertEquals(expected, queries.countActiveByHost(2));
        assertEquals(3, queries.countActiveByHost(10).size());
    }

    @Test
    void countActiveByPrincipal_largestFirst_withoutNone() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("alice", 3L);
        expected.put("bob", 2L);
        assertEquals(expected, queries.countActiveByPrincipal(10));
        assertEquals(List.of("alice"), List.copyOf(queries.countActiveByPrincipal(1).keySet()));
    }

    @Test
    void sessionsOf_activeOnly_newestFirst() {
        assertEquals(List.of(RegistryFixtures.key("a2"), RegistryFixtures.key("a3"), RegistryFixtures.key("a1")),
                queries.sessionsOf("alice", 10).stream().map(SessionRow::sessionKey).toList());
        assertEquals(List.of(RegistryFixtures.key("a2")),
                queries.sessionsOf("alice", 1).stream().map(SessionRow::sessionKey).toList());
        assertTrue(queries.sessionsOf("nobody", 10).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> queries.sessionsOf("alice", 0));
    }

    @Test
    void lookup_anyState_orEmpty() {
        SessionRow gone = queries.lookup("gone").orElseThrow();
        assertEquals("logged_out", gone.state());
        assertEquals(2, gone.version());
        assertEquals("alice", gone.principal());
        Map<String, Object> map = gone.toMap();
        assertEquals(RegistryFixtures.key("gone"), map.get("session_key"), "keyed by the id's hash, never the id");
        assertEquals(Instant.parse((String) map.get("ended_at")), gone.endedAt());
        SessionRow active = queries.lookup("b1").orElseThrow();
        assertNull(active.endedAt());
        assertNull(active.toMap().get("ended_at"));
        assertTrue(queries.lookup("missing").isEmpty());
    }

    @Test
    void queries_databaseUnreachable_registryUnavailableNamingIt() {
        RegistryConfig nowhere = new RegistryConfig("jdbc:postgresql://127.0.0.1:1/sm?password=hunter2", "postgres",
                "secret", 1, 1, 1, Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofMillis(500), RegistryFixtures.ID_KEY);
        try (RegistryQueries q = new RegistryQueries(nowhere)) {
            RegistryUnavailableException e = assertThrows(RegistryUnavailableException.class, q::countActive);
            assertTrue(e.getMessage().contains("127.0.0.1:1/sm"), e.getMessage());
            assertTrue(!e.getMessage().contains("hunter2") && !e.getMessage().contains("secret"), e.getMessage());
        }
    }
}
