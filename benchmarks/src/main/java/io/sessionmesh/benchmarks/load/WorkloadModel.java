package io.sessionmesh.benchmarks.load;

import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.workload.RequestMix;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValuePool;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * docs/WORKLOAD.md as the load generator uses it (the parts are io.sessionmesh.workload's): sessions of the uniform
 * shape (12 sections of 5 attributes), values from the workload's pool (client records of one-nio sizes and byte[]
 * blobs), and the request mix. One seed makes the pool, then the endpoints, from one generator, so a seed gives the
 * endpoints recorded in the result files.
 */
final class WorkloadModel {
    /** Consumer services. */
    static final int SERVICES = RequestMix.SERVICES;
    /** Attributes of a section. */
    static final int ATTRIBUTES_PER_SECTION = SessionShape.ATTRIBUTES;

    private final ValuePool pool;
    private final RequestMix mix;

    WorkloadModel(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        pool = OneNioValues.pool(seed, r);
        mix = new RequestMix(r);
    }

    static String attribute(int a) {
        return SessionShape.attribute(a);
    }

    /** A new session's sections: every section's every attribute. */
    Map<String, Map<String, Object>> newSession(SplittableRandom r) {
        Map<String, Map<String, Object>> sections = new LinkedHashMap<>();
        SessionShape.UNIFORM.draw(r).forEach((name, attributes) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int a = 0; a < attributes; a++) {
                values.put(attribute(a), pool.next(r));
            }
            sections.put(name, values);
        });
        return sections;
    }

    /** The steps of one end-user request: two distinct services in turn. */
    List<RequestMix.Step<Object>> request(SplittableRandom r) {
        return mix.request(r, pool::next);
    }

    /** The endpoints, for the result file. */
    String describeEndpoints() {
        return mix.toString();
    }
}
