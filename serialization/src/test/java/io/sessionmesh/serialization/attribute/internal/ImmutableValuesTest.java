package io.sessionmesh.serialization.attribute.internal;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImmutableValuesTest {
    record Rate(String currency, int months, BigDecimal percent) {
    }

    record Holder(String name, List<String> items) {
    }

    record WithArray(byte[] bytes) {
    }

    record Nested(Rate rate, LocalDate on, TimeUnit unit) {
    }

    /** A mutable subclass of BigDecimal: its declared type is immutable, its class is not. */
    static final class MutableDecimal extends BigDecimal {
        int scratch;

        MutableDecimal() {
            super(1);
        }
    }

    static final class Bean {
        String name;
    }

    @Test
    void cannotChange_leavesAndRecordsOfLeaves_true() {
        for (Object v : List.of("s", 1, 2L, 3.0, true, 'c', new BigDecimal("1.5"), UUID.randomUUID(), LocalDate.now(),
                ZoneId.of("Europe/Moscow"), TimeUnit.SECONDS, new Rate("RUB", 3, BigDecimal.TEN),
                new Nested(new Rate("USD", 1, BigDecimal.ONE), LocalDate.now(), TimeUnit.DAYS))) {
            assertTrue(ImmutableValues.cannotChange(v), v.getClass().getName());
        }
    }

    @Test
    void cannotChange_immutableCollectionsOfImmutables_true() {
        Rate r = new Rate("RUB", 3, BigDecimal.TEN);
        for (Object v : List.of(List.of(r, r), List.of(), Map.of("RUB", r), Collections.singletonList("x"),
                Collections.emptyMap(), ImmutableList.of(r), ImmutableMap.of("k", List.of(1, 2)),
                new Holder("h", List.of("a", "b")))) {
            assertTrue(ImmutableValues.cannotChange(v), v.getClass().getName());
        }
    }

    @Test
    void cannotChange_anythingMutableInside_false() {
        Bean bean = new Bean();
        for (Object v : List.of(new ArrayList<>(List.of("a")), new HashMap<>(Map.of("k", "v")), new byte[3], bean,
                new WithArray(new byte[1]), new Holder("h", new ArrayList<>()), List.of(bean), Map.of("k", bean),
                ImmutableList.of(new ArrayList<>()), Collections.unmodifiableList(new ArrayList<>()),
                new Rate("RUB", 1, new MutableDecimal()))) {
            assertFalse(ImmutableValues.cannotChange(v), v.getClass().getName());
        }
    }

    @Test
    void cannotChange_pastTheObjectBudget_false() {
        List<Integer> small = IntStream.range(0, ImmutableValues.MAX_OBJECTS_VISITED - 1).boxed().toList();
        List<Integer> large = IntStream.range(0, ImmutableValues.MAX_OBJECTS_VISITED + 1).boxed().toList();
        assertTrue(ImmutableValues.cannotChange(List.copyOf(small)));
        assertFalse(ImmutableValues.cannotChange(List.copyOf(large)));
    }
}
