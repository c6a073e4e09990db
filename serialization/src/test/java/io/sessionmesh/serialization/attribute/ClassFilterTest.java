package io.sessionmesh.serialization.attribute;

import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassFilterTest {

    /** A filter allowing the packages the gadgets live in: the deny list still wins. */
    private static final ClassFilter WIDE = ClassFilter.allowingPackages("org", "com", "java", "javax");
    /** The package of the classes these tests encode. */
    private static final ClassFilter THIS_PACKAGE = ClassFilter.allowingPackages("io.sessionmesh.serialization.attribute");

    @Test
    void check_gadgetClasses_alwaysDenied_evenWhenTheirPackagesAreAllowed() {
        for (String gadget : List.of("org.apache.commons.collections.functors.InvokerTransformer",
                "org.apache.commons.collections4.functors.ChainedTransformer",
                "com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl", "org.codehaus.groovy.runtime.MethodClosure",
                "java.lang.ProcessBuilder", "java.lang.Runtime", "javax.management.BadAttributeValueExpException",
                "java.lang.reflect.Proxy", "com.sun.rowset.JdbcRowSetImpl", "java.util.PriorityQueue",
                "[Lorg.apache.commons.collections.functors.InvokerTransformer;")) {
            ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
                    () -> WIDE.check(gadget), gadget);
            assertEquals(gadget, e.className());
            assertTrue(e.getMessage().contains(gadget), e.getMessage());
        }
    }

    @Test
    void check_exactEntry_doesNotDenyClassesThatOnlyShareAPrefix() {
        assertDoesNotThrow(() -> ClassFilter.allowingPackages("com.example").check("java.lang.ClassCastException"));
        assertDoesNotThrow(() -> ClassFilter.allowingPackages("com.example").check("java.lang.Character"));
        assertThrows(ClassNotAllowedException.class, () -> ClassFilter.allowingPackages("com.example").check("java.lang.Class"));
    }

    @Test
    void check_allowedPrefixes_allowOwnPackagesAndValueTypes_denyOthers() {
        ClassFilter filter = ClassFilter.allowingPackages("com.example.bank");
        assertDoesNotThrow(() -> filter.check("com.example.bank.Client"));
        assertDoesNotThrow(() -> filter.check("java.util.ArrayList"));
        assertDoesNotThrow(() -> filter.check("java.math.BigDecimal"));
        assertDoesNotThrow(() -> filter.check("com.google.common.collect.RegularImmutableList"));
        assertDoesNotThrow(() -> filter.check("[I"));
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> filter.check("com.evil.Payload"));
        assertTrue(e.getMessage().contains("com.evil.Payload") && e.getMessage().contains("[com.example.bank]"), e.getMessage());
    }

    @Test
    void check_urlAndInetAddresses_refusedUnlessNamedExplicitly() {
        // URL.hashCode resolves the host (the URLDNS gadget); InetAddress likewise: not value types to allow by default.
        ClassFilter filter = ClassFilter.allowingPackages("com.example");
        for (String name : List.of("java.net.URL", "java.net.InetAddress", "java.net.Inet4Address",
                "java.net.Inet6Address", "java.net.InetSocketAddress")) {
            assertThrows(ClassNotAllowedException.class, () -> filter.check(name), name);
        }
        assertDoesNotThrow(() -> filter.check("java.net.URI"));
        ClassFilter named = ClassFilter.allowingPackages("com.example")
                .andClasses("java.net.URL", "java.net.Inet4Address");
        assertDoesNotThrow(() -> named.check("java.net.URL"));
        assertDoesNotThrow(() -> named.check("java.net.Inet4Address"));
    }

    @Test
    void decode_valueHoldingAUrl_isRefusedByAFilterThatDoesNotNameIt() throws Exception {
        AttributeCodec writer = AttributeCodec.builder()
                .classFilter(ClassFilter.allowingPackages("com.example").andClasses("java.net.URL")).build();
        AttributeCodec reader = AttributeCodec.builder().classFilter(ClassFilter.allowingPackages("com.example")).build();
        byte[] value = writer.encode(new ArrayList<>(List.of(new java.net.URL("http://attacker.example/"))));
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> reader.decode(value));
        assertEquals("java.net.URL", e.className());
    }

    @Test
    void codecBuilder_withoutAClassFilter_isRefusedNamingWhatToSet() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AttributeCodec.builder().build());
        assertTrue(e.getMessage().contains("classFilter") && e.getMessage().contains("ClassFilter.allowingPackages("), e.getMessage());
    }


    @Test
    void decode_classOutsideAllowedPackages_failsNamingTheClass_andOtherValuesStillDecode() {
        AttributeCodec writer = AttributeCodec.builder().classFilter(THIS_PACKAGE).build();
        AttributeCodec reader = AttributeCodec.builder().classFilter(ClassFilter.allowingPackages("com.example")).build();
        byte[] foreign = writer.encode(new Foreign("x"));
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> reader.decode(foreign));
        assertEquals(Foreign.class.getName(), e.className());
        assertEquals(new BigDecimal("1.5"), reader.decode(writer.encode(new BigDecimal("1.5"))));
        assertEquals(1, reader.decodeFailures());
    }

    @Test
    void decode_gadgetCarrierWrittenByAPeer_isRefusedBeforeInstantiation() {
        AttributeCodec codec = AttributeCodec.builder().classFilter(THIS_PACKAGE).build();
        PriorityQueue<String> queue = new PriorityQueue<>(List.of("a"));
        byte[] bytes = codec.encode(new ArrayList<>(List.of(queue)));
        assertThrows(ClassNotAllowedException.class, () -> codec.decode(bytes));
    }

    @Test
    void decode_classKnownLocally_isStillCheckedAgainstTheReadersFilter() {
        ConcurrentHashMap<Long, byte[]> store = new ConcurrentHashMap<>();
        InMemorySchemaRegistry shared = new InMemorySchemaRegistry(store, 100, 1 << 20);
        AttributeCodec writer = AttributeCodec.builder().schemaRegistry(shared).classFilter(THIS_PACKAGE).build();
        byte[] value = writer.encode(new Foreign("y"));
        // One-nio already knows the class in this JVM (the writer registered it): the reader's filter must
        // still refuse it. The refusal of a fetched schema is in EvolutionMatrixTest.
        AttributeCodec reader = AttributeCodec.builder().schemaRegistry(shared)
                .classFilter(ClassFilter.allowingPackages("org.example")).build();
        assertThrows(ClassNotAllowedException.class, () -> reader.decode(value));
    }

    @Test
    void decode_randomGarbage_onlyTypedExceptions() {
        AttributeCodec codec = AttributeCodec.builder().classFilter(THIS_PACKAGE).build();
        Random random = new Random(42);
        byte[] valid = codec.encode(new Foreign("seed"));
        for (int i = 0; i < 20_000; i++) {
            byte[] garbage;
            if (i % 2 == 0) {
                garbage = new byte[random.nextInt(64)];
                random.nextBytes(garbage);
            } else {
                garbage = valid.clone();
                garbage[random.nextInt(garbage.length)] = (byte) random.nextInt(256);
            }
            try {
                codec.decode(garbage);
            } catch (AttributeCodecException expected) {
                // a typed failure is the only acceptable failure
            }
        }
        assertEquals(new Foreign("seed"), codec.decode(valid));
    }

    /** A class in a package that filters in these tests do not allow. */
    record Foreign(String value) implements Serializable {
    }
}
