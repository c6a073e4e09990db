package io.sessionmesh.client.internal;

import io.sessionmesh.client.BadRequestException;
import io.sessionmesh.client.PayloadTooLargeException;
import io.sessionmesh.client.SessionMeshException;
import io.sessionmesh.client.SidecarTimeoutException;
import io.sessionmesh.client.SidecarUnavailableException;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.PrincipalSessions;
import io.sessionmesh.wire.transport.Status;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The one call a service makes on the sidecar's admin port: a principal's live sessions
 * ({@code GET /admin/principals/{principal}/live-sessions}, JSON), which the REST API no longer answers (any local
 * process could list a user's session ids by name there). Rare (Spring Session's findByPrincipalName), so it goes
 * through the JDK's HTTP client rather than the REST API's pool; with an admin token it carries
 * {@code Authorization: Bearer <token>}. Thread-safe.
 */
public final class SidecarAdmin {
    private final URI base;
    private final String token;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final JsonTransportCodec json = new JsonTransportCodec();

    /**
     * @param base the admin endpoint, {@code http://host:port}
     * @param token the admin token, or null when the admin port needs none (loopback)
     */
    public SidecarAdmin(URI base, String token, Duration connectTimeout, Duration requestTimeout) {
        this.base = Objects.requireNonNull(base, "base");
        this.token = token;
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Checks an admin URI: {@code http://host:port}, the port given. */
    public static void checkUri(URI uri) {
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() <= 0
                || uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")) {
            throw new IllegalArgumentException("admin URI " + uri + ": expected http://host:port (the sidecar's admin "
                    + "port, 127.0.0.1:7501 by default)");
        }
    }

    /** The principal's live sessions on every master, as the sidecar's admin port answers them. */
    public PrincipalSessions sessionsOf(String principal) {
        SidecarApi.checkPrincipal("principal-sessions", principal);
        String segment = java.net.URLEncoder.encode(principal, StandardCharsets.UTF_8).replace("+", "%20");
        URI target = URI.create("http://" + base.getRawAuthority() + "/admin/principals/" + segment + "/live-sessions");
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(requestTimeout)
                .header("Accept", "application/json").GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<byte[]> r;
        try {
            r = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new SidecarTimeoutException("principal-sessions: the sidecar's admin port " + base.getRawAuthority()
                    + " did not answer within " + requestTimeout.toMillis() + " ms");
        } catch (IOException e) {
            throw new SidecarUnavailableException("principal-sessions: the sidecar's admin port " + base.getRawAuthority()
                    + " cannot be reached (" + e + "); the principal's sessions are listed there, not on the REST API");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SidecarUnavailableException("principal-sessions: interrupted");
        }
        String body = new String(r.body(), StandardCharsets.UTF_8);
        if (r.statusCode() >= 300) {
            String text = "principal-sessions: " + r.statusCode() + " " + body;
            throw switch (r.statusCode()) {
                case 400 -> new BadRequestException(text);
                case 413 -> new PayloadTooLargeException(text);
                case 401 -> new SessionMeshException(Status.FORBIDDEN, text + " (set the admin token: "
                        + "sessionmesh.admin-token, or SessionMeshClient.builder().adminToken)");
                case 503 -> new SidecarUnavailableException(text);
                case 504 -> new SidecarTimeoutException(text);
                default -> new SessionMeshException(Status.INTERNAL, text);
            };
        }
        try {
            return json.decode(r.body(), PrincipalSessions.class);
        } catch (MalformedMessageException e) {
            throw new SessionMeshException(Status.BAD_REQUEST, "the sidecar's answer is not a valid PrincipalSessions: "
                    + e.getMessage(), e);
        }
    }

    /** The admin token's first characters never show: only whether there is one. */
    @Override
    public String toString() {
        return "admin " + base + (token == null ? "" : " (token set)");
    }
}
