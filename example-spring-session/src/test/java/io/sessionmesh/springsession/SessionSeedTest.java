package io.sessionmesh.springsession;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SessionSeedTest {
    @Test
    void attributes_small_onlyWhatTheDepositPagesRead() {
        Map<String, Object> a = SessionSeed.attributes("C1", SessionSeed.Profile.SMALL);
        assertEquals(Set.of("clientInfo.client", "defaultCurrency.currency", "interestRates.rates"), a.keySet());
        assertEquals("RUB", a.get("defaultCurrency.currency"));
        assertEquals(4, ((List<?>) a.get("interestRates.rates")).size());
    }

    @Test
    void attributes_standard_workloadShapeWithTheSmallOnesFirst() {
        Map<String, Object> a = SessionSeed.attributes("C1", SessionSeed.Profile.STANDARD);
        assertEquals(SessionSeed.SECTIONS * SessionSeed.ATTRIBUTES_PER_SECTION, a.size());
        Map<String, Long> perSection = a.keySet().stream()
                .collect(Collectors.groupingBy(k -> k.substring(0, k.indexOf('.')), Collectors.counting()));
        assertEquals(Set.copyOf(SessionSeed.SECTION_NAMES), perSection.keySet());
        perSection.forEach((section, n) -> assertEquals(SessionSeed.ATTRIBUTES_PER_SECTION, n, section));
        Map<String, Object> small = SessionSeed.attributes("C1", SessionSeed.Profile.SMALL);
        small.forEach((k, v) -> assertEquals(v, a.get(k), k));
    }

    @Test
    void attributes_sameClient_sameSession() {
        Map<String, Object> a = SessionSeed.attributes("C7", SessionSeed.Profile.STANDARD);
        Map<String, Object> b = SessionSeed.attributes("C7", SessionSeed.Profile.STANDARD);
        assertArrayEquals((byte[]) a.get("offers.blob"), (byte[]) b.get("offers.blob"));
        assertEquals(a.get("clientInfo.client"), b.get("clientInfo.client"));
    }
}
