package io.sessionmesh.workload;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionShapeTest {
    @Test
    void uniform_twelveSectionsOfFive_drawsNothing() {
        SplittableRandom random = new SplittableRandom(1);
        Map<String, Integer> shape = SessionShape.UNIFORM.draw(random);
        assertEquals(SessionShape.SECTION_NAMES.subList(0, 12), List.copyOf(shape.keySet()));
        assertTrue(shape.values().stream().allMatch(n -> n == 5));
        assertEquals(new SplittableRandom(1).nextLong(), random.nextLong(), "the uniform shape used the generator");
    }

    @Test
    void varied_manyDraws_coverTheRangesUniformly() {
        SplittableRandom random = new SplittableRandom(2);
        int[] sectionCounts = new int[SessionShape.MAX_SECTIONS + 1];
        int[] attributeCounts = new int[SessionShape.MAX_ATTRIBUTES + 1];
        int sessions = 26_000;
        for (int i = 0; i < sessions; i++) {
            Map<String, Integer> shape = SessionShape.VARIED.draw(random);
            sectionCounts[shape.size()]++;
            assertEquals(SessionShape.SECTION_NAMES.subList(0, shape.size()), List.copyOf(shape.keySet()));
            shape.values().forEach(n -> attributeCounts[n]++);
        }
        for (int n = 0; n <= SessionShape.MAX_SECTIONS; n++) {
            if (n < SessionShape.MIN_SECTIONS) {
                assertEquals(0, sectionCounts[n], n + " sections");
            } else {
                assertEquals(1_000, sectionCounts[n], 150, n + " sections");
            }
        }
        assertEquals(0, attributeCounts[0]);
        long attributes = java.util.Arrays.stream(attributeCounts).sum();
        for (int n = SessionShape.MIN_ATTRIBUTES; n <= SessionShape.MAX_ATTRIBUTES; n++) {
            assertEquals(0.1, attributeCounts[n] / (double) attributes, 0.005, n + " attributes");
        }
    }

    @Test
    void names_distinctAndEnoughForTheVariedShape() {
        assertEquals(SessionShape.MAX_SECTIONS, new HashSet<>(SessionShape.SECTION_NAMES).size());
        assertEquals(List.of("clientInfo", "defaultCurrency", "interestRates", "cards", "deposits", "limits", "offers"),
                SessionShape.SECTION_NAMES.subList(0, 7));
        assertEquals(SessionShape.VARIED, SessionShape.of("varied"));
        assertEquals("uniform", SessionShape.UNIFORM.flag());
        assertEquals("a4", SessionShape.attribute(4));
    }
}
