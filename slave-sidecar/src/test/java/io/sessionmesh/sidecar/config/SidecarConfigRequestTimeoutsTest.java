package io.sessionmesh.sidecar.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API's request deadlines: {@code head-timeout}, 10 s by default, and {@code body-timeout}, 30 s; each a duration
 * between 100 ms and an hour.
 */
class SidecarConfigRequestTimeoutsTest {
    @Test
    void headTimeout_defaultsTo10s_andTakesADuration() {
        assertEquals(Duration.ofSeconds(10), SidecarConfig.of(Map.of()).headTimeout());
        assertEquals(Duration.ofMillis(250), SidecarConfig.of(Map.of("head-timeout", "250ms")).headTimeout());
    }

    @Test
    void bodyTimeout_defaultsTo30s_andTakesADuration() {
        assertEquals(Duration.ofSeconds(30), SidecarConfig.of(Map.of()).bodyTimeout());
        assertEquals(Duration.ofMillis(500), SidecarConfig.of(Map.of("body-timeout", "500ms")).bodyTimeout());
    }

    @Test
    void eitherTimeout_outsideItsBounds_isRefusedNamingIt() {
        for (String setting : new String[] {"head-timeout", "body-timeout"}) {
            for (String v : new String[] {"0s", "50ms", "2h"}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> SidecarConfig.of(Map.of(setting, v)), setting + " " + v);
                assertTrue(e.getMessage().contains(setting), e.getMessage());
            }
        }
    }
}
