package io.sessionmesh.registry;

import io.sessionmesh.registry.RegistryFixtures.FakeStore;
import io.sessionmesh.testing.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.sessionmesh.registry.LifecycleEvent.Kind.CREATED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.DELETED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.PRINCIPAL_CHANGED;
import static io.sessionmesh.registry.RegistryFixtures.awaitWritten;
import static io.sessionmesh.registry.RegistryFixtures.config;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry holds no session id: its readers, its DBAs and its backups would otherwise hold every live session (an
 * id is a bearer secret). Rows are keyed by a keyed hash of the id; the admin lookup by id still finds its row. Every
 * table of the database is read back whole, as text, and searched for the ids. The machine's PostgreSQL.
 */
class RegistryKeyedIdsIT {
    static final List<String> IDS = List.of("KeyedIdsSecretSession000001", "KeyedIdsSecretSession000002",
            "KeyedIdsSecretSession000003");

    private String url;

    @BeforeEach
    void setUp() {
        url = PostgresServer.freshDatabase("registry_keyed");
    }

    @AfterEach
    void tearDown() {
        PostgresServer.dropDatabase(url);
    }

    @Test
    void noSessionIdIsStoredAnywhere_andTheLookupByIdStillFindsItsRow() throws Exception {
        FakeStore store = new FakeStore();
        long t = System.currentTimeMillis();
        try (RegistryWriter writer = new RegistryWriter(config(url), "master-a", store)) {
            writer.start();
            writer.record(store.apply(new LifecycleEvent(CREATED, IDS.get(0), 1, "alice", "h1", "master-a", t, t)));
            writer.record(store.apply(new LifecycleEvent(CREATED, IDS.get(1), 1, null, "h1", "master-a", t, t)));
            writer.record(store.apply(new LifecycleEvent(PRINCIPAL_CHANGED, IDS.get(1), 2, "bob", "h1", "master-a", t, t + 1)));
            writer.record(store.apply(new LifecycleEvent(CREATED, IDS.get(2), 1, "alice", "h2", "master-a", t, t)));
            writer.record(store.apply(new LifecycleEvent(DELETED, IDS.get(2), 2, "alice", "h2", "master-a", t, t + 1)));
            awaitWritten(writer, 5);
            writer.requestResync(); // a re-sync writes rows of its own (COPY into a temporary table, then upserts)
            io.sessionmesh.testing.Await.until("a re-sync", RegistryFixtures.WAIT, () -> writer.status().resyncs() >= 2);
        }
        String everything = dumpEveryTable();
        assertTrue(everything.contains("alice"), "the dump reads the rows: " + everything);
        for (String id : IDS) {
            assertFalse(everything.contains(id), "a session id is stored in the registry: " + id + " in " + everything);
        }
        try (RegistryQueries queries = new RegistryQueries(config(url))) {
            SessionRow row = queries.lookup(IDS.get(1)).orElseThrow(() -> new AssertionError("the lookup by id failed"));
            assertEquals("bob", row.principal());
            assertEquals("deleted", queries.lookup(IDS.get(2)).orElseThrow().state());
            assertEquals(2, queries.sessionsOf("alice", 10).size() + queries.sessionsOf("bob", 10).size());
            assertTrue(queries.lookup("KeyedIdsNeverWritten00000").isEmpty());
        }
    }

    /** Every row of every table in the public schema, as text. */
    private String dumpEveryTable() throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("SELECT t::text FROM \"" + table + "\" t")) {
                    while (rs.next()) {
                        out.append(table).append(' ').append(rs.getString(1)).append('\n');
                    }
                }
            }
        }
        return out.toString();
    }
}
