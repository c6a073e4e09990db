package io.sessionmesh.registry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a batch of events in one statement: the batch collapses to the newest event of each session (one statement
 * cannot update a row twice), travels as eight arrays, and {@code unnest} turns them back into rows. A row is only
 * replaced by a newer event: of a later incarnation of the id (a later creation time: the id was used again after
 * its session ended, whose versions start again at 1), or of the same one at a higher version. So a replayed batch,
 * or an old event arriving after a newer one, changes nothing: that is what lets a new leader of a master group resume
 * from wherever its log says without losing or doubling. (A session renamed onto an id that a session created after it
 * had used is the one case this order misses: its events are taken for the older incarnation's.) Rows are keyed by
 * {@link SessionKeys}, never by the session id.
 */
final class BatchUpsert {
    /** A row's columns from an event's fields; the timestamps arrive as epoch milliseconds. */
    static final String SQL = """
            INSERT INTO sm_session (session_key, version, state, principal, host, owner, created_at, changed_at, ended_at,
                                    recorded_at)
            SELECT u.id, u.v, u.st, u.p, u.h, u.o,
                   timestamptz 'epoch' + u.c * interval '1 millisecond',
                   timestamptz 'epoch' + u.a * interval '1 millisecond',
                   CASE WHEN u.st = 'active' THEN NULL ELSE timestamptz 'epoch' + u.a * interval '1 millisecond' END,
                   clock_timestamp()
            FROM unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[])
                 AS u(id, v, st, p, h, o, c, a)
            ON CONFLICT (session_key) DO UPDATE SET
                version = EXCLUDED.version, state = EXCLUDED.state, principal = EXCLUDED.principal,
                host = EXCLUDED.host, owner = EXCLUDED.owner, created_at = EXCLUDED.created_at,
                changed_at = EXCLUDED.changed_at, ended_at = EXCLUDED.ended_at, recorded_at = clock_timestamp()
            WHERE (sm_session.created_at, sm_session.version) < (EXCLUDED.created_at, EXCLUDED.version)
            """;

    private BatchUpsert() {
    }

    /** The row state an event leaves. */
    static String state(LifecycleEvent.Kind kind) {
        return switch (kind) {
            case CREATED, PRINCIPAL_CHANGED, MOVED, ACTIVE -> "active";
            case EXPIRED -> "expired";
            case DELETED -> "deleted";
            case LOGGED_OUT -> "logged_out";
        };
    }

    /** The newest event of each session in {@code events} (by {@link #isNewer}), in first-seen order. */
    static Collection<LifecycleEvent> newestPerSession(List<EventBuffer.Entry> events) {
        Map<String, LifecycleEvent> newest = new LinkedHashMap<>(events.size() * 2);
        for (EventBuffer.Entry e : events) {
            newest.merge(e.event().sessionId(), e.event(), (a, b) -> isNewer(b, a) ? b : a);
        }
        return newest.values();
    }

    /** Whether {@code a} is newer than {@code b}, as the statement orders rows: by creation time, then version. */
    static boolean isNewer(LifecycleEvent a, LifecycleEvent b) {
        return a.createdAtMillis() != b.createdAtMillis() ? a.createdAtMillis() > b.createdAtMillis() : a.version() > b.version();
    }

    /** Writes the events, keyed by {@code keys} (auto-commit: the statement is the transaction); returns rows changed. */
    static int write(Connection c, List<EventBuffer.Entry> batch, SessionKeys keys) throws SQLException {
        Collection<LifecycleEvent> rows = newestPerSession(batch);
        int n = rows.size();
        String[] ids = new String[n];
        Long[] versions = new Long[n];
        String[] states = new String[n];
        String[] principals = new String[n];
        String[] hosts = new String[n];
        String[] owners = new String[n];
        Long[] created = new Long[n];
        Long[] at = new Long[n];
        int i = 0;
        for (LifecycleEvent e : rows) {
            ids[i] = keys.of(e.sessionId()); // never the id itself
            versions[i] = e.version();
            states[i] = state(e.kind());
            principals[i] = CopyText.storable(e.principal());
            hosts[i] = CopyText.storable(e.host());
            owners[i] = CopyText.storable(e.owner());
            created[i] = e.createdAtMillis();
            at[i] = e.atMillis();
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setArray(1, c.createArrayOf("text", ids));
            ps.setArray(2, c.createArrayOf("bigint", versions));
            ps.setArray(3, c.createArrayOf("text", states));
            ps.setArray(4, c.createArrayOf("text", principals));
            ps.setArray(5, c.createArrayOf("text", hosts));
            ps.setArray(6, c.createArrayOf("text", owners));
            ps.setArray(7, c.createArrayOf("bigint", created));
            ps.setArray(8, c.createArrayOf("bigint", at));
            return ps.executeUpdate();
        }
    }
}
