package io.sessionmesh.benchmarks.load;

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
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        // 50 ms of this thread's CPU, however busy the machine: five ticks
        for (long until = threads.getCurrentThreadCpuTime() + 50_000_000; threads.getCurrentThreadCpuTime() < until; ) {
            sink += Long.numberOfTrailingZeros(System.nanoTime());
        }
        assertTrue(sink >= 0);
        assertTrue(ProcessCpu.ticks(pid) > before, "50 ms of CPU left no tick");
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
