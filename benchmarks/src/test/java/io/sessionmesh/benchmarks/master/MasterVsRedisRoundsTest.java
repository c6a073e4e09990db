package io.sessionmesh.benchmarks.master;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The summary of --rounds: the median of the rounds' ratios, their range, and each round's in the order run. */
class MasterVsRedisRoundsTest {
    @Test
    void oddRounds_theMiddleOne_andEachInTheOrderRun() {
        assertEquals("0.78 (0.63..0.85): 0.85, 0.78, 0.80, 0.75, 0.63",
                MasterVsRedis.roundsSummary(new double[] {0.85, 0.78, 0.80, 0.75, 0.63}));
    }

    @Test
    void evenRounds_theMeanOfTheMiddleTwo() {
        assertEquals("0.95 (0.70..1.30): 1.30, 0.70, 1.00, 0.90", MasterVsRedis.roundsSummary(new double[] {1.3, 0.7, 1.0, 0.9}));
    }

    @Test
    void oneRound_isItsOwnMedian() {
        assertEquals("1.07 (1.07..1.07): 1.07", MasterVsRedis.roundsSummary(new double[] {1.07}));
    }
}
