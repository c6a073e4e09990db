package io.sessionmesh.serialization.attribute;

import com.google.common.collect.ImmutableBiMap;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSetMultimap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Ordering;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AttributeCodecRoundTripTest {
    /** The test classes' package; JDK and Guava collections are always allowed. */
    private static final ClassFilter THIS_MODULE = ClassFilter.allowingPackages("io.sessionmesh.serialization");
    private final AttributeCodec codec = AttributeCodec.builder().classFilter(THIS_MODULE).build();

    private Object roundTrip(Object value) {
        return codec.decode(codec.encode(value));
    }

    static Stream<Object> sameClassValues() {
        return Stream.of(
                // Guava immutable collections
                ImmutableList.of(), ImmutableList.of("a"), ImmutableList.of("a", "b", "c"),
                ImmutableSet.of(), ImmutableSet.of(1), ImmutableSet.of(3, 1, 2),
                ImmutableMap.of(), ImmutableMap.of("k", 1), ImmutableMap.of("b", 2, "a", 1, "c", 3),
                ImmutableSortedMap.of("b", 2, "a", 1), ImmutableSortedSet.of("z", "y"),
                ImmutableBiMap.of("x", 1, "y", 2), ImmutableMultiset.of("a", "a", "b"),
                ImmutableListMultimap.of("k", 1, "k", 2, "j", 3), ImmutableSetMultimap.of("k", 1, "j", 2),
                // JDK immutable collections
                List.of(), List.of(1), List.of(1, 2), List.of(1, 2, 3, 4), Set.of(), Set.of("a"), Set.of("a", "b", "c"),
                Map.of(), Map.of("a", 1), Map.of("a", 1, "b", 2, "c", 3), Stream.of("a", null).toList(),
                // Collections wrappers
                Collections.unmodifiableList(new ArrayList<>(List.of(1, 2))),
                Collections.unmodifiableList(new LinkedList<>(List.of(1, 2))),
                Collections.unmodifiableSet(new TreeSet<>(Set.of(1, 2))),
                Collections.unmodifiableMap(new HashMap<>(Map.of("a", 1))),
                Collections.unmodifiableSortedMap(new TreeMap<>(Map.of("a", 1, "b", 2))),
                Collections.unmodifiableSortedSet(new TreeSet<>(Set.of(5, 4))),
                Collections.unmodifiableNavigableSet(new TreeSet<>(Set.of(5, 4))),
                Collections.unmodifiableNavigableMap(new TreeMap<>(Map.of(5, 4))),
                Collections.singletonList("x"), Collections.singleton("x"), Collections.singletonMap("k", "v"),
                Collections.emptyList(), Collections.emptySet(), Collections.emptyMap(),
                Arrays.asList("p", "q"),
                // collections whose default constructor is private
                HiddenList.of("a", "b"), HiddenMap.of("k", 7),
                // records, enums, java.time, numbers, ids
                new Money(new BigDecimal("12.3400"), "RUB"), Tier.GOLD, Tier.SILVER,
                LocalDate.of(2026, 11, 22), LocalDateTime.of(2026, 1, 2, 3, 4, 5, 6), LocalTime.NOON,
                Instant.ofEpochSecond(1_800_000_000L, 123), Duration.ofMillis(1500), Period.ofDays(3),
                ZonedDateTime.of(2026, 3, 1, 12, 0, 0, 0, ZoneId.of("Europe/Moscow")),
                OffsetDateTime.of(2026, 3, 1, 12, 0, 0, 0, ZoneOffset.ofHours(3)),
                new BigDecimal("-123456789.000000001"), new BigInteger("123456789012345678901234567890"),
                UUID.randomUUID(), "строка", 42, 42L, 3.5, true, 'c');
    }

    @ParameterizedTest
    @MethodSource("sameClassValues")
    void roundTrip_valueOfEachSupportedType_comesBackEqualAndAsTheSameClass(Object value) {
        Object back = roundTrip(value);
        assertEquals(value, back);
        assertSame(value.getClass(), back.getClass(), "class of " + value);
    }

    @ParameterizedTest
    @MethodSource("sameClassValues")
    void decodeForUpdate_valueThisJvmWrote_isInItsSchemas_andNothingIsWrittenBack(Object value) {
        byte[] stored = codec.encode(value);
        DecodedValue read = codec.decodeForUpdate(stored);
        assertTrue(read.writtenWithLocalSchemas(), "a value of " + value.getClass().getName() + " got a baseline");
        assertNull(codec.encodeIfChanged(read));
        assertEquals(0, codec.decodedFromOtherSchemas());
    }

    @Test
    void encodeIfChanged_valueChangedInPlace_isEncoded() {
        byte[] stored = codec.encode(new ArrayList<>(List.of("a")));
        DecodedValue read = codec.decodeForUpdate(stored);
        @SuppressWarnings("unchecked")
        List<String> list = (List<String>) read.value();
        list.add("b");
        byte[] changed = codec.encodeIfChanged(read);
        assertEquals(List.of("a", "b"), codec.decode(changed));
    }

    /** A record that cannot change itself, holding a list that can. */
    record Basket(String owner, List<String> items) implements java.io.Serializable {
    }

    @Test
    void encodeIfChanged_listInsideARecordChangedInPlace_isEncoded() {
        byte[] stored = codec.encode(new Basket("o", new ArrayList<>(List.of("a"))));
        DecodedValue read = codec.decodeForUpdate(stored);
        assertNull(codec.encodeIfChanged(read), "unchanged");
        ((Basket) read.value()).items().add("b");
        byte[] changed = codec.encodeIfChanged(read);
        assertEquals(new Basket("o", List.of("a", "b")), codec.decode(changed));
    }

    @Test
    void encodeIfChanged_againstBytesThisCodecWrote_sendsOnlyAChange() {
        List<String> list = new ArrayList<>(List.of("a"));
        byte[] stored = codec.encode(list);
        assertNull(codec.encodeIfChanged(list, stored));
        list.add("b");
        assertEquals(List.of("a", "b"), codec.decode(codec.encodeIfChanged(list, stored)));
        assertNull(codec.encodeIfChanged("immutable", codec.encode("other")), "a string cannot change in place");
    }

    @Test
    void encodeIfChanged_largeCompressedValueUnchanged_isNotWrittenBack() {
        List<String> list = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            list.add("repeated text that compresses well " + (i % 7));
        }
        byte[] stored = codec.encode(list);
        DecodedValue read = codec.decodeForUpdate(stored);
        assertNull(codec.encodeIfChanged(read));
        ((List<String>) read.value()).set(3, "changed");
        assertEquals("changed", ((List<?>) codec.decode(codec.encodeIfChanged(read))).get(3));
    }

    @Test
    void roundTrip_sortedCollectionsWithComparator_keepTheirOrder() {
        ImmutableSortedSet<String> reversed = ImmutableSortedSet.orderedBy(Ordering.<String>natural().reverse())
                .add("a", "c", "b").build();
        ImmutableSortedSet<?> back = (ImmutableSortedSet<?>) roundTrip(reversed);
        assertEquals(List.of("c", "b", "a"), List.copyOf(back));
        TreeSet<Integer> descending = new TreeSet<>(Comparator.reverseOrder());
        descending.addAll(List.of(1, 3, 2));
        Set<?> wrapped = (Set<?>) roundTrip(Collections.unmodifiableSortedSet(descending));
        assertEquals(List.of(3, 2, 1), List.copyOf(wrapped));
    }

    @Test
    void roundTrip_mapsKeepInsertionOrder() {
        ImmutableMap<String, Integer> map = ImmutableMap.of("z", 1, "a", 2, "m", 3);
        assertEquals(List.copyOf(map.keySet()), List.copyOf(((Map<?, ?>) roundTrip(map)).keySet()));
        LinkedHashMap<String, Integer> linked = new LinkedHashMap<>(map);
        assertEquals(List.copyOf(map.keySet()),
                List.copyOf(((Map<?, ?>) roundTrip(Collections.unmodifiableMap(linked))).keySet()));
    }

    @Test
    void roundTrip_byteArray_comesBackEqual() {
        byte[] blob = new byte[5000];
        new java.util.Random(1).nextBytes(blob);
        assertArrayEquals(blob, (byte[]) roundTrip(blob));
        assertArrayEquals(new byte[0], (byte[]) roundTrip(new byte[0]));
    }

    @Test
    void roundTrip_fieldsDeclaredAsImmutableTypes_areFilledWithThoseTypes() {
        Portfolio p = new Portfolio(ImmutableList.of("c1", "c2"), ImmutableMap.of("USD", new BigDecimal("1.5")),
                List.of(Tier.GOLD), ImmutableSortedMap.of(2, "b", 1, "a"));
        Portfolio back = (Portfolio) roundTrip(p);
        assertEquals(p, back);
        assertInstanceOf(ImmutableList.class, back.cards);
        assertInstanceOf(ImmutableMap.class, back.rates);
        assertInstanceOf(ImmutableSortedMap.class, back.byRank);
    }

    @Test
    void roundTrip_sharedReferences_stayShared() {
        Node shared = new Node("shared");
        ImmutableList<Node> list = ImmutableList.of(shared);
        Pair pair = new Pair(shared, shared, list, list);
        Pair back = (Pair) roundTrip(pair);
        assertSame(back.left, back.right);
        assertSame(back.list1, back.list2);
        assertSame(back.left, back.list1.get(0));
        assertNotSame(pair.left, back.left);
    }

    @Test
    void roundTrip_cyclicGraph_keepsItsCycles() {
        Node root = new Node("root");
        Node child = new Node("child");
        root.children.add(child);
        child.parent = root;
        child.children.add(child); // self loop
        Node back = (Node) roundTrip(root);
        Node backChild = back.children.get(0);
        assertEquals("child", backChild.name);
        assertSame(back, backChild.parent);
        assertSame(backChild, backChild.children.get(0));
    }

    @Test
    void encode_null_isRefused() {
        assertThrows(NullPointerException.class, () -> codec.encode(null));
    }

    @Test
    void encode_notSerializable_failsWithTypedException() {
        AttributeEncodeException e = assertThrows(AttributeEncodeException.class, () -> codec.encode(new Object()));
        assertEquals(true, e.getMessage().contains("java.lang.Object"), e.getMessage());
    }

    @Test
    void decode_wrongExpectedType_failsWithTypedException() {
        byte[] bytes = codec.encode("text");
        assertThrows(AttributeDecodeException.class, () -> codec.decode(bytes, Integer.class));
        assertEquals("text", codec.decode(bytes, String.class));
    }

    @Test
    void encode_samePojoTwice_publishesItsSchemaOnce() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        AttributeCodec publishing = AttributeCodec.builder().schemaRegistry(registry).classFilter(THIS_MODULE).build();
        publishing.encode(new Money(BigDecimal.ONE, "USD"));
        long afterFirst = publishing.schemasPublished();
        publishing.encode(new Money(BigDecimal.TEN, "EUR"));
        assertEquals(afterFirst, publishing.schemasPublished());
        assertEquals(afterFirst, registry.size());
        assertEquals(true, afterFirst >= 1);
    }

    @Test
    void decode_valueNotTouchingOthers_afterACorruptOne() {
        byte[] good = codec.encode(new Money(BigDecimal.ONE, "USD"));
        byte[] bad = good.clone();
        bad[bad.length - 1] ^= 0x7f;
        bad[3] ^= 0x55;
        assertThrows(AttributeDecodeException.class, () -> codec.decode(Arrays.copyOf(bad, bad.length - 3)));
        assertEquals(new Money(BigDecimal.ONE, "USD"), codec.decode(good));
    }

    @Test
    void roundTrip_nullElementsInsideCollections_survive() {
        ArrayList<String> withNull = new ArrayList<>(Arrays.asList("a", null, "b"));
        assertEquals(withNull, roundTrip(withNull));
        @SuppressWarnings("unchecked")
        List<String> back = (List<String>) roundTrip(Collections.unmodifiableList(withNull));
        assertNull(back.get(1));
    }

    /** A record, as services store them. */
    record Money(BigDecimal amount, String currency) implements Serializable {
    }

    /** An enum, as services store them. */
    enum Tier { SILVER, GOLD }

    /** A POJO whose fields are declared with Guava's immutable types. */
    static final class Portfolio implements Serializable {
        final ImmutableList<String> cards;
        final ImmutableMap<String, BigDecimal> rates;
        final List<Tier> tiers;
        final ImmutableSortedMap<Integer, String> byRank;

        Portfolio(ImmutableList<String> cards, ImmutableMap<String, BigDecimal> rates, List<Tier> tiers,
                  ImmutableSortedMap<Integer, String> byRank) {
            this.cards = cards;
            this.rates = rates;
            this.tiers = tiers;
            this.byRank = byRank;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Portfolio && cards.equals(((Portfolio) o).cards) && rates.equals(((Portfolio) o).rates)
                    && tiers.equals(((Portfolio) o).tiers) && byRank.equals(((Portfolio) o).byRank);
        }

        @Override
        public int hashCode() {
            return Objects.hash(cards, rates, tiers, byRank);
        }
    }

    /** A graph node with a parent link: cycles. */
    static final class Node implements Serializable {
        final String name;
        Node parent;
        final List<Node> children = new ArrayList<>();

        Node(String name) {
            this.name = name;
        }
    }

    /** Two fields pointing to one object, and two to one immutable list. */
    static final class Pair implements Serializable {
        final Node left;
        final Node right;
        final ImmutableList<Node> list1;
        final ImmutableList<Node> list2;

        Pair(Node left, Node right, ImmutableList<Node> list1, ImmutableList<Node> list2) {
            this.left = left;
            this.right = right;
            this.list1 = list1;
            this.list2 = list2;
        }
    }

    /** A list whose only constructor is private. */
    static final class HiddenList extends ArrayList<String> {
        private HiddenList() {
        }

        static HiddenList of(String... items) {
            HiddenList list = new HiddenList();
            list.addAll(Arrays.asList(items));
            return list;
        }
    }

    /** A map whose only constructor is private. */
    static final class HiddenMap extends HashMap<String, Integer> {
        private HiddenMap() {
        }

        static HiddenMap of(String key, int value) {
            HiddenMap map = new HiddenMap();
            map.put(key, value);
            return map;
        }
    }
}
