package io.sessionmesh.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * The end-user requests of docs/WORKLOAD.md. {@value #SERVICES} consumer services of {@value #NODES_PER_SERVICE}
 * nodes each; each service has {@value #ENDPOINTS_PER_SERVICE} endpoints, each declaring 1 to
 * {@value #MAX_READ_SECTIONS} sections up front (read in one batch). Each service's endpoints draw their sections from
 * its own window of {@value #WINDOW} names of the uniform shape's {@value SessionShape#SECTIONS}; neighbouring
 * services' windows overlap by {@value #WINDOW_STEP}, so what one service writes, the next one reads. An end-user
 * request passes through {@value #SERVICES_PER_REQUEST} distinct services in turn; at each, one endpoint at random,
 * and one step in {@value #WRITE_EVERY} also writes 1 to {@value #MAX_WRITES} attributes (of the first
 * {@value SessionShape#ATTRIBUTES}) of one of the sections it read: about 4 reads to 1 write.
 *
 * <p>The endpoints are drawn once, by the constructor, from the generator it is given; a request draws from the
 * generator of its caller. The same generator states give the same endpoints and the same requests.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>services, nodes each</td><td>{@value #SERVICES}, {@value #NODES_PER_SERVICE}</td></tr>
 *   <tr><td>services a request passes through</td><td>{@value #SERVICES_PER_REQUEST}</td></tr>
 *   <tr><td>sections an endpoint declares</td><td>1..{@value #MAX_READ_SECTIONS}</td></tr>
 *   <tr><td>steps that write</td><td>1 in {@value #WRITE_EVERY}</td></tr>
 *   <tr><td>attributes a write sets</td><td>1..{@value #MAX_WRITES}</td></tr>
 * </table>
 */
public final class RequestMix {
    /** Consumer services. */
    public static final int SERVICES = 4;
    /** Nodes of each service. */
    public static final int NODES_PER_SERVICE = 3;
    /** Services an end-user request passes through, in turn. */
    public static final int SERVICES_PER_REQUEST = 2;
    /** Endpoints of each service. */
    public static final int ENDPOINTS_PER_SERVICE = 3;
    /** Most sections an endpoint declares. */
    public static final int MAX_READ_SECTIONS = 3;
    /** One step in this many writes. */
    public static final int WRITE_EVERY = 4;
    /** Most attributes a write sets. */
    public static final int MAX_WRITES = 2;
    /** Section names a service's endpoints draw from. */
    public static final int WINDOW = 6;
    /** How far each service's window is from the previous one's. */
    public static final int WINDOW_STEP = 3;

    private final List<List<List<String>>> endpoints;

    /** Draws every service's endpoints from {@code random}. */
    public RequestMix(RandomGenerator random) {
        List<String> names = SessionShape.uniformSectionNames();
        List<List<List<String>>> all = new ArrayList<>();
        for (int s = 0; s < SERVICES; s++) {
            List<List<String>> service = new ArrayList<>();
            for (int e = 0; e < ENDPOINTS_PER_SERVICE; e++) {
                int n = 1 + random.nextInt(MAX_READ_SECTIONS);
                List<String> declared = new ArrayList<>();
                while (declared.size() < n) {
                    String name = names.get((WINDOW_STEP * s + random.nextInt(WINDOW)) % names.size());
                    if (!declared.contains(name)) {
                        declared.add(name);
                    }
                }
                service.add(List.copyOf(declared));
            }
            all.add(List.copyOf(service));
        }
        this.endpoints = List.copyOf(all);
    }

    /** Each service's endpoints: the sections each declares. */
    public List<List<List<String>>> endpoints() {
        return endpoints;
    }

    /**
     * One service's part of an end-user request: the sections it reads and, when it writes, the section and the
     * attributes it sets.
     *
     * @param <V> the type of the values written
     */
    public record Step<V>(int service, List<String> reads, String writeSection, Map<String, V> writes) {
        /** Whether the step writes. */
        public boolean hasWrites() {
            return writeSection != null;
        }
    }

    /**
     * The steps of one end-user request: {@value #SERVICES_PER_REQUEST} distinct services in turn; values to write
     * come from {@code values}, called with {@code random}.
     */
    public <V> List<Step<V>> request(RandomGenerator random, Function<RandomGenerator, V> values) {
        int first = random.nextInt(SERVICES);
        int second = (first + 1 + random.nextInt(SERVICES - 1)) % SERVICES;
        Step<V> a = step(first, random, values);
        Step<V> b = step(second, random, values);
        return List.of(a, b);
    }

    private <V> Step<V> step(int service, RandomGenerator random, Function<RandomGenerator, V> values) {
        List<String> reads = endpoints.get(service).get(random.nextInt(ENDPOINTS_PER_SERVICE));
        if (random.nextInt(WRITE_EVERY) != 0) {
            return new Step<>(service, reads, null, Map.of());
        }
        String section = reads.get(random.nextInt(reads.size()));
        Map<String, V> writes = new LinkedHashMap<>();
        int n = 1 + random.nextInt(MAX_WRITES);
        while (writes.size() < n) {
            String attribute = SessionShape.attribute(random.nextInt(SessionShape.ATTRIBUTES));
            writes.put(attribute, values.apply(random));
        }
        return new Step<>(service, reads, section, writes);
    }

    /** The endpoints as text, for result files: {@code [[[clientInfo, cards], ...], ...]}. */
    @Override
    public String toString() {
        return endpoints.toString();
    }
}
