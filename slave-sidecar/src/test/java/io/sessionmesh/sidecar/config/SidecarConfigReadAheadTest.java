package io.sessionmesh.sidecar.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code read-ahead}: on by default, 0 turns it off, bounded by {@link SidecarConfig#MAX_READ_AHEAD}. */
class SidecarConfigReadAheadTest {
    @Test
    void readAhead_isOnByDefault_andZeroTurnsItOff() {
        assertEquals(SidecarConfig.DEFAULT_READ_AHEAD, SidecarConfig.of(Map.of()).readAhead());
        assertTrue(SidecarConfig.DEFAULT_READ_AHEAD > 0);
        assertEquals(0, SidecarConfig.of(Map.of("read-ahead", "0")).readAhead());
        assertEquals(SidecarConfig.MAX_READ_AHEAD,
                SidecarConfig.of(Map.of("read-ahead", String.valueOf(SidecarConfig.MAX_READ_AHEAD))).readAhead());
    }

    @Test
    void readAhead_aboveItsBound_isRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("read-ahead", String.valueOf(SidecarConfig.MAX_READ_AHEAD + 1))));
        assertTrue(e.getMessage().contains("read-ahead"), e.getMessage());
    }
}
