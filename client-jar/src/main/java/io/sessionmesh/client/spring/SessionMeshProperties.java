package io.sessionmesh.client.spring;

import io.sessionmesh.client.SaveMode;
import io.sessionmesh.client.SessionMeshClient;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sessionmesh.*} properties of the Spring Boot integration. Each field's Javadoc is its description in the
 * configuration metadata, from which docs/configuration.md lists them all.
 *
 * <pre>
 * sessionmesh.sidecar-uri=http://127.0.0.1:7500
 * sessionmesh.allowed-packages=com.example.bank
 * sessionmesh.request-timeout=8s
 * sessionmesh.principal.header=X-Authenticated-User   (unset by default; see {@link Principal})
 * </pre>
 */
@ConfigurationProperties(prefix = "sessionmesh")
public class SessionMeshProperties {
    /** The sidecar on this host. */
    private URI sidecarUri = URI.create(SessionMeshClient.DEFAULT_SIDECAR);
    /** The sidecar's admin port, where a principal's sessions are listed (Spring Session's findByPrincipalName). */
    private URI adminUri = URI.create(SessionMeshClient.DEFAULT_ADMIN);
    /** The sidecar's admin token, where its admin port has one (off loopback); only for findByPrincipalName. */
    private String adminToken;
    /** How long a connection to the sidecar may take to open. */
    private Duration connectTimeout = SessionMeshClient.DEFAULT_CONNECT_TIMEOUT;
    /**
     * How long a call to the sidecar may take, answer included; past it the call fails with a timeout (504), or, for a
     * save, as of unknown outcome. Keep it above the sidecar's master-timeout plus a master's lease (5s + 2s).
     */
    private Duration requestTimeout = SessionMeshClient.DEFAULT_REQUEST_TIMEOUT;
    /** Connections to the sidecar kept open; a call beyond them waits for one. */
    private int poolSize = SessionMeshClient.DEFAULT_POOL_SIZE;
    /** Which attributes a save sends: those set only, or also those read and changed in place (the default). */
    private SaveMode saveMode = SaveMode.ON_SET_OR_READ;
    /**
     * Packages whose classes attribute values may be decoded as, each with the packages under it
     * ({@code com.example.bank}), beside the JDK value types and collections; required (or {@code allowed-classes}),
     * and checked at start-up.
     */
    private List<String> allowedPackages = new ArrayList<>();
    /**
     * Classes (binary names, such as {@code java.net.URL}), each with its nested classes, that attribute values may be
     * decoded as besides the allowed packages; each must be on the class path.
     */
    private List<String> allowedClasses = new ArrayList<>();
    /** The request header that carries the session id between services. */
    private String sessionHeader = "X-Session-Id";
    /** The cookie that carries the session id from a browser (empty: none). */
    private String sessionCookie = "SESSIONMESH";
    /** Whether the session and route cookies are Secure (sent over HTTPS only); false only for plain-HTTP development. */
    private boolean cookieSecure = true;
    /** The cookies' SameSite: Strict, Lax or None (None needs cookieSecure). */
    private String cookieSameSite = "Lax";
    /** The cookie a load balancer can hash on to keep a session on one node (empty: none). */
    private String routeCookie = "SMROUTE";
    /** This service's nodes, for the route cookie's value (empty: the cookie carries a hash of the session id). */
    private List<String> nodes = new ArrayList<>();
    /** {@code sessionmesh.principal.*}: where the default {@link SessionPrincipalResolver} finds the user. */
    private final Principal principal = new Principal();

    public URI getSidecarUri() {
        return sidecarUri;
    }

    public void setSidecarUri(URI sidecarUri) {
        this.sidecarUri = sidecarUri;
    }

    public URI getAdminUri() {
        return adminUri;
    }

    public void setAdminUri(URI adminUri) {
        this.adminUri = adminUri;
    }

    public String getAdminToken() {
        return adminToken;
    }

    public void setAdminToken(String adminToken) {
        this.adminToken = adminToken;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public int getPoolSize() {
        return poolSize;
    }

    public void setPoolSize(int poolSize) {
        this.poolSize = poolSize;
    }

    public SaveMode getSaveMode() {
        return saveMode;
    }

    public void setSaveMode(SaveMode saveMode) {
        this.saveMode = saveMode;
    }

    public List<String> getAllowedPackages() {
        return allowedPackages;
    }

    public void setAllowedPackages(List<String> allowedPackages) {
        this.allowedPackages = allowedPackages;
    }

    public List<String> getAllowedClasses() {
        return allowedClasses;
    }

    public void setAllowedClasses(List<String> allowedClasses) {
        this.allowedClasses = allowedClasses;
    }

    public String getSessionHeader() {
        return sessionHeader;
    }

    public void setSessionHeader(String sessionHeader) {
        this.sessionHeader = sessionHeader;
    }

    public String getSessionCookie() {
        return sessionCookie;
    }

    public void setSessionCookie(String sessionCookie) {
        this.sessionCookie = sessionCookie;
    }

    public boolean isCookieSecure() {
        return cookieSecure;
    }

    public void setCookieSecure(boolean cookieSecure) {
        this.cookieSecure = cookieSecure;
    }

    public String getCookieSameSite() {
        return cookieSameSite;
    }

    public void setCookieSameSite(String cookieSameSite) {
        if (!List.of("Strict", "Lax", "None").contains(cookieSameSite)) {
            throw new IllegalArgumentException("sessionmesh.cookie-same-site = " + cookieSameSite + ": expected Strict, Lax or None");
        }
        this.cookieSameSite = cookieSameSite;
    }

    public String getRouteCookie() {
        return routeCookie;
    }

    public void setRouteCookie(String routeCookie) {
        this.routeCookie = routeCookie;
    }

    public List<String> getNodes() {
        return nodes;
    }

    public void setNodes(List<String> nodes) {
        this.nodes = nodes;
    }

    public Principal getPrincipal() {
        return principal;
    }

    /**
     * {@code sessionmesh.principal.*}. The default {@link SessionPrincipalResolver} asks, in order: Spring Security's
     * authenticated, non-anonymous user (with spring-security-core on the class path), the servlet container's
     * {@code getUserPrincipal()}, then the request header named here. The properties are listed in
     * docs/configuration.md, generated from this module's configuration metadata.
     */
    public static class Principal {
        /**
         * A request header carrying the user's name, set by a gateway that authenticated the user (and strips it from
         * clients' requests); asked after Spring Security's user and the container's principal. Unset: not read.
         */
        private String header;

        public String getHeader() {
            return header;
        }

        public void setHeader(String header) {
            this.header = header;
        }
    }
}
