package io.sessionmesh.benchmarks.workload;

import java.util.Random;

/**
 * Attribute value sizes of shared/WORKLOAD.md: log-normal with a median of {@value #MEDIAN_BYTES} bytes and a
 * 99th percentile of {@value #P99_BYTES}, capped at {@value #MAX_BYTES}. Sigma follows from the two
 * quantiles: ln(p99 / median) / z(0.99), with z(0.99) = 2.3263. The mean is about 700 bytes.
 */
public final class WorkloadSizes {
    public static final int MEDIAN_BYTES = 200;
    public static final int P99_BYTES = 8 * 1024;
    public static final int MAX_BYTES = 64 * 1024;
    /** Smallest value: a one-byte codec header and a few bytes of one-nio. */
    public static final int MIN_BYTES = 8;
    private static final double Z99 = 2.3263;
    private static final double MU = Math.log(MEDIAN_BYTES);
    private static final double SIGMA = Math.log((double) P99_BYTES / MEDIAN_BYTES) / Z99;

    private final Random random;

    public WorkloadSizes(long seed) {
        this.random = new Random(seed);
    }

    /** The next size, in bytes. */
    public int next() {
        double size = Math.exp(MU + SIGMA * random.nextGaussian());
        return (int) Math.max(MIN_BYTES, Math.min(MAX_BYTES, Math.round(size)));
    }
}
