package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ValueSizesTest {
    static final int DRAWS = 200_000;

    @Test
    void next_manyDraws_medianAndP99AsTheWorkloadSays() {
        int[] sizes = draws(new ValueSizes(42), DRAWS);
        Arrays.sort(sizes);
        int median = sizes[DRAWS / 2];
        int p99 = sizes[(int) (DRAWS * 0.99)];
        assertTrue(median >= 190 && median <= 210, "median " + median);
        assertTrue(p99 >= 7_400 && p99 <= 9_000, "p99 " + p99);
        assertTrue(sizes[0] >= ValueSizes.MIN_BYTES, "smallest " + sizes[0]);
        assertEquals(ValueSizes.MAX_BYTES, sizes[DRAWS - 1], "a few reach the largest size");
        double mean = Arrays.stream(sizes).average().orElseThrow();
        assertTrue(mean > 600 && mean < 800, "mean " + mean);
    }

    @Test
    void next_sameSeed_sameSizes() {
        assertArrayEquals(draws(new ValueSizes(7), 1_000), draws(new ValueSizes(7), 1_000));
        // The sizes the benchmarks drew with seed 42 before the workload moved here: same seed, same values.
        assertArrayEquals(new int[] {1237, 868, 44, 34, 313, 596, 54, 22, 147, 2144}, draws(new ValueSizes(42), 10));
        assertEquals(70_809_058L, Arrays.stream(draws(new ValueSizes(42), 100_000)).asLongStream().sum());
    }

    @Test
    void sizeFor_quantilesAndClamps() {
        assertEquals(ValueSizes.MEDIAN_BYTES, ValueSizes.sizeFor(0));
        assertEquals(ValueSizes.P99_BYTES, ValueSizes.sizeFor(ValueSizes.Z99), 1);
        assertEquals(ValueSizes.MIN_BYTES, ValueSizes.sizeFor(-20));
        assertEquals(ValueSizes.MAX_BYTES, ValueSizes.sizeFor(20));
    }

    private static int[] draws(ValueSizes sizes, int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = sizes.next();
        }
        return out;
    }
}
