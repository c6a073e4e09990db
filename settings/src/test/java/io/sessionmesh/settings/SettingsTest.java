package io.sessionmesh.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsTest {
    @Test
    void flags_inBothForms_overrideTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("a.properties");
        Files.writeString(file, "port = 7500\nidle = 10m\nname = from-file\n");
        Settings s = Settings.fromArgs("--config", file.toString(), "--port=7600", "--name", "from-flag");
        assertEquals(7600, s.port("port", 1));
        assertEquals(Duration.ofMinutes(10), s.duration("idle", Duration.ZERO, Duration.ZERO, Duration.ofDays(1)));
        assertEquals("from-flag", s.string("name", null));
        s.checkAllUsed();
    }

    @Test
    void bareFlag_isASwitch_andAValueFlagWithoutValue_isNamed() {
        Settings s = Settings.fromArgs("--stop", "--users", "4", "--short");
        assertTrue(s.bool("stop", false));
        assertTrue(s.bool("short", false));
        assertFalse(s.bool("absent", false));
        assertEquals(4, s.integer("users", 1, 1, 10));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromArgs("--duration").duration("duration", Duration.ZERO, Duration.ZERO, Duration.ofDays(1)));
        assertEquals("flag --duration has no value", e.getMessage());
    }

    @Test
    void help_isNoticedAnywhere() {
        assertTrue(Settings.fromArgs("--port", "1", "-h").helpRequested());
        assertTrue(Settings.fromArgs("--help").helpRequested());
        assertFalse(Settings.fromArgs("--port", "1").helpRequested());
    }

    @Test
    void unknownOrTwiceGiven_isRefusedByName() {
        Settings s = Settings.fromArgs("--idle-timout", "5m", "--port", "1");
        s.port("port", 7);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::checkAllUsed);
        assertTrue(e.getMessage().contains("flag --idle-timout"), e.getMessage());
        assertTrue(e.getMessage().contains("known: port"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Settings.fromArgs("--a", "1", "--a=2"));
        assertEquals("flag --a is given twice", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Settings.fromArgs("positional"));
        assertTrue(e.getMessage().contains("\"positional\" is not a flag"), e.getMessage());
    }

    @Test
    void ranges_choicesAndLists_areCheckedWithTheSettingNamed() {
        Settings s = Settings.of(Map.of("port", "70000", "mode", "half-open", "modes", "closed,closed", "systems", "a,,b"));
        assertEquals("setting port = \"70000\": expected a number in 0..65535",
                assertThrows(IllegalArgumentException.class, () -> s.port("port", 1)).getMessage());
        assertEquals("setting mode = \"half-open\": expected one of closed, open",
                assertThrows(IllegalArgumentException.class, () -> s.choice("mode", "closed", List.of("closed", "open"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.list("modes", List.of(), List.of("closed", "open")))
                .getMessage().contains("names \"closed\" once"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.list("systems", List.of(), null))
                .getMessage().contains("without empty items"));
        assertEquals(List.of("open", "closed"),
                Settings.of(Map.of("m", "open, closed")).list("m", List.of(), List.of("closed", "open")));
    }

    @Test
    void integers_areListsInRange() {
        assertEquals(List.of(1, 4, 16), Settings.of(Map.of("c", "1, 4,16")).integers("c", List.of(), 1, 64));
        assertEquals(List.of(2), Settings.of(Map.of()).integers("c", List.of(2), 1, 64));
        assertEquals("setting c = \"1,65\": expected a comma-separated list of numbers in 1..64",
                assertThrows(IllegalArgumentException.class,
                        () -> Settings.of(Map.of("c", "1,65")).integers("c", List.of(), 1, 64)).getMessage());
    }

    @Test
    void hostPorts_areParsedAndDistinct() {
        assertEquals(List.of(InetSocketAddress.createUnresolved("a", 1), InetSocketAddress.createUnresolved("b", 2)),
                Settings.of(Map.of("masters", "a:1, b:2")).hostPorts("masters", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("masters", "a:1,a:1")).hostPorts("masters", null));
        assertTrue(e.getMessage().contains("names \"a:1\" once"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Settings.of(Map.of("masters", "a")).hostPorts("masters", null));
        assertTrue(e.getMessage().startsWith("setting masters: \"a\" is not host:port"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Settings.of(Map.of("masters", "a:1|b:2")).hostPorts("masters", null));
        assertTrue(e.getMessage().contains("(no '|')"), e.getMessage());
    }

    @Test
    void hostPortGroups_joinReplicasWithABar_andNameEachAddressOnce() {
        InetSocketAddress a1 = InetSocketAddress.createUnresolved("a1", 1);
        InetSocketAddress a2 = InetSocketAddress.createUnresolved("a2", 2);
        InetSocketAddress b = InetSocketAddress.createUnresolved("b", 3);
        assertEquals(List.of(List.of(a1, a2), List.of(b)),
                Settings.of(Map.of("masters", "a1:1|a2:2, b:3")).hostPortGroups("masters", null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("masters", "a1:1|a2:2,a2:2")).hostPortGroups("masters", null));
        assertTrue(e.getMessage().contains("names \"a2:2\" once"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("masters", "a1:1|")).hostPortGroups("masters", null));
        assertTrue(e.getMessage().startsWith("setting masters: \"\" is not host:port"), e.getMessage());
    }

    @Test
    void describe_showsEffectiveValuesInTheirUnits_andNeverASecret() {
        Settings s = Settings.of(Map.of("token", "hunter2", "max", "1048576"));
        s.port("port", 0);
        s.size("max", 0, 0, 1L << 30);
        s.duration("idle", Duration.ofSeconds(300), Duration.ZERO, Duration.ofDays(1));
        assertEquals("hunter2", s.secret("token"));
        assertNull(Settings.of(Map.of()).secret("token"));
        String text = s.describe();
        assertTrue(text.contains("port   0 (any free port)"), text);
        assertTrue(text.contains("max    1m"), text);
        assertTrue(text.contains("idle   5m"), text);
        assertTrue(text.contains("token  (set)"), text);
        assertFalse(text.contains("hunter2"), text);
    }

    @Test
    void usage_showsEachValueWithWhatItAccepts_inReadingOrder() {
        Settings s = Settings.of(Map.of("lease", "5s"));
        s.duration("lease", Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofMinutes(1));
        s.size("max-store", 1L << 30, 1, Long.MAX_VALUE);
        s.integer("threads", 2, 1, 64);
        s.choice("transport", "nio", List.of("nio", "epoll"));
        s.bool("tls", false);
        s.string("name", null);
        assertEquals(String.join("\n",
                "  lease      5s      100ms..1m",
                "  max-store  1g      1..",
                "  threads    2       1..64",
                "  transport  nio     nio|epoll",
                "  tls        false   true|false",
                "  name       (none)",
                ""), s.usage());
    }

    @Test
    void usage_aLongValueDoesNotPushTheRangesRight() {
        Settings s = Settings.of(Map.of());
        s.show("token", "x".repeat(60));
        s.integer("n", 1, 1, 9);
        String[] lines = s.usage().split("\n");
        assertEquals("  n      1" + " ".repeat(Settings.USAGE_VALUE_WIDTH + 1) + "1..9", lines[1]);
    }
}
