package io.sessionmesh.client.spring;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.routing.StickyRouter;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.util.List;
import java.util.Optional;

/**
 * The shared session of the request being handled, for controllers and the services they call: inject it anywhere
 * (it is a singleton that finds the current request itself). The first {@link #get()} of a request reads, in one
 * call, every section the handler declared with {@code @SessionSections}; the session is saved once, when the
 * request's answer is written, if anything changed.
 *
 * <p>The session id comes with the request in the {@code sessionmesh.session-header} header (from another service)
 * or the {@code sessionmesh.session-cookie} cookie (from a browser).
 */
public final class CurrentSession {
    static final String STATE = CurrentSession.class.getName() + ".state";

    private final SessionMeshClient client;
    private final SessionMeshProperties properties;
    private final StickyRouter router;
    private final SessionPrincipalResolver principals;

    /** Without principals: sessions are made and saved without one ({@link SessionPrincipalResolver#NONE}). */
    public CurrentSession(SessionMeshClient client, SessionMeshProperties properties) {
        this(client, properties, SessionPrincipalResolver.NONE);
    }

    /**
     * @param principals who the request's user is: the principal of a session {@link #create()} makes, and set on a
     *     session the request saved when it differs (a user who logged in mid-session)
     * @throws InvalidSessionMeshPropertyException for a header, cookie or node that no request could carry
     */
    public CurrentSession(SessionMeshClient client, SessionMeshProperties properties, SessionPrincipalResolver principals) {
        PropertyChecks.cookiesAndHeaders(properties);
        this.client = client;
        this.properties = properties;
        this.principals = java.util.Objects.requireNonNull(principals, "principals");
        this.router = properties.getNodes().isEmpty() ? null : new StickyRouter(properties.getNodes());
    }

    /** What one request holds: the sections its handler declared, and its session once opened. */
    static final class State {
        List<String> declared = List.of();
        boolean sessionBearing;
        Session session;
    }

    /**
     * The request's session, with the declared sections read (in one call) on first use.
     *
     * @throws SessionNotFoundException if the request carries no session id, or the session is gone
     */
    public Session get() {
        return find().orElseThrow(() -> new SessionNotFoundException("the request carries no session id (header "
                + properties.getSessionHeader() + " or cookie " + properties.getSessionCookie() + ")"));
    }

    /** The request's session, or empty when the request carries no session id. */
    public Optional<Session> find() {
        HttpServletRequest request = request();
        State state = state(request);
        if (state.session != null) {
            return Optional.of(state.session);
        }
        String id = sessionId(request);
        if (id == null) {
            return Optional.empty();
        }
        state.session = client.getSession(id, state.declared.toArray(new String[0]));
        return Optional.of(state.session);
    }

    /**
     * A new session for this request, belonging to the user the {@link SessionPrincipalResolver} names (none when it
     * names no one); its id goes back in the session cookie and the route cookie.
     */
    public Session create() {
        HttpServletRequest request = request();
        State state = state(request);
        state.session = client.createSession(principals.principalFor(request));
        HttpServletResponse response = response();
        if (response != null) {
            String cookie = properties.getSessionCookie();
            if (cookie != null && !cookie.isEmpty()) {
                addCookie(response, cookie, state.session.id());
            }
            response.setHeader(properties.getSessionHeader(), state.session.id());
            setRouteCookie(response, state.session.id());
        }
        return state.session;
    }

    /**
     * Saves the request's session if it was opened and something changed; then, when the resolver names a user and
     * the session belongs to another one or to no one (a login mid-session), sets the principal (one call). Knowing
     * the session's principal costs a map lookup in this client ({@link Session#principalAsLastKnown()}), one call
     * the first time this JVM sees the session. A resolver naming no one
     * leaves the principal as it is: a request without credentials is not a logout.
     */
    void saveIfDirty(HttpServletRequest request) {
        State state = (State) request.getAttribute(STATE);
        if (state != null && state.session != null) {
            state.session.save();
            String user = principals.principalFor(request);
            if (user != null && !state.session.principalAsLastKnown().equals(Optional.of(user))) {
                state.session.setPrincipal(user);
            }
        }
    }

    /** Sets the route cookie (when configured) for a session-bearing answer. */
    void setRouteCookie(HttpServletResponse response, String sessionId) {
        setRouteCookie(null, response, sessionId);
    }

    /**
     * Sets the route cookie (when configured) for a session-bearing answer, unless {@code request} (when given) already
     * carries it with the same route: a browser keeps the cookie, so saying it again on every answer is only work.
     */
    void setRouteCookie(HttpServletRequest request, HttpServletResponse response, String sessionId) {
        String name = properties.getRouteCookie();
        if (name == null || name.isEmpty() || response.isCommitted()) {
            return;
        }
        String route = router != null ? router.routeFor(sessionId)
                : Long.toHexString(io.sessionmesh.wire.placement.HashRing.hash(sessionId) >>> 16);
        if (request != null && route.equals(cookie(request, name))) {
            return;
        }
        addCookie(response, name, route);
    }

    /**
     * A cookie of this integration: HttpOnly (no script reads it), Secure unless {@code sessionmesh.cookie-secure=false}
     * (plain-HTTP development), SameSite as {@code sessionmesh.cookie-same-site} (Lax by default), for the whole site.
     */
    private void addCookie(HttpServletResponse response, String name, String value) {
        org.springframework.http.ResponseCookie cookie = org.springframework.http.ResponseCookie.from(name, value)
                .path("/").httpOnly(true).secure(properties.isCookieSecure()).sameSite(properties.getCookieSameSite()).build();
        response.addHeader(org.springframework.http.HttpHeaders.SET_COOKIE, cookie.toString());
    }

    String sessionId(HttpServletRequest request) {
        String header = request.getHeader(properties.getSessionHeader());
        if (header != null && !header.isEmpty()) {
            return header;
        }
        String cookie = properties.getSessionCookie();
        return cookie == null || cookie.isEmpty() ? null : cookie(request, cookie);
    }

    /** The value of the request's cookie {@code name}, or null. */
    private static String cookie(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (name.equals(c.getName())) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    static State state(HttpServletRequest request) {
        State s = (State) request.getAttribute(STATE);
        if (s == null) {
            s = new State();
            request.setAttribute(STATE, s);
        }
        return s;
    }

    private static HttpServletRequest request() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes a)) {
            throw new IllegalStateException("CurrentSession is used outside of a web request");
        }
        return a.getRequest();
    }

    private static HttpServletResponse response() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes a ? a.getResponse() : null;
    }
}
