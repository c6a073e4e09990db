package io.sessionmesh.master.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MasterConfigTest {
    @Test
    void flags_overrideTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("master.properties");
        Files.writeString(file, "port = 7500\nidle-timeout = 10m\nmax-frame = 8m\n");
        MasterConfig c = MasterConfig.fromArgs("--config", file.toString(), "--port=7600", "--max-session", "4m");
        assertEquals(7600, c.port());
        assertEquals(Duration.ofMinutes(10), c.store().defaultIdleTimeout());
        assertEquals(8 << 20, c.maxFrameBytes());
        assertTrue(c.describe().contains("idle-timeout"));
        assertTrue(c.describe().contains("10m"));
    }

    @Test
    void unknownSetting_isRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MasterConfig.fromArgs("--idle-timout", "5m"));
        assertTrue(e.getMessage().contains("idle-timout"), e.getMessage());
    }

    @Test
    void outOfRange_isRefusedWithTheRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MasterConfig.of(Map.of("port", "70000")));
        assertTrue(e.getMessage().contains("0..65535"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MasterConfig.of(Map.of("max-session", "64m")));
        assertTrue(e.getMessage().contains("max-frame"), e.getMessage());
    }

    @Test
    void defaults_matchTheDocumentedTable() {
        MasterConfig c = MasterConfig.of(Map.of());
        assertEquals(MasterConfig.DEFAULT_PORT, c.port());
        assertEquals("127.0.0.1", c.bind());
        assertEquals(Duration.ofMinutes(5), c.store().defaultIdleTimeout());
        assertEquals(1 << 20, c.store().maxAttributeBytes());
    }

    @Test
    void maxStore_aboveSeventyPercentOfTheHeap_isRefusedAtStart() {
        long heap = Runtime.getRuntime().maxMemory();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MasterConfig.of(Map.of("max-store", Long.toString(heap * 3 / 4))));
        assertTrue(e.getMessage().contains("max-store") && e.getMessage().contains("70%"), e.getMessage());
        assertEquals(heap / 2, MasterConfig.of(Map.of("max-store", Long.toString(heap / 2))).store().maxStoreBytes());
    }

    /** Protected mode: without TLS, a master beyond loopback (its data port or its Raft address) does not start. */
    @Test
    void withoutTls_aMasterBeyondLoopback_refusesToStart_unlessToldSoExplicitly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MasterConfig.of(Map.of("bind", "0.0.0.0")));
        assertTrue(e.getMessage().contains("bind 0.0.0.0 is not a loopback address"), e.getMessage());
        assertTrue(e.getMessage().contains("plaintext-beyond-loopback=true"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MasterConfig.of(Map.of("replicas",
                "m1=10.1.2.3:7400/7450,m2=10.1.2.4:7400/7450,m3=10.1.2.5:7400/7450", "replica-id", "m1",
                "raft-dir", "/tmp/none", "port", "7400")));
        assertTrue(e.getMessage().contains("Raft address 10.1.2.3 is not a loopback address"), e.getMessage());

        assertEquals("0.0.0.0", MasterConfig.of(Map.of("bind", "0.0.0.0", "plaintext-beyond-loopback", "true")).bind());
        assertEquals("localhost", MasterConfig.of(Map.of("bind", "localhost")).bind(), "loopback by name is loopback");
    }
}
