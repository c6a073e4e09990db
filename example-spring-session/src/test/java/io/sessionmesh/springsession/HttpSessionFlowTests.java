package io.sessionmesh.springsession;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This application's behaviour over HTTP, whatever stores its sessions: the same tests run on Spring Session with
 * Redis ({@code RedisHttpSessionFlowIT}, this module) and on SessionMesh ({@code SessionMeshHttpSessionFlowIT}, module
 * example-spring-session-on-sessionmesh, which takes this application with one dependency and one property changed).
 * A subclass starts the application with its store ({@code @SpringBootTest} on a random port).
 */
public abstract class HttpSessionFlowTests {
    /** The pause before looking whether a session with a 1 s idle timeout is gone: its timeout and a margin. */
    static final Duration EXPIRY_PAUSE = Duration.ofMillis(2500);
    /** How many such looks before the test fails. */
    static final int EXPIRY_LOOKS = 4;

    @Autowired
    protected TestRestTemplate http;

    protected static HttpHeaders session(String id) {
        HttpHeaders h = new HttpHeaders();
        h.set(SessionConfiguration.HEADER, id);
        h.setContentType(MediaType.APPLICATION_JSON);
        return h;
    }

    protected String login(String client) {
        return login(client, new HttpHeaders());
    }

    @SuppressWarnings("rawtypes")
    private String login(String client, HttpHeaders headers) {
        ResponseEntity<Map> login = http.exchange("/deposits/login/" + client, HttpMethod.POST, new HttpEntity<>(headers), Map.class);
        assertEquals(201, login.getStatusCode().value());
        String id = (String) login.getBody().get("sessionId");
        assertNotNull(id);
        assertEquals(id, login.getHeaders().getFirst(SessionConfiguration.HEADER), "the id header is not the body's");
        return id;
    }

    protected int status(HttpMethod method, String path, String sessionId) {
        return http.exchange(path, method, new HttpEntity<>(sessionId == null ? new HttpHeaders() : session(sessionId)),
                String.class).getStatusCode().value();
    }

    @SuppressWarnings("unchecked")
    protected Map<String, Object> describe(String id) {
        ResponseEntity<Map> r = http.exchange("/session", HttpMethod.GET, new HttpEntity<>(session(id)), Map.class);
        assertEquals(200, r.getStatusCode().value());
        return r.getBody();
    }

    @Test
    void depositFlow_answersAsTheExampleServiceDoes() {
        String id = login("C1001");
        ResponseEntity<String> offer = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertEquals(200, offer.getStatusCode().value(), offer.getBody());
        assertTrue(offer.getBody().matches("\\{\"clientName\":\"[A-Z][a-z]+ [A-Z][a-z]+\",\"currency\":\"RUB\",\"rates\":\\[.*")
                && !offer.getBody().contains("USD"), offer.getBody());

        ResponseEntity<String> draft = http.exchange("/deposits/draft", HttpMethod.PUT,
                new HttpEntity<>("{\"amount\": 5000, \"months\": 12}", session(id)), String.class);
        assertEquals(200, draft.getStatusCode().value(), draft.getBody());
        assertTrue(draft.getBody().contains("\"percent\":14.80"), draft.getBody());
        assertTrue(((List<?>) describe(id).get("attributeNames")).contains("deposits.draft"));

        ResponseEntity<String> opened = http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 100000, \"months\": 6}", session(id)), String.class);
        assertEquals(201, opened.getStatusCode().value(), opened.getBody());
        assertTrue(opened.getBody().contains("\"id\":\"D1\"") && opened.getBody().contains("\"percent\":16.20"), opened.getBody());
        assertTrue(http.exchange("/deposits", HttpMethod.GET, new HttpEntity<>(session(id)), String.class).getBody()
                .contains("\"id\":\"D1\""));
        assertTrue(!((List<?>) describe(id).get("attributeNames")).contains("deposits.draft"), "the draft was not removed");

        ResponseEntity<String> floor = http.getForEntity("/deposits/floor", String.class);
        assertEquals(200, floor.getStatusCode().value());
        assertTrue(floor.getBody().contains("\"clientName\":\"Anna Petrova\""), floor.getBody());
        assertTrue(floor.getHeaders().get(SessionConfiguration.HEADER) == null, "the floor made a session");

        assertEquals(400, http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 5, \"months\": 7}", session(id)), String.class).getStatusCode().value());
        ResponseEntity<String> unknown = http.exchange("/deposits/offer", HttpMethod.GET,
                new HttpEntity<>(session("NoSuchSessionAnywhere0123456789")), String.class);
        assertEquals(404, unknown.getStatusCode().value(), unknown.getBody());
        assertTrue(unknown.getBody().contains("expired or never existed"), unknown.getBody());
        assertEquals(404, status(HttpMethod.GET, "/deposits/offer", null));
    }

    @Test
    void attributes_setAndRemoved_areKeptAndForgotten() {
        String id = login("C1002");
        assertEquals(List.copyOf(new TreeSet<>(SessionSeed.attributes("C1002", SessionSeed.Profile.STANDARD).keySet())),
                describe(id).get("attributeNames"), "the login's attributes (sessionmesh.example.seed=standard)");
        assertEquals(204, http.exchange("/session/notes/greeting", HttpMethod.PUT, new HttpEntity<>("hello", session(id)),
                String.class).getStatusCode().value());
        assertTrue(((List<?>) describe(id).get("attributeNames")).contains("note.greeting"));
        assertEquals(204, status(HttpMethod.DELETE, "/session/notes/greeting", id));
        assertTrue(!((List<?>) describe(id).get("attributeNames")).contains("note.greeting"));
    }

    @Test
    void aLoginInsideASession_givesItANewId_andTheOldIdIsGone() {
        String first = login("C1003");
        String second = login("C1003", session(first));
        assertNotEquals(first, second);
        assertEquals(404, status(HttpMethod.GET, "/deposits/offer", first));
        assertEquals(200, status(HttpMethod.GET, "/deposits/offer", second));
    }

    @Test
    @SuppressWarnings("rawtypes")
    void changeSessionId_twice_keepsTheSessionUnderTheLastIdOnly() {
        String original = login("C1004");
        Object created = describe(original).get("creationTime");
        ResponseEntity<Map> one = http.exchange("/session/id", HttpMethod.POST, new HttpEntity<>(session(original)), Map.class);
        String first = (String) one.getBody().get("sessionId");
        assertEquals(first, one.getHeaders().getFirst(SessionConfiguration.HEADER));
        ResponseEntity<Map> two = http.exchange("/session/id", HttpMethod.POST, new HttpEntity<>(session(first)), Map.class);
        String second = (String) two.getBody().get("sessionId");
        assertNotEquals(original, first);
        assertNotEquals(first, second);
        assertEquals(404, status(HttpMethod.GET, "/deposits/offer", original));
        assertEquals(404, status(HttpMethod.GET, "/deposits/offer", first));
        assertEquals(200, status(HttpMethod.GET, "/deposits/offer", second));
        assertEquals(created, describe(second).get("creationTime"), "a new id is the same session");
    }

    @Test
    void logout_endsTheSession_andASecondLogoutFindsNone() {
        String id = login("C1005");
        assertEquals(204, status(HttpMethod.DELETE, "/session", id));
        assertEquals(404, status(HttpMethod.GET, "/deposits/offer", id));
        assertEquals(404, status(HttpMethod.DELETE, "/session", id));
    }

    @Test
    void theIdleTimeout_isTheConfiguredOne_andASessionIdleLongerIsGone() throws InterruptedException {
        String id = login("C1006");
        assertEquals(300, ((Number) describe(id).get("maxInactiveIntervalSeconds")).intValue(), "spring.session.timeout=5m");
        assertEquals(204, status(HttpMethod.PUT, "/session/max-inactive-interval/1", id));
        assertEquals(1, ((Number) describe(id).get("maxInactiveIntervalSeconds")).intValue());
        // every request restarts the idle clock, so look only after the timeout has passed, a few times at most
        int status = 200;
        for (int look = 0; look < EXPIRY_LOOKS && status != 404; look++) {
            Thread.sleep(EXPIRY_PAUSE.toMillis());
            status = status(HttpMethod.GET, "/deposits/offer", id);
        }
        assertEquals(404, status, "the session outlived its 1 s idle timeout by " + EXPIRY_LOOKS + " pauses of " + EXPIRY_PAUSE);
        assertEquals(400, status(HttpMethod.PUT, "/session/max-inactive-interval/0", login("C1007")));
    }
}
