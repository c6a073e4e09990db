package io.sessionmesh.springsession;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** Where Spring Session on Redis keeps the session: one hash, a field an attribute; the flow itself is the base's. */
    @Test
    void theSessionLiesInRedis_oneHashFieldAnAttribute() {
        String id = login("C1001");
        String key = NAMESPACE + ":sessions:" + id;
        assertEquals(Boolean.TRUE, redis.hasKey(key), "the session is not in Redis where expected");
        assertEquals(SessionSeed.SECTIONS * SessionSeed.ATTRIBUTES_PER_SECTION,
                redis.opsForHash().keys(key).stream().filter(k -> k.toString().startsWith("sessionAttr:")).count());
        assertEquals(200, http.exchange("/deposits/draft", HttpMethod.PUT,
                new HttpEntity<>("{\"amount\": 5000, \"months\": 12}", session(id)), String.class).getStatusCode().value());
        assertEquals(Boolean.TRUE, redis.opsForHash().hasKey(key, "sessionAttr:deposits.draft"));
    }
}
