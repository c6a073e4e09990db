package io.sessionmesh.master.config;

import io.sessionmesh.settings.Settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The master reads exactly what {@link MasterSettings} declares, so the reference and {@code --help} miss nothing. */
class MasterSettingsTest {
    @Test
    void everyDeclaredSetting_isRead_withEveryConditionOn_andNothingElse(@TempDir Path dir) {
        Settings s = Settings.of(Map.of("replicas", "m1=127.0.0.1:7400/7450", "replica-id", "m1",
                "raft-dir", dir.toString(), "admin-port", "0", "registry-url", "jdbc:postgresql://db/sm",
                "registry-id-key", "master-settings-test-key-0123456789"));
        new MasterConfig(s);
        s.checkAllUsed();
        assertEquals(new TreeSet<>(MasterSettings.ALL.names()), new TreeSet<>(s.effective().keySet()));
    }

    @Test
    void withoutTheirCondition_conditionalSettingsAreNotRead() {
        Settings s = Settings.of(Map.of());
        new MasterConfig(s);
        Set<String> read = s.effective().keySet();
        MasterSettings.ALL.settings().stream().filter(setting -> setting.condition() != null)
                .forEach(setting -> assertFalse(read.contains(setting.name()), setting.name()));
        assertTrue(read.contains("lease") && read.contains("max-store"), read.toString());
    }

    @Test
    void usage_namesConditionalSettings_withTheirRangesAndCondition() {
        String usage = MasterSettings.ALL.usage();
        assertTrue(usage.contains("  lease  ") && usage.contains("duration 100ms..1m"), usage);
        assertTrue(usage.lines().anyMatch(l -> l.startsWith("  replica-id ") && l.endsWith("(with replicas)")), usage);
        assertTrue(usage.lines().anyMatch(l -> l.startsWith("  registry-pool ") && l.endsWith("(with registry-url)")), usage);
    }
}
