package io.sessionmesh.benchmarks.driver.load;

import io.sessionmesh.testing.Await;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionSetTest {
    @Test
    void fill_logsASessionIntoEverySlot_thenStops() throws Exception {
        SessionSet set = new SessionSet(40, 1, true, false, false);
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            assertFalse(set.full());
            load.closedLoop(4, set.fill()).get(30, TimeUnit.SECONDS);
            assertTrue(set.full());
            assertEquals(40, new HashSet<>(set.ids()).size(), "distinct sessions");
            assertEquals(40, app.logins.get());
            assertEquals(0, load.errorCount());
        }
    }

    @Test
    void mix_sessionGone_withRelogin_countedAndLoggedInAgain_notAnError() throws Exception {
        SessionSet set = new SessionSet(5, 1, true, false, true);
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            load.closedLoop(2, set.fill()).get(30, TimeUnit.SECONDS);
            List<String> before = set.ids();
            app.gone.addAll(before);
            load.closedLoop(2, set.mix());
            Await.until("every slot to get a new session", Duration.ofSeconds(30),
                    () -> set.ids().stream().noneMatch(before::contains));
            load.stop();
            assertTrue(set.expired() >= 5, "expired " + set.expired());
            assertEquals(0, load.errorCount(), String.valueOf(load.errors()));
        }
    }

    @Test
    void mix_sessionGone_withoutRelogin_anError() throws Exception {
        SessionSet set = new SessionSet(3, 1, true, false, false);
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            load.closedLoop(1, set.fill()).get(30, TimeUnit.SECONDS);
            app.gone.addAll(set.ids());
            load.closedLoop(1, set.mix());
            Thread.sleep(100);
            load.stop();
            assertTrue(load.errorCount() > 0);
            assertTrue(load.errors().keySet().stream().allMatch(k -> k.endsWith(" 404")), load.errors().toString());
        }
    }

    @Test
    void host_sticky_aSessionAlwaysOnOneHost_random_onEvery() {
        SessionSet sticky = new SessionSet(10, 3, true, false, false);
        SessionSet random = new SessionSet(10, 3, false, false, false);
        SplittableRandom r = new SplittableRandom(1);
        HashSet<Integer> stickyHosts = new HashSet<>();
        HashSet<Integer> randomHosts = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            stickyHosts.add(sticky.host("session-42", r));
            randomHosts.add(random.host("session-42", r));
        }
        assertEquals(1, stickyHosts.size());
        assertEquals(3, randomHosts.size());
        assertNotEquals(sticky.host("a", r), -1);
    }

    @Test
    void logins_replaceTheSlotsInTurn() throws Exception {
        SessionSet set = new SessionSet(3, 1, true, false, false);
        try (FakeApp app = new FakeApp(); HttpLoad load = new HttpLoad(List.of(app.address()))) {
            load.closedLoop(1, set.fill()).get(30, TimeUnit.SECONDS);
            int[] left = {2};
            load.closedLoop(1, random -> left[0]-- > 0 ? set.logins().next(random) : null).get(30, TimeUnit.SECONDS);
            assertEquals(List.of("S4", "S5", "S3"), set.ids());
        }
    }
}
