package io.sessionmesh.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * A fixed pool of the workload's attribute values, made once so that a load run spends its time on the systems, not
 * on making values: sizes follow {@link ValueSizes}, rounded to {@value #SIZE_BUCKETS} log-spaced sizes from
 * {@value ValueSizes#MIN_BYTES} to {@value ValueSizes#MAX_BYTES} B; one value in {@value #BLOB_EVERY} is an opaque
 * byte[] blob of random bytes, the others client records grown to their size ({@link WorkloadValues}), one record
 * per size shared by every slot of that size. A value is drawn uniformly from the pool. The same seed and size
 * function give the same pool. Immutable once made; the values are shared, so callers must not change them.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>values in the pool</td><td>{@value #POOL}</td></tr>
 *   <tr><td>distinct sizes</td><td>{@value #SIZE_BUCKETS}</td></tr>
 *   <tr><td>blobs</td><td>one value in {@value #BLOB_EVERY}</td></tr>
 * </table>
 */
public final class ValuePool {
    /** Values in the pool. */
    public static final int POOL = 512;
    /** Distinct value sizes (log-spaced from the smallest to the largest workload size). */
    public static final int SIZE_BUCKETS = 24;
    /** One value in this many is a byte[] blob. */
    public static final int BLOB_EVERY = 5;

    private final List<Object> pool = new ArrayList<>();

    /**
     * A pool drawn from {@code random} (blob contents) and {@code new ValueSizes(seed)} (sizes), with client records
     * sized by {@code size}. Leaves {@code random} where the pool left it.
     */
    public ValuePool(long seed, RandomGenerator random, SerializedSize size) {
        WorkloadValues values = new WorkloadValues(size);
        ValueSizes sizes = new ValueSizes(seed);
        Map<Integer, Object> byBucket = new TreeMap<>();
        for (int i = 0; i < POOL; i++) {
            int bytes = bucket(sizes.next());
            if (i % BLOB_EVERY == BLOB_EVERY - 1) {
                byte[] blob = new byte[bytes];
                random.nextBytes(blob);
                pool.add(blob);
            } else {
                pool.add(byBucket.computeIfAbsent(bytes, values::clientOfSize));
            }
        }
    }

    /** The bucket size nearest to {@code size} on the log scale. */
    static int bucket(int size) {
        double lo = Math.log(ValueSizes.MIN_BYTES);
        double hi = Math.log(ValueSizes.MAX_BYTES);
        long step = Math.round((Math.log(size) - lo) / (hi - lo) * (SIZE_BUCKETS - 1));
        return (int) Math.round(Math.exp(lo + step * (hi - lo) / (SIZE_BUCKETS - 1)));
    }

    /** A value drawn uniformly: one {@code nextInt} of {@code random}. */
    public Object next(RandomGenerator random) {
        return pool.get(random.nextInt(pool.size()));
    }

    /** Every value, in pool order. */
    public List<Object> values() {
        return List.copyOf(pool);
    }
}
