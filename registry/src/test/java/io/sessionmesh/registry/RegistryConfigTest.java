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
    static final String KEY = "registry-config-test-key-0123456789ab";

    /** Settings with these pairs and the registry-id-key the registry requires. */
    static Settings settings(String... pairs) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        m.put("registry-id-key", KEY);
        return Settings.of(m);
    }

    @Test
    void forWriter_noUrl_registryOff() {
        Settings s = Settings.of(Map.of());
        assertNull(RegistryConfig.forWriter(s));
        assertNull(RegistryConfig.forQueries(s));
    }

    @Test
    void forWriter_defaults_asDocumented() {
        Settings s = settings("registry-url", "jdbc:postgresql://db:5432/sm");
        RegistryConfig c = RegistryConfig.forWriter(s);
        s.checkAllUsed();
        assertEquals(new RegistryConfig("jdbc:postgresql://db:5432/sm", "postgres", "", 2, 100_000, 1_000,
                Duration.ofMillis(20), Duration.ofHours(1), Duration.ofSeconds(2), KEY), c);
    }

    @Test
    void forWriter_allSettings_read() {
        Settings s = settings("registry-url", "jdbc:postgresql://db/sm", "registry-user", "sm",
                "registry-password", "hunter2", "registry-pool", "4", "registry-buffer", "5000", "registry-batch", "50",
                "registry-flush", "5ms", "registry-retention", "2d", "registry-connect-timeout", "500ms");
        RegistryConfig c = RegistryConfig.forWriter(s);
        s.checkAllUsed();
        assertEquals(new RegistryConfig("jdbc:postgresql://db/sm", "sm", "hunter2", 4, 5_000, 50, Duration.ofMillis(5),
                Duration.ofDays(2), Duration.ofMillis(500), KEY), c);
        assertFalse(c.describe().contains(KEY), c.describe());
        assertFalse(c.describe().contains("hunter2"), c.describe());
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertFalse(s.describe().contains("hunter2"), s.describe());
    }

    @Test
    void forWriterAndForQueries_readWhatTheirListsDeclare() {
        Settings writer = settings("registry-url", "jdbc:postgresql://db/sm");
        RegistryConfig.forWriter(writer);
        assertEquals(new TreeSet<>(RegistrySettings.WRITER.names()), new TreeSet<>(writer.effective().keySet()));
        Settings queries = settings("registry-url", "jdbc:postgresql://db/sm");
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
        Settings s = settings("registry-url", "jdbc:postgresql://db/sm", "registry-password", "in-file");
        assertEquals("from-env", RegistryConfig.forWriter(s, Map.of(RegistryConfig.PASSWORD_ENV, "from-env")).password());
        Settings f = settings("registry-url", "jdbc:postgresql://db/sm", "registry-password", "in-file");
        assertEquals("in-file", RegistryConfig.forQueries(f, Map.of()).password());
    }

    /** The registry never stores a session id: without the secret its rows are keyed by, it does not start. */
    @Test
    void registryIdKey_requiredWithAUrl_neverAFlag_atLeast32Characters() {
        Settings none = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(none, Map.of()));
        assertTrue(e.getMessage().contains("registry-id-key") && e.getMessage().contains(RegistryConfig.ID_KEY_ENV), e.getMessage());
        Settings flag = Settings.fromArgs("--registry-url", "jdbc:postgresql://db/sm", "--registry-id-key", KEY);
        e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forQueries(flag, Map.of()));
        assertTrue(e.getMessage().contains("--registry-id-key") && !e.getMessage().contains(KEY), e.getMessage());
        Settings shortKey = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm", "registry-id-key", "short"));
        e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(shortKey, Map.of()));
        assertTrue(e.getMessage().contains("at least 32"), e.getMessage());
        Settings env = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm"));
        assertEquals(KEY, RegistryConfig.forQueries(env, Map.of(RegistryConfig.ID_KEY_ENV, KEY)).idKey());
    }

    @Test
    void forWriter_notPostgresUrl_errorNamesSetting() {
        Settings s = settings("registry-url", "jdbc:mysql://db/sm");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(s));
        assertTrue(e.getMessage().contains("registry-url") && e.getMessage().contains("jdbc:postgresql:"), e.getMessage());
    }

    @Test
    void forWriter_bufferBelowMinimum_refused() {
        Settings s = settings("registry-url", "jdbc:postgresql://db/sm", "registry-buffer", "999");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegistryConfig.forWriter(s));
        assertTrue(e.getMessage().contains("registry-buffer"), e.getMessage());
    }

    @Test
    void forQueries_readsOnlyConnectionSettings() {
        Settings s = settings("registry-url", "jdbc:postgresql://db/sm", "registry-buffer", "5000");
        RegistryConfig c = RegistryConfig.forQueries(s);
        assertEquals(RegistryConfig.DEFAULT_BUFFER, c.bufferEvents());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::checkAllUsed);
        assertTrue(e.getMessage().contains("registry-buffer"), e.getMessage());
    }

    @Test
    void describe_passwordInUrl_hidden() {
        RegistryConfig c = new RegistryConfig("jdbc:postgresql://db/sm?user=a&password=hunter2&ssl=true", "a", "", 1, 1, 1,
                Duration.ofMillis(1), Duration.ofMinutes(1), Duration.ofSeconds(1), KEY);
        assertFalse(c.describe().contains("hunter2"), c.describe());
        assertTrue(c.describe().contains("ssl=true"), c.describe());
    }
}
