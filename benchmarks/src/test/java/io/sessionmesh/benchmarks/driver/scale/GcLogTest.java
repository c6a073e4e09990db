package io.sessionmesh.benchmarks.driver.scale;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lines as JDK 17 (G1, ZGC) and JDK 25 (generational ZGC) write them with -Xlog:gc*:...:timemillis,uptime,level,tags. */
class GcLogTest {
    static final List<String> G1 = List.of(
            "[1764147000100ms][4.810s][info][gc,start    ] GC(3) Pause Young (Normal) (G1 Evacuation Pause)",
            "[1764147000109ms][4.819s][info][gc,phases   ] GC(3)   Evacuate Collection Set: 7.1ms",
            "[1764147000109ms][4.819s][info][gc,heap     ] GC(3) Eden regions: 10->0(12)",
            "[1764147000110ms][4.819s][info][gc          ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 28M->26M(256M) 8.790ms",
            "[1764147000110ms][4.819s][info][gc,cpu      ] GC(3) User=0.01s Sys=0.00s Real=0.01s",
            "[1764147000200ms][4.900s][info][gc          ] GC(4) Concurrent Mark Cycle 80.123ms",
            "[1764147000300ms][5.000s][info][gc          ] GC(4) Pause Remark 30M->30M(256M) 1.234ms",
            "[1764147000400ms][5.227s][info][gc          ] GC(13) Pause Full (System.gc()) 111M->22M(80M) 13.947ms");
    static final List<String> ZGC = List.of(
            "[1764147000100ms][4.557s][info][gc,start    ] GC(7) Garbage Collection (Allocation Rate)",
            "[1764147000101ms][4.557s][info][gc,phases   ] GC(7) Pause Mark Start 0.006ms",
            "[1764147000112ms][4.569s][info][gc,phases   ] GC(7) Pause Mark End 0.012ms",
            "[1764147000130ms][4.588s][info][gc          ] GC(7) Garbage Collection (Allocation Rate) 32M(12%)->32M(12%)",
            "[1764147000131ms][4.588s][info][gc,phases   ] GC(7) Pause Relocate Start 0.010ms",
            "[1764147000132ms][4.589s][info][gc,stats    ]    Phase: Pause Mark End        0.014 / 0.014   0.014 / 0.014      ms",
            "[1764147000140ms][4.600s][info][gc          ] Allocation Stall (master-io-1) 12.500ms",
            "[1764147000150ms][4.594s][info][gc,phases   ] GC(4) Y: Pause Mark Start (Major) 0.009ms",
            "[1764147000160ms][4.616s][info][gc,phases   ] GC(4) O: Pause Mark End 0.018ms",
            "[1764147000170ms][4.554s][info][gc,phases   ] GC(3) y: Pause Relocate Start 0.005ms");

    @Test
    void parse_g1_pausesWithTheirDurationsAndNoHeapFigures() {
        List<GcLog.Event> events = GcLog.parse(G1);
        assertEquals(List.of("Pause Young (Normal) (G1 Evacuation Pause)", "Pause Remark", "Pause Full (System.gc())"),
                events.stream().map(GcLog.Event::what).toList());
        assertEquals(List.of(8.790, 1.234, 13.947), events.stream().map(GcLog.Event::millis).toList());
        assertEquals(1764147000110L, events.get(0).wallMillis());
    }

    @Test
    void parse_zgc_phasesArePausesStatsAndCycleLinesAreNot() {
        List<GcLog.Event> events = GcLog.parse(ZGC);
        assertEquals(6, GcLog.pauses(events, 0, Long.MAX_VALUE).size());
        List<GcLog.Event> stalls = GcLog.stalls(events, 0, Long.MAX_VALUE);
        assertEquals(1, stalls.size());
        assertEquals(12.5, stalls.get(0).millis());
        assertEquals("Pause Mark Start (Major)", events.stream().filter(e -> e.millis() == 0.009).findFirst().orElseThrow().what());
    }

    @Test
    void parse_startLineWithoutDuration_isNoPause() {
        assertNull(GcLog.parse("[1764147000100ms][4.810s][info][gc,start    ] GC(3) Pause Young (Normal) (G1 Evacuation Pause)"));
        assertNull(GcLog.parse("not a log line"));
    }

    @Test
    void parse_withoutWallClock_keepsThePauseAndCountsItInEveryRange() {
        GcLog.Event e = GcLog.parse("[4.819s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 28M->26M(256M) 8.790ms");
        assertEquals(-1, e.wallMillis());
        assertEquals(1, GcLog.pauses(List.of(e), 5, 6).size());
    }

    @Test
    void pauses_range_keepsOnlyThoseLoggedInIt() {
        List<GcLog.Event> events = GcLog.parse(G1);
        assertEquals(2, GcLog.pauses(events, 1764147000100L, 1764147000400L).size());
    }

    @Test
    void summary_nearestRankPercentilesMaxAndTotal() {
        List<GcLog.Event> events = new java.util.ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            events.add(new GcLog.Event(0, "Pause", i, false));
        }
        GcLog.Summary s = GcLog.Summary.of(events);
        assertEquals(100, s.count());
        assertEquals(50, s.p50());
        assertEquals(99, s.p99());
        assertEquals(100, s.max());
        assertEquals(5050, s.total());
        assertTrue(GcLog.Summary.of(List.of()).count() == 0);
    }
}
