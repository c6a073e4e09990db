package io.sessionmesh.serialization.attribute.evolution;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import static io.sessionmesh.serialization.attribute.evolution.EvolutionPeer.CLASS_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write-back rule of {@code AttributeCodec.decodeForUpdate}/{@code encodeIfChanged} across versions of a class:
 * a value read by a JVM with another version (older, newer, renamed) is to be written back only when that JVM changed
 * it, never because its encoding differs from the bytes read. Each JVM is a {@link SimulatedJvm}.
 */
class WriteBackMatrixTest {
    @TempDir
    static Path work;
    private static final ConcurrentMap<Long, byte[]> registry = new ConcurrentHashMap<>();
    private static final Map<String, SimulatedJvm> jvms = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        jvm("v1", "evo.Profile", "{ public String a; public int b; }");
        jvm("v2", "evo.Profile", "{ public String a; public int b; public String c; }");
        jvm("v2-other", "evo.Profile", "{ public String a; public int b; public String c; }");
        jvm("renamed", "evo.UserProfile",
                "@FormerNames({\"evo.Profile\"}) { public String a; public int b; public String c; }", "evo.UserProfile");
        for (String name : List.of("holder", "holder-other")) {
            jvm(name, "evo.Holder", "{ public java.util.List<String> items; public java.util.Map<String, Integer> counts;"
                    + " public java.util.Set<String> tags; public java.util.List<Integer> mutable; }");
        }
    }

    private static void jvm(String name, String className, String body, String... renamed) throws Exception {
        int dot = className.lastIndexOf('.');
        String annotation = "";
        if (body.startsWith("@")) {
            int end = body.indexOf(')') + 1;
            annotation = body.substring(0, end) + "\n";
            body = body.substring(end).trim();
        }
        String text = "package " + className.substring(0, dot) + ";\n"
                + "import io.sessionmesh.serialization.attribute.FormerNames;\n" + annotation
                + "public class " + className.substring(dot + 1) + " implements java.io.Serializable " + body + "\n";
        jvms.put(name, new SimulatedJvm(name, work, Map.of(className, text), registry, List.of(renamed)));
    }

    @AfterAll
    static void close() throws Exception {
        for (SimulatedJvm jvm : jvms.values()) {
            jvm.close();
        }
    }

    private static byte[] write(String writer) throws Throwable {
        return jvms.get(writer).write(classOf(writer), fieldsOf(writer));
    }

    private static String classOf(String jvm) {
        return jvm.equals("renamed") ? "evo.UserProfile" : "evo.Profile";
    }

    private static Map<String, Object> fieldsOf(String writer) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("a", "from " + writer);
        fields.put("b", 7);
        if (!writer.equals("v1")) {
            fields.put("c", "newer field, by " + writer);
        }
        return fields;
    }

    @ParameterizedTest(name = "{0} writes, {1} reads: local schemas {2}")
    @CsvSource({"v2, v1, false", "v1, v2, false", "v2, renamed, false", "v1, renamed, false",
            "v2, v2-other, true", "v2, v2, true", "renamed, renamed, true"})
    void decodeForUpdate_readOnly_nothingToWriteBack(String writer, String reader, boolean local) throws Throwable {
        byte[] value = write(writer);

        assertEquals(local, jvms.get(reader).writtenWithLocalSchemas(value));
        assertNull(jvms.get(reader).writeBack(value, null, null), reader + " would write back what it only read");
    }

    @ParameterizedTest(name = "{0} writes, {1} reads")
    @CsvSource({"v2, v1", "v1, v2", "v2, renamed", "v1, renamed", "v2, v2-other", "renamed, renamed"})
    void decodeForUpdate_changedInPlace_isWrittenBackInTheReadersShape(String writer, String reader) throws Throwable {
        byte[] changed = jvms.get(reader).writeBack(write(writer), "a", "changed by " + reader);

        assertNotNull(changed, reader + " lost a change made in place");
        Map<String, Object> seen = jvms.get(reader).read(changed);
        assertEquals("changed by " + reader, seen.get("a"));
        assertEquals(classOf(reader), seen.get(CLASS_KEY));
        assertTrue(jvms.get(reader).writtenWithLocalSchemas(changed), "written back in this JVM's schema");
    }

    @Test
    void decodeForUpdate_sameVersionInAnotherJvm_withImmutableCollections_isLocal_soNoBaselineIsMade() throws Throwable {
        byte[] value = jvms.get("holder").write("evo.Holder", Map.of("items", List.of("x", "y"),
                "counts", Map.of("a", 1, "b", 2), "tags", java.util.Set.of("t"), "mutable", new java.util.ArrayList<>(List.of(1))));
        SimulatedJvm other = jvms.get("holder-other");

        assertTrue(other.writtenWithLocalSchemas(value), "the same version in another JVM read as another schema");
        assertNull(other.writeBack(value, null, null));
        assertNotNull(other.writeBack(value, "items", List.of("z")));
    }

    @Test
    void decodeForUpdate_newerObjectInsideALocalList_isNotLocal_andOnlyAChangeIsWrittenBack() throws Throwable {
        byte[] list = jvms.get("v2").writeList("evo.Profile", fieldsOf("v2"));
        SimulatedJvm older = jvms.get("v1");

        assertFalse(older.writtenWithLocalSchemas(list));
        assertNull(older.writeBack(list, null, null));
        assertNotNull(older.writeBack(list, "b", 8));
        assertTrue(jvms.get("v2-other").writtenWithLocalSchemas(list));
    }
}
