package io.sessionmesh.sidecar.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code io-threads}: half the host's cores by default, at least one; a value given is kept, and bounded. */
class SidecarConfigIoThreadsTest {
    @Test
    void defaultIoThreads_isHalfTheCores_atLeastOne() {
        assertEquals(1, SidecarConfig.defaultIoThreads(1));
        assertEquals(1, SidecarConfig.defaultIoThreads(2));
        assertEquals(1, SidecarConfig.defaultIoThreads(3));
        assertEquals(2, SidecarConfig.defaultIoThreads(4));
        assertEquals(8, SidecarConfig.defaultIoThreads(16));
    }

    @Test
    void ioThreads_withoutTheSetting_followsThisHostsCores() {
        assertEquals(SidecarConfig.defaultIoThreads(Runtime.getRuntime().availableProcessors()),
                SidecarConfig.of(Map.of()).ioThreads());
    }

    @Test
    void ioThreads_given_isKept_andZeroIsRefusedNamingIt() {
        assertEquals(3, SidecarConfig.of(Map.of("io-threads", "3")).ioThreads());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("io-threads", "0")));
        assertTrue(e.getMessage().contains("io-threads"), e.getMessage());
    }
}
