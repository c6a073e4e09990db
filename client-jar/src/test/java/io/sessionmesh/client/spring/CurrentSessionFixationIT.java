package io.sessionmesh.client.spring;

import io.sessionmesh.client.SessionMeshClient;
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

import jakarta.servlet.http.Cookie;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Session fixation and the cookie's name in the native Spring integration, against a real master and sidecar
 * (processes): a login on a session that existed before the request gives it a new id (the old one is unknown after
 * it, the new one goes back in the cookie and the header), and over HTTPS the cookie is {@code __Host-} prefixed and
 * only that one is read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CurrentSessionFixationIT {
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
            .withPropertyValues("sessionmesh.allowed-packages=io.sessionmesh",
                    "sessionmesh.sidecar-uri=http://127.0.0.1:" + sidecar.port());

    /** The sidecar's status for GET .../principal of {@code id}, and its body. */
    static HttpResponse<String> principalOf(String id) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sidecar.port() + "/v1/sessions/" + id
                + "/principal")).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request on this thread, over HTTPS or not, by {@code user} (or anonymous); its response. */
    static MockHttpServletResponse begin(MockHttpServletRequest request, String user) {
        MockHttpServletResponse response = new MockHttpServletResponse();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, response));
        SecurityContextHolder.clearContext();
        if (user != null) {
            SecurityContextHolder.getContext().setAuthentication(
                    UsernamePasswordAuthenticationToken.authenticated(user, "n/a", List.of()));
        }
        return response;
    }

    @Test
    void loginOnAnExistingSession_rotatesItsId_theOldIdIsGoneAndTheNewOneIsAnswered() {
        web.run(ctx -> {
            CurrentSession current = ctx.getBean(CurrentSession.class);
            MockHttpServletRequest anonymous = new MockHttpServletRequest();
            begin(anonymous, null);
            String planted = current.create().id();
            current.get().section("cart").setAttribute("n", 1);
            current.saveIfDirty(anonymous);

            MockHttpServletRequest login = new MockHttpServletRequest();
            login.setCookies(new Cookie("SESSIONMESH", planted));
            MockHttpServletResponse answer = begin(login, "bob");
            current.get().section("cart").setAttribute("n", 2);
            current.saveIfDirty(login);

            String rotated = answer.getHeader("X-Session-Id");
            assertThat(rotated).as("a login must give the session a new id (session fixation)").isNotNull()
                    .isNotEqualTo(planted);
            assertThat(answer.getHeaders("Set-Cookie")).as("the new id goes back in the cookie")
                    .anyMatch(c -> c.startsWith("SESSIONMESH=" + rotated + ";"));
            assertThat(principalOf(planted).statusCode()).as("the id from before the login is unknown after it")
                    .isEqualTo(404);
            HttpResponse<String> now = principalOf(rotated);
            assertThat(now.statusCode()).isEqualTo(200);
            assertThat(now.body()).isEqualTo("{\"id\":\"" + rotated + "\",\"principal\":\"bob\"}");
            assertThat(ctx.getBean(SessionMeshClient.class).getSession(rotated, "cart").section("cart").getAttribute("n"))
                    .as("what the session held moved with it").isEqualTo(2);

            MockHttpServletRequest again = new MockHttpServletRequest();
            again.addHeader("X-Session-Id", rotated);
            MockHttpServletResponse same = begin(again, "bob");
            current.get().section("cart").setAttribute("n", 3);
            current.saveIfDirty(again);
            assertThat(same.getHeader("X-Session-Id")).as("the same user again: no new id").isNull();
        });
    }

    @Test
    void sessionCreatedAtLogin_keepsItsNewId() {
        web.run(ctx -> {
            CurrentSession current = ctx.getBean(CurrentSession.class);
            MockHttpServletRequest login = new MockHttpServletRequest();
            MockHttpServletResponse answer = begin(login, "alice");
            String id = current.create().id();
            current.saveIfDirty(login);
            assertThat(answer.getHeaders("X-Session-Id")).containsExactly(id);
            assertThat(principalOf(id).body()).isEqualTo("{\"id\":\"" + id + "\",\"principal\":\"alice\"}");
        });
    }

    @Test
    void overHttps_theCookieIsHostPrefixed_andOnlyThePrefixedOneIsRead() {
        web.run(ctx -> {
            CurrentSession current = ctx.getBean(CurrentSession.class);
            MockHttpServletRequest https = new MockHttpServletRequest();
            https.setSecure(true);
            https.setScheme("https");
            MockHttpServletResponse answer = begin(https, null);
            String id = current.create().id();
            assertThat(answer.getHeaders("Set-Cookie")).as("over HTTPS the session cookie is __Host- prefixed")
                    .anyMatch(c -> c.startsWith("__Host-SESSIONMESH=" + id + ";") && c.contains("Path=/")
                            && c.contains("Secure") && !c.contains("Domain"));

            MockHttpServletRequest prefixed = new MockHttpServletRequest();
            prefixed.setSecure(true);
            prefixed.setCookies(new Cookie("__Host-SESSIONMESH", id));
            begin(prefixed, null);
            assertThat(current.find()).as("the __Host- cookie carries the id over HTTPS").isPresent()
                    .get().extracting(s -> s.id()).isEqualTo(id);

            MockHttpServletRequest unprefixed = new MockHttpServletRequest();
            unprefixed.setSecure(true);
            unprefixed.setCookies(new Cookie("SESSIONMESH", id));
            begin(unprefixed, null);
            assertThat(current.find()).as("over HTTPS an unprefixed cookie (another subdomain may set it) is not read")
                    .isEmpty();

            MockHttpServletRequest plain = new MockHttpServletRequest();
            MockHttpServletResponse plainAnswer = begin(plain, null);
            String other = current.create().id();
            assertThat(plainAnswer.getHeaders("Set-Cookie")).anyMatch(c -> c.startsWith("SESSIONMESH=" + other + ";"));
        });
    }
}
