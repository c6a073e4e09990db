package io.sessionmesh.springsession;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This application on Spring Session and the local Redis (127.0.0.1:6379), in a database index and key namespace of
 * its own ({@value #DATABASE}, {@value #NAMESPACE}), whose keys it deletes at the end: the tests every store passes
 * ({@link HttpSessionFlowTests}), and where the session lies in Redis.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.data.redis.database=" + RedisHttpSessionFlowIT.DATABASE,
        "spring.session.redis.namespace=" + RedisHttpSessionFlowIT.NAMESPACE})
class RedisHttpSessionFlowIT extends HttpSessionFlowTests {
    /** A Redis database index nothing else on a developer's machine or CI uses. */
    static final int DATABASE = 14;
    /** This test's key namespace. */
    static final String NAMESPACE = "sessionmesh-it:spring-session";

    static StringRedisTemplate redis;

    @Autowired
    void redis(StringRedisTemplate template) {
        redis = template;
    }

    @AfterAll
    static void cleanUp() {
        if (redis != null) {
            Set<String> keys = redis.keys(NAMESPACE + ":*");
            if (keys != null && !keys.isEmpty()) {
                redis.delete(keys);
            }
        }
    }

    @Test
    void theSessionLiesInRedis_oneHashFieldAnAttribute() {
        @SuppressWarnings("rawtypes")
        ResponseEntity<Map> login = http.postForEntity("/deposits/login/C1001", null, Map.class);
        assertEquals(201, login.getStatusCode().value());
        String id = (String) login.getBody().get("sessionId");
        assertNotNull(id);
        assertEquals(id, login.getHeaders().getFirst(SessionConfiguration.HEADER));
        assertEquals(Boolean.TRUE, redis.hasKey(NAMESPACE + ":sessions:" + id), "the session is not in Redis where expected");
        assertEquals(SessionSeed.SECTIONS * SessionSeed.ATTRIBUTES_PER_SECTION,
                redis.opsForHash().keys(NAMESPACE + ":sessions:" + id).stream().filter(k -> k.toString().startsWith("sessionAttr:")).count());

        ResponseEntity<String> offer = http.exchange("/deposits/offer", HttpMethod.GET, new HttpEntity<>(session(id)), String.class);
        assertEquals(200, offer.getStatusCode().value(), offer.getBody());
        assertTrue(offer.getBody().matches("\\{\"clientName\":\"[A-Z][a-z]+ [A-Z][a-z]+\",\"currency\":\"RUB\",\"rates\":\\[.*")
                && !offer.getBody().contains("USD"), offer.getBody());

        ResponseEntity<String> draft = http.exchange("/deposits/draft", HttpMethod.PUT,
                new HttpEntity<>("{\"amount\": 5000, \"months\": 12}", session(id)), String.class);
        assertEquals(200, draft.getStatusCode().value(), draft.getBody());
        assertTrue(draft.getBody().contains("\"percent\":14.80"), draft.getBody());
        assertEquals(Boolean.TRUE, redis.opsForHash().hasKey(NAMESPACE + ":sessions:" + id, "sessionAttr:deposits.draft"));

        ResponseEntity<String> opened = http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 100000, \"months\": 6}", session(id)), String.class);
        assertEquals(201, opened.getStatusCode().value(), opened.getBody());
        assertTrue(opened.getBody().contains("\"id\":\"D1\"") && opened.getBody().contains("\"percent\":16.20"), opened.getBody());
        assertTrue(http.exchange("/deposits", HttpMethod.GET, new HttpEntity<>(session(id)), String.class).getBody()
                .contains("\"id\":\"D1\""));

        ResponseEntity<String> floor = http.getForEntity("/deposits/floor", String.class);
        assertEquals(200, floor.getStatusCode().value());
        assertTrue(floor.getBody().contains("\"clientName\":\"Anna Petrova\""), floor.getBody());
        assertTrue(floor.getHeaders().get(SessionConfiguration.HEADER) == null, "the floor made a session");

        assertEquals(400, http.exchange("/deposits", HttpMethod.POST,
                new HttpEntity<>("{\"amount\": 5, \"months\": 7}", session(id)), String.class).getStatusCode().value());
        ResponseEntity<String> unknown = http.exchange("/deposits/offer", HttpMethod.GET,
                new HttpEntity<>(session("NoSuchSessionAnywhere")), String.class);
        assertEquals(404, unknown.getStatusCode().value(), unknown.getBody());
        assertTrue(unknown.getBody().contains("expired or never existed"), unknown.getBody());
        assertEquals(404, http.getForEntity("/deposits/offer", String.class).getStatusCode().value());
    }
}
