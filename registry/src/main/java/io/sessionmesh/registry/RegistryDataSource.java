package io.sessionmesh.registry;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import java.time.Duration;

/**
 * The registry's connection pools and its schema. Pools never fail to start ({@code initializationFailTimeout -1}):
 * a database that is down at start is one that is down now, and the writer waits for it. pgjdbc's own timeouts
 * bound every wait on the network, so a stopped or unreachable database is seen in seconds.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>a connection (TCP connect and login)</td><td>the config's connect timeout (default 2 s)</td></tr>
 *   <tr><td>any read from the database (pgjdbc socketTimeout)</td><td>{@link #SOCKET_TIMEOUT}</td></tr>
 * </table>
 */
final class RegistryDataSource {
    /** Where the migrations are. */
    static final String MIGRATIONS = "classpath:db/registry";
    /** Flyway's history table, named for the registry so it can share a database with an application's own. */
    static final String HISTORY_TABLE = "sm_registry_history";
    /**
     * The longest silence of the database on a connection before it counts as gone. Longer than any one statement
     * (a re-sync raises it for itself), short enough that a partitioned database is noticed within a minute.
     */
    static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

    private RegistryDataSource() {
    }

    /** A pool on the config's database; {@code readOnly} for queries. */
    static HikariDataSource pool(RegistryConfig config, String name, boolean readOnly) {
        HikariConfig h = new HikariConfig();
        h.setPoolName(name);
        h.setJdbcUrl(config.jdbcUrl());
        h.setUsername(config.user());
        if (!config.password().isEmpty()) {
            h.setPassword(config.password());
        }
        h.setMaximumPoolSize(config.poolSize());
        h.setMinimumIdle(Math.min(1, config.poolSize()));
        h.setConnectionTimeout(config.connectTimeout().toMillis());
        h.setValidationTimeout(Math.min(config.connectTimeout().toMillis(), 5_000));
        h.setInitializationFailTimeout(-1);
        h.setReadOnly(readOnly);
        int connectSeconds = (int) Math.max(1, (config.connectTimeout().toMillis() + 999) / 1000);
        h.addDataSourceProperty("connectTimeout", String.valueOf(connectSeconds));
        h.addDataSourceProperty("loginTimeout", String.valueOf(connectSeconds));
        h.addDataSourceProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT.toSeconds()));
        h.addDataSourceProperty("tcpKeepAlive", "true");
        h.addDataSourceProperty("ApplicationName", name);
        return new HikariDataSource(h);
    }

    /**
     * Brings the schema up to date; returns how many migrations ran. Flyway takes a PostgreSQL advisory lock, so
     * masters starting together migrate once. A database that already holds other tables is baselined at version 0
     * (so V1 still runs), as it may be an application's own.
     */
    static int migrate(HikariDataSource pool) {
        MigrateResult result = Flyway.configure()
                .dataSource(pool)
                .locations(MIGRATIONS)
                .table(HISTORY_TABLE)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
        return result.migrationsExecuted;
    }
}
