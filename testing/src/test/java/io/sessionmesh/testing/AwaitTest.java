package io.sessionmesh.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AwaitTest {
    @Test
    void until_conditionThatComesTrue_returnsOnceItHolds() {
        AtomicInteger polls = new AtomicInteger();
        Await.until("the third poll", Duration.ofSeconds(5), () -> polls.incrementAndGet() >= 3);
        assertEquals(3, polls.get());
    }

    @Test
    void until_conditionThatNeverHolds_failsNamingWhatAndTheLastError() {
        IOException refused = new IOException("connection refused");
        AssertionError e = assertThrows(AssertionError.class, () -> Await.until("the sidecar to answer",
                Duration.ofMillis(100), () -> {
                    throw refused;
                }));
        assertTrue(e.getMessage().startsWith("waited "), e.getMessage());
        assertTrue(e.getMessage().contains(" ms for the sidecar to answer; last: java.io.IOException: connection refused"),
                e.getMessage());
        assertSame(refused, e.getCause());
    }

    @Test
    void until_falseWithoutError_failsWithoutALastError() {
        AssertionError e = assertThrows(AssertionError.class, () -> Await.until("nothing", Duration.ofMillis(50), () -> false));
        assertTrue(e.getMessage().endsWith(" ms for nothing"), e.getMessage());
    }
}
