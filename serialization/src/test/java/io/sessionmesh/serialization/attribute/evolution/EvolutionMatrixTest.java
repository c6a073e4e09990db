package io.sessionmesh.serialization.attribute.evolution;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static io.sessionmesh.serialization.attribute.evolution.EvolutionPeer.CLASS_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Values written by one JVM with one version of a class, read by another JVM with another version. Each
 * JVM is a {@link SimulatedJvm} (its own class loader, so its own one-nio repository); schemas cross only
 * through the shared registry store, values only as bytes. Values are one-nio plain mode: no schema inside.
 */
class EvolutionMatrixTest {
    @TempDir
    Path work;

    private final ConcurrentMap<Long, byte[]> registry = new ConcurrentHashMap<>();
    private final List<SimulatedJvm> jvms = new ArrayList<>();

    private SimulatedJvm jvm(String name, Map<String, String> sources, String... renamedClasses) throws Exception {
        return jvm(name, registry, sources, renamedClasses);
    }

    private SimulatedJvm jvm(String name, ConcurrentMap<Long, byte[]> store, Map<String, String> sources,
                             String... renamedClasses) throws Exception {
        SimulatedJvm jvm = new SimulatedJvm(name, work, sources, store, List.of(renamedClasses));
        jvms.add(jvm);
        return jvm;
    }

    @AfterEach
    void closeJvms() throws Exception {
        for (SimulatedJvm jvm : jvms) {
            jvm.close();
        }
    }

    private static Map<String, String> source(String className, String body) {
        int dot = className.lastIndexOf('.');
        String pkg = className.substring(0, dot);
        String simple = className.substring(dot + 1);
        String kind = body.startsWith("enum ") ? "" : "class ";
        String annotation = "";
        if (body.startsWith("@")) {
            int end = body.indexOf(')') + 1;
            annotation = body.substring(0, end) + "\n";
            body = body.substring(end).trim();
        }
        String text = "package " + pkg + ";\n"
                + "import io.sessionmesh.serialization.attribute.FormerNames;\n"
                + annotation
                + "public " + kind + (kind.isEmpty() ? body.replaceFirst("enum ", "enum " + simple + " ")
                : simple + " implements java.io.Serializable " + body) + "\n";
        return Map.of(className, text);
    }

    private static Map<String, String> sources(Map<String, String> a, Map<String, String> b) {
        Map<String, String> all = new LinkedHashMap<>(a);
        all.putAll(b);
        return all;
    }

    private static Map<String, Object> fields(Object... keyValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    private static final Map<String, String> CUSTOMER_V1 = source("evo.Customer",
            "{ public String name; public int age; }");
    private static final Map<String, String> CUSTOMER_V2 = source("evo.Customer",
            "{ public String name; public int age; public String email; public long loyalty; }");

    @Test
    void fieldAdded_oldWriterNewReader_newFieldsStayAtDefaults() throws Throwable {
        SimulatedJvm writer = jvm("v1", CUSTOMER_V1);
        SimulatedJvm reader = jvm("v2", CUSTOMER_V2);
        Map<String, Object> read = reader.read(writer.write("evo.Customer", fields("name", "Ann", "age", 31)));
        assertEquals("Ann", read.get("name"));
        assertEquals(31, read.get("age"));
        assertNull(read.get("email"));
        assertEquals(0L, read.get("loyalty"));
    }

    @Test
    void fieldRemoved_newWriterOldReader_removedFieldsAreSkipped() throws Throwable {
        SimulatedJvm writer = jvm("v2", CUSTOMER_V2);
        SimulatedJvm reader = jvm("v1", CUSTOMER_V1);
        byte[] value = writer.write("evo.Customer", fields("name", "Bob", "age", 40, "email", "b@x", "loyalty", 7L));
        assertEquals(fields(CLASS_KEY, "evo.Customer", "name", "Bob", "age", 40), reader.read(value));
    }

    @Test
    void fieldRetypedIntToLong_valueWidens() throws Throwable {
        SimulatedJvm writer = jvm("int", source("evo.Account", "{ public int balance; public String id; }"));
        SimulatedJvm reader = jvm("long", source("evo.Account", "{ public long balance; public String id; }"));
        Map<String, Object> read = reader.read(writer.write("evo.Account", fields("balance", 2_000_000_000, "id", "a1")));
        assertEquals(2_000_000_000L, read.get("balance"));
        assertEquals("a1", read.get("id"));
    }

    @Test
    void classRenamedTwice_valuesOfEveryFormerNameDecode() throws Throwable {
        SimulatedJvm oldest = jvm("gen1", source("old.Client", "{ public String name; }"));
        SimulatedJvm middle = jvm("gen2", source("mid.Customer", "{ public String name; }"));
        SimulatedJvm current = jvm("gen3", source("evo.Person",
                "@FormerNames({\"old.Client\", \"mid.Customer\"}) { public String name; }"), "evo.Person");
        assertEquals(fields(CLASS_KEY, "evo.Person", "name", "first"),
                current.read(oldest.write("old.Client", fields("name", "first"))));
        assertEquals(fields(CLASS_KEY, "evo.Person", "name", "second"),
                current.read(middle.write("mid.Customer", fields("name", "second"))));
    }

    @Test
    void fieldRenamedTwice_valuesOfEveryFormerNameDecode() throws Throwable {
        SimulatedJvm oldest = jvm("card1", source("evo.Card", "{ public String number; public int cvvTries; }"));
        SimulatedJvm middle = jvm("card2", source("evo.Card", "{ public String pan; public int cvvTries; }"));
        SimulatedJvm current = jvm("card3", source("evo.Card",
                "{ @FormerNames({\"number\", \"pan\"}) public String maskedPan; public int cvvTries; }"));
        assertEquals(fields(CLASS_KEY, "evo.Card", "maskedPan", "4111", "cvvTries", 1),
                current.read(oldest.write("evo.Card", fields("number", "4111", "cvvTries", 1))));
        assertEquals(fields(CLASS_KEY, "evo.Card", "maskedPan", "5500", "cvvTries", 2),
                current.read(middle.write("evo.Card", fields("pan", "5500", "cvvTries", 2))));
    }

    @Test
    void renamedClassAsAFieldType_fieldStillFilled() throws Throwable {
        SimulatedJvm writer = jvm("orders1", sources(source("old.Client", "{ public String name; }"),
                source("evo.Order", "{ public old.Client client; public int total; }")));
        SimulatedJvm reader = jvm("orders2", sources(source("evo.Person",
                "@FormerNames({\"old.Client\"}) { public String name; }"),
                source("evo.Order", "{ public evo.Person client; public int total; }")), "evo.Person");
        byte[] value = writer.write("evo.Order", fields("client", fields(CLASS_KEY, "old.Client", "name", "Eve"), "total", 5));
        Map<String, Object> read = reader.read(value);
        assertEquals(5, read.get("total"));
        assertEquals(fields(CLASS_KEY, "evo.Person", "name", "Eve"), read.get("client"));
    }

    @Test
    void enumConstantAdded_oldConstantsStillDecodeByName() throws Throwable {
        SimulatedJvm writer = jvm("enum1", source("evo.Level", "enum { LOW, HIGH }"));
        SimulatedJvm reader = jvm("enum2", source("evo.Level", "enum { LOW, MEDIUM, HIGH }"));
        assertEquals("HIGH", reader.read(writer.write("evo.Level", fields("name", "HIGH"))).get("name"));
    }

    @Test
    void classMissingOnReader_failsAloneWithUnknownClass_andTheBytesStillDecodeWhereTheClassExists() throws Throwable {
        Map<String, String> secret = source("evo.Secret", "{ public String payload; }");
        SimulatedJvm writer = jvm("writer", secret);
        SimulatedJvm lacking = jvm("lacking", CUSTOMER_V1);
        SimulatedJvm third = jvm("third", secret);
        assertFalse(lacking.hasClass("evo.Secret"));
        byte[] value = writer.write("evo.Secret", fields("payload", "p"));
        byte[] second = writer.write("evo.Secret", fields("payload", "q"));
        byte[] carried = value.clone(); // what the lacking JVM keeps and sends on, untouched
        assertThrowsNamed("UnknownClassException", () -> lacking.read(value));
        assertEquals(fields(CLASS_KEY, "evo.Secret", "payload", "p"), third.read(carried));
        assertEquals("q", third.read(second).get("payload"));
        // the failure did not disturb the lacking JVM: it still reads what it knows
        SimulatedJvm customers = jvm("customers", CUSTOMER_V1);
        assertEquals("Ann", lacking.read(customers.write("evo.Customer", fields("name", "Ann", "age", 1))).get("name"));
    }

    @Test
    void gadgetNamedSchemaFromTheRegistry_isRefusedByName_beforeTheClassIsLoaded() throws Throwable {
        Map<String, String> gadget = source("org.codehaus.groovy.runtime.FakeClosure",
                "{ static { System.setProperty(\"sessionmesh.test.gadget.initialized\", \"yes\"); } public String cmd; }");
        SimulatedJvm writer = jvm("attacker", gadget);
        byte[] value = writer.write("org.codehaus.groovy.runtime.FakeClosure", fields("cmd", "touch /tmp/x"));
        System.clearProperty("sessionmesh.test.gadget.initialized");
        SimulatedJvm victim = jvm("victim", gadget);
        assertThrowsNamed("ClassNotAllowedException", () -> victim.read(value));
        assertNull(System.getProperty("sessionmesh.test.gadget.initialized"), "the gadget's static initializer ran");
    }

    @Test
    void schemaNotExchanged_readerFailsWithSchemaNotFound() throws Throwable {
        SimulatedJvm writer = jvm("w", CUSTOMER_V1);
        SimulatedJvm isolated = jvm("isolated", new ConcurrentHashMap<>(), CUSTOMER_V1);
        byte[] value = writer.write("evo.Customer", fields("name", "Zed", "age", 9));
        assertThrowsNamed("SchemaNotFoundException", () -> isolated.read(value));
    }

    @Test
    void plainMode_valueCarriesNoSchema_andSchemaTravelsThroughTheRegistry() throws Throwable {
        SimulatedJvm writer = jvm("plain", CUSTOMER_V1);
        assertTrue(registry.isEmpty());
        byte[] value = writer.write("evo.Customer", fields("name", "Ann", "age", 31));
        String text = new String(value, StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("evo.Customer"), "the class name is not in the value");
        assertFalse(text.contains("age"), "field names are not in the value");
        assertFalse(registry.isEmpty(), "the schema went to the registry");
        assertTrue(value.length < 40, "plain mode value is compact: " + value.length + " bytes");
    }

    private static void assertThrowsNamed(String simpleName, ThrowingRead read) {
        try {
            read.run();
        } catch (Throwable t) {
            assertEquals(simpleName, t.getClass().getSimpleName(), "thrown: " + t);
            return;
        }
        fail("expected " + simpleName);
    }

    @FunctionalInterface
    private interface ThrowingRead {
        void run() throws Throwable;
    }
}
