package io.sessionmesh.benchmarks.load;

import io.sessionmesh.benchmarks.workload.WorkloadSizes;
import io.sessionmesh.benchmarks.workload.WorkloadValues;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * shared/WORKLOAD.md as data: 12 sections of 5 attributes per session, real Java values (client records grown to
 * the workload's log-normal sizes, and byte[] blobs), 4 services of 3 endpoints each declaring 1 to 3 sections, and
 * the request mix (each service step reads its endpoint's sections; one step in four also writes 1 or 2 attributes
 * of one of them). Values are drawn from a pool made once, so a run spends its time on the systems, not on making
 * values; the pool's sizes follow the workload's distribution, rounded to {@value #SIZE_BUCKETS} log-spaced sizes.
 */
final class WorkloadModel {
    static final int SERVICES = 4;
    static final int SECTIONS_PER_SESSION = 12;
    static final int ATTRIBUTES_PER_SECTION = 5;
    static final int ENDPOINTS_PER_SERVICE = 3;
    /** Services an end-user request passes through, in turn. */
    static final int SERVICES_PER_REQUEST = 2;
    /** One step in this many writes. */
    static final int WRITE_EVERY = 4;
    /** Values in the pool. */
    static final int POOL = 512;
    /** Distinct value sizes (log-spaced from the smallest to the largest workload size). */
    static final int SIZE_BUCKETS = 24;
    static final List<String> SECTION_NAMES = List.of("clientInfo", "defaultCurrency", "interestRates", "cards", "deposits",
            "limits", "offers", "documents", "accounts", "notifications", "preferences", "riskScore");

    private final List<Object> pool = new ArrayList<>();
    private final List<List<String>>[] endpoints;

    @SuppressWarnings("unchecked")
    WorkloadModel(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        WorkloadSizes sizes = new WorkloadSizes(seed);
        Map<Integer, Object> byBucket = new TreeMap<>();
        for (int i = 0; i < POOL; i++) {
            int size = bucket(sizes.next());
            if (i % ATTRIBUTES_PER_SECTION == ATTRIBUTES_PER_SECTION - 1) {
                byte[] blob = new byte[size];
                r.nextBytes(blob);
                pool.add(blob);
            } else {
                pool.add(byBucket.computeIfAbsent(size, WorkloadValues::clientOfSize));
            }
        }
        // Each service's endpoints declare 1..3 sections from its own window of 6 names; neighbouring services'
        // windows overlap by 3, so what one service writes, the next one reads.
        endpoints = new List[SERVICES];
        for (int s = 0; s < SERVICES; s++) {
            endpoints[s] = new ArrayList<>();
            for (int e = 0; e < ENDPOINTS_PER_SERVICE; e++) {
                int n = 1 + r.nextInt(3);
                List<String> names = new ArrayList<>();
                while (names.size() < n) {
                    String name = SECTION_NAMES.get((3 * s + r.nextInt(6)) % SECTION_NAMES.size());
                    if (!names.contains(name)) {
                        names.add(name);
                    }
                }
                endpoints[s].add(List.copyOf(names));
            }
        }
    }

    private static int bucket(int size) {
        double lo = Math.log(WorkloadSizes.MIN_BYTES);
        double hi = Math.log(WorkloadSizes.MAX_BYTES);
        long step = Math.round((Math.log(size) - lo) / (hi - lo) * (SIZE_BUCKETS - 1));
        return (int) Math.round(Math.exp(lo + step * (hi - lo) / (SIZE_BUCKETS - 1)));
    }

    static String attribute(int a) {
        return "a" + a;
    }

    /** A new session's sections: every section's every attribute. */
    Map<String, Map<String, Object>> newSession(SplittableRandom r) {
        Map<String, Map<String, Object>> sections = new LinkedHashMap<>();
        for (String name : SECTION_NAMES) {
            Map<String, Object> attributes = new LinkedHashMap<>();
            for (int a = 0; a < ATTRIBUTES_PER_SECTION; a++) {
                attributes.put(attribute(a), value(r));
            }
            sections.put(name, attributes);
        }
        return sections;
    }

    Object value(SplittableRandom r) {
        return pool.get(r.nextInt(pool.size()));
    }

    /** One service's part of an end-user request. */
    record Step(int service, List<String> reads, String writeSection, Map<String, Object> writes) {
        boolean hasWrites() {
            return writeSection != null;
        }
    }

    /** The steps of one end-user request: two distinct services in turn. */
    List<Step> request(SplittableRandom r) {
        int first = r.nextInt(SERVICES);
        int second = (first + 1 + r.nextInt(SERVICES - 1)) % SERVICES;
        return List.of(step(first, r), step(second, r));
    }

    private Step step(int service, SplittableRandom r) {
        List<String> reads = endpoints[service].get(r.nextInt(ENDPOINTS_PER_SERVICE));
        if (r.nextInt(WRITE_EVERY) != 0) {
            return new Step(service, reads, null, Map.of());
        }
        String section = reads.get(r.nextInt(reads.size()));
        Map<String, Object> writes = new LinkedHashMap<>();
        int n = 1 + r.nextInt(2);
        while (writes.size() < n) {
            writes.put(attribute(r.nextInt(ATTRIBUTES_PER_SECTION)), value(r));
        }
        return new Step(service, reads, section, writes);
    }

    /** The endpoints, for the result file. */
    String describeEndpoints() {
        return List.of(endpoints).toString();
    }
}
