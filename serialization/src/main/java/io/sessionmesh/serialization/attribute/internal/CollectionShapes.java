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
    private static final Function<Class<?>, CollectionShape> GUAVA = GuavaShapes.ifPresent();

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
            return new MapShape(items -> {
                @SuppressWarnings("unchecked")
                Map<Object, Object> map = (Map<Object, Object>) constructor.newInstance();
                return putAll(map, items);
            });
        }
        return new ListShape(items -> {
            @SuppressWarnings("unchecked")
            Collection<Object> collection = (Collection<Object>) constructor.newInstance();
            collection.addAll(Arrays.asList(items));
            return collection;
        });
    }

    private static Map<Class<?>, CollectionShape> jdkShapes() {
        Map<Class<?>, CollectionShape> shapes = new HashMap<>();
        CollectionShape listOf = new ListShape(CollectionShapes::immutableList);
        for (List<?> sample : List.of(List.of(), List.of(1), List.of(1, 2, 3), List.of(1, 2, 3).subList(0, 2),
                java.util.stream.Stream.of(1).toList())) {
            shapes.put(sample.getClass(), listOf);
        }
        CollectionShape setOf = new ListShape(Set::of);
        for (Set<?> sample : List.of(Set.of(), Set.of(1), Set.of(1, 2, 3))) {
            shapes.put(sample.getClass(), setOf);
        }
        CollectionShape mapOf = new MapShape(CollectionShapes::immutableMap);
        for (Map<?, ?> sample : List.of(Map.of(), Map.of(1, 1), Map.of(1, 1, 2, 2))) {
            shapes.put(sample.getClass(), mapOf);
        }
        shapes.put(Collections.unmodifiableList(new ArrayList<>()).getClass(),
                new ListShape(items -> Collections.unmodifiableList(new ArrayList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableList(new LinkedList<>()).getClass(),
                new ListShape(items -> Collections.unmodifiableList(new LinkedList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableCollection(new ArrayList<>()).getClass(),
                new ListShape(items -> Collections.unmodifiableCollection(new ArrayList<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableSet(new LinkedHashSet<>()).getClass(),
                new ListShape(items -> Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(items)))));
        shapes.put(Collections.unmodifiableSortedSet(new TreeSet<>()).getClass(),
                new SortedListShape((items, c) -> Collections.unmodifiableSortedSet(treeSet(items, c))));
        shapes.put(Collections.unmodifiableNavigableSet(new TreeSet<>()).getClass(),
                new SortedListShape((items, c) -> Collections.unmodifiableNavigableSet(treeSet(items, c))));
        shapes.put(Collections.unmodifiableMap(new HashMap<>()).getClass(),
                new MapShape(items -> Collections.unmodifiableMap(putAll(new LinkedHashMap<>(), items))));
        shapes.put(Collections.unmodifiableSortedMap(new TreeMap<>()).getClass(),
                new SortedMapShape((items, c) -> Collections.unmodifiableSortedMap(putAll(new TreeMap<>(c), items))));
        shapes.put(Collections.unmodifiableNavigableMap(new TreeMap<>()).getClass(),
                new SortedMapShape((items, c) -> Collections.unmodifiableNavigableMap(
                        (NavigableMap<Object, Object>) putAll(new TreeMap<>(c), items))));
        shapes.put(Collections.singletonList(1).getClass(), new ListShape(items -> Collections.singletonList(items[0])));
        shapes.put(Collections.singleton(1).getClass(), new ListShape(items -> Collections.singleton(items[0])));
        shapes.put(Collections.singletonMap(1, 1).getClass(),
                new MapShape(items -> Collections.singletonMap(items[0], items[1])));
        shapes.put(Arrays.asList(1).getClass(), new ListShape(Arrays::asList));
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

    /** Elements of a {@link Collection}. */
    static class ListShape implements CollectionShape {
        private final Builder builder;

        ListShape(Builder builder) {
            this.builder = builder;
        }

        @Override
        public boolean pairs() {
            return false;
        }

        @Override
        public int size(Object value) {
            return ((Collection<?>) value).size();
        }

        @Override
        public Iterator<?> iterator(Object value) {
            return ((Collection<?>) value).iterator();
        }

        @Override
        public Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException {
            return builder.build(items);
        }
    }

    /** Elements of a {@link SortedSet}, after its comparator. */
    static final class SortedListShape extends ListShape {
        private final SortedBuilder sortedBuilder;

        SortedListShape(SortedBuilder builder) {
            super(null);
            this.sortedBuilder = builder;
        }

        @Override
        public boolean sorted() {
            return true;
        }

        @Override
        public Comparator<?> comparator(Object value) {
            return ((SortedSet<?>) value).comparator();
        }

        @Override
        public Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException {
            return sortedBuilder.build(items, comparator);
        }
    }

    /** Entries of a {@link Map}. */
    static class MapShape implements CollectionShape {
        private final Builder builder;

        MapShape(Builder builder) {
            this.builder = builder;
        }

        @Override
        public boolean pairs() {
            return true;
        }

        @Override
        public int size(Object value) {
            return ((Map<?, ?>) value).size();
        }

        @Override
        public Iterator<?> iterator(Object value) {
            return ((Map<?, ?>) value).entrySet().iterator();
        }

        @Override
        public Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException {
            return builder.build(items);
        }
    }

    /** Entries of a {@link SortedMap}, after its comparator. */
    static final class SortedMapShape extends MapShape {
        private final SortedBuilder sortedBuilder;

        SortedMapShape(SortedBuilder builder) {
            super(null);
            this.sortedBuilder = builder;
        }

        @Override
        public boolean sorted() {
            return true;
        }

        @Override
        public Comparator<?> comparator(Object value) {
            return ((SortedMap<?, ?>) value).comparator();
        }

        @Override
        public Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException {
            return sortedBuilder.build(items, comparator);
        }
    }
}
