package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfTest {
    static final int RANKS = 1_000;
    static final int DRAWS = 1_000_000;

    @Test
    void next_manyDrawsWithFixedSeed_followZipfWithinTolerance() {
        Zipf zipf = Zipf.workload(RANKS);
        int[] counts = new int[RANKS];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < DRAWS; i++) {
            counts[zipf.next(random)]++;
        }
        // P(k) = (k + 1)^-0.99 / H(1000, 0.99); H is about 7.7, so rank 0 takes about 13% of the draws.
        double h = 0;
        for (int k = 1; k <= RANKS; k++) {
            h += Math.pow(k, -Zipf.WORKLOAD_S);
        }
        for (int k : new int[] {0, 1, 2, 9, 99}) {
            double expected = Math.pow(k + 1, -Zipf.WORKLOAD_S) / h;
            double observed = (double) counts[k] / DRAWS;
            assertEquals(expected, observed, expected * 0.05, "rank " + k);
            assertEquals(expected, zipf.probability(k), 1e-12, "probability of rank " + k);
        }
        // The head of the distribution: the top 1% of ranks take about 39% of the draws, the top 10% about 68%.
        assertEquals(share(h, 10), prefix(counts, 10) / (double) DRAWS, 0.01);
        assertEquals(share(h, 100), prefix(counts, 100) / (double) DRAWS, 0.01);
        assertTrue(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > counts[10] && counts[10] > counts[500]);
    }

    @Test
    void next_sameSeed_sameRanks() {
        Zipf zipf = Zipf.workload(5_500);
        SplittableRandom a = new SplittableRandom(3);
        SplittableRandom b = new SplittableRandom(3);
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            int rank = zipf.next(a);
            assertEquals(rank, zipf.next(b));
            sum += rank;
        }
        // The figure the load generator's sampler gave before it moved here.
        assertEquals(61_496_743L, sum);
    }

    @Test
    void next_oneRankOrExtremeDraws_staysInRange() {
        assertEquals(0, new Zipf(1, 0.99).next(new SplittableRandom(1)));
        Zipf zipf = new Zipf(10, 0);
        assertEquals(0.1, zipf.probability(9), 1e-12);
        assertEquals(9, zipf.next(new FixedDouble(Math.nextDown(1.0))));
        assertEquals(0, zipf.next(new FixedDouble(0.0)));
    }

    @Test
    void constructor_outOfRange_refused() {
        assertThrows(IllegalArgumentException.class, () -> new Zipf(0, 0.99));
        assertThrows(IllegalArgumentException.class, () -> new Zipf(Zipf.MAX_RANKS + 1, 0.99));
        assertThrows(IllegalArgumentException.class, () -> new Zipf(10, -1));
        assertThrows(IllegalArgumentException.class, () -> new Zipf(10, Double.NaN));
    }

    private static double share(double h, int top) {
        double sum = 0;
        for (int k = 1; k <= top; k++) {
            sum += Math.pow(k, -Zipf.WORKLOAD_S);
        }
        return sum / h;
    }

    private static long prefix(int[] counts, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += counts[i];
        }
        return sum;
    }

    /** A generator whose every double is the same. */
    record FixedDouble(double value) implements java.util.random.RandomGenerator {
        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double nextDouble() {
            return value;
        }
    }
}
