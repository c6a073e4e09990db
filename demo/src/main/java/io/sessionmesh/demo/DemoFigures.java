package io.sessionmesh.demo;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;

/**
 * The stack's own counters, read over HTTP: the sidecar's admin stats (cache hits and misses, calls to the master)
 * and the example service's Micrometer meters (calls to the sidecar, value bytes of deltas against whole sections).
 * A {@link Snapshot} minus an earlier one is what happened between the two.
 */
final class DemoFigures {
    private final DemoWorkload http;
    private final URI sidecarStats;
    private final URI service;

    DemoFigures(DemoWorkload http, DemoStack stack) {
        this.http = http;
        this.sidecarStats = URI.create("http://127.0.0.1:" + stack.sidecarAdminPort + "/admin/stats");
        this.service = URI.create("http://127.0.0.1:" + stack.servicePort + "/actuator/metrics/");
    }

    /** The counters now; a counter that cannot be read is 0. */
    Snapshot snapshot() {
        JsonNode s = http.getJson(sidecarStats);
        if (s == null) {
            s = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        return new Snapshot(s.path("hits").asLong(), s.path("partial_hits").asLong(), s.path("misses").asLong(),
                s.path("sections_from_cache").asLong(), s.path("sections_from_master").asLong(),
                s.path("master_calls").asLong(), meter("sessionmesh.client.calls", null),
                meter("sessionmesh.client.save.bytes", "kind:delta"),
                meter("sessionmesh.client.save.bytes", "kind:whole-sections"));
    }

    /** A Micrometer meter's COUNT statistic from the actuator, 0 when it is not there yet. */
    private long meter(String name, String tag) {
        JsonNode m = http.getJson(service.resolve(name + (tag == null ? "" : "?tag=" + tag)));
        if (m == null) {
            return 0;
        }
        for (JsonNode measurement : m.path("measurements")) {
            if (measurement.path("statistic").asText().equals("COUNT")) {
                return measurement.path("value").asLong();
            }
        }
        return 0;
    }

    /**
     * The counters at one moment.
     *
     * @param hits reads the sidecar answered wholly from its cache
     * @param partialHits reads it answered partly from the cache, partly from the master
     * @param misses reads it answered wholly from the master
     * @param sectionsFromCache sections served from the cache
     * @param sectionsFromMaster sections fetched from a master
     * @param masterCalls round trips from the sidecar to a master (reads, writes, creates, touches)
     * @param sidecarCalls calls from the example service to the sidecar
     * @param deltaBytes value bytes the example service's saves sent
     * @param wholeSectionBytes value bytes whole-section saves would have sent
     */
    record Snapshot(long hits, long partialHits, long misses, long sectionsFromCache, long sectionsFromMaster,
                    long masterCalls, long sidecarCalls, long deltaBytes, long wholeSectionBytes) {
        Snapshot minus(Snapshot o) {
            return new Snapshot(hits - o.hits, partialHits - o.partialHits, misses - o.misses,
                    sectionsFromCache - o.sectionsFromCache, sectionsFromMaster - o.sectionsFromMaster,
                    masterCalls - o.masterCalls, sidecarCalls - o.sidecarCalls, deltaBytes - o.deltaBytes,
                    wholeSectionBytes - o.wholeSectionBytes);
        }

        /** Reads answered wholly from the cache, of all reads. */
        double hitRatio() {
            long reads = hits + partialHits + misses;
            return reads == 0 ? 0 : (double) hits / reads;
        }

        /** Sections served from the cache, of all sections read. */
        double sectionHitRatio() {
            long sections = sectionsFromCache + sectionsFromMaster;
            return sections == 0 ? 0 : (double) sectionsFromCache / sections;
        }
    }
}
