package io.sessionmesh.benchmarks.driver.scale;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.BitSet;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class LiveSessionsTest {
    @Test
    void capacity_referenceScale_ninetyPercentOfRateTimesIdle() {
        assertEquals(494_910, LiveSessions.capacity(1833, Duration.ofMinutes(5), 0.9));
        assertEquals(5_400, LiveSessions.capacity(200, Duration.ofSeconds(30), 0.9));
    }

    @Test
    void slot_everyCapacity_ranksArePermutationOfSlots() {
        for (int capacity : new int[] {1, 2, 10, 360, 5_400, 99_991}) {
            LiveSessions live = new LiveSessions(capacity);
            BitSet seen = new BitSet(capacity);
            for (int rank = 0; rank < capacity; rank++) {
                seen.set(live.slot(rank));
            }
            assertEquals(capacity, seen.cardinality(), "capacity " + capacity);
        }
    }

    @Test
    void put_afterCapacityCreations_theNewestReplacesTheOldest() {
        LiveSessions live = new LiveSessions(3);
        SplittableRandom r = new SplittableRandom(1);
        assertNull(live.pick(r), "nothing created yet");
        for (int i = 0; i < 4; i++) {
            live.put(i, "s" + i);
        }
        for (int i = 0; i < 100; i++) {
            String id = live.pick(r);
            assertNotNull(id);
            assertNotEquals("s0", id, "s0 was replaced by s3");
        }
    }
}
