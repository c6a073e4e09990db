package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.workload.ValuePool;
import io.sessionmesh.workload.WorkloadValues;

import one.nio.serial.Serializer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.random.RandomGenerator;

/**
 * The workload's values (io.sessionmesh.workload) with their sizes measured in one-nio plain mode, the form the
 * attribute codec writes: the values every benchmark and load generator here uses (RESULTS.md 1.2 at 1f3fa7a gives their bytes).
 */
public final class OneNioValues {
    /** The packages of the values the benchmarks store: what their clients may decode. */
    public static final ClassFilter CLASS_FILTER =
            ClassFilter.allowingPackages("io.sessionmesh.workload", "io.sessionmesh.benchmarks");
    /** Client records grown to one-nio plain-mode sizes. */
    public static final WorkloadValues VALUES = new WorkloadValues(OneNioValues::size);

    private OneNioValues() {
    }

    /** The workload's value pool, its client records sized in one-nio plain mode. */
    public static ValuePool pool(long seed, RandomGenerator random) {
        return new ValuePool(seed, random, OneNioValues::size);
    }

    /** The one-nio plain-mode size of a value. */
    public static int size(Object value) {
        try {
            return Serializer.serialize(value).length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
