package io.sessionmesh.registry;

import io.sessionmesh.registry.RegistryFixtures.FakeStore;
import io.sessionmesh.registry.RegistryFixtures.Row;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.sessionmesh.registry.LifecycleEvent.Kind.CREATED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.DELETED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.EXPIRED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.PRINCIPAL_CHANGED;
import static io.sessionmesh.registry.RegistryFixtures.WAIT;
import static io.sessionmesh.registry.RegistryFixtures.awaitCaughtUp;
import static io.sessionmesh.registry.RegistryFixtures.awaitWritten;
import static io.sessionmesh.registry.RegistryFixtures.config;
import static io.sessionmesh.registry.RegistryFixtures.event;
import static io.sessionmesh.registry.RegistryFixtures.execute;
import static io.sessionmesh.registry.RegistryFixtures.key;
import static io.sessionmesh.registry.RegistryFixtures.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer while its database stops and starts again: a private PostgreSQL. */
class RegistryOutageIT {
    private static final String OWNER = "master-a";
    private static PostgresServer postgres;

    private final FakeStore store = new FakeStore();
    private RegistryWriter writer;

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        if (writer != null) {
            writer.close();
        }
        postgres.startAgain();
        execute(postgres.jdbcUrl(), "DROP TABLE IF EXISTS sm_session, sm_registry_history");
    }

    private void record(LifecycleEvent e) {
        writer.record(store.apply(e));
    }

    @Test
    void overflow_databaseDown_resyncMakesTableEqualToStore() throws Exception {
        String url = postgres.jdbcUrl();
        writer = new RegistryWriter(config(url, 10, Duration.ofHours(1)), OWNER, store);
        writer.start();
        for (int i = 0; i < 8; i++) {
            record(event(CREATED, "gone" + i, 1, "u" + i, OWNER));
        }
        awaitWritten(writer, 8);
        execute(url, """
                INSERT INTO sm_session (session_key, version, state, principal, owner, created_at, changed_at) VALUES
                  ('%s', 3, 'active', 'zoe', 'master-b', now(), now()),
                  ('%s', 4, 'active', 'yves', 'master-a', now(), now())
                """.formatted(key("theirs"), key("stale")));
        Row theirs = rows(url).get("theirs");

        postgres.stop();
        for (int i = 0; i < 8; i++) { // their events are cleared by the overflow below
            record(event(i % 2 == 0 ? DELETED : EXPIRED, "gone" + i, 2, "u" + i, OWNER));
        }
        for (int i = 0; i < 50; i++) {
            record(event(CREATED, "s" + i, 1, null, OWNER));
            record(event(PRINCIPAL_CHANGED, "s" + i, 2, "user\t\\" + i + " Zoë", OWNER));
        }
        RegistryStatus down = writer.status();
        assertEquals(RegistryStatus.DEGRADED, down.state(), down.toString());
        // the buffer holds at most its bound; the batch in hand (kept for its retry) comes on top
        assertTrue(down.coveredByResync() > 0 && down.backlog() <= 10 + 1_000, down.toString());
        assertEquals(down.coveredByResync(), down.toMap().get("resync_covered_events"));

        postgres.startAgain();
        Await.until("a second re-sync, after the overflow", WAIT, () -> writer.status().resyncs() >= 2);
        awaitCaughtUp(writer);

        Map<String, String> expected = new TreeMap<>();
        store.sessions.values().forEach(e -> expected.put(e.sessionId(), e.sessionId() + " active " + e.principal()
                + " v" + e.version()));
        Map<String, String> active = new TreeMap<>();
        Map<String, Row> rows = rows(url);
        rows.values().stream().filter(r -> r.owner().equals(OWNER) && r.state().equals("active"))
                .forEach(r -> active.put(r.sessionId(), r.key()));
        assertEquals(expected, active);
        for (int i = 0; i < 8; i++) { // ended by the re-sync, or by its own event if the writer held it in its batch
            Row gone = rows.get("gone" + i);
            String own = i % 2 == 0 ? "deleted" : "expired";
            assertTrue(gone.state().equals("ended") || gone.state().equals(own), gone.toString());
            assertNotNull(gone.endedAt());
        }
        Row stale = rows.get("stale"); // this owner's, not in its store, no event: only the re-sync ends it
        assertEquals("stale ended yves v4", stale.key());
        assertNotNull(stale.endedAt());
        assertEquals(theirs, rows.get("theirs"), "another owner's row is untouched");
        assertEquals(58 + 2, rows.size());
    }

    @Test
    void outage_underStreamOfEvents_backlogDrainsToFinalState() throws Exception {
        String url = postgres.jdbcUrl();
        writer = new RegistryWriter(config(url), OWNER, store);
        writer.start();
        awaitCaughtUp(writer);

        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        long[] produced = {0};
        Thread producer = new Thread(() -> {
            try {
                int n = 0;
                while (!stop.get()) {
                    String id = "s" + (n % 2_000);
                    LifecycleEvent last = store.newest.get(id);
                    long version = last == null ? 1 : last.version() + 1;
                    LifecycleEvent.Kind kind = last == null || !last.kind().active() ? CREATED
                            : version % 5 == 0 ? DELETED : PRINCIPAL_CHANGED;
                    record(event(kind, id, version, "p" + version, OWNER));
                    produced[0]++;
                    if (++n % 50 == 0) {
                        Thread.sleep(1);
                    }
                }
            } catch (Throwable t) {
                producerFailure.set(t);
            }
        }, "event-stream");
        producer.start();
        Await.until("events written before the outage", WAIT, () -> writer.status().written() > 1_000);

        postgres.stop();
        Await.until("DEGRADED with a backlog", WAIT, () -> {
            RegistryStatus s = writer.status();
            return s.state().equals(RegistryStatus.DEGRADED) && s.backlog() > 0 && s.lastError() != null;
        });
        RegistryStatus down = writer.status();
        postgres.startAgain();
        Await.until("events written after the outage", WAIT, () -> writer.status().written() > down.written() + 1_000);
        stop.set(true);
        producer.join();
        assertNull(producerFailure.get());
        awaitWritten(writer, produced[0]);

        RegistryStatus up = writer.status();
        assertEquals(0, up.coveredByResync(), up.toString());
        assertNull(up.lastError());
        assertTrue(up.failures() > 0, up.toString());
        Map<String, String> expected = new TreeMap<>();
        store.newest.values().forEach(e -> expected.put(e.sessionId(), e.sessionId() + " " + BatchUpsert.state(e.kind())
                + " " + e.principal() + " v" + e.version()));
        Map<String, String> actual = new TreeMap<>();
        rows(url).values().forEach(r -> actual.put(r.sessionId(), r.key()));
        assertEquals(expected, actual);
    }
}
