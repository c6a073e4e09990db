package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.workload.WorkloadValues;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The benchmarks' values are those RESULTS.md 1.2 at 1f3fa7a measured: same seeds, same one-nio plain sizes. */
class OneNioValuesTest {
    /** RESULTS.md 1.2 at 1f3fa7a, one-nio plain column (results/sizes-2026-11-22.md). */
    static final Map<WorkloadValues.Kind, Integer> RECORDED = Map.of(WorkloadValues.Kind.SMALL, 205,
            WorkloadValues.Kind.B64, 36, WorkloadValues.Kind.B256, 381, WorkloadValues.Kind.KB1, 1028,
            WorkloadValues.Kind.KB8, 8231, WorkloadValues.Kind.KB64, 65549, WorkloadValues.Kind.BLOBS_5X1KB, 5190);

    @Test
    void everyKind_hasTheRecordedOneNioSize() {
        for (WorkloadValues.Kind kind : WorkloadValues.Kind.values()) {
            assertEquals(RECORDED.get(kind), OneNioValues.size(OneNioValues.VALUES.of(kind)), kind.name());
        }
    }
}
