package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client on the sidecar's Unix domain socket ({@code unix-socket}, {@code unix:} URI), with real master and sidecar
 * processes: the same sessions as over TCP, the socket file only for its user and group, and gone once the sidecar
 * stops. On both of the servers' socket transports ({@code io-transport}): epoll, the default on Linux, and NIO.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientUnixSocketIT {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "io-transport {0}")
    @ValueSource(strings = {"epoll", "nio"})
    void aClientOnTheUnixSocket_andOneOnTcp_seeTheSameSessions(String transport) throws Exception {
        Path sock = dir.resolve("sidecar.sock");
        Files.writeString(dir.resolve("unrelated"), "x");
        try (ServerProcess master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0", "--io-transport", transport));
             ServerProcess sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256", "--unix-socket", sock.toString(), "--io-transport", transport))) {
            sidecar.awaitHealthy();
            assertTrue(master.output.stream().anyMatch(l -> l.matches("\\s*io-transport\\s+" + transport)), String.join("\n", master.output));
            assertTrue(sidecar.output.stream().anyMatch(l -> l.matches("\\s*io-transport\\s+" + transport)), String.join("\n", sidecar.output));
            assertTrue(Files.exists(sock), "the socket file is made at start");
            assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(sock)));
            assertTrue(sidecar.output.stream().anyMatch(l -> l.contains("also on unix:" + sock)), String.join("\n", sidecar.output));
            try (SessionMeshClient unix = SessionMeshClient.builder().sidecar(URI.create("unix:" + sock)).classFilter(ClassFilter.allowingPackages("io.sessionmesh.client")).build();
                 SessionMeshClient tcp = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port())).classFilter(ClassFilter.allowingPackages("io.sessionmesh.client")).build()) {
                Session s = unix.createSession();
                s.section("clientInfo").setAttribute("name", "Ivan");
                s.save();
                assertEquals("Ivan", tcp.getSession(s.id(), "clientInfo").section("clientInfo").getAttribute("name", String.class));
                Session t = tcp.getSession(s.id(), "clientInfo");
                t.section("clientInfo").setAttribute("name", "Petr");
                t.save();
                assertEquals("Petr", unix.getSession(s.id(), "clientInfo").section("clientInfo").getAttribute("name", String.class));
            }
            int exit = sidecar.stop();
            assertTrue(exit == 0 || exit == 143, "exit status " + exit);
        }
        assertFalse(Files.exists(sock), "the sidecar removes its socket file when it stops");
        assertTrue(Files.exists(dir.resolve("unrelated")));
    }
}
