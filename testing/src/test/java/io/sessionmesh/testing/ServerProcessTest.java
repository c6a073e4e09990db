package io.sessionmesh.testing;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ServerProcess#builder}: real processes from a jar of {@link FakeServer}. */
class ServerProcessTest {
    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void writeJar() throws Exception {
        jar = dir.resolve("fake-server.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeServer.class.getName());
        String entry = FakeServer.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest);
             InputStream in = FakeServer.class.getClassLoader().getResourceAsStream(entry)) {
            j.putNextEntry(new JarEntry(entry));
            in.transferTo(j);
            j.closeEntry();
        }
    }

    @Test
    void start_readyFileAndLog_upOnItsPort_outputInTheLog_jvmFlagsApplied() throws Exception {
        Path log = dir.resolve("logs/ready.log");
        AtomicLong launched = new AtomicLong();
        try (ServerProcess p = ServerProcess.builder(jar).jvm(java.util.List.of("-Xmx64m", "-Dfake.greeting=hello"))
                .args("--name", "x").log(log).launched(process -> launched.set(process.pid())).start()) {
            assertEquals(p.pid(), launched.get(), "the hook saw the process before it was up");
            connect(p.port("api"));
            assertEquals(p.port("api"), p.port());
            String text = Files.readString(log);
            assertTrue(text.contains("greeting hello") && text.contains("--name, x"), text);
            assertTrue(p.output.isEmpty(), "the output went to the log, not to memory");
            assertEquals(143, p.stop(), "SIGTERM: 128 + 15");
        }
    }

    @Test
    void start_springBoot_upOncePortFileIsWritten_sourceOfThePortFileWriterAdded() throws Exception {
        try (ServerProcess p = ServerProcess.builder(jar).springBoot().start()) {
            connect(p.port(ServerProcess.HTTP));
            assertEquals(p.port(ServerProcess.HTTP), p.port());
            assertTrue(String.join("\n", p.output).contains("--spring.main.sources=" + ServerProcess.PORT_FILE_WRITER),
                    String.join("\n", p.output));
            assertThrows(IllegalArgumentException.class, () -> p.port("admin"));
        }
    }

    @Test
    void start_exitsBeforeReady_failsAtOnceWithTheEndOfItsLog() {
        Path log = dir.resolve("failing.log");
        long t0 = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ServerProcess.builder(jar)
                .args("--fail").springBoot().log(log).startTimeout(Duration.ofSeconds(60)).start());
        assertTrue(e.getMessage().contains("failing on purpose") && e.getMessage().contains("status 3"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "waited out the timeout for a dead process");
    }

    @Test
    void start_missingJar_refusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerProcess.builder(dir.resolve("none.jar")).start());
        assertTrue(e.getMessage().contains("none.jar is missing"), e.getMessage());
    }

    private static void connect(int port) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            assertTrue(s.isConnected());
        }
    }
}
