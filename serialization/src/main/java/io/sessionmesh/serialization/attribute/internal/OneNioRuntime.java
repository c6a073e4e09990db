package io.sessionmesh.serialization.attribute.internal;

import one.nio.serial.Repository;
import one.nio.serial.Serializer;

import java.util.HashMap;
import java.util.Map;

/**
 * The one place that touches one-nio's global state before anything else does.
 *
 * <p>one-nio picks its class-generation strategy once, from the system property
 * {@value #GEN_MODE_PROPERTY}, when it generates its first serializer. JDK 24 and later need
 * {@code method_handles}; JDK 17 to 23 run the older, proven {@code magic_accessor}. A value set on the
 * command line wins; otherwise this pins the right one for the running JDK, so that a consumer does not
 * have to know.
 */
public final class OneNioRuntime {
    /** one-nio's system property that chooses how serializers are generated. */
    public static final String GEN_MODE_PROPERTY = "one.nio.serial.gen.mode";
    /** The first JDK feature release that needs {@code method_handles}. */
    static final int FIRST_JDK_NEEDING_METHOD_HANDLES = 24;

    /** The tag of each serializer kind a schema may have -> that serializer's class name (part of its uid). */
    private static final Map<Long, String> SCHEMA_SERIALIZER_CLASSES;
    private static final long GENERATED_SCHEMA_TAG;

    static {
        if (System.getProperty(GEN_MODE_PROPERTY) == null) {
            System.setProperty(GEN_MODE_PROPERTY,
                    Runtime.version().feature() >= FIRST_JDK_NEEDING_METHOD_HANDLES ? "method_handles" : "magic_accessor");
        }
        Repository.preload(RebuildingSerializer.class);
        Map<Long, String> classes = new HashMap<>();
        long generated = 0;
        for (String name : new String[] {"GeneratedSerializer", "EnumSerializer", "CollectionSerializer",
                "MapSerializer", "ExternalizableSerializer", "ObjectArraySerializer", "JavaTimeSerializer"}) {
            Class<? extends Serializer<?>> cls = serializerClass("one.nio.serial." + name);
            long uid = Repository.get(cls).uid();
            classes.put(uid, cls.getName());
            if (name.equals("GeneratedSerializer")) {
                generated = uid;
            }
        }
        classes.put(Repository.get(RebuildingSerializer.class).uid(), RebuildingSerializer.class.getName());
        SCHEMA_SERIALIZER_CLASSES = Map.copyOf(classes);
        GENERATED_SCHEMA_TAG = generated;
    }

    private OneNioRuntime() {
    }

    /** Makes sure the static set-up above has run. Cheap after the first call. */
    public static void init() {
        // The work is in the static initializer.
    }

    /** The generation mode one-nio runs with in this JVM. */
    public static String genMode() {
        return System.getProperty(GEN_MODE_PROPERTY);
    }

    /**
     * Whether a schema's leading tag names a serializer kind that schemas may have: the tag decides which
     * code reads the rest, so a schema from the registry may not name anything else.
     */
    static boolean isSchemaSerializerUid(long uid) {
        return SCHEMA_SERIALIZER_CLASSES.containsKey(uid);
    }

    /** The class name of the serializer kind a schema's tag names, which its uid digests; null for other tags. */
    static String schemaSerializerClass(long tag) {
        return SCHEMA_SERIALIZER_CLASSES.get(tag);
    }

    /** The tag of one-nio's field-by-field serializer, whose schema lists field names and types. */
    static long generatedSchemaTag() {
        return GENERATED_SCHEMA_TAG;
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends Serializer<?>> serializerClass(String name) {
        try {
            return (Class<? extends Serializer<?>>) Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("one-nio " + name + " not found: is one-nio 2.3.0 on the class path?", e);
        }
    }
}
