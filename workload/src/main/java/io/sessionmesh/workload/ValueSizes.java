package io.sessionmesh.workload;

import java.util.Random;

/**
 * Attribute value sizes of docs/WORKLOAD.md: log-normal with a median of {@value #MEDIAN_BYTES} bytes and a 99th
 * percentile of {@value #P99_BYTES}, clamped to {@value #MIN_BYTES}..{@value #MAX_BYTES}. Sigma follows from the two
 * quantiles: ln(p99 / median) / z(0.99), with z(0.99) = {@value #Z99}. The mean is about 700 bytes. A seed gives the
 * same sizes every run ({@link Random#nextGaussian()} behind them). Not thread-safe: one instance a thread.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>median</td><td>{@value #MEDIAN_BYTES} B</td></tr>
 *   <tr><td>99th percentile</td><td>{@value #P99_BYTES} B</td></tr>
 *   <tr><td>smallest</td><td>{@value #MIN_BYTES} B</td></tr>
 *   <tr><td>largest</td><td>{@value #MAX_BYTES} B</td></tr>
 * </table>
 */
public final class ValueSizes {
    /** The workload's median value size. */
    public static final int MEDIAN_BYTES = 200;
    /** The workload's 99th percentile value size. */
    public static final int P99_BYTES = 8 * 1024;
    /** The largest value: a few reach it. */
    public static final int MAX_BYTES = 64 * 1024;
    /** Smallest value: a one-byte codec header and a few bytes of one-nio. */
    public static final int MIN_BYTES = 8;
    /** The standard normal's 99th percentile. */
    public static final double Z99 = 2.3263;
    private static final double MU = Math.log(MEDIAN_BYTES);
    private static final double SIGMA = Math.log((double) P99_BYTES / MEDIAN_BYTES) / Z99;

    private final Random random;

    /** Sizes drawn from a generator seeded with {@code seed}. */
    public ValueSizes(long seed) {
        this.random = new Random(seed);
    }

    /** The next size, in bytes. */
    public int next() {
        return sizeFor(random.nextGaussian());
    }

    /** The size at a standard normal draw {@code gaussian}: for callers that draw their own. */
    public static int sizeFor(double gaussian) {
        double size = Math.exp(MU + SIGMA * gaussian);
        return (int) Math.max(MIN_BYTES, Math.min(MAX_BYTES, Math.round(size)));
    }
}
