package io.sessionmesh.benchmarks.driver.measure;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessCpuTest {
    @Test
    void parseTicks_commandWithSpacesAndParentheses_utimePlusStime() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1234 0 0 0 731 269 0 0 20 0 40 0 555 1000 100 0";
        assertEquals(1000, ProcessCpu.parseTicks(stat));
    }

    @Test
    void ticks_thisProcess_growsWithWork() {
        long pid = ProcessHandle.current().pid();
        long before = ProcessCpu.ticks(pid);
        burn(50); // five ticks
        assertTrue(ProcessCpu.ticks(pid) > before, "50 ms of CPU left no tick");
    }

    @Test
    void snapshot_byRole_sumsItsProcesses_jvmThreadsOfJvmsOnly_andDiffs() {
        long pid = ProcessHandle.current().pid();
        java.util.Map<String, java.util.List<Long>> roles = new java.util.LinkedHashMap<>();
        roles.put("service", java.util.List.of(pid, Long.MAX_VALUE)); // one process gone: counts 0
        roles.put("redis", java.util.List.of(pid));
        ProcessCpu.Snapshot before = ProcessCpu.Snapshot.take(roles);
        burn(50);
        ProcessCpu.Snapshot spent = ProcessCpu.Snapshot.take(roles).minus(before);
        assertTrue(spent.ticks().get("service") > 0 && spent.ticks().get("redis") > 0, spent.toString());
        assertTrue(spent.driverTicks() > 0, spent.toString());
        assertEquals(java.util.Set.of("service"), spent.threadTicks().keySet(), "Redis has no JIT and GC threads");
        assertTrue(spent.threadTicks().get("service").values().stream().allMatch(t -> t >= 0), spent.toString());
    }

    /** Spends {@code millis} ms of this thread's CPU, however busy the machine. */
    private static void burn(long millis) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (long until = threads.getCurrentThreadCpuTime() + millis * 1_000_000; threads.getCurrentThreadCpuTime() < until; ) {
            sink += Long.numberOfTrailingZeros(System.nanoTime());
        }
        assertTrue(sink >= 0);
    }

    @Test
    void ticks_noSuchProcess_zero() {
        assertEquals(0, ProcessCpu.ticks(Long.MAX_VALUE));
    }

    @Test
    void threadKind_hotSpotNames() {
        assertEquals("jit", ProcessCpu.threadKind("C2 CompilerThre"));
        assertEquals("jit", ProcessCpu.threadKind("C1 CompilerThre"));
        assertEquals("gc", ProcessCpu.threadKind("GC Thread#1"));
        assertEquals("gc", ProcessCpu.threadKind("VM Thread"));
        assertEquals(null, ProcessCpu.threadKind("http-nio-8080-e"));
    }

    @Test
    void jvmThreadTicks_thisJvm_hasCompilerThreads() {
        assertTrue(ProcessCpu.jvmThreadTicks(ProcessHandle.current().pid()).containsKey("jit"));
    }
}
