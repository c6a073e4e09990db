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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a reader checks in a schema it fetches before one-nio sees it: that the bytes are the schema of the
 * uid they were fetched for (anyone who can publish could otherwise swap a class's field layout), and that
 * every class the schema names passes the reader's own class filter, not only the deny list.
 */
class FetchedSchemaChecksTest {
    @TempDir
    Path work;

    private final ConcurrentMap<Long, byte[]> registry = new ConcurrentHashMap<>();
    private final List<SimulatedJvm> jvms = new ArrayList<>();

    @AfterEach
    void closeJvms() throws Exception {
        for (SimulatedJvm jvm : jvms) {
            jvm.close();
        }
    }

    private SimulatedJvm jvm(String name, Map<String, String> sources, String... allowedPackages) throws Exception {
        SimulatedJvm jvm = new SimulatedJvm(name, work, sources, registry, List.of(), List.of(allowedPackages));
        jvms.add(jvm);
        return jvm;
    }

    private static final Map<String, String> TRANSFER = Map.of("evo.Transfer", "package evo;\n"
            + "public class Transfer implements java.io.Serializable { public long payer; public long payee; }\n");

    @Test
    void schemaPoisonedUnderAnHonestUid_isRefused_insteadOfSwappingTheFields() throws Throwable {
        SimulatedJvm writer = jvm("writer", TRANSFER, "evo");
        byte[] value = writer.write("evo.Transfer", fields("payer", 1L, "payee", 2L));
        assertEquals(1, registry.size());
        Map.Entry<Long, byte[]> honest = registry.entrySet().iterator().next();
        // The same class, the same declared uid, the two field names swapped: one-nio alone would read
        // the payer into the payee.
        byte[] poisoned = swap(honest.getValue(), "payer", "payee");
        registry.put(honest.getKey(), poisoned);

        SimulatedJvm reader = jvm("reader", TRANSFER, "evo");
        Throwable t = readFailure(reader, value);
        assertEquals("AttributeDecodeException", t.getClass().getSimpleName(), "thrown: " + t);
        assertTrue(t.getMessage().contains("does not match its uid " + Long.toHexString(honest.getKey())), t.getMessage());
    }

    @Test
    void fieldTypeOutsideTheAllowedPackages_isRefusedByName_beforeTheClassIsLoaded() throws Throwable {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("evo.Wallet", "package evo;\n"
                + "public class Wallet implements java.io.Serializable { public String owner; public other.Tool tool; }\n");
        sources.put("other.Tool", "package other;\n"
                + "public class Tool implements java.io.Serializable {\n"
                + "  static { System.setProperty(\"sessionmesh.test.tool.initialized\", \"yes\"); }\n"
                + "  public String command;\n}\n");
        SimulatedJvm writer = jvm("writer", sources, "evo", "other");
        byte[] value = writer.write("evo.Wallet", fields("owner", "Ann")); // no Tool in the value itself
        System.clearProperty("sessionmesh.test.tool.initialized");

        SimulatedJvm reader = jvm("reader", sources, "evo");
        Throwable t = readFailure(reader, value);
        assertEquals("ClassNotAllowedException", t.getClass().getSimpleName(), "thrown: " + t);
        assertTrue(t.getMessage().contains("other.Tool"), t.getMessage());
        assertNull(System.getProperty("sessionmesh.test.tool.initialized"), "the refused class was initialised");
    }

    @Test
    void fieldsDeclaredAsJdkInterfaces_passTheFilterOfAReaderThatNamesOnlyItsOwnPackage() throws Throwable {
        Map<String, String> box = Map.of("evo.Box", "package evo;\n"
                + "public class Box implements java.io.Serializable {\n"
                + "  public java.io.Serializable content; public Object any; public java.util.List<String> list;\n"
                + "  public CharSequence text; public java.time.temporal.Temporal when;\n}\n");
        SimulatedJvm writer = jvm("writer", box, "evo");
        byte[] value = writer.write("evo.Box", fields("content", "c", "any", 7, "text", "t"));
        Map<String, Object> read = jvm("reader", box, "evo").read(value);
        assertEquals("c", read.get("content"));
        assertEquals(7, read.get("any"));
    }

    private static Throwable readFailure(SimulatedJvm reader, byte[] value) {
        Map<String, Object> read;
        try {
            read = reader.read(value);
        } catch (Throwable t) {
            return t;
        }
        return fail("expected a refusal, read " + read);
    }

    /** Swaps two ASCII strings of the same length wherever they occur. */
    private static byte[] swap(byte[] bytes, String a, String b) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        String marker = "\u0000".repeat(a.length());
        text = text.replace(a, marker).replace(b, a).replace(marker, b);
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Map<String, Object> fields(Object... keyValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
