package io.sessionmesh.sidecar.config;

import io.sessionmesh.settings.Settings;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sidecar reads exactly what {@link SidecarSettings} declares, so the reference and {@code --help} miss nothing. */
class SidecarSettingsTest {
    @Test
    void everyDeclaredSetting_isRead_withEveryConditionOn_andNothingElse() {
        Settings s = Settings.of(Map.of("registry-url", "jdbc:postgresql://db/sm",
                "registry-id-key", "sidecar-settings-test-key-0123456789"));
        new SidecarConfig(s, Map.of());
        s.checkAllUsed();
        assertEquals(new TreeSet<>(SidecarSettings.ALL.names()), new TreeSet<>(s.effective().keySet()));
    }
}
