package io.sessionmesh.benchmarks.driver.scale;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** GC.heap_info answers as JDK 17 (G1, Parallel, ZGC) and JDK 25 (ZGC) give them. */
class JvmMemoryTest {
    @Test
    void usedHeapBytes_g1_theHeapLineNotMetaspace() {
        String info = """
                1938:
                 garbage-first heap   total 48128K, used 12811K [0x00000000f8000000, 0x0000000100000000)
                  region size 1024K, 0 young (0K), 0 survivors (0K)
                 Metaspace       used 9150K, committed 9408K, reserved 1114112K
                  class space    used 1095K, committed 1216K, reserved 1048576K
                """;
        assertEquals(12811L * 1024, JvmMemory.usedHeapBytes(info));
    }

    @Test
    void usedHeapBytes_parallel_youngPlusOld() {
        String info = """
                2170:
                 PSYoungGen      total 38400K, used 100K [0x00000000fd580000, 0x0000000100000000, 0x0000000100000000)
                  eden space 33280K, 0% used [0x00000000fd580000,0x00000000fd580000,0x00000000ff600000)
                 ParOldGen       total 87552K, used 12090K [0x00000000f8000000, 0x00000000fd580000, 0x00000000fd580000)
                  object space 87552K, 13% used [0x00000000f8000000,0x00000000f8bce980,0x00000000fd580000)
                 Metaspace       used 9098K, committed 9344K, reserved 1114112K
                """;
        assertEquals((100L + 12090) * 1024, JvmMemory.usedHeapBytes(info));
    }

    @Test
    void usedHeapBytes_zgc17And25_megabytes() {
        assertEquals(18L << 20, JvmMemory.usedHeapBytes("2022:\n ZHeap           used 18M, capacity 128M, max capacity 128M\n"
                + " Metaspace       used 9094K, committed 9280K, reserved 1114112K\n"));
        assertEquals(14L << 20, JvmMemory.usedHeapBytes("2329:\nZHeap            used 14M, capacity 128M, max capacity 128M\n"
                + " Cache           114M (4)\n"));
    }

    @Test
    void usedHeapBytes_noHeapLine_minusOne() {
        assertEquals(-1, JvmMemory.usedHeapBytes("1234:\n Metaspace       used 9094K, committed 9280K\n"));
    }

    @Test
    void rssBytes_vmRssInKilobytes() {
        assertEquals(78088L * 1024, JvmMemory.rssBytes("Name:\tjava\nVmHWM:\t   80000 kB\nVmRSS:\t   78088 kB\nThreads:\t20\n"));
        assertEquals(-1, JvmMemory.rssBytes("Name:\tjava\n"));
    }
}
