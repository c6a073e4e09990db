package io.sessionmesh.container;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.wire.transport.SectionDelta;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;

import java.net.URI;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master and a sidecar as containers on one Docker network, from the project's images; the client jar talks to
 * the sidecar through its mapped port, as a team's own service test would. Also the sidecar alone in local
 * development mode.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SessionMeshContainersIT {
    static final Duration STARTUP = Duration.ofMinutes(2);

    static Network network;
    static GenericContainer<?> master;
    static GenericContainer<?> sidecar;

    @BeforeAll
    static void start() {
        SessionMeshImages.assumeDockerAndBaseImage();
        network = Network.newNetwork();
        master = new GenericContainer<>(SessionMeshImages.master())
                // plain TCP on a Docker network of this test alone: the master is told so (protected mode, SECURITY.md)
                .withCommand("--plaintext-beyond-loopback", "true")
                .withNetwork(network).withNetworkAliases("master").withExposedPorts(7400)
                .waitingFor(Wait.forLogMessage(".*SessionMesh master listening on .*", 1).withStartupTimeout(STARTUP));
        master.start();
        sidecar = sidecar("master:7400");
        sidecar.start();
    }

    static GenericContainer<?> sidecar(String masters) {
        return new GenericContainer<>(SessionMeshImages.sidecar())
                .withNetwork(network).withEnv("SESSIONMESH_MASTERS", masters)
                .withEnv("SESSIONMESH_ADMIN_TOKEN", ADMIN_TOKEN).withExposedPorts(7500, 7501)
                .waitingFor(adminHealthy());
    }

    /**
     * The images bind the admin endpoint off loopback, so a sidecar needs a token (docs/operations.md, "Admin
     * endpoints and metrics").
     */
    static final String ADMIN_TOKEN = "container-test-admin-token-0123456789";

    /** Ready once GET /admin/health (with the admin token) answers 200: the sidecar reaches its master. */
    static org.testcontainers.containers.wait.strategy.WaitStrategy adminHealthy() {
        return Wait.forHttp("/admin/health").forPort(7501).withHeader("Authorization", "Bearer " + ADMIN_TOKEN)
                .forStatusCode(200).withStartupTimeout(STARTUP);
    }

    @AfterAll
    static void stop() {
        for (GenericContainer<?> c : new GenericContainer<?>[] {sidecar, master}) {
            if (c != null) {
                c.stop();
            }
        }
        if (network != null) {
            network.close();
        }
    }

    static SessionMeshClient client(GenericContainer<?> sidecar) {
        return SessionMeshClient.builder()
                .sidecar(URI.create("http://" + sidecar.getHost() + ":" + sidecar.getMappedPort(7500)))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.container"))
                .build();
    }

    /** A value of this test's own class: the client serializes it, the sidecar and master keep bytes. */
    record Basket(String owner, List<String> items, LocalDate created) implements java.io.Serializable {
    }

    @Test
    void client_throughSidecarContainer_toMasterContainer_writesReadsAndSavesDeltas() {
        try (SessionMeshClient client = client(sidecar)) {
            Session s = client.createSession();
            s.section("basket").setAttribute("basket", new Basket("C1", List.of("deposit"), LocalDate.of(2026, 11, 23)));
            s.section("basket").setAttribute("note", "first");
            s.section("profile").setAttribute("currency", "RUB");
            assertEquals(2, s.save().size());

            Session again = client.getSession(s.id(), "basket", "profile");
            assertEquals(new Basket("C1", List.of("deposit"), LocalDate.of(2026, 11, 23)),
                    again.section("basket").getAttribute("basket", Basket.class));
            assertEquals("RUB", again.section("profile").getAttribute("currency", String.class));
            again.section("basket").setAttribute("note", "second");
            List<SectionDelta> sent = again.save();
            assertEquals(1, sent.size());
            assertEquals(List.of("note"), new ArrayList<>(sent.get(0).set().keySet()), "only the changed attribute is sent");

            assertEquals("second", client.getSession(s.id(), "basket").section("basket").getAttribute("note", String.class));
            again.invalidate();
            assertThrows(SessionNotFoundException.class, () -> client.getSession(s.id(), "basket"));
        }
    }

    @Test
    void imagesRunAsNonRoot() throws Exception {
        for (GenericContainer<?> c : List.of(master, sidecar)) {
            assertEquals("10001", c.execInContainer("id", "-u").getStdout().trim(), c.getDockerImageName());
        }
    }

    @Test
    void secondSidecar_seesTheFirstOnesWrites_throughTheMaster() {
        try (GenericContainer<?> other = sidecar("master:7400")) {
            other.start();
            try (SessionMeshClient a = client(sidecar); SessionMeshClient b = client(other)) {
                Session s = a.createSession();
                s.section("cart").setAttribute("items", List.of("one"));
                s.save();
                assertEquals(List.of("one"), b.getSession(s.id(), "cart").section("cart").getAttribute("items", List.class));
                Session viaA = a.getSession(s.id(), "cart");
                viaA.section("cart").setAttribute("items", List.of("one", "two"));
                viaA.save();
                // b's cached copy was invalidated by the master before a's write was acknowledged.
                assertEquals(List.of("one", "two"), b.getSession(s.id(), "cart").section("cart").getAttribute("items", List.class));
            }
        }
    }

    @Test
    void localImage_oneContainer_servesTheClient() {
        try (GenericContainer<?> local = new GenericContainer<>(SessionMeshImages.local())
                .withEnv("SESSIONMESH_ADMIN_TOKEN", ADMIN_TOKEN).withExposedPorts(7500, 7501).waitingFor(adminHealthy())) {
            local.start();
            assertTrue(local.getLogs().contains("SessionMesh embedded master (local development mode)"), local.getLogs());
            try (SessionMeshClient client = client(local)) {
                Session s = client.createSession();
                s.section("prefs").setAttribute("theme", Map.of("mode", "dark"));
                s.save();
                assertEquals(Map.of("mode", "dark"), client.getSession(s.id(), "prefs").section("prefs").getAttribute("theme"));
            }
        }
    }
}
