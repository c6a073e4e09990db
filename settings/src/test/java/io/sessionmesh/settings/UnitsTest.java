package io.sessionmesh.settings;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnitsTest {
    @Test
    void durationsAndSizes_parseAndFormat() {
        assertEquals(Duration.ofMillis(500), Units.parseDuration("500ms"));
        assertEquals(Duration.ofSeconds(30), Units.parseDuration("30"));
        assertEquals(Duration.ofMinutes(5), Units.parseDuration("5m"));
        assertEquals(Duration.ofDays(1), Units.parseDuration("1d"));
        assertEquals(64L << 20, Units.parseSize("64m"));
        assertEquals(64L << 20, Units.parseSize("64MiB"));
        assertEquals(1_048_576, Units.parseSize("1_048_576"));
        assertEquals("5m", Units.formatDuration(Duration.ofSeconds(300)));
        assertEquals("1500ms", Units.formatDuration(Duration.ofMillis(1500)));
        assertEquals("32m", Units.formatSize(32 << 20));
        assertEquals("1000", Units.formatSize(1000));
    }

    @Test
    void badValues_nameTheValue() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseDuration("5 weeks")).getMessage().contains("\"5 weeks\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseSize("m")).getMessage().contains("whole number"));
        assertThrows(IllegalArgumentException.class, () -> Units.parseSize("99999999999t"));
    }

    @Test
    void hostPort_parsesNamesAddressesAndBracketedIpv6() {
        assertEquals(InetSocketAddress.createUnresolved("master-1", 7400), Units.parseHostPort("master-1:7400"));
        assertEquals(InetSocketAddress.createUnresolved("::1", 7400), Units.parseHostPort("[::1]:7400"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseHostPort("master")).getMessage()
                .contains("not host:port"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseHostPort("m:99999")).getMessage()
                .contains("outside 1..65535"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseHostPort("m:x")).getMessage()
                .contains("no port number"));
    }
}
