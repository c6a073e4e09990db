package io.sessionmesh.example;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.processor.SectionIndex;
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
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example service against a real sidecar and master (processes on loopback): the flow works, and each request
 * that declares sections makes exactly one batch read at the sidecar (counted by the sidecar's admin stats).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DepositFlowIT {
    static ServerProcess master;
    static ServerProcess sidecar;

    @Autowired
    TestRestTemplate http;

    @Autowired
    SectionIndex sectionIndex;

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

    /** The sidecar's admin stats as text, or null while it is not up. */
    static String stats() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + sidecar.port("admin") + "/admin/stats")).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : null;
    }

    static long count(String op) throws Exception {
        Matcher m = Pattern.compile("\"" + op + "\":(\\d+)").matcher(stats());
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    HttpHeaders session(String id) {
        HttpHeaders h = new HttpHeaders();
        h.set("X-Session-Id", id);
        h.setContentType(MediaType.APPLICATION_JSON);
        return h;
    }

    /**
     * The batches come from the processor's index, not from the run-time fallback: the build ran the processor (on
     * the compiler's processor path, also under JDK 25's javac, where the class path is not searched).
     */
    @Test
    void theProcessorRan_everyHandlerIsInTheIndex() throws Exception {
        assertTrue(sectionIndex.entries().containsKey(SectionIndex.key(DepositController.class.getMethod("offer"))),
                "no index entry for the offer: " + sectionIndex.entries().keySet());
        assertEquals(List.of("defaultCurrency", "interestRates", "deposits"),
                sectionIndex.forMethod(DepositController.class.getMethod("draft", Model.OpenRequest.class)).sections());
        assertEquals(0, sectionIndex.reflectionFallbacks(), "a handler was read by reflection: the processor did not run");
    }

    /**
     * The profile page, written against HttpSession only, sees the session the section API's login made, and what it
     * sets is an attribute of the section its name says; the section-API pages are not touched by it.
     */
    @Test
    @SuppressWarnings("rawtypes")
    void theHttpSessionPage_sharesTheSectionApisSession() throws Exception {
        ResponseEntity<Map> login = http.postForEntity("/deposits/login/C1002", null, Map.class);
        String id = (String) login.getBody().get("sessionId");
        ResponseEntity<String> offer = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        ResponseEntity<Map> profile = http.exchange("/profile", HttpMethod.GET, new HttpEntity<>(session(id)), Map.class);
        assertEquals(200, profile.getStatusCode().value());
        assertTrue(offer.getBody().contains("\"clientName\":\"" + profile.getBody().get("clientName") + "\""),
                profile.getBody() + " against " + offer.getBody());
        assertEquals("RUB", profile.getBody().get("currency"));
        assertNull(profile.getBody().get("nickname"));

        assertEquals(204, http.exchange("/profile/nickname", HttpMethod.PUT, new HttpEntity<>("Annie", session(id)),
                String.class).getStatusCode().value());
        assertEquals("Annie", http.exchange("/profile", HttpMethod.GET, new HttpEntity<>(session(id)), Map.class)
                .getBody().get("nickname"));
        try (SessionMeshClient direct = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.example")).build()) {
            assertEquals("Annie", direct.getSession(id, "preferences").section("preferences").getAttribute("nickname"));
        }
        assertEquals(200, http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(session(id)), String.class)
                .getStatusCode().value());
        assertEquals(404, http.exchange("/profile", HttpMethod.GET, new HttpEntity<>(session("NoSuchSessionAnywhere0123")),
                String.class).getStatusCode().value());
        assertEquals(400, http.exchange("/profile/nickname", HttpMethod.PUT, new HttpEntity<>(" ", session(id)),
                String.class).getStatusCode().value());
    }

    @Test
    void depositFlow_eachRequestMakesOneBatchRead() throws Exception {
        long readsBeforeLogin = count("read");
        long writesBeforeLogin = count("write");
        @SuppressWarnings("rawtypes")
        ResponseEntity<Map> login = http.postForEntity("/deposits/login/C1001", null, Map.class);
        assertEquals(201, login.getStatusCode().value());
        assertEquals(readsBeforeLogin, count("read"), "a login read sections of the session it had just created");
        assertEquals(writesBeforeLogin + 1, count("write"), "a login saved its twelve sections in more than one call");
        String id = (String) login.getBody().get("sessionId");
        assertNotNull(id);
        assertEquals(id, login.getHeaders().getFirst("X-Session-Id"));
        assertTrue(login.getHeaders().get(HttpHeaders.SET_COOKIE).stream().anyMatch(c -> c.startsWith("SMROUTE=")),
                "no route cookie on a session-bearing answer");
        // the session cookie: not readable by scripts, HTTPS only, not sent on cross-site subrequests
        String sessionCookie = login.getHeaders().get(HttpHeaders.SET_COOKIE).stream()
                .filter(c -> c.startsWith("SESSIONMESH=" + id)).findFirst().orElseThrow();
        assertTrue(sessionCookie.contains("; HttpOnly") && sessionCookie.contains("; Secure")
                && sessionCookie.contains("; SameSite=Lax") && sessionCookie.contains("; Path=/"), sessionCookie);

        try (SessionMeshClient direct = SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                .classFilter(ClassFilter.allowingPackages("io.sessionmesh.example")).build()) {
            Session seeded = direct.getSession(id, SessionSeed.SECTION_NAMES.toArray(String[]::new));
            for (String name : SessionSeed.SECTION_NAMES) {
                assertEquals(SessionSeed.ATTRIBUTES_PER_SECTION, seeded.section(name).attributeNames().size(), name);
            }
            // the login's session belongs to its client (the sidecar's GET /v1/sessions/{id}/principal, read afresh by
            // a client that did not make it), so logging the client out everywhere ends it
            assertEquals(Optional.of("C1001"), seeded.principal());
        }

        long reads = count("read");
        long writes = count("write");
        ResponseEntity<String> offer = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertEquals(200, offer.getStatusCode().value(), offer.getBody());
        assertTrue(offer.getBody().matches(".*\"clientName\":\"[A-Z][a-z]+ [A-Z][a-z]+\".*")
                && offer.getBody().contains("\"currency\":\"RUB\""), offer.getBody());
        assertEquals(reads + 1, count("read"), "the offer's three sections were not read in one batch");
        assertEquals(writes, count("write"), "a read-only request wrote");
        // the route cookie: said when the request lacks it or names another route, not again when it has it
        String route = offer.getHeaders().get(HttpHeaders.SET_COOKIE).stream().filter(c -> c.startsWith("SMROUTE="))
                .findFirst().orElseThrow().split(";")[0];
        HttpHeaders withRoute = session(id);
        withRoute.add(HttpHeaders.COOKIE, route);
        ResponseEntity<String> again = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(withRoute), String.class);
        assertEquals(200, again.getStatusCode().value(), again.getBody());
        List<String> said = again.getHeaders().getOrDefault(HttpHeaders.SET_COOKIE, List.of());
        assertTrue(said.stream().noneMatch(c -> c.startsWith("SMROUTE=")), "the route cookie said again: " + said);
        HttpHeaders otherRoute = session(id);
        otherRoute.add(HttpHeaders.COOKIE, "SMROUTE=elsewhere");
        ResponseEntity<String> moved = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(otherRoute), String.class);
        assertTrue(moved.getHeaders().get(HttpHeaders.SET_COOKIE).stream().anyMatch(c -> c.startsWith(route)),
                "a request with another route is not told its own");
        reads = count("read") - 1; // as if the two extra offers above were one: the counts below go on from there

        ResponseEntity<String> opened = http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 100000, \"months\": 6}", session(id)), String.class);
        assertEquals(201, opened.getStatusCode().value(), opened.getBody());
        assertTrue(opened.getBody().contains("\"percent\":16.20"), opened.getBody());
        assertEquals(reads + 2, count("read"), "opening a deposit read its three sections in more than one call");
        assertEquals(writes + 1, count("write"), "opening a deposit did not save once");

        ResponseEntity<String> list = http.exchange("/deposits", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertTrue(list.getBody().contains("\"id\":\"D1\""), list.getBody());
        assertEquals(reads + 3, count("read"));
        assertEquals(writes + 1, count("write"), "a read changed nothing but was saved");

        ResponseEntity<String> cards = http.exchange("/cards", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertEquals(200, cards.getStatusCode().value(), cards.getBody());
        assertTrue(cards.getBody().contains("\"maskedPan\":\"4276 38** **** ") && cards.getBody().contains("\"RUB\":100000"),
                cards.getBody());
        assertEquals(reads + 4, count("read"), "the cards page read its two sections in more than one call");
        ResponseEntity<String> limit = http.exchange("/cards/limit", HttpMethod.PUT,
                new HttpEntity<>("{\"currency\":\"EUR\",\"amount\":2500}", session(id)), String.class);
        assertEquals(200, limit.getStatusCode().value(), limit.getBody());
        assertEquals(writes + 2, count("write"), "setting a limit did not save once");
        assertTrue(http.exchange("/cards", HttpMethod.GET, new HttpEntity<>(session(id)), String.class).getBody()
                .contains("\"EUR\":2500"));
        assertEquals(400, http.exchange("/cards/limit", HttpMethod.PUT,
                new HttpEntity<>("{\"currency\":\"euro\",\"amount\":2500}", session(id)), String.class).getStatusCode().value());
        ResponseEntity<String> draft = http.exchange("/deposits/draft", HttpMethod.PUT,
                new HttpEntity<>("{\"amount\": 5000, \"months\": 12}", session(id)), String.class);
        assertEquals(200, draft.getStatusCode().value(), draft.getBody());
        assertTrue(draft.getBody().contains("\"percent\":14.80"), draft.getBody());
        assertEquals(writes + 3, count("write"));

        // the floor: the offer's shape with no session, so neither a read nor a write at the sidecar, with or without an id
        long readsBeforeFloor = count("read");
        long writesBeforeFloor = count("write");
        ResponseEntity<String> floor = http.exchange("/deposits/floor", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertEquals(200, floor.getStatusCode().value(), floor.getBody());
        assertTrue(floor.getBody().contains("\"clientName\":\"Anna Petrova\"") && floor.getBody().contains("\"months\":12"),
                floor.getBody());
        assertEquals(200, http.getForEntity("/deposits/floor", String.class).getStatusCode().value());
        assertEquals(readsBeforeFloor, count("read"), "the floor endpoint read the session");
        assertEquals(writesBeforeFloor, count("write"), "the floor endpoint wrote the session");

        ResponseEntity<String> bad = http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 5, \"months\": 7}", session(id)), String.class);
        assertEquals(400, bad.getStatusCode().value());
        assertEquals(400, http.postForEntity("/deposits/login/" + "x".repeat(65), null, String.class).getStatusCode().value());
        ResponseEntity<String> noSession = http.getForEntity("/deposits/offer", String.class);
        assertEquals(404, noSession.getStatusCode().value(), noSession.getBody());
        assertTrue(noSession.getBody().contains("carries no session id"), noSession.getBody());
        HttpHeaders unknown = session("NoSuchSessionAnywhere");
        assertEquals(404, http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(unknown), String.class)
                .getStatusCode().value());
    }
}
