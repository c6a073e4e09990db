package io.sessionmesh.benchmarks.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Zipf over ranks 0..n-1 (rank 0 the hottest; shared/WORKLOAD.md uses s = 0.99): the cumulative distribution, searched. */
public final class Zipf {
    /** The workload's skew. */
    public static final double WORKLOAD_S = 0.99;

    private final double[] cdf;

    public Zipf(int n, double s) {
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

    public int next(SplittableRandom r) {
        int i = Arrays.binarySearch(cdf, r.nextDouble());
        return Math.min(cdf.length - 1, i < 0 ? -i - 1 : i);
    }
}
