package io.sessionmesh.workload;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Zipf over ranks 0..n-1, rank 0 the hottest: P(rank k) is proportional to 1 / (k + 1)^s. The cumulative distribution
 * is computed once and searched with one uniform draw a sample, so a sample costs O(log n) and the same generator
 * state gives the same rank. Thread-safe; each thread brings its own generator.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th><th>why</th></tr>
 *   <tr><td>ranks</td><td>1 to {@value #MAX_RANKS}</td><td>8 bytes of table a rank: 80 MB at the most</td></tr>
 *   <tr><td>skew s</td><td>0 (uniform) to {@value #MAX_SKEW}</td><td>beyond, rank 0 takes nearly every draw</td></tr>
 * </table>
 */
public final class Zipf {
    /** The workload's skew (docs/WORKLOAD.md). */
    public static final double WORKLOAD_S = 0.99;
    /** The most ranks a sampler holds. */
    public static final int MAX_RANKS = 10_000_000;
    /** The highest skew accepted. */
    public static final double MAX_SKEW = 10;

    private final double[] cdf;

    /** A sampler over {@code n} ranks with skew {@code s}. */
    public Zipf(int n, double s) {
        if (n < 1 || n > MAX_RANKS) {
            throw new IllegalArgumentException("ranks = " + n + ": expected 1.." + MAX_RANKS);
        }
        if (!(s >= 0 && s <= MAX_SKEW)) {
            throw new IllegalArgumentException("skew = " + s + ": expected 0.." + MAX_SKEW);
        }
        cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, s);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
    }

    /** The workload's sampler over {@code n} ranks. */
    public static Zipf workload(int n) {
        return new Zipf(n, WORKLOAD_S);
    }

    /** Ranks this sampler draws from. */
    public int ranks() {
        return cdf.length;
    }

    /** The probability of {@code rank}. */
    public double probability(int rank) {
        return rank == 0 ? cdf[0] : cdf[rank] - cdf[rank - 1];
    }

    /** The next rank: one {@code nextDouble()} of {@code random}. */
    public int next(RandomGenerator random) {
        int i = Arrays.binarySearch(cdf, random.nextDouble());
        return Math.min(cdf.length - 1, i < 0 ? -i - 1 : i);
    }
}
