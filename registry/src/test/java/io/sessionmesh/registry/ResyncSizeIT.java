package io.sessionmesh.registry;

import com.zaxxer.hikari.HikariDataSource;
import io.sessionmesh.testing.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;

import static io.sessionmesh.registry.RegistryFixtures.awaitWritten;
import static io.sessionmesh.registry.RegistryFixtures.config;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How long a re-sync of a large store takes (600,000 active sessions, WORKLOAD.md's order of magnitude), and the
 * batch write rate; printed, not asserted (the machine decides), but every row must arrive.
 */
class ResyncSizeIT {
    private static final int SESSIONS = 600_000;
    private static final int EVENTS = 200_000;
    private static String url;

    @BeforeAll
    static void createDatabase() {
        url = PostgresServer.freshDatabase("registry_size");
    }

    @AfterAll
    static void dropDatabase() {
        PostgresServer.dropDatabase(url);
    }

    @Test
    void resync_600kActiveSessions_allCopied() throws Exception {
        long now = System.currentTimeMillis();
        List<LifecycleEvent> sessions = new ArrayList<>(SESSIONS);
        for (int i = 0; i < SESSIONS; i++) {
            sessions.add(new LifecycleEvent(LifecycleEvent.Kind.ACTIVE, "session-" + Integer.toHexString(i * 7919) + "_" + i,
                    1 + i % 7, i % 10 == 0 ? null : "user-" + (i % 50_000) + "@example.com", "10.0." + (i % 16) + ".1",
                    "master-a", now - i, now));
        }
        ActiveSessions store = consumer -> sessions.forEach(consumer);
        try (HikariDataSource pool = RegistryDataSource.pool(config(url), "size-test", false)) {
            RegistryDataSource.migrate(pool);
            for (String round : List.of("into an empty table", "again, nothing changed")) {
                long start = System.nanoTime();
                Resync.Result r;
                try (Connection c = pool.getConnection()) {
                    r = Resync.run(c, "master-a", store, new SessionKeys(RegistryFixtures.ID_KEY), Runnable::run);
                }
                long ms = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("re-sync of %,d active sessions %s: %,d ms (COPY %,d ms; %,d rows changed, %,d ended)%n",
                        SESSIONS, round, ms, r.copyMillis(), r.upserted(), r.ended());
                assertEquals(SESSIONS, r.copied());
            }
        }
        assertEquals(SESSIONS, new RegistryQueries(config(url)).countActive());
    }

    @Test
    void write_200kEvents_rate() {
        long now = System.currentTimeMillis();
        ActiveSessions none = consumer -> {
        };
        try (RegistryWriter writer = new RegistryWriter(config(url, EVENTS, Duration.ofHours(1)), "master-b", none)) {
            writer.start();
            RegistryFixtures.awaitCaughtUp(writer);
            long start = System.nanoTime();
            for (int i = 0; i < EVENTS; i++) {
                writer.record(new LifecycleEvent(LifecycleEvent.Kind.CREATED, "w" + i, 1, "user-" + (i % 1000), "h",
                        "master-b", now, now));
            }
            awaitWritten(writer, EVENTS);
            long ms = Math.max(1, (System.nanoTime() - start) / 1_000_000);
            RegistryStatus s = writer.status();
            System.out.printf("batch writes: %,d events in %,d ms (%,d events/s, %,d batches); lag p50 %,d us, "
                    + "p99 %,d us, max %,d us%n", EVENTS, ms, EVENTS * 1000L / ms, s.batches(),
                    s.lagSinceStartP50Micros(), s.lagSinceStartP99Micros(), s.lagSinceStartMaxMicros());
        }
    }
}
