package io.sessionmesh.registry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Deletes rows of sessions that ended longer ago than the retention, a chunk at a time, each chunk its own short
 * transaction: a large backlog of old rows never holds locks (or the writer) for long. The partial index on
 * {@code ended_at} finds them. The outer statement repeats the condition so that a row made active again while the
 * chunk was chosen (a session moved to another master, say) is re-checked and kept.
 */
final class Retention {
    /** Rows deleted by one statement. */
    static final int CHUNK_ROWS = 10_000;

    private static final String DELETE_CHUNK = """
            WITH cutoff AS (SELECT now() - ? * interval '1 millisecond' AS t)
            DELETE FROM sm_session WHERE state <> 'active' AND ended_at < (SELECT t FROM cutoff)
              AND session_key IN (
                SELECT session_key FROM sm_session
                WHERE state <> 'active' AND ended_at < (SELECT t FROM cutoff)
                LIMIT ?)
            """;

    private Retention() {
    }

    /** Deletes up to {@link #CHUNK_ROWS} expired rows; fewer deleted than that means none are left. */
    static int deleteChunk(Connection c, Duration retention) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELETE_CHUNK)) {
            ps.setLong(1, retention.toMillis());
            ps.setInt(2, CHUNK_ROWS);
            return ps.executeUpdate();
        }
    }
}
