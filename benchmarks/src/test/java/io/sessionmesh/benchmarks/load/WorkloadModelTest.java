package io.sessionmesh.benchmarks.load;

import io.sessionmesh.workload.RequestMix;
import io.sessionmesh.workload.SessionShape;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadModelTest {
    /** The endpoints of results/load-2026-11-23/load.json (seed 42): the value pool draws first, then the endpoints. */
    static final String RECORDED_ENDPOINTS = "[[[clientInfo, cards], [cards, interestRates], [interestRates]], [[cards], "
            + "[documents], [offers, documents, deposits]], [[documents, accounts], [offers, accounts, documents], "
            + "[documents, preferences, riskScore]], [[clientInfo, riskScore, preferences], [interestRates, notifications, "
            + "preferences], [clientInfo, preferences, notifications]]]";

    @Test
    void seed42_givesTheRecordedEndpoints() {
        assertEquals(RECORDED_ENDPOINTS, new WorkloadModel(42).describeEndpoints());
    }

    @Test
    void newSession_uniformShape_valuesFromThePool() {
        Map<String, Map<String, Object>> session = new WorkloadModel(42).newSession(new SplittableRandom(1));
        assertEquals(SessionShape.uniformSectionNames(), List.copyOf(session.keySet()));
        session.values().forEach(section -> assertEquals(SessionShape.ATTRIBUTES, section.size()));
        List<RequestMix.Step<Object>> request = new WorkloadModel(42).request(new SplittableRandom(2));
        assertEquals(RequestMix.SERVICES_PER_REQUEST, request.size());
        assertTrue(request.stream().allMatch(s -> !s.reads().isEmpty()));
    }
}
