package io.sessionmesh.benchmarks.driver.stack;

import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis Spring Session's stack runs on: the machine's own, in a database and a key namespace of the driver's, so
 * that its keys disturb nothing else and are deleted at the start and at the end ({@link #deleteKeys}).
 *
 * @param namespace Spring Session's key prefix ({@code spring.session.redis.namespace})
 */
public record Redis(InetSocketAddress address, int database, String namespace) {
    /** The driver's key namespace. */
    public static final String NAMESPACE = "sessionmesh-driver:spring-session";

    /** The Spring settings that put an app on this Redis. */
    List<String> springFlags() {
        return List.of("--spring.data.redis.host=" + address.getHostString(), "--spring.data.redis.port=" + address.getPort(),
                "--spring.data.redis.database=" + database, "--spring.session.redis.namespace=" + namespace);
    }

    /** INFO server, as name to value. */
    public Map<String, String> info() {
        return info("server");
    }

    private Map<String, String> info(String section) {
        RedisClient client = RedisClient.create(uri());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            return parseInfo(c.sync().info(section));
        } finally {
            client.shutdown();
        }
    }

    /** An INFO answer as name to value. */
    public static Map<String, String> parseInfo(String text) {
        Map<String, String> info = new LinkedHashMap<>();
        for (String line : text.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                info.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return info;
    }

    /** Redis's pid: from INFO, if that process is a redis-server here; else the one process of that name. */
    long pid() throws IOException {
        String reported = info().get("process_id");
        if (reported != null) {
            try {
                if (Files.readString(Path.of("/proc", reported, "comm")).strip().equals("redis-server")) {
                    return Long.parseLong(reported);
                }
            } catch (IOException e) {
                // not a process of this machine's namespace: look by name
            }
        }
        List<Long> named = ProcessCpu.pidsNamed("redis-server");
        if (named.size() != 1) {
            throw new IllegalStateException("cannot tell which process is Redis: INFO says pid " + reported
                    + ", processes named redis-server: " + named);
        }
        return named.get(0);
    }

    /** Deletes the keys of the namespace in the database; answers how many. */
    public long deleteKeys() {
        RedisClient client = RedisClient.create(uri());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            RedisCommands<String, String> redis = c.sync();
            ScanCursor cursor = ScanCursor.INITIAL;
            long deleted = 0;
            do {
                KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.matches(namespace + ":*").limit(1000));
                if (!page.getKeys().isEmpty()) {
                    deleted += redis.unlink(page.getKeys().toArray(String[]::new));
                }
                cursor = page;
            } while (!cursor.isFinished());
            return deleted;
        } finally {
            client.shutdown();
        }
    }

    /** Where it is, database included, for a client. */
    public RedisURI uri() {
        return RedisURI.builder().withHost(address.getHostString()).withPort(address.getPort()).withDatabase(database).build();
    }
}
