package io.sessionmesh.integration.workload;

import io.sessionmesh.client.SaveMode;
import io.sessionmesh.client.Section;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.workload.RequestMix;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValuePool;
import io.sessionmesh.workload.Zipf;

import one.nio.serial.Serializer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The standard workload (docs/WORKLOAD.md, the {@code workload} module that the demo and the benchmarks use) through
 * real processes: a master and two sidecars (two hosts), the client jar on each. Sessions of the workload's shape are
 * filled with its values (client records grown to its log-normal sizes, byte[] blobs), then end-user requests of its
 * mix, for sessions picked by its Zipf law, read and write them; each service of a request sits on the host its
 * number picks, so a write on one host is read on the other. One thread, so every read must return exactly what the
 * last acknowledged write left: every attribute read is compared with a model of the sessions kept here.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WorkloadSessionsIT {
    static final int SESSIONS = 40;
    static final int REQUESTS = 1_500;
    static final int HOSTS = 2;
    static final long SEED = 14;

    static ServerProcess master;
    static final List<ServerProcess> sidecars = new ArrayList<>();
    static final List<SessionMeshClient> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        for (int h = 0; h < HOSTS; h++) {
            ServerProcess sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                    "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(),
                    "--port", "0", "--admin-port", "0", "--vnodes", "256"));
            sidecars.add(sidecar);
            sidecar.awaitHealthy();
            clients.add(SessionMeshClient.builder().sidecar(URI.create("http://127.0.0.1:" + sidecar.port()))
                    .classFilter(ClassFilter.allowingPackages("io.sessionmesh.workload")).saveMode(SaveMode.ON_SET).build());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (SessionMeshClient c : clients) {
            c.close();
        }
        for (ServerProcess s : sidecars) {
            s.close();
        }
        if (master != null) {
            master.close();
        }
    }

    /** The one-nio plain-mode size, as the benchmarks size the workload's values. */
    static int oneNioSize(Object value) {
        try {
            return Serializer.serialize(value).length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void workloadRequests_readWhatTheLastWriteLeft_onEitherHost() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED);
        ValuePool values = new ValuePool(SEED, random, WorkloadSessionsIT::oneNioSize);
        RequestMix mix = new RequestMix(random);

        // section -> attribute -> value, per session: what every read must return.
        List<String> ids = new ArrayList<>();
        Map<String, Map<String, Map<String, Object>>> model = new HashMap<>();
        for (int i = 0; i < SESSIONS; i++) {
            SessionMeshClient client = clients.get(i % HOSTS);
            Session session = client.createSession();
            Map<String, Map<String, Object>> sections = new HashMap<>();
            for (Map.Entry<String, Integer> shape : SessionShape.UNIFORM.draw(random).entrySet()) {
                Section section = session.section(shape.getKey());
                Map<String, Object> attributes = new HashMap<>();
                for (int a = 0; a < shape.getValue(); a++) {
                    Object value = values.next(random);
                    section.setAttribute(SessionShape.attribute(a), value);
                    attributes.put(SessionShape.attribute(a), value);
                }
                sections.put(shape.getKey(), attributes);
            }
            session.save();
            ids.add(session.id());
            model.put(session.id(), sections);
        }

        Zipf zipf = Zipf.workload(SESSIONS);
        int reads = 0;
        int writes = 0;
        for (int r = 0; r < REQUESTS; r++) {
            String id = ids.get(zipf.next(random));
            Map<String, Map<String, Object>> expected = model.get(id);
            for (RequestMix.Step<Object> step : mix.request(random, values::next)) {
                SessionMeshClient client = clients.get(step.service() % HOSTS);
                Session session = client.getSession(id, step.reads().toArray(String[]::new));
                for (String name : step.reads()) {
                    Section section = session.section(name);
                    Map<String, Object> attributes = expected.get(name);
                    assertEquals(attributes.keySet(), section.attributeNames(),
                            () -> "attributes of section " + name + " of session " + id);
                    for (Map.Entry<String, Object> a : attributes.entrySet()) {
                        Object read = section.getAttribute(a.getKey());
                        if (!Objects.deepEquals(a.getValue(), read)) {
                            fail("request " + step + ": " + name + "." + a.getKey() + " of session " + id + " on host "
                                    + step.service() % HOSTS + " is not the value last written");
                        }
                        reads++;
                    }
                }
                if (step.hasWrites()) {
                    Section section = session.section(step.writeSection());
                    for (Map.Entry<String, Object> w : step.writes().entrySet()) {
                        section.setAttribute(w.getKey(), w.getValue());
                        expected.computeIfAbsent(step.writeSection(), s -> new HashMap<>()).put(w.getKey(), w.getValue());
                        writes++;
                    }
                    assertEquals(1, session.save().size(), () -> "a save of the one section written, of session " + id);
                }
            }
        }
        assertTrue(reads > REQUESTS, "the mix read only " + reads + " attributes in " + REQUESTS + " requests");
        assertTrue(writes > REQUESTS / 10, "the mix wrote only " + writes + " attributes in " + REQUESTS + " requests");
        for (ServerProcess sidecar : sidecars) {
            long hits = cacheHits(sidecar);
            assertTrue(hits > 0, "sidecar on port " + sidecar.port() + " served no read from its cache");
        }
        assertEquals(0, clients.get(0).decodeFailures() + clients.get(1).decodeFailures(), "values the client could not decode");
    }

    private static final Pattern HITS = Pattern.compile("\"hits\"\\s*:\\s*(\\d+)");

    /** The sidecar's cache hits, from its admin stats. */
    static long cacheHits(ServerProcess sidecar) throws IOException, InterruptedException, URISyntaxException {
        HttpResponse<String> stats = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                new URI("http://127.0.0.1:" + sidecar.port("admin") + "/admin/stats")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, stats.statusCode(), stats.body());
        Matcher m = HITS.matcher(stats.body());
        assertTrue(m.find(), "no hits in " + stats.body());
        return Long.parseLong(m.group(1));
    }
}
