package io.sessionmesh.serialization.attribute.evolution;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.DecodedValue;
import io.sessionmesh.serialization.attribute.InMemorySchemaRegistry;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;

/**
 * The code that runs inside one {@link SimulatedJvm}: loaded by that JVM's own class loader, it builds an
 * {@link AttributeCodec} over the shared schema store and speaks to the test only in JDK types.
 */
public final class EvolutionPeer {
    /** The key under which {@link #read} puts the class name of the decoded object. */
    public static final String CLASS_KEY = "@class";

    private final AttributeCodec codec;
    private final ClassLoader loader = EvolutionPeer.class.getClassLoader();

    public EvolutionPeer(ConcurrentMap<Long, byte[]> store, List<String> renamedClasses, List<String> allowedPackages)
            throws ClassNotFoundException {
        AttributeCodec.Builder builder = AttributeCodec.builder()
                .schemaRegistry(new InMemorySchemaRegistry(store, 1000, 1 << 20))
                .classFilter(ClassFilter.allowingPackages(allowedPackages.toArray(new String[0])));
        for (String name : renamedClasses) {
            builder.registerClasses(Class.forName(name, false, loader));
        }
        this.codec = builder.build();
    }

    public byte[] write(String className, Map<String, Object> fields) throws ReflectiveOperationException {
        return codec.encode(build(className, fields));
    }

    public Map<String, Object> read(byte[] value) throws IllegalAccessException {
        return describe(codec.decode(value));
    }

    /** Whether a value read here was written with this JVM's schema of every class in it. */
    public boolean writtenWithLocalSchemas(byte[] value) {
        return codec.decodeForUpdate(value).writtenWithLocalSchemas();
    }

    /**
     * Decodes a value for update, sets {@code field} of the decoded object to {@code newValue} in place (no change
     * when {@code field} is null; for a list, of its first element), and returns what is to be written back
     * (null: nothing).
     */
    public byte[] writeBack(byte[] value, String field, Object newValue) throws ReflectiveOperationException {
        DecodedValue read = codec.decodeForUpdate(value);
        if (field != null) {
            Object target = read.value() instanceof java.util.List ? ((java.util.List<?>) read.value()).get(0) : read.value();
            Field f = target.getClass().getDeclaredField(field);
            f.setAccessible(true);
            f.set(target, newValue);
        }
        return codec.encodeIfChanged(read);
    }

    /** Encodes a mutable list holding one object of {@code className}. */
    public byte[] writeList(String className, Map<String, Object> fields) throws ReflectiveOperationException {
        return codec.encode(new java.util.ArrayList<>(List.of(build(className, fields))));
    }

    private Object build(String className, Map<String, Object> fields) throws ReflectiveOperationException {
        Class<?> cls = Class.forName(className, true, loader);
        if (cls.isEnum()) {
            return cls.getField((String) fields.get("name")).get(null);
        }
        Object obj = cls.getDeclaredConstructor().newInstance();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            Field f = cls.getDeclaredField(e.getKey());
            f.setAccessible(true);
            Object value = e.getValue();
            if (value instanceof Map && ((Map<?, ?>) value).containsKey(CLASS_KEY)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> nested = new LinkedHashMap<>((Map<String, Object>) value);
                value = build((String) nested.remove(CLASS_KEY), nested);
            }
            f.set(obj, value);
        }
        return obj;
    }

    private static Map<String, Object> describe(Object obj) throws IllegalAccessException {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(CLASS_KEY, obj.getClass().getName());
        if (obj instanceof Enum) {
            result.put("name", ((Enum<?>) obj).name());
            return result;
        }
        for (Field f : obj.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object value = f.get(obj);
            boolean jdkValue = value == null || value.getClass().getName().startsWith("java.");
            result.put(f.getName(), jdkValue ? value : describe(value));
        }
        return result;
    }
}
