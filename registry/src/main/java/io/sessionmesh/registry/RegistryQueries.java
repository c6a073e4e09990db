package io.sessionmesh.registry;

import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a sidecar's admin endpoint asks the registry: who is logged in where. A small read-only pool that never fails
 * to start (the database may come later); each query waits at most {@link #QUERY_TIMEOUT} and a failure is a
 * {@link RegistryUnavailableException} naming the database. Thread-safe.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>one query</td><td>{@link #QUERY_TIMEOUT}</td></tr>
 *   <tr><td>rows or groups one query returns</td><td>1..{@link #MAX_LIMIT}</td></tr>
 * </table>
 */
public final class RegistryQueries implements AutoCloseable {
    /** The pool's name. */
    public static final String POOL_NAME = "sessionmesh-registry-queries";
    /** The longest one query may run. */
    public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(5);
    /** The most rows (or groups) one query returns. */
    public static final int MAX_LIMIT = 10_000;

    private static final String COLUMNS =
            "session_key, version, state, principal, host, owner, created_at, changed_at, ended_at, recorded_at";

    private final RegistryConfig config;
    private final HikariDataSource pool;
    private final SessionKeys keys;

    public RegistryQueries(RegistryConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.keys = new SessionKeys(config.idKey());
        this.pool = RegistryDataSource.pool(config, POOL_NAME, true);
    }

    /** Active sessions, all owners. */
    public long countActive() {
        return query("count active sessions", "SELECT count(*) FROM sm_session WHERE state = 'active'", ps -> {
        }, rs -> {
            rs.next();
            return rs.getLong(1);
        });
    }

    /** Active sessions per host, the most first, at most {@code limit} hosts; a session without a host counts under "". */
    public Map<String, Long> countActiveByHost(int limit) {
        return countBy("host", limit);
    }

    /** Active sessions per principal, the most first, at most {@code limit}; sessions without one are not counted. */
    public Map<String, Long> countActiveByPrincipal(int limit) {
        return countBy("principal", limit);
    }

    private Map<String, Long> countBy(String column, int limit) {
        checkLimit(limit);
        String where = column.equals("principal") ? " AND principal IS NOT NULL" : "";
        String sql = "SELECT coalesce(" + column + ", '') AS k, count(*) AS n FROM sm_session WHERE state = 'active'"
                + where + " GROUP BY k ORDER BY n DESC, k LIMIT ?";
        return query("count active sessions by " + column, sql, ps -> ps.setInt(1, limit), rs -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
            return counts;
        });
    }

    /** The principal's active sessions, newest first, at most {@code limit}. */
    public List<SessionRow> sessionsOf(String principal, int limit) {
        Objects.requireNonNull(principal, "principal");
        checkLimit(limit);
        String sql = "SELECT " + COLUMNS + " FROM sm_session WHERE principal = ? AND state = 'active'"
                + " ORDER BY created_at DESC, session_key LIMIT ?";
        return query("list the sessions of a principal", sql, ps -> {
            ps.setString(1, principal);
            ps.setInt(2, limit);
        }, rs -> {
            List<SessionRow> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row(rs));
            }
            return rows;
        });
    }

    /** A session's row, in any state, if the registry has it: found by its keyed hash ({@link SessionKeys}). */
    public Optional<SessionRow> lookup(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        String key = keys.of(sessionId);
        return query("look up a session", "SELECT " + COLUMNS + " FROM sm_session WHERE session_key = ?",
                ps -> ps.setString(1, key), rs -> rs.next() ? Optional.of(row(rs)) : Optional.empty());
    }

    @Override
    public void close() {
        pool.close();
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit " + limit + ": expected 1.." + MAX_LIMIT);
        }
    }

    private static SessionRow row(ResultSet rs) throws SQLException {
        return new SessionRow(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), instant(rs.getTimestamp(7)), instant(rs.getTimestamp(8)), instant(rs.getTimestamp(9)),
                instant(rs.getTimestamp(10)));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String what, String sql, Binder binder, Reader<T> reader) {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setQueryTimeout((int) QUERY_TIMEOUT.toSeconds());
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        } catch (SQLException e) {
            throw new RegistryUnavailableException("registry " + config.redactedUrl() + " could not " + what + ": "
                    + RegistryWriter.describe(e), e);
        }
    }
}
