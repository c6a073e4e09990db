package io.sessionmesh.client.spring;

import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionConflictException;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.client.SessionNotFoundException;
import io.sessionmesh.client.routing.StickyRouter;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The shared session of the request being handled, for controllers and the services they call: inject it anywhere
 * (it is a singleton that finds the current request itself). The first {@link #get()} of a request reads, in one
 * call, every section the handler declared with {@code @SessionSections}; the session is saved once, when the
 * request's answer is written, if anything changed.
 *
 * <p>The session id comes with the request in the {@code sessionmesh.session-header} header (from another service)
 * or the {@code sessionmesh.session-cookie} cookie (from a browser). Over HTTPS ({@link HttpServletRequest#isSecure()})
 * the cookie's name takes the {@value #HOST_PREFIX} prefix, which a browser accepts only from this very host, Secure,
 * for path {@code /} and without a Domain: a neighbouring subdomain cannot plant a session id in it.
 *
 * <p>When a user logs in on a session that existed before the request (the resolver names a user the session does not
 * belong to), the session gets a new id before the principal is set (one RENAME on its master, everything it holds
 * moves with it) and the answer carries the new id: an id someone planted before the login (session fixation) is
 * worth nothing after it.
 */
public final class CurrentSession {
    static final String STATE = CurrentSession.class.getName() + ".state";
    /** The cookie name prefix used over HTTPS (RFC 6265bis 4.1.3.2). */
    public static final String HOST_PREFIX = "__Host-";
    /**
     * How many fresh ids a login's rotation tries when the one drawn is taken or (several masters) belongs to another
     * master, which a rename cannot move to: each try fails with at most (masters - 1) / masters.
     */
    public static final int MAX_ROTATION_ATTEMPTS = 64;
    /** Random bytes of an id a rotation draws: 128 bits, as the master's own ids. */
    static final int ROTATED_ID_BYTES = 16;

    private static final SecureRandom RANDOM = new SecureRandom();

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
        /** Whether {@link #create()} made the session in this request (its id is new already: no rotation at login). */
        boolean createdHere;
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
        state.createdHere = true;
        announce(request, response(), state.session.id());
        return state.session;
    }

    /** The session's id goes back in the session cookie, the header and the route cookie. */
    private void announce(HttpServletRequest request, HttpServletResponse response, String id) {
        if (response == null || response.isCommitted()) {
            return;
        }
        String cookie = sessionCookieName(request);
        if (cookie != null) {
            addCookie(request, response, cookie, id);
        }
        response.setHeader(properties.getSessionHeader(), id);
        setRouteCookie(request, response, id);
    }

    /** The session cookie's name for this request: with {@value #HOST_PREFIX} over HTTPS; null for no cookie. */
    String sessionCookieName(HttpServletRequest request) {
        String cookie = properties.getSessionCookie();
        if (cookie == null || cookie.isEmpty()) {
            return null;
        }
        return request != null && request.isSecure() && !cookie.startsWith(HOST_PREFIX) ? HOST_PREFIX + cookie : cookie;
    }

    /**
     * Saves the request's session if it was opened and something changed; then, when the resolver names a user and
     * the session belongs to another one or to no one (a login mid-session), gives a session that existed before this
     * request a new id ({@link #rotate}) and sets the principal (one call each). Knowing the session's principal costs
     * a map lookup in this client ({@link Session#principalAsLastKnown()}), one call the first time this JVM sees the
     * session. A resolver naming no one leaves the principal as it is: a request without credentials is not a logout.
     */
    void saveIfDirty(HttpServletRequest request) {
        State state = (State) request.getAttribute(STATE);
        if (state != null && state.session != null) {
            state.session.save();
            String user = principals.principalFor(request);
            if (user != null && !state.session.principalAsLastKnown().equals(Optional.of(user))) {
                if (!state.createdHere) {
                    rotate(request, state.session);
                }
                state.session.setPrincipal(user);
            }
        }
    }

    /**
     * A new id for a session the request's user just logged in on (session fixation): a RENAME to a fresh random id,
     * another one while the id drawn is taken or belongs to another master, and the new id in the answer.
     */
    private void rotate(HttpServletRequest request, Session session) {
        for (int attempt = 1; ; attempt++) {
            try {
                session.rename(randomId(), null);
                break;
            } catch (SessionConflictException e) {
                if (attempt == MAX_ROTATION_ATTEMPTS) {
                    throw new IllegalStateException("a login could not give its session a new id after "
                            + MAX_ROTATION_ATTEMPTS + " tries: " + e.getMessage(), e);
                }
            }
        }
        announce(request, response(), session.id());
    }

    /** 128 random bits, base64url without padding: 22 characters of {@code [A-Za-z0-9_-]}. */
    static String randomId() {
        byte[] b = new byte[ROTATED_ID_BYTES];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
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
        addCookie(request, response, name, route);
    }

    /**
     * A cookie of this integration: HttpOnly (no script reads it), Secure unless {@code sessionmesh.cookie-secure=false}
     * (plain-HTTP development; over HTTPS always), SameSite as {@code sessionmesh.cookie-same-site} (Lax by default),
     * for the whole site and no Domain (what a {@value #HOST_PREFIX} cookie needs).
     */
    private void addCookie(HttpServletRequest request, HttpServletResponse response, String name, String value) {
        boolean secure = properties.isCookieSecure() || request != null && request.isSecure();
        org.springframework.http.ResponseCookie cookie = org.springframework.http.ResponseCookie.from(name, value)
                .path("/").httpOnly(true).secure(secure).sameSite(properties.getCookieSameSite()).build();
        response.addHeader(org.springframework.http.HttpHeaders.SET_COOKIE, cookie.toString());
    }

    /**
     * The request's session id: the header, else the session cookie by this request's name for it (over HTTPS only
     * the {@value #HOST_PREFIX} one: an unprefixed cookie there may have been set by another subdomain).
     */
    String sessionId(HttpServletRequest request) {
        String header = request.getHeader(properties.getSessionHeader());
        if (header != null && !header.isEmpty()) {
            return header;
        }
        String cookie = sessionCookieName(request);
        return cookie == null ? null : cookie(request, cookie);
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
