package io.sessionmesh.sidecar.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code body-timeout}: 30 s by default, a duration between 100 ms and an hour. */
class SidecarConfigBodyTimeoutTest {
    @Test
    void bodyTimeout_defaultsTo30s_andTakesADuration() {
        assertEquals(Duration.ofSeconds(30), SidecarConfig.of(Map.of()).bodyTimeout());
        assertEquals(Duration.ofMillis(500), SidecarConfig.of(Map.of("body-timeout", "500ms")).bodyTimeout());
    }

    @Test
    void bodyTimeout_outsideItsBounds_isRefusedNamingIt() {
        for (String v : new String[] {"0s", "50ms", "2h"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SidecarConfig.of(Map.of("body-timeout", v)), v);
            assertTrue(e.getMessage().contains("body-timeout"), e.getMessage());
        }
    }
}
