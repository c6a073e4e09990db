package io.sessionmesh.settings;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingTest {
    static final Setting<Duration> LEASE = Setting.duration("lease", Duration.ofSeconds(2), Duration.ofMillis(100),
            Duration.ofMinutes(1)).means("how long a cache may serve");
    static final Setting<Integer> THREADS = Setting.integer("threads", 4, 1, 64).shownAs("number of cores")
            .means("event loops");

    @Test
    void read_checksTheDeclaredRange_withTheSettingsMessage() {
        assertEquals(Duration.ofSeconds(5), LEASE.read(Settings.of(Map.of("lease", "5s"))));
        assertEquals(Duration.ofSeconds(2), LEASE.read(Settings.of(Map.of())));
        assertEquals("setting lease = \"2m\": expected a duration in 100ms..1m",
                assertThrows(IllegalArgumentException.class, () -> LEASE.read(Settings.of(Map.of("lease", "2m"))))
                        .getMessage());
        assertEquals(7, THREADS.read(Settings.of(Map.of()), 7));
    }

    @Test
    void accepts_andDefault_areWhatTheGetterChecksAndReturns() {
        assertEquals("duration 100ms..1m", LEASE.accepts());
        assertEquals("2s", LEASE.shownDefault());
        assertEquals("number of cores", THREADS.shownDefault());
        assertEquals("integer 1..64", THREADS.accepts());
        assertEquals("size 1..", Setting.size("max-store", 1L << 30, 1, Long.MAX_VALUE).accepts());
        assertEquals("auto, epoll or nio", Setting.choice("io", "auto", List.of("auto", "epoll", "nio")).accepts());
        assertEquals("0 (any free port)", Setting.port("port", 0).shownDefault());
        assertEquals("none", Setting.path("ready-file").shownDefault());
        assertNull(Setting.path("ready-file").read(Settings.of(Map.of())));
    }

    @Test
    void accepting_isForTextOnly_soARangeIsNeverDocumentedApartFromItsCheck() {
        assertEquals("jdbc:postgresql:...", Setting.text("url", null).accepting("jdbc:postgresql:...").accepts());
        assertThrows(IllegalStateException.class, () -> THREADS.accepting("any number"));
        assertThrows(IllegalArgumentException.class, () -> Setting.choice("io", "epol", List.of("epoll", "nio")));
    }

    @Test
    void list_refusesATwiceDeclaredName_andASettingThatSaysNothing() {
        assertTrue(assertThrows(IllegalStateException.class, () -> SettingList.of(LEASE, LEASE)).getMessage()
                .contains("lease is declared twice"));
        assertTrue(assertThrows(IllegalStateException.class, () -> SettingList.of(Setting.bool("tls", false)))
                .getMessage().contains("tls says nothing"));
    }

    @Test
    void usage_listsEverySetting_conditionalOnesToo_withDefaultAndAccepts() {
        Setting<String> replicas = Setting.text("replicas", null).means("the group");
        Setting<String> id = Setting.text("replica-id", null).onlyWith(replicas).means("which replica");
        SettingList list = SettingList.of(LEASE, THREADS, replicas, id);
        assertEquals(String.join("\n",
                "  lease       2s               duration 100ms..1m",
                "  threads     number of cores  integer 1..64",
                "  replicas    none             text",
                "  replica-id  none             text (with replicas)",
                ""), list.usage());
        Setting<Duration> longer = LEASE.withDefault(Duration.ofSeconds(3), "3s");
        assertEquals("3s", list.with(longer).get("lease").shownDefault());
        assertEquals(List.of("lease", "threads", "replicas", "replica-id"), list.with(longer).names());
    }
}
