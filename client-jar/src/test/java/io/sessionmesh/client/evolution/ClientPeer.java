package io.sessionmesh.client.evolution;

import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.wire.transport.SectionDelta;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service code that runs inside one {@link ServiceJvm}: loaded by that JVM's own class loader (its own client,
 * codec and one-nio repository), it talks to the real sidecar and to the test only in JDK types.
 */
public final class ClientPeer implements AutoCloseable {
    /** The key under which {@link #read} puts the class name of the decoded object. */
    public static final String CLASS_KEY = "@class";
    /** The attributes live in this section. */
    public static final String SECTION = "profile";

    private final SessionMeshClient client;
    private final ClassLoader loader = ClientPeer.class.getClassLoader();

    public ClientPeer(String sidecar, List<String> renamedClasses) throws ClassNotFoundException {
        SessionMeshClient.Builder builder = SessionMeshClient.builder().sidecar(URI.create(sidecar))
                .classFilter(io.sessionmesh.serialization.attribute.ClassFilter.allowingPackages("evo"));
        for (String name : renamedClasses) {
            builder.registerClasses(Class.forName(name, false, loader));
        }
        this.client = builder.build();
    }

    /** Creates a session, sets one attribute to an object of {@code className} and saves; the stored bytes. */
    public String create(String attribute, String className, Map<String, Object> fields) throws ReflectiveOperationException {
        Session s = client.createSession();
        s.section(SECTION).setAttribute(attribute, build(className, fields));
        s.save();
        return s.id();
    }

    /** The bytes the sidecar holds for an attribute, read afresh. */
    public byte[] stored(String id, String attribute) {
        return client.getSession(id, SECTION).section(SECTION).storedBytes(attribute);
    }

    /** Reads an attribute afresh and describes it (class name and field values). */
    public Map<String, Object> read(String id, String attribute) throws IllegalAccessException {
        return describe(client.getSession(id, SECTION).section(SECTION).getAttribute(attribute));
    }

    /**
     * What a service does in a request: reads the attribute, then {@code "none"}: only looks at it; {@code "inPlace"}:
     * changes its field {@code a} (or, for a list, adds an element) without calling setAttribute; {@code "set"}: sets
     * it again, unchanged. Then saves; the names of the attributes the save sent.
     */
    public List<String> readChangeSave(String id, String attribute, String change) throws ReflectiveOperationException {
        Session s = client.getSession(id, SECTION);
        Section section = s.section(SECTION);
        Object value = section.getAttribute(attribute);
        switch (change) {
            case "none":
                break;
            case "inPlace":
                if (value instanceof List) {
                    @SuppressWarnings("unchecked")
                    List<Object> list = (List<Object>) value;
                    list.add(build(list.get(0).getClass().getName(), Map.of("a", "added by " + loader.getName())));
                } else {
                    Field a = value.getClass().getDeclaredField("a");
                    a.set(value, "changed by " + loader.getName());
                }
                break;
            case "set":
                section.setAttribute(attribute, value);
                break;
            default:
                throw new IllegalArgumentException(change);
        }
        List<String> sent = new ArrayList<>();
        for (SectionDelta d : s.save()) {
            sent.addAll(d.set().keySet());
        }
        return sent;
    }

    /** Creates a session holding a mutable list of objects of {@code className}; the session id. */
    public String createList(String attribute, String className, Map<String, Object> fields) throws ReflectiveOperationException {
        Session s = client.createSession();
        s.section(SECTION).setAttribute(attribute, new ArrayList<>(List.of(build(className, fields))));
        s.save();
        return s.id();
    }

    private Object build(String className, Map<String, Object> fields) throws ReflectiveOperationException {
        Class<?> cls = Class.forName(className, true, loader);
        Object obj = cls.getDeclaredConstructor().newInstance();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            cls.getDeclaredField(e.getKey()).set(obj, e.getValue());
        }
        return obj;
    }

    private static Map<String, Object> describe(Object obj) throws IllegalAccessException {
        Map<String, Object> result = new LinkedHashMap<>();
        if (obj instanceof List) {
            List<Object> items = new ArrayList<>();
            for (Object o : (List<?>) obj) {
                items.add(describe(o));
            }
            result.put(CLASS_KEY, "list");
            result.put("items", items);
            return result;
        }
        result.put(CLASS_KEY, obj.getClass().getName());
        for (Field f : obj.getClass().getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                result.put(f.getName(), f.get(obj));
            }
        }
        return result;
    }

    @Override
    public void close() {
        client.close();
    }
}
