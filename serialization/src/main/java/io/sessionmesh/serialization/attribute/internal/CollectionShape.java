package io.sessionmesh.serialization.attribute.internal;

import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * How one collection or map class is taken apart into items when written and rebuilt from them when read,
 * for the classes one-nio would otherwise read back as a different type (immutable collections, wrappers,
 * classes without a public no-argument constructor).
 *
 * <p>Items are elements for a collection and alternating keys and values for a map or multimap.
 */
public interface CollectionShape {

    /** Whether the value carries a comparator, written before the items. */
    default boolean sorted() {
        return false;
    }

    /** The comparator to write; {@code null} for natural order. Only called when {@link #sorted()}. */
    default Comparator<?> comparator(Object value) {
        return null;
    }

    /** Whether items are key, value pairs. */
    boolean pairs();

    /** The number of elements, or of entries for pairs. */
    int size(Object value);

    /** The elements, or the entries ({@link Map.Entry}) for pairs. */
    Iterator<?> iterator(Object value);

    /**
     * Builds the value back.
     *
     * @param items elements, or keys and values alternating for pairs
     * @param comparator as written, or {@code null}
     */
    Object rebuild(Object[] items, Comparator<Object> comparator) throws ReflectiveOperationException;
}
