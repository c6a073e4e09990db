package io.sessionmesh.registry;

import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * A full re-sync: makes this owner's active rows what its store holds now, in one transaction. Used at start (the
 * master may have restarted empty), after the buffer overflowed (its events were cleared), and when a master becomes
 * its group's leader. Steps:
 * <ol>
 *   <li>note the database's {@code clock_timestamp()} as T;</li>
 *   <li>stream the store's sessions into a temporary table with COPY (text format, {@link CopyText});</li>
 *   <li>update the rows the table has with the version guard, and insert the ones it lacks (a row the store holds at the same version as an {@code ended} row is
 *       made active again: the store is the authority, and a weakly consistent earlier re-sync may have missed it);</li>
 *   <li>end this owner's active rows recorded before T that the store does not hold: their end's event was lost with
 *       the buffer. Rows recorded after T were written by someone else since (an old leader still writing) and are
 *       left alone, as are other owners' rows.</li>
 * </ol>
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>silence of the database during a re-sync</td><td>{@link #NETWORK_TIMEOUT}</td></tr>
 *   <tr><td>COPY's buffer</td><td>{@link #COPY_BUFFER_BYTES}</td></tr>
 *   <tr><td>the database's work memory for it</td><td>{@link #WORK_MEM_MB} MB</td></tr>
 * </table>
 */
final class Resync {
    /** The longest the database may take to answer one of a re-sync's statements (millions of rows take seconds). */
    static final Duration NETWORK_TIMEOUT = Duration.ofMinutes(10);
    /** The memory the database may use for a re-sync's sort and hash joins, so they stay off disk (per operation). */
    static final int WORK_MEM_MB = 64;
    /** Bytes sent to COPY at a time. */
    static final int COPY_BUFFER_BYTES = 1 << 16;

    private static final String CREATE_TEMP = """
            CREATE TEMPORARY TABLE sm_resync (session_key text NOT NULL, version bigint NOT NULL, principal text,
                host text, owner text NOT NULL, created_ms bigint NOT NULL, at_ms bigint NOT NULL) ON COMMIT DROP
            """;
    private static final String COPY = "COPY sm_resync FROM STDIN (FORMAT text)";
    /**
     * The store's word is final for rows it holds: a later incarnation of the id (a later creation time), a newer
     * version of the same one, or the same version as a row a re-sync ended.
     */
    private static final String UPDATE_HELD = """
            UPDATE sm_session s SET version = r.version, state = 'active', principal = r.principal, host = r.host,
                owner = r.owner, created_at = timestamptz 'epoch' + r.created_ms * interval '1 millisecond',
                changed_at = timestamptz 'epoch' + r.at_ms * interval '1 millisecond', ended_at = NULL,
                recorded_at = clock_timestamp()
            FROM sm_resync r
            WHERE r.session_key = s.session_key
              AND ((s.created_at, s.version) < (timestamptz 'epoch' + r.created_ms * interval '1 millisecond', r.version)
                   OR (s.created_at = timestamptz 'epoch' + r.created_ms * interval '1 millisecond'
                       AND s.version = r.version AND s.state = 'ended'))
            """;
    /**
     * Rows the table lacks, in key order. A plain INSERT (no ON CONFLICT: its speculative insertion doubled the time
     * of 600,000 new rows); a row another writer inserts meanwhile fails the transaction, which is retried.
     */
    private static final String INSERT_NEW = """
            INSERT INTO sm_session (session_key, version, state, principal, host, owner, created_at, changed_at, ended_at,
                                    recorded_at)
            SELECT DISTINCT ON (session_key) session_key, version, 'active', principal, host, owner,
                   timestamptz 'epoch' + created_ms * interval '1 millisecond',
                   timestamptz 'epoch' + at_ms * interval '1 millisecond', NULL, clock_timestamp()
            FROM sm_resync r
            WHERE NOT EXISTS (SELECT 1 FROM sm_session s WHERE s.session_key = r.session_key)
            ORDER BY session_key, created_ms DESC, version DESC
            """;
    private static final String END_MISSING = """
            UPDATE sm_session s SET state = 'ended', ended_at = now(), recorded_at = clock_timestamp()
            WHERE s.owner = ? AND s.state = 'active' AND s.recorded_at < ?
              AND NOT EXISTS (SELECT 1 FROM sm_resync r WHERE r.session_key = s.session_key)
            """;

    /** What a re-sync did. */
    record Result(long copied, int upserted, int ended, long copyMillis) {
    }

    private Resync() {
    }

    static Result run(Connection c, String owner, ActiveSessions store, SessionKeys keys, Executor timeoutExecutor)
            throws SQLException {
        c.setNetworkTimeout(timeoutExecutor, (int) NETWORK_TIMEOUT.toMillis());
        c.setAutoCommit(false);
        try {
            Timestamp t;
            try (Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT clock_timestamp()")) {
                    rs.next();
                    t = rs.getTimestamp(1);
                }
                s.execute("SET LOCAL work_mem = '" + WORK_MEM_MB + "MB'");
                s.execute(CREATE_TEMP);
            }
            long copyStart = System.nanoTime();
            long copied = copy(c, store, keys);
            long copyMillis = (System.nanoTime() - copyStart) / 1_000_000;
            int upserted;
            int ended;
            try (Statement s = c.createStatement()) {
                s.execute("ANALYZE sm_resync");
                upserted = s.executeUpdate(UPDATE_HELD) + s.executeUpdate(INSERT_NEW);
            }
            try (PreparedStatement ps = c.prepareStatement(END_MISSING)) {
                ps.setString(1, owner);
                ps.setTimestamp(2, t);
                ended = ps.executeUpdate();
            }
            c.commit();
            return new Result(copied, upserted, ended, copyMillis);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c, e);
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static long copy(Connection c, ActiveSessions store, SessionKeys keys) throws SQLException {
        long[] rows = {0};
        try (PGCopyOutputStream stream = new PGCopyOutputStream(c.unwrap(PGConnection.class), COPY, COPY_BUFFER_BYTES);
             Writer out = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), COPY_BUFFER_BYTES)) {
            store.forEach(e -> {
                try {
                    row(out, e, keys);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
                rows[0]++;
            });
        } catch (UncheckedIOException | IOException e) {
            IOException io = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
            throw new SQLException("re-sync COPY failed: " + io.getMessage(), "08006", io);
        }
        return rows[0];
    }

    private static void row(Writer out, LifecycleEvent e, SessionKeys keys) throws IOException {
        CopyText.value(out, keys.of(e.sessionId())); // never the id itself, not even in the temporary table
        out.write('\t');
        CopyText.value(out, e.version());
        out.write('\t');
        CopyText.value(out, e.principal());
        out.write('\t');
        CopyText.value(out, e.host());
        out.write('\t');
        CopyText.value(out, e.owner());
        out.write('\t');
        CopyText.value(out, e.createdAtMillis());
        out.write('\t');
        CopyText.value(out, e.atMillis());
        out.write('\n');
    }

    private static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException r) {
            cause.addSuppressed(r);
        }
    }
}
