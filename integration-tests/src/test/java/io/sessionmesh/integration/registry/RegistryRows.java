package io.sessionmesh.integration.registry;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/** The registry's table as a test reads it back, straight from PostgreSQL. */
public final class RegistryRows {
    /** One row of {@code sm_session}. */
    public record Row(String id, long version, String state, String principal, String host, String owner) {
    }

    private RegistryRows() {
    }

    /** Every row, by session id (an empty map when the table does not exist yet). */
    public static Map<String, Row> all(String jdbcUrl) {
        Map<String, Row> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT to_regclass('sm_session') IS NOT NULL")) {
                r.next();
                if (!r.getBoolean(1)) {
                    return rows;
                }
            }
            try (ResultSet r = s.executeQuery("SELECT session_id, version, state, principal, host, owner FROM sm_session")) {
                while (r.next()) {
                    rows.put(r.getString(1), new Row(r.getString(1), r.getLong(2), r.getString(3), r.getString(4),
                            r.getString(5), r.getString(6)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading the registry at " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return rows;
    }
}
