package io.sessionmesh.master.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpiryWheelTest {
    @Test
    void advance_looksOnlyAtSessionsThatComeDue_notTheWholeStore() {
        long now = 1_000_000;
        ExpiryWheel wheel = new ExpiryWheel(1000, 4096, now);
        for (int i = 0; i < 100_000; i++) {
            wheel.schedule(new Session("long" + i, now, 3_600_000, 86_400_000));
        }
        List<Session> expired = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            wheel.schedule(new Session("short" + i, now, 5_000, 86_400_000));
        }
        int looked = wheel.advance(now + 6_000, expired::add);
        assertEquals(10, expired.size());
        assertEquals(10, looked, "the sweep looked at sessions that were not due");
    }

    @Test
    void advance_reschedulesSessionsUsedSinceTheyWereScheduled() {
        long now = 0;
        ExpiryWheel wheel = new ExpiryWheel(1000, 64, now);
        Session s = new Session("s", now, 10_000, 1_000_000);
        wheel.schedule(s);
        s.lastAccess = 8_000;
        List<Session> expired = new ArrayList<>();
        wheel.advance(12_000, expired::add);
        assertTrue(expired.isEmpty());
        wheel.advance(18_000, expired::add);
        assertEquals(List.of(s), expired);
    }

    @Test
    void advance_deadlinesBeyondOneTurnOfTheRing_expireOnTime() {
        ExpiryWheel wheel = new ExpiryWheel(1000, 16, 0);
        Session s = new Session("s", 0, 100_000, 1_000_000);
        wheel.schedule(s);
        List<Session> expired = new ArrayList<>();
        for (long t = 1000; t < 100_000; t += 1000) {
            wheel.advance(t, expired::add);
        }
        assertTrue(expired.isEmpty());
        wheel.advance(100_000, expired::add);
        assertEquals(List.of(s), expired);
    }

    @Test
    void advance_afterALongPause_findsEverythingDue() {
        ExpiryWheel wheel = new ExpiryWheel(1000, 16, 0);
        List<Session> all = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            Session s = new Session("s" + i, 0, i * 1000L, 1_000_000);
            all.add(s);
            wheel.schedule(s);
        }
        List<Session> expired = new ArrayList<>();
        wheel.advance(1_000_000, expired::add);
        assertEquals(50, expired.size());
        assertTrue(expired.containsAll(all));
    }

    @Test
    void removedSessions_areSkipped() {
        ExpiryWheel wheel = new ExpiryWheel(1000, 16, 0);
        Session s = new Session("s", 0, 1000, 1_000_000);
        wheel.schedule(s);
        s.removed = true;
        List<Session> expired = new ArrayList<>();
        wheel.advance(5000, expired::add);
        assertTrue(expired.isEmpty());
        assertEquals(0, wheel.size());
    }
}
