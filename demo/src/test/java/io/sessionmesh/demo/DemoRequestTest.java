package io.sessionmesh.demo;

import io.sessionmesh.workload.RequestMix;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's requests are the example service's endpoints, in the workload's proportions. */
class DemoRequestTest {
    @Test
    void mix_weightsMakeAHundred_fourReadingRequestsToOneWriting() {
        int total = 0;
        int writes = 0;
        for (DemoRequest r : DemoRequest.values()) {
            total += r.weight;
            if (r.writes()) {
                writes += r.weight;
            }
        }
        assertEquals(100, total);
        assertEquals(4, (total - writes) / writes);
    }

    @Test
    void mix_declaresOneToThreeSections() {
        for (DemoRequest r : DemoRequest.values()) {
            if (r != DemoRequest.LOGIN) {
                assertTrue(r.sections >= 1 && r.sections <= RequestMix.MAX_READ_SECTIONS, r.name());
            }
        }
    }

    @Test
    void pick_everyPercent_followsTheWeights() {
        int[] counts = new int[DemoRequest.values().length];
        for (int p = 0; p < 100; p++) {
            counts[DemoRequest.pick(p).ordinal()]++;
        }
        for (DemoRequest r : DemoRequest.values()) {
            assertEquals(r.weight, counts[r.ordinal()], r.name());
        }
    }
}
