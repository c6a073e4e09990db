package io.sessionmesh.example;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The small seed profile ({@code sessionmesh.example.seed=small}): a login writes only the three attributes the deposit
 * pages read, and those pages work on it, a deposit's first write making its section.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sessionmesh.example.seed=small")
class SmallSeedIT {
    static ServerProcess master;
    static ServerProcess sidecar;

    @Autowired
    TestRestTemplate http;

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256"));
        sidecar.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        sidecar.close();
        master.close();
    }

    @DynamicPropertySource
    static void sidecarUri(DynamicPropertyRegistry registry) {
        registry.add("sessionmesh.sidecar-uri", () -> "http://127.0.0.1:" + sidecar.port());
    }

    @Test
    void login_smallSeed_writesOnlyWhatTheDepositPagesRead() throws Exception {
        @SuppressWarnings("rawtypes")
        ResponseEntity<Map> login = http.postForEntity("/deposits/login/C2002", null, Map.class);
        assertEquals(201, login.getStatusCode().value());
        String id = (String) login.getBody().get("sessionId");
        try (SessionMeshClient direct = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.example")).build()) {
            Session seeded = direct.getSession(id, SessionSeed.SECTION_NAMES.toArray(String[]::new));
            assertEquals(Set.of("client"), seeded.section("clientInfo").attributeNames());
            assertEquals(Set.of("currency"), seeded.section("defaultCurrency").attributeNames());
            assertEquals(Set.of("rates"), seeded.section("interestRates").attributeNames());
            for (String name : SessionSeed.SECTION_NAMES.subList(3, SessionSeed.SECTION_NAMES.size())) {
                assertTrue(seeded.section(name).attributeNames().isEmpty(), name + " was seeded");
            }
            assertEquals(4, seeded.section("interestRates").getAttribute("rates", List.class).size());
        }

        HttpHeaders h = new HttpHeaders();
        h.set("X-Session-Id", id);
        h.setContentType(MediaType.APPLICATION_JSON);
        ResponseEntity<String> offer = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(h), String.class);
        assertEquals(200, offer.getStatusCode().value(), offer.getBody());
        ResponseEntity<String> draft = http.exchange("/deposits/draft", HttpMethod.PUT,
                new HttpEntity<>("{\"amount\": 5000, \"months\": 12}", h), String.class);
        assertEquals(200, draft.getStatusCode().value(), draft.getBody());
        ResponseEntity<String> opened = http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 100000, \"months\": 6}", h), String.class);
        assertEquals(201, opened.getStatusCode().value(), opened.getBody());
        assertTrue(http.exchange("/deposits", HttpMethod.GET, new HttpEntity<>(h), String.class).getBody().contains("\"id\":\"D1\""));
    }
}
