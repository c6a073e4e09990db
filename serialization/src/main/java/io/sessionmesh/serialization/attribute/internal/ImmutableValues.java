package io.sessionmesh.serialization.attribute.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Currency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Which decoded values cannot have been changed in place, so a session saving "what changed" need not serialize them
 * again to find out: strings, boxed numbers, enums, {@code BigDecimal}, {@code java.time} values and the like, records
 * whose components are all such, and the JDK's and Guava's immutable collections and maps of such. The check walks the
 * value (records' components, immutable collections' elements), so a record holding an {@code ArrayList}, or a
 * {@code List.of} of mutable beans, is not one of them and is compared as before.
 *
 * <p>Unmodifiable wrappers ({@code Collections.unmodifiableList}) are not counted: the list they wrap may be reachable
 * from elsewhere in the same value. Arrays are never immutable.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>value</th></tr>
 *   <tr><td>objects visited in one value; a larger value is compared by serialization instead</td>
 *       <td>{@value #MAX_OBJECTS_VISITED}</td></tr>
 * </table>
 */
public final class ImmutableValues {
    /**
     * The most objects one check visits. Past it the value is treated as changeable (and compared by serialization):
     * a walk must stay far cheaper than the serialization it saves, and a session value of this many objects is
     * large enough that its serialization is what it costs anyway.
     */
    public static final int MAX_OBJECTS_VISITED = 256;

    /** Final classes whose instances never change. */
    private static final Set<Class<?>> FINAL_LEAVES = Set.of(String.class, Boolean.class, Character.class, Byte.class,
            Short.class, Integer.class, Long.class, Float.class, Double.class, UUID.class, URI.class, Currency.class,
            Locale.class, LocalDate.class, LocalTime.class, LocalDateTime.class, Instant.class, Duration.class,
            Period.class, ZonedDateTime.class, OffsetDateTime.class, OffsetTime.class, Year.class, YearMonth.class,
            MonthDay.class, ZoneOffset.class, DayOfWeek.class, Month.class);

    private enum Kind { LEAF, RECORD, COLLECTION, MAP, CHANGEABLE }

    /** How to walk instances of one class. */
    private record Shape(Kind kind, MethodHandle[] components) {
        static final Shape LEAF = new Shape(Kind.LEAF, null);
        static final Shape CHANGEABLE = new Shape(Kind.CHANGEABLE, null);
        static final Shape COLLECTION = new Shape(Kind.COLLECTION, null);
        static final Shape MAP = new Shape(Kind.MAP, null);
    }

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> cls) {
            return shapeOf(cls);
        }
    };

    private ImmutableValues() {
    }

    /**
     * Whether {@code value} (not null) cannot have changed since it was decoded: every object reachable from it is of
     * an immutable kind. False also when the value is larger than {@value #MAX_OBJECTS_VISITED} objects.
     */
    public static boolean cannotChange(Object value) {
        Shape shape = SHAPES.get(value.getClass());
        if (shape.kind == Kind.LEAF) {
            return true; // the common case: no walk, no allocation
        }
        if (shape.kind == Kind.CHANGEABLE) {
            return false;
        }
        int[] budget = {MAX_OBJECTS_VISITED};
        try {
            return walk(value, shape, budget);
        } catch (Throwable e) {
            return false; // an accessor that throws: compare by serialization, which will say what is wrong
        }
    }

    private static boolean visit(Object value, int[] budget) throws Throwable {
        if (value == null) {
            return true;
        }
        if (--budget[0] < 0) {
            return false;
        }
        Shape shape = SHAPES.get(value.getClass());
        return switch (shape.kind) {
            case LEAF -> true;
            case CHANGEABLE -> false;
            default -> walk(value, shape, budget);
        };
    }

    private static boolean walk(Object value, Shape shape, int[] budget) throws Throwable {
        switch (shape.kind) {
            case RECORD:
                for (MethodHandle component : shape.components) {
                    if (!visit((Object) component.invokeExact(value), budget)) {
                        return false;
                    }
                }
                return true;
            case COLLECTION:
                for (Object element : (Collection<?>) value) {
                    if (!visit(element, budget)) {
                        return false;
                    }
                }
                return true;
            case MAP:
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                    if (!visit(e.getKey(), budget) || !visit(e.getValue(), budget)) {
                        return false;
                    }
                }
                return true;
            default:
                return shape.kind == Kind.LEAF;
        }
    }

    private static Shape shapeOf(Class<?> cls) {
        if (FINAL_LEAVES.contains(cls) || cls == BigDecimal.class || cls == BigInteger.class || isEnum(cls)
                || isJdkZoneId(cls)) {
            return Shape.LEAF;
        }
        if (cls.isRecord()) {
            return recordShape(cls);
        }
        String name = cls.getName();
        if (name.startsWith("java.util.ImmutableCollections$")
                || name.startsWith("java.util.Collections$Empty") || name.startsWith("java.util.Collections$Singleton")) {
            return Map.class.isAssignableFrom(cls) ? Shape.MAP
                    : Collection.class.isAssignableFrom(cls) ? Shape.COLLECTION : Shape.CHANGEABLE;
        }
        if (extendsGuava(cls, "com.google.common.collect.ImmutableCollection")) {
            return Shape.COLLECTION;
        }
        if (extendsGuava(cls, "com.google.common.collect.ImmutableMap")) {
            return Shape.MAP;
        }
        return Shape.CHANGEABLE;
    }

    private static boolean isEnum(Class<?> cls) {
        return cls.isEnum() || (cls.getSuperclass() != null && cls.getSuperclass().isEnum());
    }

    private static boolean isJdkZoneId(Class<?> cls) {
        return ZoneId.class.isAssignableFrom(cls) && cls.getName().startsWith("java.time.");
    }

    private static boolean extendsGuava(Class<?> cls, String superName) {
        for (Class<?> c = cls.getSuperclass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(superName)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A record: a leaf when every component is a primitive or of a final immutable class; otherwise walked through
     * the accessors of the components that are not. A record whose accessors cannot be reached is changeable.
     */
    private static Shape recordShape(Class<?> cls) {
        List<MethodHandle> walked = new ArrayList<>();
        for (RecordComponent c : cls.getRecordComponents()) {
            Class<?> type = c.getType();
            if (type.isPrimitive() || FINAL_LEAVES.contains(type) || (type.isEnum() && Modifier.isFinal(type.getModifiers()))) {
                continue;
            }
            if (type.isArray()) {
                return Shape.CHANGEABLE;
            }
            try {
                Method accessor = c.getAccessor();
                accessor.setAccessible(true);
                walked.add(MethodHandles.lookup().unreflect(accessor).asType(MethodType.methodType(Object.class, Object.class)));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Shape.CHANGEABLE;
            }
        }
        return walked.isEmpty() ? Shape.LEAF : new Shape(Kind.RECORD, walked.toArray(new MethodHandle[0]));
    }
}
