package io.sessionmesh.local;

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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Local development mode as a developer runs it: {@code java -jar sessionmesh-local.jar}, one process, the real API. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalIT {
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    static Path localJar() {
        return ServerProcess.jar("local.jar", "target/sessionmesh-local.jar");
    }

    static HttpResponse<String> call(int port, String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Without --masters: the sidecar with its own master inside serves the whole API, and stops cleanly. */
    @Test
    void localJar_noFlags_oneProcessWritesReadsAndInvalidates() throws Exception {
        try (ServerProcess s = ServerProcess.start(ServerProcess.command(localJar(), "--port", "0", "--admin-port", "0",
                "--vnodes", "16"))) {
            assertTrue(s.output.stream().anyMatch(l -> l.startsWith("SessionMesh embedded master (local development mode) on 127.0.0.1:")),
                    String.join("\n", s.output));
            int api = s.port();
            s.awaitHealthy();
            Matcher id = ID.matcher(call(api, "POST", "/v1/sessions", null).body());
            assertTrue(id.find());
            String sid = id.group(1);
            assertEquals(200, call(api, "PATCH", "/v1/sessions/" + sid,
                    "{\"sections\":{\"cart\":{\"set\":{\"items\":\"AQI=\"}}}}").statusCode());
            assertTrue(call(api, "GET", "/v1/sessions/" + sid + "?sections=cart", null).body()
                    .contains("\"cart\":{\"version\":1,\"attributes\":{\"items\":\"AQI=\"}}"));
            assertEquals(200, call(api, "PATCH", "/v1/sessions/" + sid,
                    "{\"sections\":{\"cart\":{\"set\":{\"items\":\"AwQ=\"}}}}").statusCode());
            assertTrue(call(api, "GET", "/v1/sessions/" + sid + "?sections=cart", null).body()
                    .contains("\"cart\":{\"version\":2,\"attributes\":{\"items\":\"AwQ=\"}}"));
            assertEquals(204, call(api, "DELETE", "/v1/sessions/" + sid, null).statusCode());
            assertEquals(404, call(api, "GET", "/v1/sessions/" + sid + "?sections=cart", null).statusCode());
            assertEquals(400, call(api, "GET", "/v1/sessions/bad!id?sections=cart", null).statusCode());
            String stats = call(s.port("admin"), "GET", "/admin/stats", null).body();
            Matcher sent = Pattern.compile("\"master_bytes_sent\":(\\d+)").matcher(stats);
            Matcher received = Pattern.compile("\"master_bytes_received\":(\\d+)").matcher(stats);
            assertTrue(sent.find() && received.find(), stats);
            // Two writes of a 2-byte value, a create, a delete, reads: each frame has a 16-byte header, over real TCP.
            assertTrue(Long.parseLong(sent.group(1)) > 5 * 16 && Long.parseLong(received.group(1)) > 5 * 16, stats);
            int exit = s.stop();
            assertTrue(exit == 0 || exit == 143, "exit status " + exit);
            assertTrue(s.output.stream().anyMatch(l -> l.contains("master stopped")), String.join("\n", s.output));
            assertEquals(List.of(), s.leaks());
        }
    }

    /** With --masters given, the local jar is a plain sidecar: no master starts inside it. */
    @Test
    void localJar_mastersGiven_runsAsAPlainSidecar() throws Exception {
        try (ServerProcess s = ServerProcess.start(ServerProcess.command(localJar(), "--masters", "127.0.0.1:1",
                "--port", "0", "--admin-port", "0", "--vnodes", "16"))) {
            assertTrue(s.output.stream().noneMatch(l -> l.startsWith("SessionMesh embedded master")), String.join("\n", s.output));
            assertEquals(503, call(s.port("admin"), "GET", "/admin/health", null).statusCode());
        }
    }
}
