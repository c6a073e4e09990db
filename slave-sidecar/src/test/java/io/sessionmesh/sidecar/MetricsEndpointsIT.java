package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The sidecar's and the master's {@code /metrics} as a Prometheus server reads them: after real traffic through the
 * REST API (a create, writes, a hit, a miss), each text passes {@code promtool check metrics} (Debian's prometheus
 * package; .ci/run installs it) with nothing to report, every series has its HELP and TYPE, latencies are histograms
 * with buckets, the counters count what was done, and {@code HEAD /metrics} answers the headers alone. The master's
 * admin endpoint also answers {@code /health}, and refuses what it does not serve with a JSON error.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the first counts exact values: it runs before the others' traffic
class MetricsEndpointsIT {
    static MasterServer master;
    static SidecarServer sidecar;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "admin-port", "0")));
        sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "vnodes", "256")));
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    @Test
    @Order(1)
    void metrics_passPromtool_countWhatWasDone_andHeadSendsHeadersOnly() throws Exception {
        String id = create();
        writeCart(id, 3);
        assertEquals(200, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=cart")).GET()).statusCode());
        assertEquals(200, send(HttpRequest.newBuilder(api("/v1/sessions/" + id + "?sections=user")).GET()).statusCode());

        HttpResponse<String> r = send(HttpRequest.newBuilder(admin("/metrics")).GET());
        assertEquals(200, r.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        String text = r.body();

        String problems = promtool(text);
        assertEquals("", problems, "promtool check metrics found problems in:\n" + text);

        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String name = line.split(" ")[2];
                assertTrue(text.contains("# HELP " + name + " "), "no HELP for " + name);
            }
        }
        assertTrue(text.contains("# TYPE sessionmesh_sidecar_master_calls_seconds histogram\n"), text);
        assertTrue(value(text, "sessionmesh_sidecar_master_calls_seconds_bucket{le=\"+Inf\"}") >= 4, text);
        assertTrue(value(text, "sessionmesh_sidecar_master_calls_seconds_count") >= 4, "create, 3 writes and the miss");
        assertEquals(3, value(text, "sessionmesh_sidecar_requests_total{operation=\"write\"}"));
        assertEquals(2, value(text, "sessionmesh_sidecar_requests_total{operation=\"read\"}"));
        assertEquals(1, value(text, "sessionmesh_sidecar_reads_total{result=\"hit\"}"), "write-allocate: cart was cached");
        assertEquals(1, value(text, "sessionmesh_sidecar_reads_total{result=\"miss\"}"));
        assertEquals(1, value(text, "sessionmesh_sidecar_cache_entries"));
        assertTrue(value(text, "process_cpu_seconds_total") > 0, text);

        headThenGet(sidecar.adminAddress().getPort(), "/admin/health");
    }

    @Test
    void masterMetrics_passPromtool_andHealthSaysUp() throws Exception {
        String id = create();
        writeCart(id, 2);
        HttpResponse<String> r = send(HttpRequest.newBuilder(masterAdmin("/metrics")).GET());
        assertEquals(200, r.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        String text = r.body();
        assertEquals("", promtool(text), "promtool check metrics found problems in:\n" + text);
        assertTrue(value(text, "sessionmesh_master_writes_total") >= 2, text);
        assertTrue(value(text, "sessionmesh_master_creates_total") >= 1, text);
        assertTrue(value(text, "sessionmesh_master_sessions") >= 1, text);
        assertEquals(1, value(text, "sessionmesh_master_holders"), "the sidecar registered as a cache");
        assertTrue(text.contains("# TYPE sessionmesh_master_fence_wait_seconds histogram\n"), text);
        assertTrue(!text.contains("fence_wait_p50"), "no precomputed percentiles: the histogram stands for them");
        assertEquals(2, value(text, "sessionmesh_master_lease_seconds"));

        HttpResponse<String> health = send(HttpRequest.newBuilder(masterAdmin("/health")).GET());
        assertEquals(200, health.statusCode());
        assertTrue(health.body().startsWith("{\"status\":\"UP\",\"sessions\":"), health.body());
        headThenGet(master.adminAddress().getPort(), "/health");
        HttpResponse<String> post = send(HttpRequest.newBuilder(masterAdmin("/metrics")).POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("allow").orElse(""));
        HttpResponse<String> missing = send(HttpRequest.newBuilder(masterAdmin("/sessions")).GET());
        assertEquals(404, missing.statusCode());
        assertEquals("{\"error\":\"NOT_FOUND\",\"message\":\"no such admin endpoint: GET /sessions; see GET /health, GET /metrics\"}",
                missing.body());
    }

    /** Every series the shipped Grafana dashboard queries is one that the sidecar or the master serves. */
    @Test
    void theGrafanaDashboard_queriesOnlySeriesTheServersServe() throws Exception {
        String dashboard = java.nio.file.Files.readString(java.nio.file.Path.of("../docs/grafana/sessionmesh-dashboard.json"));
        String served = send(HttpRequest.newBuilder(admin("/metrics")).GET()).body()
                + send(HttpRequest.newBuilder(masterAdmin("/metrics")).GET()).body();
        Matcher expr = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(dashboard);
        int queried = 0;
        while (expr.find()) {
            Matcher series = Pattern.compile("\\b((?:sessionmesh|process)_[a-z0-9_]+)").matcher(expr.group(1));
            while (series.find()) {
                queried++;
                String name = series.group(1);
                assertTrue(Pattern.compile("^" + Pattern.quote(name) + "[{ ]", Pattern.MULTILINE).matcher(served).find(),
                        "the dashboard queries " + name + ", which neither server serves");
            }
        }
        assertTrue(queried >= 20, "the dashboard's queries were not found: " + queried);
    }

    /**
     * {@code HEAD /metrics} then {@code GET next} on one connection, raw: the HEAD's answer is 200 with the GET's
     * Content-Length and no body, so the second answer's status line follows its headers at once.
     */
    static void headThenGet(int port, String next) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("HEAD /metrics HTTP/1.1\r\nHost: localhost\r\n\r\nGET " + next
                    + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String both = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int end = both.indexOf("\r\n\r\n");
            assertTrue(end > 0, both);
            String head = both.substring(0, end).toLowerCase(java.util.Locale.ROOT);
            assertTrue(head.startsWith("http/1.1 200 ok"), both);
            Matcher length = Pattern.compile("content-length: (\\d+)").matcher(head);
            assertTrue(length.find() && Long.parseLong(length.group(1)) > 1000, "the GET's length: " + head);
            assertTrue(both.substring(end + 4).startsWith("HTTP/1.1 200 OK"), "a body after the HEAD's headers:\n" + both);
        }
    }

    /** What promtool reports about the text (empty: nothing), failing the test when promtool cannot be run. */
    static String promtool(String text) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("promtool is not on the PATH: install Debian's prometheus package (apt-get install prometheus); " + e);
            return null;
        }
        try (OutputStream in = p.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream o = p.getInputStream()) {
            o.transferTo(out);
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        String report = out.toString(StandardCharsets.UTF_8).trim();
        assertEquals(0, p.exitValue(), "promtool check metrics: " + report);
        return report;
    }

    /** The value of the series whose name and labels are exactly {@code series}. */
    static double value(String text, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), "no series " + series);
        return Double.parseDouble(m.group(1));
    }

    static String create() throws Exception {
        return TestHttp.createSession(http, api("/v1/sessions"));
    }

    /** Writes attribute n of section cart {@code times} times, each answered 200. */
    static void writeCart(String id, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            HttpResponse<String> w = send(HttpRequest.newBuilder(api("/v1/sessions/" + id)).header("Content-Type", "application/json")
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"sections\": {\"cart\": {\"set\": {\"n\": \"Kg==\"}}}}")));
            assertEquals(200, w.statusCode(), w.body());
        }
    }

    static URI api(String path) {
        return URI.create("http://127.0.0.1:" + sidecar.address().getPort() + path);
    }

    static URI masterAdmin(String path) {
        return URI.create("http://127.0.0.1:" + master.adminAddress().getPort() + path);
    }

    static URI admin(String path) {
        return URI.create("http://127.0.0.1:" + sidecar.adminAddress().getPort() + path);
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
