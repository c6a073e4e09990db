package io.sessionmesh.integration.registry;

import io.sessionmesh.registry.SessionKeys;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The registry's table as a test reads it back, straight from PostgreSQL. Rows are keyed by a keyed hash of the
 * session id ({@link SessionKeys}), never the id: the tests' masters and sidecars take {@link #ID_KEY} from
 * {@link #settingsFile()}, and {@link #key} gives the row key of an id.
 */
public final class RegistryRows {
    /** The registry-id-key of the tests' masters and sidecars. */
    public static final String ID_KEY = "integration-tests-registry-id-key-0123456789";
    private static final SessionKeys KEYS = new SessionKeys(ID_KEY);
    private static Path settings;

    /** One row of {@code sm_session}: {@code key} is the session's row key. */
    public record Row(String key, long version, String state, String principal, String host, String owner) {
    }

    private RegistryRows() {
    }

    /** The row key of a session id. */
    public static String key(String sessionId) {
        return KEYS.of(sessionId);
    }

    /**
     * A {@code --config} file holding {@code registry-id-key} (a secret is refused as a flag): give it to every master
     * and sidecar that has {@code registry-url}.
     */
    public static synchronized Path settingsFile() {
        if (settings == null) {
            try {
                settings = Files.createTempFile("sessionmesh-registry-", ".properties");
                Files.writeString(settings, "registry-id-key=" + ID_KEY + "\n");
                settings.toFile().deleteOnExit();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return settings;
    }

    /** Every row, by row key (an empty map when the table does not exist yet). */
    public static Map<String, Row> all(String jdbcUrl) {
        Map<String, Row> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT to_regclass('sm_session') IS NOT NULL")) {
                r.next();
                if (!r.getBoolean(1)) {
                    return rows;
                }
            }
            try (ResultSet r = s.executeQuery("SELECT session_key, version, state, principal, host, owner FROM sm_session")) {
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
