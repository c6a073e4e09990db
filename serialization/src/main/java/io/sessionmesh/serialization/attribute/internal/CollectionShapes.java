package io.sessionmesh.serialization.attribute.internal;

import one.nio.serial.Repository;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The collection and map classes that one-nio would read back as another type, and how each is rebuilt:
 * <ul>
 *   <li>the JDK's immutable collections ({@code List.of}, {@code Set.of}, {@code Map.of},
 *       {@code Stream.toList}), {@code Collections.unmodifiable*}, {@code Collections.singleton*} and
 *       {@code Arrays.asList};</li>
 *   <li>Guava's immutable collections, maps and multimaps, when Guava is on the class path
 *       ({@link GuavaShapes});</li>
 *   <li>application collections and maps whose no-argument constructor is not public.</li>
 * </ul>
 * A class gets its {@link RebuildingSerializer} the first time the codec writes one; a reader picks the
 * shape again from the class named in the schema.
 */
public final class CollectionShapes {
    private static final Map<Class<?>, CollectionShape> JDK_SHAPES = jdkShapes();
    /** Guava's shapes, or null without Guava (then {@link GuavaShapes}, which names its types, is never loaded). */
    private static final Function<Class<?>, CollectionShape> GUAVA = guavaPresent() ? GuavaShapes.finder() : null;

    private static boolean guavaPresent() {
        try {
            Class.forName("com.google.common.collect.ImmutableMultimap$Builder", false, CollectionShapes.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static final ClassValue<CollectionShape> SHAPES = new ClassValue<>() {
        @Override
        protected CollectionShape computeValue(Class<?> cls) {
            return findShape(cls);
        }
    };

    private static final ClassValue<Boolean> INSTALLED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> cls) {
            CollectionShape shape = SHAPES.get(cls);
            if (shape == null) {
                return Boolean.FALSE;
            }
            Repository.provideSerializer(new RebuildingSerializer(cls, shape));
            return Boolean.TRUE;
        }
    };

    private CollectionShapes() {
    }

    /** The shape of a class, or {@code null} when one-nio's own serializer reads it back right. */
    public static CollectionShape shapeFor(Class<?> cls) {
        return SHAPES.get(cls);
    }

    /** Registers a {@link RebuildingSerializer} for the class with one-nio, once, if it has a shape. */
    public static void install(Class<?> cls) {
        INSTALLED.get(cls);
    }

    private static CollectionShape findShape(Class<?> cls) {
        CollectionShape shape = JDK_SHAPES.get(cls);
        if (shape != null) {
            return shape;
        }
        if (!Collection.class.isAssignableFrom(cls) && !Map.class.isAssignableFrom(cls)) {
            return GUAVA == null ? null : GUAVA.apply(cls); // multimaps are neither
        }
        if (GUAVA != null && (shape = GUAVA.apply(cls)) != null) {
            return shape;
        }
        return hiddenConstructorShape(cls);
    }

    /**
     * A concrete application collection whose no-argument constructor one-nio cannot call (not public, or
     * the class is not public): one-nio would read it back as ArrayList or HashMap.
     */
    private static CollectionShape hiddenConstructorShape(Class<?> cls) {
        if (cls.isInterface() || Modifier.isAbstract(cls.getModifiers()) || cls.getName().startsWith("java.")) {
            return null;
        }
        try {
            MethodHandles.publicLookup().findConstructor(cls, MethodType.methodType(void.class));
            return null; // one-nio copes
        } catch (ReflectiveOperationException e) {
            // fall through
        }
        Constructor<?> constructor;
        try {
            constructor = cls.getDeclaredConstructor();
            constructor.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // no usable constructor: leave the class to one-nio's fallback
        }
        if (Map.class.isAssignableFrom(cls)) {
            return Shape.entries(items -> {
                @SuppressWarnings("unchecked")
                Map<Object, Object> map = (Map<Object, Object>) constructor.newInstance();
                return putAll(map, items);
            });
        }
        return Shape.elements(items -> {
            @SuppressWarnings("unchecked")
            Collection<Object> collection = (Collection<Object>) constructor.newInstance();
            collection.addAll(Arrays.asList(items));
            return collection;
        });
    }

    private static Map<Class<?>, CollectionShape> jdkShapes() {
        Map<Class<?>, CollectionShape> shapes = new HashMap<>();
        CollectionShape listOf = Shape.elements(CollectionShapes::immutableList);
        for (List<?> sample : List.of(List.of(), List.of(1), List.of(1, 2, 3), List.of(1, 2, 3).subList(0, 2),
                java.util.stream.Stream.of(1).toList())) {
            shapes.put(sample.getClass(), listOf);
        }
        CollectionShape setOf = Shape.elements(Set::of);
        for (Set<?> sample : List.of(Set.of(), Set.of(1), Set.of(1, 2, 3))) {
            shapes.put(sample.getClass(), setOf);
        }
        CollectionShape mapOf = Shape.entries(CollectionShapes::immutableMap);
        for (Map<?, ?> sample : List.of(Map.of(), Map.of(1, 1), Map.of(1, 1, 2, 2))) {
            shapes.put(sample.getClass(), mapOf);
        }
        shapes.put(Collections.unmodifiableList(new ArrayList<>()).getClass(),
                Shape.elements(items -> Collections.unmodifiableList(new ArrayList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableList(new LinkedList<>()).getClass(),
                Shape.elements(items -> Collections.unmodifiableList(new LinkedList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
                Shape.elements(items -> Collections.unmodifiableCollection(new ArrayList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableSet(new LinkedHashSet<>()).getClass(),
                Shape.elements(items -> Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableSortedSet(new TreeSet<>()).getClass(),
                Shape.sortedElements((items, c) -> Collections.unmodifiableSortedSet(treeSet(items, c))));
        shapes.put(Collections.unmodifiableNavigableSet(new TreeSet<>()).getClass(),
                Shape.sortedElements((items, c) -> Collections.unmodifiableNavigableSet(treeSet(items, c))));
        shapes.put(Collections.unmodifiableMap(new HashMap<>()).getClass(),
                Shape.entries(items -> Collections.unmodifiableMap(putAll(new LinkedHashMap<>(), items))));
        shapes.put(Collections.unmodifiableSortedMap(new TreeMap<>()).getClass(),
                Shape.sortedEntries((items, c) -> Collections.unmodifiableSortedMap(putAll(new TreeMap<>(c), items))));
        shapes.put(Collections.unmodifiableNavigableMap(new TreeMap<>()).getClass(),
                Shape.sortedEntries((items, c) -> Collections.unmodifiableNavigableMap(
                        (NavigableMap<Object, Object>) putAll(new TreeMap<>(c), items))));
        shapes.put(Collections.singletonList(1).getClass(), Shape.elements(items -> Collections.singletonList(items[0])));
        shapes.put(Collections.singleton(1).getClass(), Shape.elements(items -> Collections.singleton(items[0])));
        shapes.put(Collections.singletonMap(1, 1).getClass(),
                Shape.entries(items -> Collections.singletonMap(items[0], items[1])));
        shapes.put(Arrays.asList(1).getClass(), Shape.elements(Arrays::asList));
        return Map.copyOf(shapes);
    }

    /** {@code List.of} refuses nulls; {@code Stream.toList} makes the same class and keeps them. */
    private static List<Object> immutableList(Object[] items) {
        for (Object item : items) {
            if (item == null) {
                return Arrays.stream(items).toList();
            }
        }
        return List.of(items);
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> immutableMap(Object[] items) {
        Map.Entry<Object, Object>[] entries = new Map.Entry[items.length / 2];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = Map.entry(items[2 * i], items[2 * i + 1]);
        }
        return Map.ofEntries(entries);
    }

    private static NavigableSet<Object> treeSet(Object[] items, Comparator<Object> comparator) {
        TreeSet<Object> set = new TreeSet<>(comparator);
        set.addAll(Arrays.asList(items));
        return set;
    }

    static <M extends Map<Object, Object>> M putAll(M map, Object[] items) {
        for (int i = 0; i < items.length; i += 2) {
            map.put(items[i], items[i + 1]);
        }
        return map;
    }

    /** Builds a value from its items. */
    @FunctionalInterface
    interface Builder {
        Object build(Object[] items) throws ReflectiveOperationException;
    }

    /** Builds a sorted value from its items and comparator. */
    @FunctionalInterface
    interface SortedBuilder {
        Object build(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException;
    }

    /**
     * Elements of a {@link Collection} or entries of a {@link Map}, with the comparator of a
     * {@link SortedSet} or {@link SortedMap} when sorted.
     */
    static class Shape implements CollectionShape {
        private final boolean pairs;
        private final boolean sorted;
        private final SortedBuilder builder;

        Shape(boolean pairs, boolean sorted, SortedBuilder builder) {
            this.pairs = pairs;
            this.sorted = sorted;
            this.builder = builder;
        }

        static Shape elements(Builder builder) {
            return new Shape(false, false, (items, comparator) -> builder.build(items));
        }

        static Shape entries(Builder builder) {
            return new Shape(true, false, (items, comparator) -> builder.build(items));
        }

        static Shape sortedElements(SortedBuilder builder) {
            return new Shape(false, true, builder);
        }

        static Shape sortedEntries(SortedBuilder builder) {
            return new Shape(true, true, builder);
        }

        @Override
        public boolean sorted() {
            return sorted;
        }

        @Override
        public Comparator<?> comparator(Object value) {
            return pairs ? ((SortedMap<?, ?>) value).comparator() : ((SortedSet<?>) value).comparator();
        }

        @Override
        public boolean pairs() {
            return pairs;
        }

        @Override
        public int size(Object value) {
            return pairs ? ((Map<?, ?>) value).size() : ((Collection<?>) value).size();
        }

        @Override
        public Iterator<?> iterator(Object value) {
            return pairs ? ((Map<?, ?>) value).entrySet().iterator() : ((Collection<?>) value).iterator();
        }

        @Override
        public Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException {
            return builder.build(items, comparator);
        }
    }
}
