package io.sessionmesh.registry;

import io.sessionmesh.testing.Await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** What the registry's tests share: configs, a store, events, and the table read back. */
final class RegistryFixtures {
    /** Longest wait for the writer to reach a state. */
    static final Duration WAIT = Duration.ofSeconds(30);

    private RegistryFixtures() {
    }

    /** The tests' registry-id-key. */
    static final String ID_KEY = "registry-tests-id-key-0123456789abcdef";
    /** Row keys of the ids the tests used, back to the ids: rows read back are shown by id (RegistryFixtures#rows). */
    private static final Map<String, String> IDS_BY_KEY = new ConcurrentHashMap<>();
    private static final SessionKeys KEYS = new SessionKeys(ID_KEY);

    /** The row key of a session id (and the id known by it from now on). */
    static String key(String id) {
        String k = KEYS.of(id);
        IDS_BY_KEY.put(k, id);
        return k;
    }

    static RegistryConfig config(String url, int bufferEvents, Duration retention) {
        return new RegistryConfig(url, "postgres", "", 2, bufferEvents, 1_000, Duration.ofMillis(5), retention,
                Duration.ofSeconds(2), ID_KEY);
    }

    static RegistryConfig config(String url) {
        return config(url, 100_000, Duration.ofHours(1));
    }

    /** When the tests' sessions were created: now, so retention (which looks at event times) leaves their rows. */
    static final long CREATED_AT_MILLIS = System.currentTimeMillis();

    static LifecycleEvent event(LifecycleEvent.Kind kind, String id, long version, String principal, String owner) {
        key(id);
        return new LifecycleEvent(kind, id, version, principal, "host-" + (id.hashCode() & 3), owner, CREATED_AT_MILLIS,
                CREATED_AT_MILLIS + version);
    }

    /** A master's store as the registry sees it: applies events, and lists the active sessions for a re-sync. */
    static final class FakeStore implements ActiveSessions {
        final Map<String, LifecycleEvent> sessions = new ConcurrentHashMap<>();
        /** Every session's newest event, ended ones included: what its row must end up as. */
        final Map<String, LifecycleEvent> newest = new ConcurrentHashMap<>();

        /** Applies the event to the store (as a master does first) and returns it for recording. */
        LifecycleEvent apply(LifecycleEvent e) {
            key(e.sessionId());
            if (e.kind().active()) {
                sessions.put(e.sessionId(), e);
            } else {
                sessions.remove(e.sessionId());
            }
            newest.put(e.sessionId(), e);
            return e;
        }

        @Override
        public void forEach(Consumer<LifecycleEvent> active) {
            sessions.values().forEach(e -> active.accept(new LifecycleEvent(LifecycleEvent.Kind.ACTIVE, e.sessionId(),
                    e.version(), e.principal(), e.host(), e.owner(), e.createdAtMillis(), e.atMillis())));
        }
    }

    /** A row as the tests compare it. */
    record Row(String sessionId, long version, String state, String principal, String host, String owner,
               Instant createdAt, Instant changedAt, Instant endedAt, Instant recordedAt) {
        /** What the tests compare rows by: id, state, principal, version. */
        String key() {
            return sessionId + " " + state + " " + principal + " v" + version;
        }
    }

    /**
     * The table, by session id: each row's key ({@link SessionKeys}) shown as the id the tests used for it (a key of no
     * id the tests used stays as it is). The table itself holds no id (RegistryKeyedIdsIT).
     */
    static Map<String, Row> rows(String url) throws SQLException {
        Map<String, Row> rows = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT session_key, version, state, principal, host, owner, created_at, "
                     + "changed_at, ended_at, recorded_at FROM sm_session")) {
            while (rs.next()) {
                String id = IDS_BY_KEY.getOrDefault(rs.getString(1), rs.getString(1));
                rows.put(id, new Row(id, rs.getLong(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), instant(rs.getTimestamp(7)), instant(rs.getTimestamp(8)),
                        instant(rs.getTimestamp(9)), instant(rs.getTimestamp(10))));
            }
        }
        return rows;
    }

    static Row row(String url, String id) throws SQLException {
        return rows(url).get(id);
    }

    static void execute(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** Waits until the writer is UP with nothing waiting. */
    static void awaitCaughtUp(RegistryWriter writer) {
        Await.until("registry writer UP with an empty backlog (" + writer.status() + ")", WAIT, () -> {
            RegistryStatus s = writer.status();
            return s.state().equals(RegistryStatus.UP) && s.backlog() == 0;
        });
    }

    /** Waits until the writer has committed at least {@code events} events and is caught up. */
    static void awaitWritten(RegistryWriter writer, long events) {
        Await.until("registry writer to commit " + events + " events", WAIT, () -> {
            RegistryStatus s = writer.status();
            return s.written() >= events && s.backlog() == 0 && s.state().equals(RegistryStatus.UP);
        });
    }
}
