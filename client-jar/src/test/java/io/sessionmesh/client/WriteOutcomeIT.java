package io.sessionmesh.client;

import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.Await;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.testing.TcpProxy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A write cut mid-flight, through real processes: a master; sidecar A reaching it through a {@link TcpProxy}, sidecar
 * B directly. A save through A reaches the master and is applied, its answer is held in the proxy, and then the
 * connection is cut: the client must hear that the outcome is unknown (not "unavailable, try again"), and saving again
 * after another client wrote the same attribute must leave the session as one application of the first write, the
 * other client's value on top (PROTOCOL.md 3.12).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WriteOutcomeIT {
    private static final ClassFilter THIS_PACKAGE = ClassFilter.allowingPackages("io.sessionmesh.client");
    static ServerProcess master;
    static TcpProxy proxy;
    static ServerProcess sidecarA;
    static ServerProcess sidecarB;
    static SessionMeshClient clientA;
    static SessionMeshClient clientB;

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", master.port()));
        java.nio.file.Path sidecarJar = ServerProcess.jar("sidecar.jar", "../slave-sidecar/target/sessionmesh-sidecar.jar");
        // A's master timeout is short, so that the test is; the client's stays the default, above it
        sidecarA = ServerProcess.start(ServerProcess.command(sidecarJar, "--masters", "127.0.0.1:" + proxy.port(), "--port",
                "0", "--admin-port", "0", "--vnodes", "256", "--master-timeout", "3s", "--reconnect-max", "200ms"));
        sidecarB = ServerProcess.start(ServerProcess.command(sidecarJar, "--masters", "127.0.0.1:" + master.port(), "--port",
                "0", "--admin-port", "0", "--vnodes", "256"));
        clientA = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecarA.port()))
                .classFilter(THIS_PACKAGE).build();
        clientB = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecarB.port()))
                .classFilter(THIS_PACKAGE).build();
        sidecarA.awaitHealthy();
        sidecarB.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        clientA.close();
        clientB.close();
        sidecarA.close();
        sidecarB.close();
        proxy.close();
        master.close();
    }

    private static String n(String sessionId) {
        return clientB.getSession(sessionId, "cart").section("cart").getAttribute("n", String.class);
    }

    @Test
    void saveCutMidFlight_isOfUnknownOutcome_andSavingAgainAfterAnotherWriteAppliesItOnceAndKeepsTheLaterValue()
            throws Exception {
        Session created = clientB.createSession(Duration.ofMinutes(10));
        created.section("cart").setAttribute("n", "1");
        created.save();
        String id = created.id();
        Session mine = clientA.getSession(id, "cart"); // sidecar A is connected, and holds the section
        assertEquals("1", mine.section("cart").getAttribute("n", String.class));

        mine.section("cart").setAttribute("n", "2");
        proxy.pauseAnswers(); // the write reaches the master; its answer does not come back
        CompletableFuture<Void> save = CompletableFuture.runAsync(mine::save);
        Await.until("the write applied on the master", Duration.ofSeconds(10), () -> "2".equals(n(id)));
        proxy.cut(); // the answer is lost with the connection

        ExecutionException failed = assertThrows(ExecutionException.class, () -> save.get(30, TimeUnit.SECONDS));
        WriteOutcomeUnknownException unknown = assertInstanceOf(WriteOutcomeUnknownException.class, failed.getCause(),
                () -> "a write that may have been applied must not read as 'not applied': " + failed.getCause());
        assertNotNull(unknown.writeId());
        assertEquals(13, unknown.status());

        // another service writes the same attribute meanwhile
        Session other = clientB.getSession(id, "cart");
        other.section("cart").setAttribute("n", "3");
        other.save();

        proxy.heal();
        proxy.resume();
        // the user saves again (the same Session, nothing changed since): the same write, under the same write id
        Await.until("the save sent again through sidecar A", Duration.ofSeconds(20), () -> {
            try {
                mine.save();
                return true;
            } catch (WriteOutcomeUnknownException | SidecarUnavailableException | SidecarTimeoutException e) {
                return false; // sidecar A is still reconnecting: nothing of it applied, or applied once at most
            }
        });

        Session after = clientB.getSession(id, "cart");
        assertEquals("3", after.section("cart").getAttribute("n", String.class),
                "the retry must not put the older value back over the other client's");
        assertEquals(3, after.section("cart").version(), "1 (created), 2 (the cut write, once), 3 (the other client)");
    }
}
