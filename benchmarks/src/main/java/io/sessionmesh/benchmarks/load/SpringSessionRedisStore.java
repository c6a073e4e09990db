package io.sessionmesh.benchmarks.load;

import io.sessionmesh.workload.RequestMix;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.JdkSerializationRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * Spring Session on Redis as a Spring Boot service sets it up (spring-session-data-redis, its default
 * {@link RedisSessionRepository}; a {@code RedisTemplate} with string keys and JDK serialization of values; one
 * shared Lettuce connection per service node; save mode ON_SET_ATTRIBUTE and flush on save, the defaults), with the
 * workload's idle timeout. Each step does what {@code SessionRepositoryFilter} does around a handler: find the session
 * (one HGETALL of all its attributes), touch its last-access time, get and set attributes, save (the changed ones).
 * Sections are attribute name prefixes ({@code section.attribute}): Spring Session has no sections. Round trips and
 * bytes come from the server's INFO (commands processed, network input and output).
 */
final class SpringSessionRedisStore implements StoreUnderTest {
    /** The workload's idle timeout. */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);

    private final int hosts;
    private final String namespace = "sessionmesh-load:" + UUID.randomUUID();
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    /** The node repositories; RedisSessionRepository's session class is not public, hence the plain interface. */
    private final List<SessionRepository<Session>> repositories = new ArrayList<>();
    private final LettuceConnectionFactory admin;

    SpringSessionRedisStore(String host, int port, int hosts) {
        this.hosts = hosts;
        for (int i = 0; i < WorkloadModel.SERVICES * hosts; i++) {
            LettuceConnectionFactory factory = factory(host, port);
            factories.add(factory);
            RedisTemplate<String, Object> template = new RedisTemplate<>();
            template.setConnectionFactory(factory);
            template.setKeySerializer(RedisSerializer.string());
            template.setHashKeySerializer(RedisSerializer.string());
            JdkSerializationRedisSerializer values = new JdkSerializationRedisSerializer(getClass().getClassLoader());
            template.setValueSerializer(values);
            template.setHashValueSerializer(values);
            template.afterPropertiesSet();
            RedisSessionRepository repository = new RedisSessionRepository(template);
            repository.setDefaultMaxInactiveInterval(IDLE_TIMEOUT);
            repository.setRedisKeyNamespace(namespace);
            repository.setSaveMode(SaveMode.ON_SET_ATTRIBUTE);
            repository.setFlushMode(FlushMode.ON_SAVE);
            repositories.add(asPlain(repository));
        }
        admin = factory(host, port);
    }

    @SuppressWarnings("unchecked")
    private static SessionRepository<Session> asPlain(RedisSessionRepository repository) {
        return (SessionRepository<Session>) (SessionRepository<?>) repository;
    }

    private static LettuceConnectionFactory factory(String host, int port) {
        LettuceConnectionFactory f = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        f.afterPropertiesSet();
        f.start();
        return f;
    }

    @Override
    public String name() {
        return "spring-session-redis";
    }

    @Override
    public int nodesPerService() {
        return hosts;
    }

    private SessionRepository<Session> repository(int service, int node) {
        return repositories.get(service * hosts + node);
    }

    static String key(String section, String attribute) {
        return section + "." + attribute;
    }

    @Override
    public String create(int node, Map<String, Map<String, Object>> sections) {
        SessionRepository<Session> repository = repository(0, node);
        Session s = repository.createSession();
        sections.forEach((section, attributes) -> attributes.forEach((a, v) -> s.setAttribute(key(section, a), v)));
        repository.save(s);
        return s.getId();
    }

    @Override
    public long[] step(int node, String sessionId, RequestMix.Step<Object> step) {
        SessionRepository<Session> repository = repository(step.service(), node);
        long t0 = System.nanoTime();
        Session s = repository.findById(sessionId);
        if (s == null) {
            throw new SessionGone(sessionId, null);
        }
        s.setLastAccessedTime(Instant.now());
        for (String section : step.reads()) {
            for (int a = 0; a < WorkloadModel.ATTRIBUTES_PER_SECTION; a++) {
                s.getAttribute(key(section, WorkloadModel.attribute(a)));
            }
        }
        long t1 = System.nanoTime();
        step.writes().forEach((a, v) -> s.setAttribute(key(step.writeSection(), a), v));
        repository.save(s);
        long t2 = System.nanoTime();
        // Every request saves (the last-access time changes), so the save is counted for reads too.
        return new long[] {t1 - t0, t2 - t1};
    }

    @Override
    public Counters counters() {
        Properties info = admin.getConnection().serverCommands().info("stats");
        long commands = Long.parseLong(info.getProperty("total_commands_processed", "0"));
        long in = Long.parseLong(info.getProperty("total_net_input_bytes", "0"));
        long out = Long.parseLong(info.getProperty("total_net_output_bytes", "0"));
        return new Counters(commands, in, out, 0, 0, 0, 0, 0);
    }

    /** This JVM and redis-server (its pid from INFO server: the Redis this store uses, even if another runs). */
    @Override
    public Map<String, Long> cpuNanos() {
        Properties server = admin.getConnection().serverCommands().info("server");
        long pid = Long.parseLong(server.getProperty("process_id", "0"));
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        out.put("generator", ProcessCpu.nanos(ProcessHandle.current().pid()));
        out.put("redis", pid == 0 ? 0 : ProcessCpu.nanos(pid));
        return out;
    }

    @Override
    public void close() {
        try {
            var connection = admin.getConnection();
            var keys = connection.keyCommands().scan(org.springframework.data.redis.core.ScanOptions.scanOptions()
                    .match(namespace + ":*").count(1000).build());
            while (keys.hasNext()) {
                connection.keyCommands().unlink(keys.next());
            }
        } finally {
            factories.forEach(LettuceConnectionFactory::destroy);
            admin.destroy();
        }
    }
}
