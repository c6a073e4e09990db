package io.sessionmesh.registry;

import io.sessionmesh.settings.Settings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryConfigTest {
    @Test
    void forWriter_noUrl_registryOff() {
        Settings s = Settings.of(Map.of());
        assertNull(RegistryConfig.forWriter(s));
        assertNull(RegistryConfig.forQueries(s));
    }

    @Test
    void forWriter_defaults_asDocumented() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db:5432/sm"));
        RegistryConfig c = RegistryConfig.forWriter(s);
        s.checkAllUsed();
        assertEquals(new RegistryConfig("jdbc:postgresql://db:5432/sm", "postgres", "", 2, 100_000, 1_000,
                Duration.ofMillis(20), Duration.ofHours(1), Duration.ofSeconds(2)), c);
    }

    @Test
    void forWriter_allSettings_read() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-user", "sm",
                "registry-password", "hunter2", "registry-pool", "4", "registry-buffer", "5000", "registry-batch", "50",
                "registry-flush", "5ms", "registry-retention", "2d", "registry-connect-timeout", "500ms"));
        RegistryConfig c = RegistryConfig.forWriter(s);
        s.checkAllUsed();
        assertEquals(new RegistryConfig("jdbc:postgresql://db/sm", "sm", "hunter2", 4, 5_000, 50, Duration.ofMillis(5),
                Duration.ofDays(2), Duration.ofMillis(500)), c);
        assertFalse(c.describe().contains("hunter2"), c.describe());
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertFalse(s.describe().contains("hunter2"), s.describe());
    }

    @Test
    void forWriterAndForQueries_readWhatTheirListsDeclare() {
        Settings writer = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm"));
        RegistryConfig.forWriter(writer);
        assertEquals(new TreeSet<>(RegistrySettings.WRITER.names()), new TreeSet<>(writer.effective().keySet()));
        Settings queries = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm"));
        RegistryConfig.forQueries(queries);
        assertEquals(new TreeSet<>(RegistrySettings.QUERIES.names()), new TreeSet<>(queries.effective().keySet()));
    }

    /** SECURITY.md: the password never on a command line, which ps shows to every user of the host. */
    @Test
    void registryPassword_asAFlag_isRefusedSayingWhereItGoes() {
        for (java.util.function.Function<Settings, RegistryConfig> read : java.util.List.<java.util.function.Function<Settings,
                RegistryConfig>>of(RegistryConfig::forWriter, RegistryConfig::forQueries)) {
            Settings s = Settings.fromArgs("--registry-url", "jdbc:postgresql://db/sm", "--registry-password", "hunter2");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read.apply(s));
            assertTrue(e.getMessage().contains("--registry-password") && e.getMessage().contains("--config")
                    && e.getMessage().contains("SESSIONMESH_REGISTRY_PASSWORD"), e.getMessage());
            assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        }
    }

    @Test
    void registryPassword_fromTheEnvironment_winsOverTheFile() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-password", "in-file"));
        assertEquals("from-env", RegistryConfig.forWriter(s, Map.of(RegistryConfig.PASSWORD_ENV, "from-env")).password());
        Settings f = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-password", "in-file"));
        assertEquals("in-file", RegistryConfig.forQueries(f, Map.of()).password());
    }

    @Test
    void forWriter_notPostgresUrl_errorNamesSetting() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:mysql://db/sm"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(s));
        assertTrue(e.getMessage().contains("registry-url") && e.getMessage().contains("jdbc:postgresql:"), e.getMessage());
    }

    @Test
    void forWriter_bufferBelowMinimum_refused() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-buffer", "999"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(s));
        assertTrue(e.getMessage().contains("registry-buffer"), e.getMessage());
    }

    @Test
    void forQueries_readsOnlyConnectionSettings() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-buffer", "5000"));
        RegistryConfig c = RegistryConfig.forQueries(s);
        assertEquals(RegistryConfig.DEFAULT_BUFFER, c.bufferEvents());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::checkAllUsed);
        assertTrue(e.getMessage().contains("registry-buffer"), e.getMessage());
    }

    @Test
    void describe_passwordInUrl_hidden() {
        RegistryConfig c = new RegistryConfig("jdbc:postgresql://db/sm?user=a&password=hunter2&ssl=true", "a", "", 1, 1, 1,
                Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofSeconds(1));
        assertFalse(c.describe().contains("hunter2"), c.describe());
        assertTrue(c.describe().contains("ssl=true"), c.describe());
    }
}
