package io.sessionmesh.sidecar;

import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real master and a real sidecar, each a process from its jar, driven over HTTP on loopback. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SidecarIT {
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    static Path masterJar() {
        return ServerProcess.jar("master.jar", "../master-store/target/sessionmesh-master.jar");
    }

    static Path sidecarJar() {
        return ServerProcess.jar("sidecar.jar", "target/sessionmesh-sidecar.jar");
    }

    static ServerProcess master(int port) throws IOException {
        return ServerProcess.start(ServerProcess.command(masterJar(), "--port", String.valueOf(port)));
    }

    static ServerProcess sidecar(int masterPort) throws IOException {
        return ServerProcess.start(ServerProcess.command(sidecarJar(), "--masters", "127.0.0.1:" + masterPort, "--port", "0",
                "--admin-port", "0", "--reconnect-min", "50ms", "--reconnect-max", "300ms", "--heartbeat-interval", "200ms",
                "--master-timeout", "1s", "--vnodes", "256"));
    }

    static HttpResponse<String> call(int port, String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void curlSession_throughRealProcesses() throws Exception {
        try (ServerProcess m = master(0); ServerProcess s = sidecar(m.port())) {
            int api = s.port();
            s.awaitHealthy();
            HttpResponse<String> created = call(api, "POST", "/v1/sessions", null);
            assertEquals(201, created.statusCode());
            Matcher id = ID.matcher(created.body());
            assertTrue(id.find());
            String sid = id.group(1);
            assertEquals(200, call(api, "PATCH", "/v1/sessions/" + sid,
                    "{\"sections\":{\"clientInfo\":{\"set\":{\"name\":\"SXZhbg==\"}}}}").statusCode());
            HttpResponse<String> read = call(api, "GET", "/v1/sessions/" + sid + "?sections=clientInfo,defaultCurrency", null);
            assertEquals("{\"id\":\"" + sid + "\",\"sections\":{\"clientInfo\":{\"version\":1,\"attributes\":{\"name\":\"SXZhbg==\"}},"
                    + "\"defaultCurrency\":{\"version\":0,\"attributes\":{}}}}", read.body());
            assertEquals(204, call(api, "DELETE", "/v1/sessions/" + sid, null).statusCode());
            assertEquals(404, call(api, "GET", "/v1/sessions/" + sid + "?sections=clientInfo", null).statusCode());
            int exit = s.stop();
            assertTrue(exit == 0 || exit == 143, "exit status " + exit); // 143: terminated by SIGTERM, after the hook
            assertTrue(s.output.stream().anyMatch(l -> l.contains("sidecar stopped")), String.join("\n", s.output));
            assertEquals(List.of(), s.leaks());
        }
    }

    /** The sidecar's jar carries no master: local development mode is refused with a message that says what to run. */
    @Test
    void embeddedMaster_withoutTheLocalJar_exitsWithStatus2AndSaysWhatToRun() throws Exception {
        Process p = new ProcessBuilder(ServerProcess.command(sidecarJar(), "--masters", "embedded", "--port", "0",
                "--admin-port", "0")).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), output);
        assertEquals(2, p.exitValue(), output);
        assertTrue(output.contains("sessionmesh-sidecar: masters=embedded needs a master in this process")
                && output.contains("sessionmesh-local.jar"), output);
    }

    /** The master dies under traffic: the sidecar answers 503 (never 500, never hangs), and recovers by itself. */
    @Test
    void masterKilledAndRestarted_underTraffic_503ThenRecovery() throws Exception {
        ServerProcess m = master(0);
        int masterPort = m.port();
        try (ServerProcess s = sidecar(masterPort)) {
            int api = s.port();
            s.awaitHealthy();
            Map<String, Integer> before = traffic(api, 1_000_000_000L);
            // traffic flows before the kill (how much in a second is the machine's, not the test's business)
            assertTrue(before.getOrDefault("201", 0) > 0 && before.keySet().stream().allMatch(k -> k.startsWith("2")), before.toString());

            m.kill();
            Map<String, Integer> down = traffic(api, 1_500_000_000L);
            assertTrue(down.getOrDefault("503", 0) > 0, "no 503 while the master was down: " + down);
            assertTrue(down.keySet().stream().allMatch(k -> k.equals("503") || k.equals("504")), "while down: " + down);

            m = master(masterPort);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            Map<String, Integer> after = Map.of();
            while (System.nanoTime() < deadline) {
                after = traffic(api, 300_000_000L);
                if (after.size() == 1 && after.containsKey("201")) {
                    break;
                }
            }
            assertTrue(after.containsKey("201") && after.keySet().stream().allMatch(k -> k.startsWith("2")),
                    "the sidecar did not recover: " + after);
        } finally {
            m.close();
        }
    }

    /** Creates a session and writes and reads it, over and over, for {@code nanos}: status codes and their counts. */
    static Map<String, Integer> traffic(int api, long nanos) throws Exception {
        Map<String, Integer> codes = new TreeMap<>();
        long end = System.nanoTime() + nanos;
        List<HttpResponse<String>> all = new ArrayList<>();
        while (System.nanoTime() < end) {
            HttpResponse<String> c = call(api, "POST", "/v1/sessions", null);
            all.add(c);
            Matcher id = ID.matcher(c.body());
            if (c.statusCode() == 201 && id.find()) {
                all.add(call(api, "PATCH", "/v1/sessions/" + id.group(1), "{\"sections\":{\"s\":{\"set\":{\"k\":\"AQ==\"}}}}"));
                all.add(call(api, "GET", "/v1/sessions/" + id.group(1) + "?sections=s,t", null));
            } else {
                Thread.sleep(20);
            }
        }
        for (HttpResponse<String> r : all) {
            codes.merge(String.valueOf(r.statusCode()), 1, Integer::sum);
            if (r.statusCode() >= 500 && r.statusCode() != 503 && r.statusCode() != 504) {
                throw new AssertionError("status " + r.statusCode() + ": " + r.body());
            }
        }
        return codes;
    }
}
