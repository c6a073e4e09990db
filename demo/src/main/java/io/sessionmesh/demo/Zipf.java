package io.sessionmesh.demo;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/** Zipf over ranks 0..n-1 (rank 0 the hottest): the cumulative distribution, searched. */
final class Zipf {
    /** The workload's skew. */
    static final double WORKLOAD_S = 0.99;

    private final double[] cumulative;

    Zipf(int n, double s) {
        cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, s);
            cumulative[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
    }

    int next() {
        int i = Arrays.binarySearch(cumulative, ThreadLocalRandom.current().nextDouble());
        return Math.min(cumulative.length - 1, i < 0 ? -i - 1 : i);
    }
}
