package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestMixTest {
    /** WorkloadDriver's endpoints in benchmarks/results/workload-2026-11-22.json (seed 42): same seed, same endpoints. */
    static final String DRIVER_ENDPOINTS = "[[[clientInfo, cards, limits], [interestRates, limits, clientInfo], [cards]], "
            + "[[accounts], [limits, accounts, cards], [documents, offers, limits]], [[accounts], [accounts], "
            + "[documents, preferences]], [[defaultCurrency, interestRates, preferences], [clientInfo, defaultCurrency], "
            + "[clientInfo, preferences]]]";

    @Test
    void endpoints_seed42_asInTheRecordedResults() {
        assertEquals(DRIVER_ENDPOINTS, new RequestMix(new SplittableRandom(42)).toString());
    }

    @Test
    void endpoints_eachServiceInItsWindow() {
        RequestMix mix = new RequestMix(new SplittableRandom(5));
        List<String> names = SessionShape.SECTION_NAMES.subList(0, SessionShape.SECTIONS);
        for (int s = 0; s < RequestMix.SERVICES; s++) {
            assertEquals(RequestMix.ENDPOINTS_PER_SERVICE, mix.endpoints().get(s).size());
            for (List<String> declared : mix.endpoints().get(s)) {
                assertTrue(declared.size() >= 1 && declared.size() <= RequestMix.MAX_READ_SECTIONS, declared.toString());
                assertEquals(declared.size(), declared.stream().distinct().count(), declared.toString());
                for (String name : declared) {
                    int offset = Math.floorMod(names.indexOf(name) - RequestMix.WINDOW_STEP * s, names.size());
                    assertTrue(offset < RequestMix.WINDOW, "service " + s + " declares " + name);
                }
            }
        }
    }

    @Test
    void request_manyDraws_twoServicesFourReadsToOneWrite() {
        RequestMix mix = new RequestMix(new SplittableRandom(42));
        SplittableRandom random = new SplittableRandom(9);
        int steps = 0;
        int writing = 0;
        int attributesWritten = 0;
        for (int i = 0; i < 100_000; i++) {
            List<RequestMix.Step<Integer>> request = mix.request(random, r -> r.nextInt(100));
            assertEquals(RequestMix.SERVICES_PER_REQUEST, request.size());
            assertNotEquals(request.get(0).service(), request.get(1).service());
            for (RequestMix.Step<Integer> step : request) {
                steps++;
                assertTrue(mix.endpoints().get(step.service()).contains(step.reads()));
                if (step.hasWrites()) {
                    writing++;
                    attributesWritten += step.writes().size();
                    assertTrue(step.reads().contains(step.writeSection()));
                    assertTrue(step.writes().size() >= 1 && step.writes().size() <= RequestMix.MAX_WRITES);
                } else {
                    assertTrue(step.writes().isEmpty());
                }
            }
        }
        assertEquals(0.25, writing / (double) steps, 0.005, "one step in four writes");
        assertEquals(1.5, attributesWritten / (double) writing, 0.02, "1 or 2 attributes a write");
    }

    @Test
    void request_sameSeeds_sameRequests() {
        RequestMix mix = new RequestMix(new SplittableRandom(42));
        SplittableRandom a = new SplittableRandom(3);
        SplittableRandom b = new SplittableRandom(3);
        for (int i = 0; i < 1_000; i++) {
            assertEquals(mix.request(a, r -> r.nextInt(100)), mix.request(b, r -> r.nextInt(100)));
        }
    }
}
