package io.sessionmesh.client;

import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.serialization.attribute.AttributeDecodeException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.UnknownClassException;
import io.sessionmesh.wire.transport.SectionDelta;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's promises against a real master and sidecar (processes on loopback). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientIT {
    /**
     * The classes these tests store live here (JDK types are always allowed); "secret." is allowed but absent from
     * this JVM, so that a value of it fails as an unknown class rather than a refused one.
     */
    private static final ClassFilter THIS_PACKAGE = ClassFilter.allowingPackages("io.sessionmesh.client", "secret");
    static ServerProcess master;
    static ServerProcess sidecar;
    static URI sidecarUri;
    static SessionMeshClient client;

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256"));
        sidecarUri = URI.create("http://127.0.0.1:" + sidecar.port());
        client = SessionMeshClient.builder().sidecar(sidecarUri).classFilter(THIS_PACKAGE).build();
        sidecar.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        sidecar.close();
        master.close();
    }

    static String text(int size, long seed) {
        Random r = new Random(seed);
        StringBuilder b = new StringBuilder(size);
        for (int i = 0; i < size; i++) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }

    @Test
    void save_ofOneChangedAttribute_sendsOnlyThatAttribute() {
        Session s = client.createSession();
        Section info = s.section("clientInfo");
        for (int i = 0; i < 5; i++) {
            info.setAttribute("a" + i, text(1000, i));
        }
        long before = client.bytesSent();
        assertEquals(1, s.save().size());
        long whole = client.bytesSent() - before;

        Session again = client.getSession(s.id(), "clientInfo");
        again.section("clientInfo").setAttribute("a2", text(1000, 99));
        before = client.bytesSent();
        List<SectionDelta> sent = again.save();
        long delta = client.bytesSent() - before;
        assertEquals(1, sent.size());
        assertEquals(List.of("a2"), new ArrayList<>(sent.get(0).set().keySet()));
        assertTrue(delta * 4 <= whole, "a one-attribute change sent " + delta + " bytes; the whole section is " + whole);
        assertTrue(again.save().isEmpty(), "a second save with no change sent something");
    }

    @Test
    void jsonTransport_sameSessionsAsBinary_andTypedErrors() {
        try (SessionMeshClient json = SessionMeshClient.builder().sidecar(sidecarUri).classFilter(THIS_PACKAGE).transport(TransportForm.JSON).build()) {
            Session s = json.createSession();
            s.section("cart").setAttribute("items", List.of("a", "b"));
            s.section("cart").setAttribute("note", text(300, 5));
            assertEquals(1, s.save().size());
            // Written in JSON, read in binary, and back.
            Session viaBinary = client.getSession(s.id(), "cart");
            assertEquals(List.of("a", "b"), viaBinary.section("cart").getAttribute("items", List.class));
            viaBinary.section("cart").setAttribute("items", List.of("c"));
            viaBinary.save();
            Session viaJson = json.getSession(s.id(), "cart");
            assertEquals(List.of("c"), viaJson.section("cart").getAttribute("items", List.class));
            assertEquals(text(300, 5), viaJson.section("cart").getAttribute("note", String.class));

            Session stale = json.getSession(s.id(), "cart");
            stale.section("cart").optimistic().setAttribute("items", List.of("mine"));
            viaJson.section("cart").setAttribute("items", List.of("theirs"));
            viaJson.save();
            SessionConflictException conflict = assertThrows(SessionConflictException.class, stale::save);
            assertTrue(conflict.getMessage().contains("409"), conflict.getMessage());
            viaJson.invalidate();
            SessionNotFoundException gone = assertThrows(SessionNotFoundException.class, () -> json.getSession(s.id(), "cart"));
            assertTrue(gone.getMessage().startsWith("read: 404 "), gone.getMessage());
            assertTrue(json.bytesSent() > 0 && json.calls() >= 6);
        }
    }

    @Test
    void saveMetrics_countDeltaBytesAgainstWholeSections() {
        List<long[]> saves = new ArrayList<>();
        ClientMetrics recorder = new ClientMetrics() {
            @Override
            public synchronized void saved(int sections, long deltaBytes, long wholeSectionBytes) {
                saves.add(new long[] {sections, deltaBytes, wholeSectionBytes});
            }
        };
        try (SessionMeshClient counted = SessionMeshClient.builder().sidecar(sidecarUri).classFilter(THIS_PACKAGE).metrics(recorder).build()) {
            Session s = counted.createSession();
            for (int i = 0; i < 4; i++) {
                s.section("profile").setAttribute("a" + i, text(500, i));
            }
            s.save();
            Session again = counted.getSession(s.id(), "profile");
            again.section("profile").setAttribute("a1", text(500, 77));
            again.section("profile").removeAttribute("a3");
            again.save();
            again.save(); // nothing changed: no report

            assertEquals(2, saves.size());
            long[] first = saves.get(0);
            assertEquals(1, first[0]);
            assertEquals(first[1], first[2], "a first save writes every attribute: delta and whole are the same");
            long one = first[1] / 4;
            long[] second = saves.get(1);
            byte[] stored = again.section("profile").storedBytes("a1");
            assertEquals(stored.length, second[1], "the delta carries the one attribute set");
            assertEquals(3 * one, second[2], 3 * one / 10, "the whole section is the three attributes left");
        }
    }

    @Test
    void inPlaceMutation_ofAValueRead_isFoundAndSaved() {
        Session s = client.createSession();
        s.section("cart").setAttribute("items", new ArrayList<>(List.of("apple")));
        s.section("cart").setAttribute("count", 1);
        s.save();

        Session reader = client.getSession(s.id(), "cart");
        @SuppressWarnings("unchecked")
        List<String> items = reader.section("cart").getAttribute("items", List.class);
        items.add("pear");
        reader.section("cart").getAttribute("count");
        List<SectionDelta> sent = reader.save();
        assertEquals(List.of("items"), new ArrayList<>(sent.get(0).set().keySet()), "only the changed value is sent");
        assertEquals(List.of("apple", "pear"), client.getSession(s.id(), "cart").section("cart").getAttribute("items"));

        try (SessionMeshClient onSet = SessionMeshClient.builder().sidecar(sidecarUri).classFilter(THIS_PACKAGE).saveMode(SaveMode.ON_SET).build()) {
            Session view = onSet.getSession(s.id(), "cart");
            @SuppressWarnings("unchecked")
            List<String> list = view.section("cart").getAttribute("items", List.class);
            list.add("plum");
            assertTrue(view.save().isEmpty(), "ON_SET mode sent a value that was only read");
        }
    }

    @Test
    void lazySections_namedOnesInOneCall_othersOnFirstUse() {
        Session s = client.createSession();
        for (String name : List.of("a", "b", "c", "d")) {
            s.section(name).setAttribute("k", name);
        }
        s.save();
        long calls = client.calls();
        Session view = client.getSession(s.id(), "a", "b");
        assertEquals(calls + 1, client.calls(), "two named sections were not read in one call");
        assertEquals("a", view.section("a").getAttribute("k"));
        assertEquals(calls + 1, client.calls());
        view.section("c");
        assertEquals(calls + 2, client.calls());
        view.load("a", "c", "d");
        assertEquals(calls + 3, client.calls());
        assertTrue(view.isLoaded("d"));
    }

    @Test
    void decodeFailure_staysWithItsAttribute_andIsCounted() throws Exception {
        Session s = client.createSession();
        s.section("s").setAttribute("good", "fine");
        s.save();
        // A value no codec can read, written around the client (straight to the REST API).
        String bad = Base64.getEncoder().encodeToString(new byte[] {9, 1, 2, 3});
        HttpResponse<String> w = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(sidecarUri + "/v1/sessions/" + s.id()))
                .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString(
                        "{\"sections\":{\"s\":{\"set\":{\"bad\":\"" + bad + "\"}}}}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, w.statusCode(), w.body());

        long failures = client.decodeFailures();
        Session view = client.getSession(s.id(), "s");
        assertThrows(AttributeDecodeException.class, () -> view.section("s").getAttribute("bad"));
        assertEquals(failures + 1, client.decodeFailures());
        assertEquals("fine", view.section("s").getAttribute("good"));
        view.section("s").setAttribute("good", "still fine");
        view.save();
        Session after = client.getSession(s.id(), "s");
        assertArrayEquals(new byte[] {9, 1, 2, 3}, after.section("s").storedBytes("bad"), "the bad value was touched");
        assertEquals("still fine", after.section("s").getAttribute("good"));
    }

    @Test
    void optimisticSection_conflictsWhenSomeoneWroteIt_andAppliesNothing() {
        Session s = client.createSession();
        s.section("limits").setAttribute("daily", 100);
        s.save();
        Session mine = client.getSession(s.id(), "limits");
        Session theirs = client.getSession(s.id(), "limits");
        theirs.section("limits").setAttribute("daily", 200);
        theirs.save();
        mine.section("limits").optimistic().setAttribute("daily", 300);
        mine.section("limits").setAttribute("monthly", 1000);
        assertThrows(SessionConflictException.class, mine::save);
        Section now = client.getSession(s.id(), "limits").section("limits");
        assertEquals(200, now.getAttribute("daily"));
        assertNull(now.getAttribute("monthly"));
    }

    @Test
    void errors_areTyped() {
        assertThrows(SessionNotFoundException.class, () -> client.getSession("NoSuchSessionAnywhere", "s"));
        Session s = client.createSession();
        s.invalidate();
        assertThrows(SessionNotFoundException.class, () -> client.getSession(s.id(), "s"));
        assertThrows(IllegalStateException.class, s::save);
        try (SessionMeshClient nowhere = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:1"))
                .classFilter(THIS_PACKAGE).connectTimeout(Duration.ofMillis(200)).build()) {
            assertThrows(SidecarUnavailableException.class, nowhere::createSession);
        }
        Session big = client.createSession();
        byte[] random = new byte[2 << 20];
        new Random(7).nextBytes(random); // incompressible: 2 MiB on the wire, over the 1 MiB attribute limit
        big.section("s").setAttribute("huge", random);
        assertThrows(PayloadTooLargeException.class, big::save);
        assertThrows(IllegalArgumentException.class, () -> client.getSession("not a valid id"));
    }

    @Test
    void touch_keepsTheSession_andRemovedAttributesGo() {
        Session s = client.createSession(Duration.ofSeconds(60));
        s.section("s").setAttribute("a", 1);
        s.section("s").setAttribute("b", 2);
        s.save();
        s.touch();
        Session view = client.getSession(s.id(), "s");
        view.section("s").removeAttribute("a");
        view.save();
        assertEquals(List.of("b"), new ArrayList<>(client.getSession(s.id(), "s").section("s").attributeNames()));
    }

    /**
     * A JVM without a class reads a session holding a value of it, changes another attribute and saves: the unknown
     * value is carried untouched, and a JVM with the class still reads it. The two other JVMs are real processes.
     */
    @Test
    void unknownClassValue_survivesAReadModifySave_byAJvmWithoutTheClass(@TempDir Path dir) throws Exception {
        Path classes = compileSecret(dir);
        Session s = client.createSession();
        String out = runWithSecret(classes, "write", s.id());
        assertTrue(out.contains("written"), out);

        long failures = client.decodeFailures();
        Session view = client.getSession(s.id(), "s");
        assertThrows(UnknownClassException.class, () -> view.section("s").getAttribute("secret"));
        assertEquals(failures + 1, client.decodeFailures());
        assertEquals("hello", view.section("s").getAttribute("plain"));
        view.section("s").setAttribute("added", "by a JVM without Secret");
        view.save();

        out = runWithSecret(classes, "check", s.id());
        assertTrue(out.contains("secret=classified/42 added=by a JVM without Secret"), out);
    }

    private static Path compileSecret(Path dir) throws IOException {
        Path src = dir.resolve("src/secret");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Secret.java"), String.join("\n",
                "package secret;",
                "public class Secret implements java.io.Serializable {",
                "  public String note; public int level;",
                "  public Secret(String note, int level) { this.note = note; this.level = level; }",
                "}"));
        Files.writeString(src.resolve("Tool.java"), String.join("\n",
                "package secret;",
                "import io.sessionmesh.client.*;",
                "public class Tool {",
                "  public static void main(String[] a) throws Exception {",
                "    try (SessionMeshClient c = SessionMeshClient.builder().sidecar(java.net.URI.create(a[1]))",
                "        .classFilter(io.sessionmesh.serialization.attribute.ClassFilter.allowingPackages(\"secret\")).build()) {",
                "      Session s = c.getSession(a[2], \"s\");",
                "      if (a[0].equals(\"write\")) {",
                "        s.section(\"s\").setAttribute(\"secret\", new Secret(\"classified\", 42));",
                "        s.section(\"s\").setAttribute(\"plain\", \"hello\");",
                "        s.save();",
                "        System.out.println(\"written\");",
                "      } else {",
                "        Secret x = s.section(\"s\").getAttribute(\"secret\", Secret.class);",
                "        System.out.println(\"secret=\" + x.note + \"/\" + x.level + \" added=\" + s.section(\"s\").getAttribute(\"added\"));",
                "      }",
                "    }",
                "  }",
                "}"));
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("Secret.java").toString(), src.resolve("Tool.java").toString());
        assertEquals(0, rc, "compiling the Secret class failed");
        return classes;
    }

    private static String runWithSecret(Path classes, String mode, String sessionId) throws Exception {
        List<String> cmd = new ArrayList<>(Arrays.asList(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classes + java.io.File.pathSeparator + System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "secret.Tool", mode, sidecarUri.toString(), sessionId));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.isEmpty());
        return out;
    }
}
