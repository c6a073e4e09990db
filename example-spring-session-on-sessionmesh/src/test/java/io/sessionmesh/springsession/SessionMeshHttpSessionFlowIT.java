package io.sessionmesh.springsession;

import io.sessionmesh.httpsession.SessionMeshSessionRepository;
import io.sessionmesh.testing.ServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.session.SessionRepository;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * The Spring Session application on SessionMesh: the application's own tests ({@link HttpSessionFlowTests}, the
 * same that {@code RedisHttpSessionFlowIT} runs on Redis) against a real master and sidecar (processes on loopback).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SessionMeshHttpSessionFlowIT extends HttpSessionFlowTests {
    static ServerProcess master;
    static ServerProcess sidecar;

    @Autowired
    SessionRepository<?> repository;

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0"));
        sidecar.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        if (sidecar != null) {
            sidecar.close();
        }
        if (master != null) {
            master.close();
        }
    }

    @DynamicPropertySource
    static void sidecarUri(DynamicPropertyRegistry registry) {
        registry.add("sessionmesh.sidecar-uri", () -> "http://127.0.0.1:" + sidecar.port());
    }

    @Test
    void repository_isSessionMeshs_notRedis() {
        assertInstanceOf(SessionMeshSessionRepository.class, repository);
    }
}
