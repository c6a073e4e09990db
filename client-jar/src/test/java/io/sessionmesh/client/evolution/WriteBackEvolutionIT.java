package io.sessionmesh.client.evolution;

import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sessionmesh.client.evolution.ClientPeer.CLASS_KEY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The write-back rule across versions of a class (issue 16): a service writes back a value it read only when it
 * changed it, never because its own encoding of the value differs from the bytes a service with another version
 * (older, newer, or the class under a former name) wrote. Each service is a {@link ServiceJvm} (its own class loader,
 * client and one-nio repository) in front of a real master and sidecar; they share nothing else.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WriteBackEvolutionIT {
    private static final String ATTRIBUTE = "p";
    private static final String GEN_MODE = "one.nio.serial.gen.mode";

    /** a and b. */
    private static final Map<String, String> V1 = source("evo.Profile", "{ public String a; public int b; }");
    /** a, b and a newer field c. */
    private static final Map<String, String> V2 = source("evo.Profile",
            "{ public String a; public int b; public String c; }");
    /** v2 under a new name, reading values written as evo.Profile. */
    private static final Map<String, String> RENAMED = source("evo.UserProfile",
            "@FormerNames({\"evo.Profile\"}) { public String a; public int b; public String c; }");

    @TempDir
    static Path work;
    static ServerProcess master;
    static ServerProcess sidecar;
    static final Map<String, ServiceJvm> services = new LinkedHashMap<>();
    static String genMode;

    @BeforeAll
    static void start() throws Exception {
        // Each service loads its own copy of one-nio, which reads this property when it makes its first serializer.
        // magic_accessor (the JDK 17 default) defines a class in the boot loader, so only one copy per JVM can use
        // it; these copies use method_handles (the wire form is the same). Put back after, for the other ITs here.
        genMode = System.setProperty(GEN_MODE, "method_handles");
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256"));
        sidecar.awaitHealthy();
        String uri = "http://127.0.0.1:" + sidecar.port();
        services.put("v1", new ServiceJvm("v1", work, V1, uri, List.of()));
        services.put("v2", new ServiceJvm("v2", work, V2, uri, List.of()));
        services.put("v2-other", new ServiceJvm("v2-other", work, V2, uri, List.of())); // same version, another JVM
        services.put("renamed", new ServiceJvm("renamed", work, RENAMED, uri, List.of("evo.UserProfile")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (genMode == null) {
            System.clearProperty(GEN_MODE);
        } else {
            System.setProperty(GEN_MODE, genMode);
        }
        for (ServiceJvm s : services.values()) {
            s.close();
        }
        if (sidecar != null) {
            sidecar.close();
        }
        if (master != null) {
            master.close();
        }
    }

    /** (writer, reader) pairs where the reader can decode what the writer wrote. */
    static Stream<Arguments> readablePairs() {
        return Stream.of(
                Arguments.of("v2", "v1"),        // newer writer, older reader: c must survive
                Arguments.of("v1", "v2"),        // older writer, newer reader
                Arguments.of("v2", "renamed"),   // written under the former name, read under the new one
                Arguments.of("v1", "renamed"),
                Arguments.of("v2", "v2-other"),  // same version: the common case
                Arguments.of("renamed", "renamed"));
    }

    @ParameterizedTest(name = "{0} writes, {1} reads")
    @MethodSource("readablePairs")
    void readOnly_byAnyVersion_sendsNothing_andTheWrittenBytesSurvive(String writerName, String readerName) throws Throwable {
        ServiceJvm writer = services.get(writerName);
        String id = writer.create(ATTRIBUTE, classOf(writerName), fieldsOf(writerName));
        byte[] written = writer.stored(id, ATTRIBUTE);
        Map<String, Object> before = writer.read(id, ATTRIBUTE);

        List<String> sent = services.get(readerName).readChangeSave(id, ATTRIBUTE, "none");

        assertEquals(List.of(), sent, readerName + " only read a value " + writerName + " wrote, and wrote it back");
        assertArrayEquals(written, writer.stored(id, ATTRIBUTE), "the stored bytes changed");
        assertEquals(before, writer.read(id, ATTRIBUTE), "the writer no longer reads what it wrote");
    }

    @ParameterizedTest(name = "{0} writes, {1} reads")
    @MethodSource("readablePairs")
    void changeInPlace_byAnyVersion_isSent_lastWriterWins(String writerName, String readerName) throws Throwable {
        ServiceJvm reader = services.get(readerName);
        String id = services.get(writerName).create(ATTRIBUTE, classOf(writerName), fieldsOf(writerName));

        assertEquals(List.of(ATTRIBUTE), reader.readChangeSave(id, ATTRIBUTE, "inPlace"));

        Map<String, Object> now = reader.read(id, ATTRIBUTE);
        assertEquals("changed by " + readerName, now.get("a"));
        assertEquals(classOf(readerName), now.get(CLASS_KEY), "a change is written in the reader's shape");
        if (!hasC(readerName)) {
            assertNull(services.get(writerName).read(id, ATTRIBUTE).get("c"), "the older shape won, as documented");
        }
    }

    @ParameterizedTest(name = "{0} writes, {1} reads")
    @MethodSource("readablePairs")
    void setExplicitly_byAnyVersion_isSentEvenUnchanged(String writerName, String readerName) throws Throwable {
        String id = services.get(writerName).create(ATTRIBUTE, classOf(writerName), fieldsOf(writerName));

        assertEquals(List.of(ATTRIBUTE), services.get(readerName).readChangeSave(id, ATTRIBUTE, "set"));
    }

    @ParameterizedTest(name = "{0} reads only")
    @MethodSource("olderAndRenamedReaders")
    void readOnly_ofNewerObjectsInsideAList_sendsNothing_andTheirChangesAreSent(String readerName) throws Throwable {
        ServiceJvm writer = services.get("v2");
        ServiceJvm reader = services.get(readerName);
        String id = writer.createList(ATTRIBUTE, "evo.Profile", fieldsOf("v2"));
        byte[] written = writer.stored(id, ATTRIBUTE);

        assertEquals(List.of(), reader.readChangeSave(id, ATTRIBUTE, "none"));
        assertArrayEquals(written, writer.stored(id, ATTRIBUTE), "the list was written back");

        assertEquals(List.of(ATTRIBUTE), reader.readChangeSave(id, ATTRIBUTE, "inPlace"));
        @SuppressWarnings("unchecked")
        List<Object> items = (List<Object>) reader.read(id, ATTRIBUTE).get("items");
        assertEquals(2, items.size());
    }

    static Stream<String> olderAndRenamedReaders() {
        return Stream.of("v1", "renamed");
    }

    @Test
    void readOnly_byAVersionWithoutTheNewName_failsToDecode_andTheBytesSurvive() throws Throwable {
        ServiceJvm writer = services.get("renamed");
        String id = writer.create(ATTRIBUTE, "evo.UserProfile", fieldsOf("renamed"));
        byte[] written = writer.stored(id, ATTRIBUTE);
        for (String old : List.of("v1", "v2")) {
            try {
                services.get(old).readChangeSave(id, ATTRIBUTE, "none");
                fail(old + " decoded a class it does not have");
            } catch (RuntimeException e) {
                assertEquals("UnknownClassException", e.getClass().getSimpleName(), e.toString());
            }
        }
        assertArrayEquals(written, writer.stored(id, ATTRIBUTE));
    }

    private static String classOf(String service) {
        return service.equals("renamed") ? "evo.UserProfile" : "evo.Profile";
    }

    private static boolean hasC(String service) {
        return !service.equals("v1");
    }

    private static Map<String, Object> fieldsOf(String writer) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("a", "from " + writer);
        fields.put("b", 7);
        if (hasC(writer)) {
            fields.put("c", "newer field, written by " + writer);
        }
        return fields;
    }

    private static Map<String, String> source(String className, String body) {
        int dot = className.lastIndexOf('.');
        String annotation = "";
        if (body.startsWith("@")) {
            int end = body.indexOf(')') + 1;
            annotation = body.substring(0, end) + "\n";
            body = body.substring(end).trim();
        }
        return Map.of(className, "package " + className.substring(0, dot) + ";\n"
                + "import io.sessionmesh.serialization.attribute.FormerNames;\n" + annotation
                + "public class " + className.substring(dot + 1) + " implements java.io.Serializable " + body + "\n");
    }
}
