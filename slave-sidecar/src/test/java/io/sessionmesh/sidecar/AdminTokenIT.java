package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminTokenIT {
    static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    private static SidecarServer sidecar(MasterServer master, Map<String, String> more) throws InterruptedException {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "vnodes", "16"));
        settings.putAll(more);
        return SidecarServer.start(SidecarConfig.of(settings));
    }

    @Test
    void withAToken_adminCallsWithoutItAre401_withItAnswer() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("admin-token"), TOKEN + "\n");
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = sidecar(master, Map.of("admin-token-file", tokenFile.toString()))) {
            HttpClient http = HttpClient.newHttpClient();
            URI stats = URI.create("http://127.0.0.1:" + sidecar.adminAddress().getPort() + "/admin/stats");
            HttpResponse<String> none = http.send(HttpRequest.newBuilder(stats).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, none.statusCode());
            assertTrue(none.body().contains("Authorization"), none.body());
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(stats).header("Authorization", "Bearer nope").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrong.statusCode());
            HttpResponse<String> right = http.send(HttpRequest.newBuilder(stats).header("Authorization", "Bearer " + TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, right.statusCode());
        }
    }

    @Test
    void theTokenIsCheckedBeforeTheBodyIsRead_andAdminBodiesAreCapped() throws Exception {
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = sidecar(master, Map.of("admin-token", TOKEN));
             Socket socket = new Socket("127.0.0.1", sidecar.adminAddress().getPort())) {
            socket.setSoTimeout(10_000);
            // 1 MB announced, none of it sent: refused on the headers alone (before, the sidecar waited for the body)
            socket.getOutputStream().write(("DELETE /admin/cache HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 401"), answer);
            assertTrue(answer.contains("connection: close"), answer);
        }
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = sidecar(master, Map.of("admin-token", TOKEN));
             Socket socket = new Socket("127.0.0.1", sidecar.adminAddress().getPort())) {
            // with the token, a body announced above the admin cap (64 KiB; the API's max-body is 32 MiB) is 413 at once
            // (only the headers are sent: the sidecar closes after a 413, and a body still being sent would reset it)
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("DELETE /admin/cache HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Length: " + (SidecarConfig.MAX_ADMIN_BODY_BYTES + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.contains("TOO_LARGE"), answer);
        }
    }

    @Test
    void anAdminEndpointOffLoopback_needsAToken_andATokenNeverComesFromAFlag() {
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("admin-bind", "0.0.0.0")));
        assertTrue(open.getMessage().contains("is not a loopback address") && open.getMessage().contains("SESSIONMESH_ADMIN_TOKEN"),
                open.getMessage());
        assertEquals("0.0.0.0", SidecarConfig.of(Map.of("admin-bind", "0.0.0.0", "admin-token", TOKEN)).adminBind());
        IllegalArgumentException flag = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.fromArgs("--admin-token", TOKEN));
        assertTrue(flag.getMessage().contains("visible to every user"), flag.getMessage());
        IllegalArgumentException shortToken = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("admin-token", "s3cret")));
        assertTrue(shortToken.getMessage().contains("at least 32"), shortToken.getMessage());
        IllegalArgumentException missingFile = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("admin-token-file", dir.resolve("absent").toString())));
        assertTrue(missingFile.getMessage().contains("admin-token-file"), missingFile.getMessage());
        assertTrue(SidecarConfig.of(Map.of()).describe().contains("admin-token"), "the token's presence is shown, never the token");
        assertFalse(SidecarConfig.of(Map.of("admin-token", TOKEN)).describe().contains(TOKEN));
    }

    /** Every route the handlers serve is in the OpenAPI document kept in the repo. */
    @Test
    void openApiDocument_namesEveryRoute() throws Exception {
        String doc = Files.readString(Path.of("openapi.yaml"));
        for (String route : new String[] {"/v1/sessions:", "/v1/sessions/{id}:", "/v1/sessions/{id}/touch:",
            "/v1/schemas/{uid}:", "/admin/health:", "/admin/stats:", "/metrics:", "/admin/sessions/{id}:", "/admin/cache:",
            "/admin/principals/{principal}/logout:", "/admin/principals/{principal}/sessions:", "/admin/registry/count:",
            "/admin/registry/sessions/{id}:", "/admin/registry/health:", "/admin/:", "/admin:", "/admin/page.js:"}) {
            assertTrue(doc.contains("\n  " + route + "\n"), "openapi.yaml lacks " + route);
        }
        for (String status : new String[] {"'400'", "'404'", "'409'", "'413'", "'503'", "'504'", "'401'"}) {
            assertTrue(doc.contains(status), "openapi.yaml lacks status " + status);
        }
    }
}
