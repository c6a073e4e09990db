package io.sessionmesh.master.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sessionmesh.benchmarks.master.MasterVsRedis;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The in-process write benchmark measures what it says: every WRITE of a batch through the master's pipeline is
 * answered OK, the store path moves versions on, and SET's counterpart replaces one value a WRITE.
 */
class MasterWritePathBenchmarkTest {
    private MasterWritePathBenchmark benchmark;

    private void started(MasterWritePathBenchmark.Path path) {
        benchmark = new MasterWritePathBenchmark();
        benchmark.path = path;
        benchmark.sessions = 50;
        benchmark.setUp();
    }

    @AfterEach
    void tearDown() {
        if (benchmark != null) {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = MasterWritePathBenchmark.Path.class, names = {"PIPELINE", "SET_PIPELINE"})
    void pipelines_answerEveryWriteOfEachBatchOk(MasterWritePathBenchmark.Path path) {
        started(path);
        for (int i = 0; i < 100; i++) {
            assertEquals(MasterWritePathBenchmark.BATCH, benchmark.batch(), "batch " + i);
        }
    }

    @Test
    void store_writesEachBatchIntoTheStore_versionsRising() {
        started(MasterWritePathBenchmark.Path.STORE);
        long first = benchmark.batch();
        long later = 0;
        for (int i = 0; i < 100; i++) {
            later = benchmark.batch();
        }
        // setUp wrote every section once (version 1), so the first batch's writes are at version 2 at least
        assertTrue(first >= 2L * MasterWritePathBenchmark.BATCH, "first batch's versions sum to " + first);
        assertTrue(later > first, "versions did not rise: " + first + " then " + later);
    }

    @Test
    void setStore_replacesOneValueAWrite() {
        started(MasterWritePathBenchmark.Path.SET_STORE);
        long bytes = benchmark.batch();
        // each value is a WRITE body past its id: MasterVsRedis's first section value and a little framing
        long value = MasterVsRedis.sectionValues()[0].length;
        assertTrue(bytes >= MasterWritePathBenchmark.BATCH * value && bytes < MasterWritePathBenchmark.BATCH * (value + 64),
                "16 values of about " + value + " bytes, not " + bytes);
    }
}
