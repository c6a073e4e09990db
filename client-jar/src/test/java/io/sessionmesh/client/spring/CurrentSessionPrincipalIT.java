package io.sessionmesh.client.spring;

import io.sessionmesh.testing.ServerProcess;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring integration records the request's user as the session's principal: at creation, and at the end of a
 * request that saved a session of another user or of none (a login mid-session). Checked through the sidecar's own
 * {@code GET /v1/sessions/{id}/principal}, against a real master and sidecar (processes).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CurrentSessionPrincipalIT {
    static ServerProcess master;
    static ServerProcess sidecar;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        master = ServerProcess.start(ServerProcess.command(ServerProcess.jar("master.jar",
                "../master-store/target/sessionmesh-master.jar"), "--port", "0"));
        sidecar = ServerProcess.start(ServerProcess.command(ServerProcess.jar("sidecar.jar",
                "../slave-sidecar/target/sessionmesh-sidecar.jar"), "--masters", "127.0.0.1:" + master.port(), "--port", "0",
                "--admin-port", "0", "--vnodes", "256"));
        sidecar.awaitHealthy();
    }

    @AfterAll
    static void stop() throws Exception {
        sidecar.close();
        master.close();
    }

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
        RequestContextHolder.resetRequestAttributes();
    }

    final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SessionMeshAutoConfiguration.class))
            .withPropertyValues("sessionmesh.allowed-packages=io.sessionmesh", "sessionmesh.cookie-secure=false",
                    "sessionmesh.sidecar-uri=http://127.0.0.1:" + sidecar.port());

    /** The sidecar's answer to GET .../principal, as JSON. */
    static String principalOf(String id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + sidecar.port() + "/v1/sessions/" + id + "/principal")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    /** Starts a request: its attributes on this thread, the session id in the header when given, the user when given. */
    static MockHttpServletRequest request(String sessionId, String user) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        if (sessionId != null) {
            request.addHeader("X-Session-Id", sessionId);
        }
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, new MockHttpServletResponse()));
        SecurityContextHolder.clearContext();
        if (user != null) {
            SecurityContextHolder.getContext().setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(user, "n/a", List.of()));
        }
        return request;
    }

    @Test
    void create_byAnAuthenticatedUser_recordsThePrincipal() {
        web.run(ctx -> {
            CurrentSession current = ctx.getBean(CurrentSession.class);
            MockHttpServletRequest request = request(null, "alice");
            String id = current.create().id();
            current.saveIfDirty(request);
            assertThat(principalOf(id)).isEqualTo("{\"id\":\"" + id + "\",\"principal\":\"alice\"}");
        });
    }

    @Test
    void loginMidSession_setsThePrincipalAtTheEndOfTheRequest_andAnonymousRequestsLeaveIt() {
        web.run(ctx -> {
            CurrentSession current = ctx.getBean(CurrentSession.class);
            MockHttpServletRequest anonymous = request(null, null);
            String id = current.create().id();
            current.get().section("cart").setAttribute("n", 1);
            current.saveIfDirty(anonymous);
            assertThat(principalOf(id)).isEqualTo("{\"id\":\"" + id + "\"}");

            MockHttpServletRequest login = request(id, "bob");
            current.get().section("cart").setAttribute("n", 2);
            current.saveIfDirty(login);
            String before = id;
            id = current.get().id(); // a login gives the session a new id (CurrentSessionFixationIT)
            assertThat(id).isNotEqualTo(before);
            assertThat(principalOf(id)).isEqualTo("{\"id\":\"" + id + "\",\"principal\":\"bob\"}");

            MockHttpServletRequest later = request(id, null);
            current.get().section("cart").setAttribute("n", 3);
            current.saveIfDirty(later);
            assertThat(principalOf(id)).as("a request without credentials is not a logout")
                    .isEqualTo("{\"id\":\"" + id + "\",\"principal\":\"bob\"}");

            MockHttpServletRequest other = request(id, "carol");
            current.get();
            current.saveIfDirty(other);
            id = current.get().id();
            assertThat(principalOf(id)).isEqualTo("{\"id\":\"" + id + "\",\"principal\":\"carol\"}");
        });
    }
}
