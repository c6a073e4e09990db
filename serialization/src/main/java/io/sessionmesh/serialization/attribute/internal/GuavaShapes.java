package io.sessionmesh.serialization.attribute.internal;

import com.google.common.collect.ImmutableBiMap;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.ImmutableMultiset;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSetMultimap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Ordering;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.function.Function;

/**
 * Shapes of Guava's immutable collections. Guava is an optional dependency: this class refers to Guava's types,
 * so it must not be loaded without Guava; {@link CollectionShapes} checks for Guava first and only then calls
 * {@link #finder()}.
 *
 * <p>Guava has many implementation classes per type (RegularImmutableList, SingletonImmutableList, ...);
 * each is matched by the public type it implements and rebuilt through that type's factory, so a value
 * comes back as the same public type, and as the same class for the same contents. Natural ordering is
 * written as {@code null} and restored as {@link Ordering#natural()}.
 */
final class GuavaShapes {
    private GuavaShapes() {
    }

    /** The shape finder; call only when Guava is on the class path. */
    static Function<Class<?>, CollectionShape> finder() {
        return GuavaShapes::shapeFor;
    }

    private static CollectionShape shapeFor(Class<?> cls) {
        if (ImmutableSortedSet.class.isAssignableFrom(cls)) {
            return new CollectionShapes.Shape(false, true,
                    (items, comparator) -> ImmutableSortedSet.copyOf(natural(comparator), Arrays.asList(items))) {
                @Override
                public Comparator<?> comparator(Object value) {
                    return unnatural(super.comparator(value));
                }
            };
        } else if (ImmutableSet.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.elements(ImmutableSet::copyOf);
        } else if (ImmutableList.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.elements(ImmutableList::copyOf);
        } else if (ImmutableMultiset.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.elements(ImmutableMultiset::copyOf);
        } else if (ImmutableCollection.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.elements(ImmutableList::copyOf);
        } else if (ImmutableSortedMap.class.isAssignableFrom(cls)) {
            return new CollectionShapes.Shape(true, true, (items, comparator) -> {
                ImmutableSortedMap.Builder<Object, Object> builder = new ImmutableSortedMap.Builder<>(natural(comparator));
                for (int i = 0; i < items.length; i += 2) {
                    builder.put(items[i], items[i + 1]);
                }
                return builder.buildOrThrow();
            }) {
                @Override
                public Comparator<?> comparator(Object value) {
                    return unnatural(super.comparator(value));
                }
            };
        } else if (ImmutableBiMap.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.entries(items -> {
                ImmutableBiMap.Builder<Object, Object> builder = ImmutableBiMap.builderWithExpectedSize(items.length / 2);
                for (int i = 0; i < items.length; i += 2) {
                    builder.put(items[i], items[i + 1]);
                }
                return builder.buildOrThrow();
            });
        } else if (ImmutableMap.class.isAssignableFrom(cls)) {
            return CollectionShapes.Shape.entries(items -> {
                ImmutableMap.Builder<Object, Object> builder = ImmutableMap.builderWithExpectedSize(items.length / 2);
                for (int i = 0; i < items.length; i += 2) {
                    builder.put(items[i], items[i + 1]);
                }
                return builder.buildOrThrow();
            });
        } else if (ImmutableMultimap.class.isAssignableFrom(cls)) {
            boolean setValued = ImmutableSetMultimap.class.isAssignableFrom(cls);
            return new CollectionShapes.Shape(true, false, (items, comparator) -> {
                ImmutableMultimap.Builder<Object, Object> builder =
                        setValued ? ImmutableSetMultimap.builder() : ImmutableListMultimap.builder();
                for (int i = 0; i < items.length; i += 2) {
                    builder.put(items[i], items[i + 1]);
                }
                return builder.build();
            }) {
                @Override
                public int size(Object value) {
                    return ((ImmutableMultimap<?, ?>) value).size();
                }

                @Override
                public Iterator<?> iterator(Object value) {
                    return ((ImmutableMultimap<?, ?>) value).entries().iterator();
                }
            };
        }
        return null;
    }

    private static Comparator<?> unnatural(Comparator<?> comparator) {
        return comparator == Ordering.natural() || comparator == Comparator.naturalOrder() ? null : comparator;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Object> natural(Comparator<Object> comparator) {
        return comparator != null ? comparator : (Comparator) Ordering.natural();
    }
}
