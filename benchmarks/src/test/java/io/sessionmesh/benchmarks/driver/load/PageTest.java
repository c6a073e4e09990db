package io.sessionmesh.benchmarks.driver.load;

import io.sessionmesh.workload.RequestMix;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mix's requests are the example apps' pages, in the workload's proportions, in both mixes. */
class PageTest {
    @Test
    void mix_weightsMakeAHundred_fourReadingRequestsToOneWriting() {
        for (boolean depositsOnly : new boolean[] {false, true}) {
            int total = 0;
            int writes = 0;
            for (Page p : Page.values()) {
                total += p.weight(depositsOnly);
                if (p.writes()) {
                    writes += p.weight(depositsOnly);
                }
            }
            assertEquals(100, total, "deposits only: " + depositsOnly);
            assertEquals(4, (total - writes) / writes, "deposits only: " + depositsOnly);
        }
    }

    @Test
    void depositPages_noCardsPage() {
        for (int p = 0; p < 100; p++) {
            assertTrue(!Page.pick(p, true).path.startsWith("/cards"), Page.pick(p, true).name());
        }
    }

    @Test
    void mix_declaresOneToThreeSections() {
        for (Page p : Page.values()) {
            if (p != Page.LOGIN) {
                assertTrue(p.sections >= 1 && p.sections <= RequestMix.MAX_READ_SECTIONS, p.name());
            }
        }
    }

    @Test
    void pick_everyPercent_followsTheWeights() {
        for (boolean depositsOnly : new boolean[] {false, true}) {
            int[] counts = new int[Page.values().length];
            for (int p = 0; p < 100; p++) {
                counts[Page.pick(p, depositsOnly).ordinal()]++;
            }
            for (Page p : Page.values()) {
                assertEquals(p.weight(depositsOnly), counts[p.ordinal()], p.name());
            }
        }
    }
}
