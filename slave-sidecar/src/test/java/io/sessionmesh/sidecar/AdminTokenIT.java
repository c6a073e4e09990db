package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminTokenIT {
    @Test
    void withAToken_adminCallsWithoutItAre401_withItAnswer() throws Exception {
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                     "port", "0", "admin-port", "0", "admin-token", "s3cret", "vnodes", "16")))) {
            HttpClient http = HttpClient.newHttpClient();
            URI stats = URI.create("http://127.0.0.1:" + sidecar.adminAddress().getPort() + "/admin/stats");
            HttpResponse<String> none = http.send(HttpRequest.newBuilder(stats).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, none.statusCode());
            assertTrue(none.body().contains("Authorization"), none.body());
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(stats).header("Authorization", "Bearer nope").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, wrong.statusCode());
            HttpResponse<String> right = http.send(HttpRequest.newBuilder(stats).header("Authorization", "Bearer s3cret").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, right.statusCode());
        }
    }

    /** Every route the handlers serve is in the OpenAPI document kept in the repo. */
    @Test
    void openApiDocument_namesEveryRoute() throws Exception {
        String doc = Files.readString(Path.of("openapi.yaml"));
        for (String route : new String[] {"/v1/sessions:", "/v1/sessions/{id}:", "/v1/sessions/{id}/touch:",
            "/v1/schemas/{uid}:", "/admin/health:", "/admin/stats:", "/metrics:", "/admin/sessions/{id}:", "/admin/cache:"}) {
            assertTrue(doc.contains("\n  " + route + "\n"), "openapi.yaml lacks " + route);
        }
        for (String status : new String[] {"'400'", "'404'", "'409'", "'413'", "'503'", "'504'", "'401'"}) {
            assertTrue(doc.contains(status), "openapi.yaml lacks status " + status);
        }
    }
}
