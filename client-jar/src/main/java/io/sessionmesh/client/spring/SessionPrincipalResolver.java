package io.sessionmesh.client.spring;

import jakarta.servlet.http.HttpServletRequest;

import java.security.Principal;
import java.util.Objects;

/**
 * Who the user of a request is, for the principal of the sessions {@link CurrentSession} makes and saves: "log out
 * everywhere" finds a user's sessions by it. The auto-configuration registers one unless the application defines its
 * own bean: Spring Security's authenticated user when spring-security-core is on the class path, else the servlet
 * container's {@link HttpServletRequest#getUserPrincipal()}, else the header {@code sessionmesh.principal.header}
 * names (unset by default: only for a gateway that authenticated the user and strips the header from clients).
 */
@FunctionalInterface
public interface SessionPrincipalResolver {
    /**
     * The request's user: 1..256 bytes of UTF-8 without control characters; null for none (anonymous). A null never
     * clears a principal a session already has.
     */
    String principalFor(HttpServletRequest request);

    /** No one, whatever the request: sessions get no principal from the Spring integration. */
    SessionPrincipalResolver NONE = request -> null;

    /** The servlet container's authenticated user ({@link HttpServletRequest#getUserPrincipal()}'s name), or null. */
    static SessionPrincipalResolver userPrincipal() {
        return request -> {
            Principal p = request.getUserPrincipal();
            return p == null ? null : emptyToNull(p.getName());
        };
    }

    /** The value of a request header, or null when absent or empty; trust it only behind a gateway that sets it. */
    static SessionPrincipalResolver header(String name) {
        Objects.requireNonNull(name, "header name");
        return request -> emptyToNull(request.getHeader(name));
    }

    /** The first non-null answer of these resolvers, asked in order; null when none has one. */
    static SessionPrincipalResolver firstOf(SessionPrincipalResolver... resolvers) {
        SessionPrincipalResolver[] copy = resolvers.clone();
        return request -> {
            for (SessionPrincipalResolver r : copy) {
                String p = r.principalFor(request);
                if (p != null) {
                    return p;
                }
            }
            return null;
        };
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
