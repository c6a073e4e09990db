package io.sessionmesh.benchmarks.load;

import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.TransportForm;
import io.sessionmesh.workload.RequestMix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SessionMesh as the workload's services use it: a master and one sidecar per host, processes from their jars; every
 * service node has its own {@link SessionMeshClient} to its host's sidecar, in the binary or the JSON form, with the
 * client's defaults (save mode ON_SET_OR_READ, per-attribute compression). Link counters come from the clients
 * (calls and bytes to the sidecars) and from the sidecars' admin stats (calls and bytes to the master, hits).
 */
final class SessionMeshStore implements StoreUnderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int hosts;
    private final ServerProcesses servers = new ServerProcesses();
    private final List<URI> adminStats = new ArrayList<>();
    private final List<Integer> adminPorts = new ArrayList<>();
    /** Node clients, service-major: index service * hosts + host. */
    private final List<SessionMeshClient> clients = new ArrayList<>();

    SessionMeshStore(TransportForm form, int hosts, Path masterJar, Path sidecarJar, List<String> sidecarFlags)
            throws IOException {
        this.name = form == TransportForm.BINARY ? "sessionmesh-binary" : "sessionmesh-json";
        this.hosts = hosts;
        try {
            int master = servers.master(masterJar);
            List<URI> sidecars = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                int[] ports = servers.sidecar(sidecarJar, master, ServerProcesses.SIDECAR_JVM, sidecarFlags);
                sidecars.add(URI.create("http://127.0.0.1:" + ports[0]));
                adminStats.add(URI.create("http://127.0.0.1:" + ports[1] + "/admin/stats"));
                adminPorts.add(ports[1]);
            }
            for (int s = 0; s < WorkloadModel.SERVICES; s++) {
                for (int h = 0; h < hosts; h++) {
                    clients.add(SessionMeshClient.builder().sidecar(sidecars.get(h)).transport(form)
                            .classFilter(OneNioValues.CLASS_FILTER).requestTimeout(Duration.ofSeconds(30)).poolSize(256).build());
                }
            }
            awaitMasters();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Sidecars answer 503 until their first master connection is up. */
    private void awaitMasters() {
        for (int port : adminPorts) {
            ServerProcesses.awaitMaster(port);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int nodesPerService() {
        return hosts;
    }

    private SessionMeshClient client(int service, int node) {
        return clients.get(service * hosts + node);
    }

    @Override
    public String create(int node, Map<String, Map<String, Object>> sections) {
        Session s = client(0, node).createSession();
        sections.forEach((section, attributes) -> {
            Section sec = s.section(section);
            attributes.forEach(sec::setAttribute);
        });
        s.save();
        return s.id();
    }

    @Override
    public long[] step(int node, String sessionId, RequestMix.Step<Object> step) {
        SessionMeshClient client = client(step.service(), node);
        long t0 = System.nanoTime();
        Session s;
        try {
            s = client.getSession(sessionId, step.reads().toArray(String[]::new));
        } catch (SessionNotFoundException e) {
            throw new SessionGone(sessionId, e);
        }
        for (String section : step.reads()) {
            Section sec = s.section(section);
            for (String attribute : sec.attributeNames()) {
                sec.getAttribute(attribute);
            }
        }
        long t1 = System.nanoTime();
        if (step.hasWrites()) {
            Section sec = s.section(step.writeSection());
            step.writes().forEach(sec::setAttribute);
        }
        // As the Spring integration does after every handler: sends what changed, nothing when nothing did.
        boolean sent = !s.save().isEmpty();
        long t2 = System.nanoTime();
        return new long[] {t1 - t0, sent ? t2 - t1 : 0};
    }

    @Override
    public Counters counters() {
        long calls = 0;
        long sent = 0;
        long received = 0;
        for (SessionMeshClient c : clients) {
            calls += c.calls();
            sent += c.bytesSent();
            received += c.bytesReceived();
        }
        long masterCalls = 0;
        long masterSent = 0;
        long masterReceived = 0;
        long hits = 0;
        long reads = 0;
        for (JsonNode s : stats()) {
            masterCalls += s.path("master_calls").asLong();
            masterSent += s.path("master_bytes_sent").asLong();
            masterReceived += s.path("master_bytes_received").asLong();
            hits += s.path("hits").asLong();
            reads += s.path("hits").asLong() + s.path("partial_hits").asLong() + s.path("misses").asLong();
        }
        return new Counters(calls, sent, received, masterCalls, masterSent, masterReceived, hits, reads);
    }

    @Override
    public Map<String, Long> cpuNanos() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        out.put("generator", ProcessCpu.nanos(ProcessHandle.current().pid()));
        out.putAll(servers.cpuNanosByRole());
        return out;
    }

    private List<JsonNode> stats() {
        List<JsonNode> out = new ArrayList<>();
        for (URI uri : adminStats) {
            try {
                HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                out.add(JSON.readTree(r.body()));
            } catch (IOException e) {
                throw new IllegalStateException("admin stats of " + uri + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
        return out;
    }

    @Override
    public Map<String, Double> sample() {
        Counters c = counters();
        return Map.of("hits", (double) c.hits(), "reads", (double) c.reads());
    }

    @Override
    public Map<String, Long> cacheFigures() {
        Map<String, Long> m = new java.util.TreeMap<>();
        for (JsonNode s : stats()) {
            s.path("read_misses_by_cause").fields().forEachRemaining(f -> m.merge("read_miss." + f.getKey(), f.getValue().asLong(), Long::sum));
            s.path("section_misses_by_cause").fields().forEachRemaining(f -> m.merge("section_miss." + f.getKey(), f.getValue().asLong(), Long::sum));
            for (String k : List.of("evictions", "expirations", "fills_refused")) {
                m.merge("cache." + k, s.path("cache").path(k).asLong(), Long::sum);
            }
            m.merge("invalidations.sections_dropped", s.path("invalidations").path("sections_dropped").asLong(), Long::sum);
            m.merge("reads", s.path("hits").asLong() + s.path("partial_hits").asLong() + s.path("misses").asLong(), Long::sum);
            m.merge("hits", s.path("hits").asLong(), Long::sum);
            m.merge("partial_hits", s.path("partial_hits").asLong(), Long::sum);
            m.merge("sections_from_cache", s.path("sections_from_cache").asLong(), Long::sum);
            m.merge("sections_from_master", s.path("sections_from_master").asLong(), Long::sum);
        }
        return m;
    }

    @Override
    public void close() {
        clients.forEach(SessionMeshClient::close);
        servers.close();
    }
}
