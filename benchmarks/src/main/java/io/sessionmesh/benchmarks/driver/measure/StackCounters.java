package io.sessionmesh.benchmarks.driver.measure;

import io.sessionmesh.benchmarks.driver.stack.Redis;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.benchmarks.registry.MasterStats;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A stack's own counters, read from outside while it runs: each sidecar's admin stats ({@code GET /admin/stats}:
 * reads from the cache and from the master, round trips to the master), each example-service node's Micrometer meters
 * from the actuator (calls to the sidecar and their bytes, value bytes of its deltas against whole sections: the
 * demo's figures), Redis's INFO stats for Spring Session (its commands and bytes: the apps' link), and, when asked for,
 * each master's STATS over its protocol (writes, the writes that waited for other holders' invalidations,
 * invalidations sent, and the wait: {@link #MASTER_GAUGES}). Summed over the hosts (and replicas); a counter that cannot be read counts 0 (a
 * Spring Session stack has none, the drop-in app no actuator). A {@link Snapshot} minus an earlier one is what
 * happened between the two.
 */
public final class StackCounters implements AutoCloseable {
    /** The masters' STATS counters kept: each a running count, so a difference is a window's. */
    public static final List<String> MASTER_COUNTERS = List.of("writes", "fenced_writes", "invalidations_sent",
            "invalidation_lease_expiries", "creates", "expiries");
    /** The masters' STATS figures kept as they are (not differences): the fence wait since the master started. */
    public static final List<String> MASTER_GAUGES = List.of("fence_wait_p50_us", "fence_wait_p99_us", "fence_wait_max_us");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final List<URI> sidecarStats = new ArrayList<>();
    private final List<URI> meters = new ArrayList<>();
    private final List<MasterConnection> masters = new ArrayList<>();
    private final RedisClient redisClient;
    private final StatefulRedisConnection<String, String> redis;
    private EventLoopGroup group;

    /** A reader of {@code stack}'s counters; of its masters' too with {@code masterStats}. */
    public StackCounters(Stack stack, boolean masterStats) {
        if (stack.redis != null) {
            redisClient = RedisClient.create(stack.redis.uri());
            redis = redisClient.connect();
        } else {
            redisClient = null;
            redis = null;
        }
        for (ServerProcess s : stack.sidecars) {
            sidecarStats.add(URI.create("http://127.0.0.1:" + s.port("admin") + "/admin/stats"));
        }
        if (stack.system.equals(Stack.SESSIONMESH) || stack.system.equals(Stack.SESSIONMESH_UNIX)) {
            for (ServerProcess a : stack.apps) {
                meters.add(URI.create("http://127.0.0.1:" + a.port() + "/actuator/metrics/"));
            }
        }
        if (masterStats && !stack.masters.isEmpty()) {
            group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            for (ServerProcess m : stack.masters) {
                masters.add(MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", m.port()),
                        MasterConnectionOptions.DEFAULT, null).join());
            }
        }
    }

    /** The counters now. */
    public Snapshot snapshot() {
        long[] s = new long[8];
        for (URI uri : sidecarStats) {
            JsonNode n = getJson(uri);
            s[0] += n.path("hits").asLong();
            s[1] += n.path("partial_hits").asLong();
            s[2] += n.path("misses").asLong();
            s[3] += n.path("sections_from_cache").asLong();
            s[4] += n.path("sections_from_master").asLong();
            s[5] += n.path("master_calls").asLong();
            s[6] += n.path("master_bytes_sent").asLong();
            s[7] += n.path("master_bytes_received").asLong();
        }
        long[] link = new long[3]; // calls, bytes sent, bytes received: the apps' link to their store
        long delta = 0;
        long whole = 0;
        for (URI uri : meters) {
            link[0] += meter(uri, "sessionmesh.client.calls", null, "COUNT");
            link[1] += meter(uri, "sessionmesh.client.bytes", "direction:sent", "TOTAL");
            link[2] += meter(uri, "sessionmesh.client.bytes", "direction:received", "TOTAL");
            delta += meter(uri, "sessionmesh.client.save.bytes", "kind:delta", "COUNT");
            whole += meter(uri, "sessionmesh.client.save.bytes", "kind:whole-sections", "COUNT");
        }
        if (redis != null) {
            try {
                // the whole server's since it started, anyone else's on the machine included
                Map<String, String> stats = Redis.parseInfo(redis.sync().info("stats"));
                link[0] = Long.parseLong(stats.getOrDefault("total_commands_processed", "0"));
                link[1] = Long.parseLong(stats.getOrDefault("total_net_input_bytes", "0"));
                link[2] = Long.parseLong(stats.getOrDefault("total_net_output_bytes", "0"));
            } catch (RuntimeException e) {
                // Redis not answering now: no link figures in this snapshot
            }
        }
        Map<String, Long> master = new LinkedHashMap<>();
        Map<String, Long> gauges = new LinkedHashMap<>();
        for (MasterConnection c : masters) {
            try {
                MasterStats stats = MasterStats.of(c);
                for (String name : MASTER_COUNTERS) {
                    master.merge(name, Math.max(0, stats.get(name)), Math::max);
                }
                for (String name : MASTER_GAUGES) {
                    gauges.merge(name, Math.max(0, stats.get(name)), Math::max);
                }
            } catch (Exception e) {
                // a replica that does not answer now: its counters are left out of this snapshot
            }
        }
        return new Snapshot(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], link[0], link[1], link[2], delta, whole,
                master, gauges);
    }

    /** A Micrometer meter's statistic ({@code COUNT}, {@code TOTAL}) from the actuator, 0 when it is not there (yet). */
    private static long meter(URI base, String name, String tag, String statistic) {
        for (JsonNode measurement : getJson(base.resolve(name + (tag == null ? "" : "?tag=" + tag))).path("measurements")) {
            if (measurement.path("statistic").asText().equals(statistic)) {
                return measurement.path("value").asLong();
            }
        }
        return 0;
    }

    /** GETs a JSON document; a missing node when it cannot be had. */
    private static JsonNode getJson(URI uri) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : MissingNode.getInstance();
        } catch (IOException e) {
            return MissingNode.getInstance();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return MissingNode.getInstance();
        }
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.close();
            redisClient.shutdown();
        }
        masters.forEach(MasterConnection::close);
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * The counters at one moment, summed over the stack.
     *
     * @param hits reads the sidecars answered wholly from their caches
     * @param partialHits reads answered partly from the cache, partly from the master
     * @param misses reads answered wholly from the master
     * @param sectionsFromCache sections served from the caches
     * @param sectionsFromMaster sections fetched from a master
     * @param masterCalls round trips from the sidecars to a master (reads, writes, creates, touches)
     * @param masterBytesSent bytes the sidecars sent to masters
     * @param masterBytesReceived bytes they received from masters
     * @param sidecarCalls calls from the example service's nodes to their sidecars; for Spring Session, the commands
     *                     Redis processed: the round trips of the apps' link to their store
     * @param linkBytesSent bytes the apps sent to their sidecars (request bodies), or Redis received
     * @param linkBytesReceived bytes the apps received from their sidecars (answer bodies), or Redis sent
     * @param deltaBytes value bytes the example service's saves sent
     * @param wholeSectionBytes value bytes whole-section saves would have sent
     * @param master the master's (a group's leader's) {@link #MASTER_COUNTERS}, when read
     * @param masterGauges its {@link #MASTER_GAUGES}, as they stand (not differences)
     */
    public record Snapshot(long hits, long partialHits, long misses, long sectionsFromCache, long sectionsFromMaster,
                           long masterCalls, long masterBytesSent, long masterBytesReceived, long sidecarCalls,
                           long linkBytesSent, long linkBytesReceived, long deltaBytes, long wholeSectionBytes,
                           Map<String, Long> master, Map<String, Long> masterGauges) {
        public Snapshot minus(Snapshot o) {
            Map<String, Long> m = new LinkedHashMap<>();
            master.forEach((k, v) -> m.put(k, v - o.master.getOrDefault(k, 0L)));
            return new Snapshot(hits - o.hits, partialHits - o.partialHits, misses - o.misses,
                    sectionsFromCache - o.sectionsFromCache, sectionsFromMaster - o.sectionsFromMaster,
                    masterCalls - o.masterCalls, masterBytesSent - o.masterBytesSent,
                    masterBytesReceived - o.masterBytesReceived, sidecarCalls - o.sidecarCalls,
                    linkBytesSent - o.linkBytesSent, linkBytesReceived - o.linkBytesReceived, deltaBytes - o.deltaBytes,
                    wholeSectionBytes - o.wholeSectionBytes, m, masterGauges);
        }

        /** Reads the sidecars answered: hits, partial hits and misses. */
        public long reads() {
            return hits + partialHits + misses;
        }

        /** Reads answered wholly from the cache, of all reads; 0 with none. */
        public double hitRatio() {
            return reads() == 0 ? 0 : (double) hits / reads();
        }

        /** Sections served from the cache, of all sections read; 0 with none. */
        public double sectionHitRatio() {
            long sections = sectionsFromCache + sectionsFromMaster;
            return sections == 0 ? 0 : (double) sectionsFromCache / sections;
        }

        /** The share of value bytes deltas saved against whole sections; 0 with no save. */
        public double deltaSavedShare() {
            return wholeSectionBytes == 0 ? 0 : (double) (wholeSectionBytes - deltaBytes) / wholeSectionBytes;
        }
    }
}
