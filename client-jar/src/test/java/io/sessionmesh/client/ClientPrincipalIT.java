package io.sessionmesh.client;

import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A session's principal through the client, in both transport forms, against a real master and sidecar (processes). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientPrincipalIT {
    static ServerProcess master;
    static ServerProcess sidecar;
    static URI sidecarUri;

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256"));
        sidecarUri = URI.create("http://127.0.0.1:" + sidecar.port());
        sidecar.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        sidecar.close();
        master.close();
    }

    static SessionMeshClient client(TransportForm form) {
        return SessionMeshClient.builder().sidecar(sidecarUri).transport(form)
                .classFilter(io.sessionmesh.serialization.attribute.ClassFilter.allowingPackages("io.sessionmesh.client")).build();
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void createSession_withPrincipal_isKnownWithoutACall_andStoredForOthers(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession(Duration.ofMinutes(10), "alice");
            long calls = client.calls();
            assertEquals(Optional.of("alice"), s.principal());
            assertEquals(calls, client.calls(), "known from creation");
            Session other = client.openSession(s.id());
            assertEquals(Optional.of("alice"), other.principal());
            assertEquals(calls + 1, client.calls(), "fetched once");
            assertEquals(Optional.of("alice"), other.principal());
            assertEquals(calls + 1, client.calls(), "and kept");
            assertEquals(Optional.of("Zoë"), client.openSession(client.createSession("Zoë").id()).principal());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void setAndClearPrincipal_areSentAtOnce(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession();
            assertEquals(Optional.empty(), s.principal());
            s.setPrincipal("bob");
            assertEquals(Optional.of("bob"), client.openSession(s.id()).principal(), "without save()");
            s.clearPrincipal();
            assertEquals(Optional.empty(), client.openSession(s.id()).principal());
            assertEquals(Optional.empty(), s.principal());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void badPrincipals_failBeforeAnythingIsSent_withoutRepeatingThem(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            Session s = client.createSession();
            long calls = client.calls();
            String secret = "mallory@example.com";
            BadRequestException control = assertThrows(BadRequestException.class, () -> s.setPrincipal(secret + "\n"));
            assertFalse(control.getMessage().contains(secret), control.getMessage());
            assertThrows(PayloadTooLargeException.class, () -> s.setPrincipal(secret.repeat(14)));
            assertThrows(BadRequestException.class, () -> client.createSession(""));
            assertEquals(calls, client.calls());
        }
    }

    @ParameterizedTest
    @EnumSource(TransportForm.class)
    void unknownOrDeletedSession_isSessionNotFound(TransportForm form) {
        try (SessionMeshClient client = client(form)) {
            assertThrows(SessionNotFoundException.class, () -> client.openSession("no-such-session").principal());
            Session s = client.createSession("alice");
            client.openSession(s.id()).invalidate();
            assertThrows(SessionNotFoundException.class, () -> s.setPrincipal("bob"));
            assertThrows(SessionNotFoundException.class, () -> client.openSession(s.id()).principal());
        }
    }
}
