package io.sessionmesh.serialization.attribute.internal;

import io.sessionmesh.serialization.attribute.AttributeDecodeException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.FormerNames;
import io.sessionmesh.serialization.attribute.UnknownClassException;

import one.nio.serial.DeserializeStream;
import one.nio.serial.Repository;
import one.nio.serial.Serializer;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * Takes a schema fetched from the registry into this JVM's one-nio repository, safely:
 * <ol>
 *   <li>parses the schema's header and refuses a kind of serializer a schema may not have;</li>
 *   <li>recomputes the uid from the bytes, as one-nio computes it ({@link SchemaForm#contentUid}), and refuses
 *       bytes that are not the schema of the uid they were fetched for: whoever can publish a schema could
 *       otherwise give a class's uid another field layout, and values of that class would be read with it;</li>
 *   <li>maps the writer's class name to a local class: the name itself, one-nio's {@code current|former}
 *       pair, or a class that lists the name in {@link FormerNames}; none found is an
 *       {@link UnknownClassException} (no stub class is generated);</li>
 *   <li>checks every class the schema names (written and local class, every name of every field type)
 *       against this reader's own {@link ClassFilter} by name, before any of them is loaded or initialised by
 *       one-nio: a field type is resolved when the schema is, whether or not a value ever holds one;</li>
 *   <li>renames fields that the local class lists in {@link FormerNames} on a field, and field types whose
 *       classes were renamed;</li>
 *   <li>lets one-nio read the schema, checks that it describes the uid that was asked for, and registers it.</li>
 * </ol>
 */
public final class SchemaIntake {
    private final ClassFilter filter;
    /** Former class name -> current local class name, from {@link FormerNames} on registered classes. */
    private final Map<String, String> formerClassNames;
    private final ClassLoader loader;

    public SchemaIntake(ClassFilter filter, Map<String, String> formerClassNames) {
        OneNioRuntime.init();
        this.filter = filter;
        this.formerClassNames = Map.copyOf(formerClassNames);
        this.loader = Repository.class.getClassLoader();
    }

    /** Collects the former names of classes annotated with {@link FormerNames}. */
    public static Map<String, String> formerNamesOf(Iterable<Class<?>> classes) {
        Map<String, String> names = new HashMap<>();
        for (Class<?> cls : classes) {
            FormerNames former = cls.getAnnotation(FormerNames.class);
            if (former == null) {
                throw new IllegalArgumentException("class " + cls.getName() + " is not annotated with @FormerNames");
            }
            for (String name : former.value()) {
                String previous = names.put(name, cls.getName());
                if (previous != null && !previous.equals(cls.getName())) {
                    throw new IllegalArgumentException("former class name " + name + " is claimed by both "
                            + previous + " and " + cls.getName());
                }
            }
        }
        return names;
    }

    /**
     * Registers the schema of {@code uid} with one-nio.
     *
     * @throws UnknownClassException when no local class matches
     * @throws io.sessionmesh.serialization.attribute.ClassNotAllowedException when the filter refuses it
     * @throws AttributeDecodeException when the schema is malformed or describes another uid, or the uid is negative
     */
    public void accept(long uid, byte[] schema) {
        if (uid < 0) {
            // one-nio's own serializers have negative uids, kept in a table that Repository.provideSerializer indexes
            // with the uid: another one there would replace a built-in serializer, one out of range throws
            // ArrayIndexOutOfBoundsException. Schemas written by one-nio for classes never have one.
            throw new AttributeDecodeException("schema uid " + Long.toHexString(uid) + " is negative: one-nio reserves those "
                    + "for its built-in serializers, which are never fetched");
        }
        SchemaForm form;
        try {
            form = SchemaForm.parse(schema, OneNioRuntime.generatedSchemaTag());
        } catch (IOException e) {
            throw new AttributeDecodeException("schema " + Long.toHexString(uid) + " is malformed: " + e.getMessage(), e);
        }
        if (!OneNioRuntime.isSchemaSerializerUid(form.tag)) {
            throw new AttributeDecodeException("schema " + Long.toHexString(uid) + " names serializer kind "
                    + Long.toHexString(form.tag) + ", which a schema may not have");
        }
        if (form.uid != uid) {
            throw new AttributeDecodeException("schema asked for as " + Long.toHexString(uid) + " describes "
                    + Long.toHexString(form.uid));
        }
        long content = form.contentUid(OneNioRuntime.schemaSerializerClass(form.tag));
        if (content != uid) {
            throw new AttributeDecodeException("schema of " + form.descriptor + " fetched for uid " + Long.toHexString(uid)
                    + " does not match its uid " + Long.toHexString(uid) + ": its bytes are the schema of uid "
                    + Long.toHexString(content) + " (published by someone else, or changed on the way); not registered");
        }
        String writtenName = form.descriptor;
        for (String candidate : writtenName.split("\\|")) {
            filter.check(candidate);
        }
        Class<?> local = localClass(writtenName);
        filter.check(local.getName());
        form.descriptor = local.getName();
        if (form.hasFields()) {
            form.renameFieldTypes(this::checkedLocalTypeName);
            renameFields(form, local);
        }
        Serializer<?> serializer;
        try {
            Object read = new DeserializeStream(form.toBytes()).readObject();
            if (!(read instanceof Serializer)) {
                throw new AttributeDecodeException("schema " + Long.toHexString(uid) + " did not read as a schema");
            }
            serializer = (Serializer<?>) read;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            if (e instanceof AttributeDecodeException) {
                throw (AttributeDecodeException) e;
            }
            throw new AttributeDecodeException("schema " + Long.toHexString(uid) + " of " + writtenName
                    + " could not be read: " + e, e);
        }
        if (serializer.uid() != uid || serializer.cls() != local) {
            throw new AttributeDecodeException("schema " + Long.toHexString(uid) + " of " + writtenName
                    + " resolved to " + serializer.cls() + " under uid " + Long.toHexString(serializer.uid()));
        }
        Repository.provideSerializer(serializer);
    }

    /** The local class for a written descriptor, trying each name of a {@code current|former} pair. */
    private Class<?> localClass(String descriptor) {
        for (String name : descriptor.split("\\|")) {
            Class<?> cls = load(name);
            if (cls == null) {
                String renamed = formerClassNames.get(name);
                cls = renamed == null ? null : load(renamed);
            }
            if (cls != null) {
                return cls;
            }
        }
        throw new UnknownClassException(descriptor);
    }

    /** A field type: checked against the filter (every name of a pair), and renamed when its class was renamed. */
    private String checkedLocalTypeName(String type) {
        String element = type;
        String arrayPrefix = "";
        if (type.startsWith("[")) {
            int dims = 0;
            while (dims < type.length() && type.charAt(dims) == '[') {
                dims++;
            }
            if (dims == type.length()) {
                throw new AttributeDecodeException("field type \"" + type + "\" is not an array descriptor");
            }
            if (type.charAt(dims) != 'L') {
                return type; // array of primitives
            }
            if (type.length() < dims + 3 || type.charAt(type.length() - 1) != ';') {
                throw new AttributeDecodeException("field type \"" + type + "\" is not an array descriptor");
            }
            arrayPrefix = type.substring(0, dims + 1);
            element = type.substring(dims + 1, type.length() - 1);
        }
        String result = element;
        int bar = element.indexOf('|');
        String firstName = bar < 0 ? element : element.substring(0, bar);
        if (load(firstName) == null && bar < 0 && formerClassNames.containsKey(element)) {
            result = formerClassNames.get(element);
        }
        if (bar < 0) {
            filter.check(result);
        } else {
            for (String name : element.split("\\|")) {
                filter.check(name);
            }
        }
        return arrayPrefix.isEmpty() ? result : arrayPrefix + result + ";";
    }

    /** Gives a schema field the name of the local field that lists the written name in {@link FormerNames}. */
    private static void renameFields(SchemaForm form, Class<?> local) {
        Map<String, String> current = new HashMap<>();
        Map<String, String> former = new HashMap<>();
        for (Class<?> c = local; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                current.putIfAbsent(f.getName(), f.getName());
                FormerNames names = f.getAnnotation(FormerNames.class);
                if (names != null) {
                    for (String name : names.value()) {
                        former.putIfAbsent(name, f.getName());
                    }
                }
            }
        }
        for (int i = 0; i < form.fieldNames.size(); i++) {
            String written = form.fieldNames.get(i);
            for (String name : written.split("\\|")) {
                if (current.containsKey(name)) {
                    break;
                }
                String renamed = former.get(name);
                if (renamed != null) {
                    form.fieldNames.set(i, renamed);
                    break;
                }
            }
        }
    }

    /** Loads a class without initialising it; {@code null} when absent. */
    private Class<?> load(String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
