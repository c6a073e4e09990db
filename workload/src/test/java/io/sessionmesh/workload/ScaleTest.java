package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScaleTest {
    @Test
    void scaledDown_keepsTheRatios() {
        assertEquals(0.2, Scale.NEW_SESSIONS_PER_MINUTE_PER_ACTIVE, 1e-12);
        assertEquals(110_000 / 60.0, Scale.newSessionsPerSecond(550_000), 1e-9);
        // 5,500 sessions (1/100): 1,100 a minute, one every 54.5 ms.
        assertEquals(54_545_454L, Scale.newSessionIntervalNanos(5_500));
        assertEquals(0.01, Scale.fraction(5_500), 1e-12);
        assertEquals(Duration.ofMinutes(5), Scale.IDLE_TIMEOUT);
    }
}
