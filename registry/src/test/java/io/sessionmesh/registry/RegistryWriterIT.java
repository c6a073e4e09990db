package io.sessionmesh.registry;

import io.sessionmesh.registry.RegistryFixtures.FakeStore;
import io.sessionmesh.registry.RegistryFixtures.Row;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sessionmesh.registry.LifecycleEvent.Kind.CREATED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.DELETED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.EXPIRED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.LOGGED_OUT;
import static io.sessionmesh.registry.LifecycleEvent.Kind.MOVED;
import static io.sessionmesh.registry.LifecycleEvent.Kind.PRINCIPAL_CHANGED;
import static io.sessionmesh.registry.RegistryFixtures.awaitCaughtUp;
import static io.sessionmesh.registry.RegistryFixtures.awaitWritten;
import static io.sessionmesh.registry.RegistryFixtures.config;
import static io.sessionmesh.registry.RegistryFixtures.event;
import static io.sessionmesh.registry.RegistryFixtures.execute;
import static io.sessionmesh.registry.RegistryFixtures.key;
import static io.sessionmesh.registry.RegistryFixtures.row;
import static io.sessionmesh.registry.RegistryFixtures.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The writer against the machine's PostgreSQL, a fresh database per test. */
class RegistryWriterIT {
    private static final String OWNER = "master-a";

    private String url;
    private final FakeStore store = new FakeStore();
    private RegistryWriter writer;

    @BeforeEach
    void setUp() {
        url = PostgresServer.freshDatabase("registry_writer");
    }

    @AfterEach
    void tearDown() {
        if (writer != null) {
            writer.close();
        }
        PostgresServer.dropDatabase(url);
    }

    private RegistryWriter start(RegistryConfig config) {
        writer = new RegistryWriter(config, OWNER, store);
        writer.start();
        awaitCaughtUp(writer);
        return writer;
    }

    private void record(LifecycleEvent e) {
        writer.record(store.apply(e));
    }

    @Test
    void start_emptyDatabase_migratesOnce_secondWriterMigratesNothing() throws Exception {
        start(config(url));
        assertEquals(4, historyRows(), "every migration recorded");
        assertEquals(List.of("sm_session_active_principal", "sm_session_pkey"), indexes(), "V2 left the indexes it keeps");
        assertTrue(rows(url).isEmpty());
        writer.close();

        start(config(url));
        record(event(CREATED, "s1", 1, "alice", OWNER));
        awaitWritten(writer, 1);
        assertEquals(4, historyRows(), "the second writer migrated nothing");
        assertEquals("active", row(url, "s1").state());
        RegistryStatus status = writer.status();
        assertEquals(1, status.resyncs(), "a re-sync at start: " + status);
        assertEquals(RegistryStatus.UP, status.toMap().get("state"));
    }

    private List<String> indexes() throws Exception {
        List<String> names = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT indexname FROM pg_indexes WHERE tablename = 'sm_session' ORDER BY 1")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private long historyRows() throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM sm_registry_history WHERE success AND version IS NOT NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void record_lifecycle_rowFollowsEachStep() throws Exception {
        start(config(url));
        record(event(CREATED, "s1", 1, null, OWNER));
        record(event(CREATED, "s2", 1, "bob", OWNER));
        record(event(CREATED, "s3", 1, "carol", OWNER));
        record(event(CREATED, "s4", 1, "dave", OWNER));
        awaitWritten(writer, 4);
        Row s1 = row(url, "s1");
        assertEquals("active", s1.state());
        assertNull(s1.principal());
        assertEquals("host-" + ("s1".hashCode() & 3), s1.host());
        assertEquals(OWNER, s1.owner());
        assertEquals(Instant.ofEpochMilli(RegistryFixtures.CREATED_AT_MILLIS), s1.createdAt());
        assertEquals(Instant.ofEpochMilli(RegistryFixtures.CREATED_AT_MILLIS + 1), s1.changedAt());
        assertNull(s1.endedAt());

        record(event(PRINCIPAL_CHANGED, "s1", 2, "alice", OWNER));
        record(event(DELETED, "s2", 2, "bob", OWNER));
        record(event(EXPIRED, "s3", 2, "carol", OWNER));
        record(event(LOGGED_OUT, "s4", 2, "dave", OWNER));
        awaitWritten(writer, 8);
        Map<String, Row> rows = rows(url);
        assertEquals("alice", rows.get("s1").principal());
        assertEquals(2, rows.get("s1").version());
        assertEquals("active", rows.get("s1").state());
        assertEquals("deleted", rows.get("s2").state());
        assertEquals("expired", rows.get("s3").state());
        assertEquals("logged_out", rows.get("s4").state());
        for (String ended : List.of("s2", "s3", "s4")) {
            assertEquals(Instant.ofEpochMilli(RegistryFixtures.CREATED_AT_MILLIS + 2), rows.get(ended).endedAt(), ended);
        }
        assertTrue(rows.get("s2").recordedAt().isAfter(rows.get("s1").createdAt()));
    }

    @Test
    void record_replayAndOldEvents_rowStaysAtNewest() throws Exception {
        start(config(url));
        List<LifecycleEvent> history = List.of(event(CREATED, "s1", 1, null, OWNER),
                event(PRINCIPAL_CHANGED, "s1", 2, "alice", OWNER), event(MOVED, "s1", 3, "alice", "master-b"),
                event(PRINCIPAL_CHANGED, "s1", 4, "alicia", "master-b"), event(CREATED, "s2", 1, "bob", OWNER),
                event(DELETED, "s2", 2, "bob", OWNER));
        history.forEach(this::record);
        awaitWritten(writer, history.size());
        Map<String, Row> before = rows(url);
        assertEquals("s1 active alicia v4", before.get("s1").key());
        assertEquals("master-b", before.get("s1").owner());
        assertEquals("s2 deleted bob v2", before.get("s2").key());

        history.forEach(writer::record); // a new leader replaying the log, in one batch or several
        awaitWritten(writer, 2L * history.size());
        writer.record(event(CREATED, "s2", 1, "bob", OWNER)); // an old event after the newest
        writer.record(event(PRINCIPAL_CHANGED, "s1", 2, "mallory", OWNER));
        awaitWritten(writer, 2L * history.size() + 2);
        assertEquals(before, rows(url), "replays and old events changed nothing, recorded_at included");
    }

    /**
     * An id used again after its session ended (a CREATE with a requested id): the new session's events start again at
     * version 1 and still replace the ended row, being of a later creation; the old session's events, replayed after,
     * change nothing.
     */
    @Test
    void record_idUsedAgain_rowFollowsTheNewSession_notTheOldOnesReplays() throws Exception {
        start(config(url));
        List<LifecycleEvent> first = List.of(event(CREATED, "s1", 1, "alice", OWNER), event(DELETED, "s1", 2, "alice", OWNER));
        first.forEach(this::record);
        awaitWritten(writer, first.size());
        assertEquals("s1 deleted alice v2", rows(url).get("s1").key());

        long later = RegistryFixtures.CREATED_AT_MILLIS + 60_000;
        LifecycleEvent again = new LifecycleEvent(CREATED, "s1", 1, "bob", "host-9", OWNER, later, later);
        record(again);
        awaitWritten(writer, first.size() + 1);
        Row row = rows(url).get("s1");
        assertEquals("s1 active bob v1", row.key(), "the id's new session replaced its ended row");
        assertEquals(later, row.createdAt().toEpochMilli());

        first.forEach(writer::record); // the old session's events replayed, alone and together with the new one's
        writer.record(new LifecycleEvent(PRINCIPAL_CHANGED, "s1", 2, "bobby", "host-9", OWNER, later, later + 1));
        awaitWritten(writer, first.size() * 2L + 2);
        assertEquals("s1 active bobby v2", rows(url).get("s1").key());
    }

    /** A re-sync finds the id's new session in the store (its event lost): the store's word replaces the ended row. */
    @Test
    void resync_idUsedAgain_theStoresNewSessionReplacesTheEndedRow() throws Exception {
        start(config(url));
        List.of(event(CREATED, "s1", 1, "alice", OWNER), event(DELETED, "s1", 2, "alice", OWNER)).forEach(this::record);
        awaitWritten(writer, 2);
        writer.close();

        long later = RegistryFixtures.CREATED_AT_MILLIS + 60_000;
        store.apply(new LifecycleEvent(CREATED, "s1", 1, "bob", "host-9", OWNER, later, later)); // its event never sent
        start(config(url)); // a re-sync at start
        Row row = rows(url).get("s1");
        assertEquals("s1 active bob v1", row.key());
        assertEquals(later, row.createdAt().toEpochMilli());
    }

    /**
     * The status through a re-sync held open (its read of the store blocks): DEGRADED the whole time, not only while
     * it is pending, so that nobody reads UP from a table the re-sync has not yet made right; UP once it commits.
     */
    @Test
    void resync_whileItRuns_statusIsDegraded_thenUpOnceCommitted() throws Exception {
        start(config(url));
        store.apply(event(CREATED, "s1", 1, "alice", OWNER)); // its event never sent: only the re-sync writes it
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        writer.close();
        writer = new RegistryWriter(config(url), OWNER, active -> {
            reading.countDown();
            try {
                assertTrue(release.await(60, TimeUnit.SECONDS), "released");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            store.forEach(active);
        });
        writer.start(); // a re-sync at start, held inside its read of the store
        try {
            assertTrue(reading.await(60, TimeUnit.SECONDS), "the re-sync started");
            for (int i = 0; i < 5; i++) {
                assertEquals(RegistryStatus.DEGRADED, writer.status().state(), "during the re-sync, look " + i);
                Thread.sleep(20);
            }
            assertNull(rows(url).get("s1"), "nothing written yet");
        } finally {
            release.countDown(); // a failed look must not leave the writer blocked for the next test
        }
        awaitCaughtUp(writer);
        RegistryStatus s = writer.status();
        assertEquals(1, s.resyncs(), s.toString());
        assertEquals("s1 active alice v1", rows(url).get("s1").key());
    }

    @Test
    void record_manySessionsInOneBatch_collapsedPerSession() throws Exception {
        start(config(url));
        List<LifecycleEvent> events = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String id = "s" + (i % 500);
            long version = i / 500 + 1;
            events.add(event(version == 1 ? CREATED : PRINCIPAL_CHANGED, id, version, "user" + version, OWNER));
        }
        events.forEach(this::record);
        awaitWritten(writer, events.size());
        Map<String, Row> rows = rows(url);
        assertEquals(500, rows.size());
        rows.values().forEach(r -> assertEquals("active user6 v6", r.state() + " " + r.principal() + " v" + r.version(),
                r.sessionId()));
        RegistryStatus s = writer.status();
        assertTrue(s.lagSinceStartMaxMicros() > 0 && s.batches() > 0, s.toString());
    }

    @Test
    void retention_deletesEndedRowsPastIt_keepsActiveAndRecent() throws Exception {
        try (var pool = RegistryDataSource.pool(config(url), "migrate-only", false)) {
            RegistryDataSource.migrate(pool);
        }
        execute(url, """
                INSERT INTO sm_session (session_key, version, state, owner, created_at, changed_at, ended_at) VALUES
                  ('%s', 2, 'deleted', 'other', now() - interval '3 hours', now() - interval '2 hours',
                   now() - interval '2 hours'),
                  ('%s', 2, 'ended', 'other', now() - interval '3 hours', now() - interval '2 hours',
                   now() - interval '2 hours'),
                  ('%s', 2, 'expired', 'other', now() - interval '3 hours', now() - interval '10 minutes',
                   now() - interval '10 minutes'),
                  ('%s', 1, 'active', 'other', now() - interval '3 hours', now() - interval '3 hours', NULL)
                """.formatted(key("old-deleted"), key("old-ended"), key("recent-expired"), key("old-active")));
        start(config(url, 100_000, Duration.ofHours(1)));
        Await.until("retention to delete the old ended rows", RegistryFixtures.WAIT,
                () -> !rows(url).containsKey("old-deleted") && !rows(url).containsKey("old-ended"));
        assertEquals(List.of("old-active", "recent-expired"), new ArrayList<>(rows(url).keySet()));
    }
}
