package io.sessionmesh.sidecar;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.sidecar.config.SidecarConfig;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a browser or another local process on the sidecar's host can reach, through real sockets to an in-process
 * master and sidecar: a page that a DNS name pointed at 127.0.0.1 (DNS rebinding) gets nothing from the REST API or an
 * admin port without a token (421 naming its Host), the REST API lists no principal's sessions (the admin port does),
 * and a cross-site POST to the admin port (CSRF) is refused (403) on the default loopback set-up.
 */
class SidecarEdgesIT {
    static final String TOKEN = "0123456789abcdef0123456789abcdef";
    static MasterServer master;
    static SidecarServer sidecar;

    @BeforeAll
    static void start() throws Exception {
        master = MasterServer.start(MasterConfig.of(Map.of("port", "0")));
        sidecar = sidecar(Map.of());
        TestHttp.awaitHealthy(sidecar);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        master.close();
    }

    static SidecarServer sidecar(Map<String, String> more) throws InterruptedException {
        Map<String, String> settings = new HashMap<>(Map.of("masters", "127.0.0.1:" + master.address().getPort(),
                "port", "0", "admin-port", "0", "vnodes", "16"));
        settings.putAll(more);
        return SidecarServer.start(SidecarConfig.of(settings));
    }

    /** One request on its own connection (closed after it); the whole answer. */
    static String raw(int port, String method, String path, String headers, String body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            byte[] content = body.getBytes(StandardCharsets.UTF_8);
            s.getOutputStream().write((method + " " + path + " HTTP/1.1\r\n" + headers + "Connection: close\r\n"
                    + "Content-Length: " + content.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(content);
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String created(String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 201"), answer);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"").matcher(answer);
        assertTrue(m.find(), answer);
        return m.group(1);
    }

    @Test
    void restApi_aHostItDoesNotKnow_is421NamingTheHost_loopbackNamesAnswer() throws Exception {
        int port = sidecar.address().getPort();
        String rebound = raw(port, "POST", "/v1/sessions", "Host: rebound.example:" + port + "\r\n", "");
        assertTrue(rebound.startsWith("HTTP/1.1 421"), "a page that a DNS name points at 127.0.0.1 must be refused: "
                + rebound);
        assertTrue(rebound.contains("application/json") && rebound.contains("rebound.example"), rebound);
        assertTrue(rebound.contains("allowed-hosts"), "the refusal names the setting: " + rebound);
        for (String host : new String[] {"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "LOCALHOST"}) {
            created(raw(port, "POST", "/v1/sessions", "Host: " + host + "\r\n", ""));
        }
    }

    @Test
    void allowedHosts_extendsTheNamesTheApiAnswersTo() throws Exception {
        try (SidecarServer extended = sidecar(Map.of("allowed-hosts", "app.internal, sidecar.pod"))) {
            TestHttp.awaitHealthy(extended);
            int port = extended.address().getPort();
            created(raw(port, "POST", "/v1/sessions", "Host: sidecar.pod:" + port + "\r\n", ""));
            created(raw(port, "POST", "/v1/sessions", "Host: app.internal\r\n", ""));
            assertTrue(raw(port, "POST", "/v1/sessions", "Host: other.example\r\n", "").startsWith("HTTP/1.1 421"));
        }
    }

    @Test
    void adminPortWithoutAToken_aHostItDoesNotKnow_is421_withATokenTheTokenDecides() throws Exception {
        int admin = sidecar.adminAddress().getPort();
        String rebound = raw(admin, "GET", "/admin/stats", "Host: rebound.example\r\n", "");
        assertTrue(rebound.startsWith("HTTP/1.1 421"), rebound);
        assertTrue(rebound.contains("rebound.example"), rebound);
        assertTrue(raw(admin, "GET", "/admin/stats", "Host: localhost\r\n", "").startsWith("HTTP/1.1 200"));
        try (SidecarServer withToken = sidecar(Map.of("admin-token", TOKEN))) {
            int port = withToken.adminAddress().getPort();
            assertTrue(raw(port, "GET", "/admin/stats", "Host: metrics.pod\r\nAuthorization: Bearer " + TOKEN + "\r\n", "")
                    .startsWith("HTTP/1.1 200"), "with a token a scraper may use any name");
        }
    }

    @Test
    void principalSessions_areNotListedOnTheRestApi_butOnTheAdminPort() throws Exception {
        int port = sidecar.address().getPort();
        String id = created(raw(port, "POST", "/v1/sessions", "Host: localhost\r\nContent-Type: application/json\r\n",
                "{\"principal\":\"edges-alice\"}"));
        String rest = raw(port, "GET", "/v1/principals/edges-alice/sessions", "Host: localhost\r\n", "");
        assertTrue(rest.startsWith("HTTP/1.1 404"), "any local process could list a user's session ids by name: " + rest);
        assertTrue(rest.contains("/admin/principals/{principal}/live-sessions"), "the 404 says where it went: " + rest);
        String admin = raw(sidecar.adminAddress().getPort(), "GET", "/admin/principals/edges-alice/live-sessions",
                "Host: localhost\r\n", "");
        assertTrue(admin.startsWith("HTTP/1.1 200"), admin);
        assertTrue(admin.contains("\"sessions\":[\"" + id + "\"]") && admin.contains("\"complete\":true"), admin);
        try (SidecarServer withToken = sidecar(Map.of("admin-token", TOKEN))) {
            TestHttp.awaitHealthy(withToken);
            int a = withToken.adminAddress().getPort();
            assertTrue(raw(a, "GET", "/admin/principals/edges-alice/live-sessions", "Host: localhost\r\n", "")
                    .startsWith("HTTP/1.1 401"), "the admin port's token rules apply");
            assertTrue(raw(a, "GET", "/admin/principals/edges-alice/live-sessions", "Host: localhost\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\n", "").startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void adminPost_crossSite_is403_evenOnLoopbackWithoutAToken_sameOriginAndToolsAnswer() throws Exception {
        int admin = sidecar.adminAddress().getPort();
        String fromAPage = raw(admin, "POST", "/admin/principals/edges-bob/logout", "Host: localhost:" + admin + "\r\n"
                + "Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n", "");
        assertTrue(fromAPage.startsWith("HTTP/1.1 403"), "a page on any site could log users out: " + fromAPage);
        assertTrue(fromAPage.contains("evil.example"), fromAPage);
        String originOnly = raw(admin, "DELETE", "/admin/cache", "Host: localhost:" + admin + "\r\n"
                + "Origin: http://evil.example\r\n", "");
        assertTrue(originOnly.startsWith("HTTP/1.1 403"), originOnly);
        String fetchSiteOnly = raw(admin, "POST", "/admin/principals/edges-bob/logout", "Host: localhost:" + admin
                + "\r\nSec-Fetch-Site: same-site\r\n", "");
        assertTrue(fetchSiteOnly.startsWith("HTTP/1.1 403"), fetchSiteOnly);
        assertTrue(raw(admin, "POST", "/admin/principals/edges-bob/logout", "Host: localhost:" + admin + "\r\n", "")
                .startsWith("HTTP/1.1 200"), "curl sends neither header");
        assertTrue(raw(admin, "POST", "/admin/principals/edges-bob/logout", "Host: localhost:" + admin + "\r\n"
                + "Origin: http://localhost:" + admin + "\r\nSec-Fetch-Site: same-origin\r\n", "")
                .startsWith("HTTP/1.1 200"), "the operators' page itself");
    }

    @Test
    void bindBeyondLoopback_isRefusedAtStart_unlessTheSettingAllowsIt() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("masters", "127.0.0.1:1", "bind", "0.0.0.0")));
        assertTrue(e.getMessage().contains("bind-beyond-loopback"), e.getMessage());
        assertTrue(e.getMessage().contains("0.0.0.0"), e.getMessage());
        assertEquals("0.0.0.0", SidecarConfig.of(Map.of("masters", "127.0.0.1:1", "bind", "0.0.0.0",
                "bind-beyond-loopback", "true")).bind());
        assertEquals("127.0.0.1", SidecarConfig.of(Map.of("masters", "127.0.0.1:1")).bind());
    }
}
