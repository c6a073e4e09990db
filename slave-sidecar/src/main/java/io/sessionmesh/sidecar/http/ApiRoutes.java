package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.ArrayList;
import java.util.List;

/**
 * The route table of the REST API (PROTOCOL.md 4): method and path to the {@link Route} it calls, 404 for a path no
 * route has, 405 with {@code Allow} for a method the path does not take; and the parameters of the path and query,
 * checked (400 or 413 naming the problem).
 *
 * <p>The table is a few string comparisons at fixed offsets, no split and no regex: this runs for every request,
 * cache hits included. A path parameter is checked before the method, as the API always did (a bad session id
 * with a wrong method is 400, not 405); on the success path it is taken and checked once, by the caller, with
 * {@link #sessionId} or {@link #schemaUid}.
 */
final class ApiRoutes {
    /** What a request calls. */
    enum Route {
        CREATE_SESSION, READ_SESSION, WRITE_SESSION, DELETE_SESSION, TOUCH_SESSION, SET_PRINCIPAL, CLEAR_PRINCIPAL,
        GET_PRINCIPAL, RENAME_SESSION, PUBLISH_SCHEMA, FETCH_SCHEMA
    }

    private static final String API = "/v1/";
    private static final String SESSIONS = "/v1/sessions";
    private static final String SESSION = "/v1/sessions/";
    private static final String TOUCH = "/touch";
    private static final String PRINCIPAL = "/principal";
    private static final String RENAME = "/rename";
    private static final String SCHEMA = "/v1/schemas/";
    private static final String PRINCIPALS = "/v1/principals/";
    /** Where a principal's live sessions are listed: the admin port ({@link AdminHandler}), no longer this API. */
    static final String ADMIN_PRINCIPAL_SESSIONS = "/admin/principals/{principal}/live-sessions";
    private static final int MAX_UID_DIGITS = 16;

    private ApiRoutes() {
    }

    /**
     * The route of a request.
     *
     * @param path the decoded path, without the query
     * @throws NotFound no route has this path
     * @throws MethodNotAllowed the path's route does not take this method
     * @throws MalformedMessageException the path's parameter is bad, whatever the method
     */
    static Route match(HttpMethod method, String path) {
        if (!path.startsWith(API)) {
            throw new NotFound("no such endpoint: " + method + " " + path + " (the API is under /v1)");
        }
        if (path.startsWith(SESSION)) {
            int idEnd = path.indexOf('/', SESSION.length());
            if (idEnd < 0) {
                if (method.equals(HttpMethod.GET)) {
                    return Route.READ_SESSION;
                } else if (method.equals(HttpMethod.PATCH)) {
                    return Route.WRITE_SESSION;
                } else if (method.equals(HttpMethod.DELETE)) {
                    return Route.DELETE_SESSION;
                }
                sessionId(path);
                throw new MethodNotAllowed(method, path, "GET, PATCH, DELETE");
            }
            if (path.length() == idEnd + TOUCH.length() && path.startsWith(TOUCH, idEnd)) {
                if (method.equals(HttpMethod.POST)) {
                    return Route.TOUCH_SESSION;
                }
                sessionId(path);
                throw new MethodNotAllowed(method, path, HttpMethod.POST.name());
            }
            if (path.length() == idEnd + RENAME.length() && path.startsWith(RENAME, idEnd)) {
                if (method.equals(HttpMethod.POST)) {
                    return Route.RENAME_SESSION;
                }
                sessionId(path);
                throw new MethodNotAllowed(method, path, HttpMethod.POST.name());
            }
            if (path.length() == idEnd + PRINCIPAL.length() && path.startsWith(PRINCIPAL, idEnd)) {
                if (method.equals(HttpMethod.GET)) {
                    return Route.GET_PRINCIPAL;
                } else if (method.equals(HttpMethod.PUT)) {
                    return Route.SET_PRINCIPAL;
                } else if (method.equals(HttpMethod.DELETE)) {
                    return Route.CLEAR_PRINCIPAL;
                }
                sessionId(path);
                throw new MethodNotAllowed(method, path, "GET, PUT, DELETE");
            }
            sessionId(path);
        } else if (path.equals(SESSIONS)) {
            if (method.equals(HttpMethod.POST)) {
                return Route.CREATE_SESSION;
            }
            throw new MethodNotAllowed(method, path, HttpMethod.POST.name());
        } else if (path.startsWith(PRINCIPALS)) {
            // Any local process could list a user's session ids by name here; the list is an operator's question now.
            throw new NotFound("no such endpoint: " + method + " " + path + " (a principal's sessions are listed on the "
                    + "admin port: GET " + ADMIN_PRINCIPAL_SESSIONS + ")");
        } else if (path.startsWith(SCHEMA) && path.indexOf('/', SCHEMA.length()) < 0) {
            if (method.equals(HttpMethod.PUT)) {
                return Route.PUBLISH_SCHEMA;
            } else if (method.equals(HttpMethod.GET)) {
                return Route.FETCH_SCHEMA;
            }
            schemaUid(path);
            throw new MethodNotAllowed(method, path, "GET, PUT");
        }
        throw new NotFound("no such endpoint: " + method + " " + path);
    }

    /** The session id of a {@code /v1/sessions/{id}...} path, checked: 400, or 413 when it is too long. */
    static String sessionId(String path) {
        int end = path.indexOf('/', SESSION.length());
        String raw = path.substring(SESSION.length(), end < 0 ? path.length() : end);
        try {
            return TransportLimits.checkSessionId(raw);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(raw.length() > TransportLimits.MAX_SESSION_ID_BYTES ? Status.TOO_LARGE
                    : Status.BAD_REQUEST, "session id in the path: " + e.getMessage());
        }
    }

    /**
     * The principal of a {@code <prefix>{principal}<suffix>} path (the admin port's
     * {@value #ADMIN_PRINCIPAL_SESSIONS}), from the raw (not decoded) path: one segment, percent-decoded once as UTF-8
     * ('+' is a plus), then checked as every principal is: 413 over {@value TransportLimits#MAX_PRINCIPAL_BYTES}
     * bytes, 400 empty, with a control character, a bad escape or more than one segment. Messages never repeat it.
     */
    static String principal(String rawPath, String prefix, String suffix) {
        if (!rawPath.startsWith(prefix) || !rawPath.endsWith(suffix) || rawPath.length() <= prefix.length() + suffix.length()) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "principal in the path: expected " + prefix
                    + "{principal}" + suffix);
        }
        String raw = rawPath.substring(prefix.length(), rawPath.length() - suffix.length());
        if (raw.indexOf('/') >= 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "principal in the path: a '/' in it must be percent-encoded (%2F)");
        }
        String principal;
        try {
            // a path's '+' is a plus (RFC 3986), not a space as in a query: alice+tag@example.com stays itself
            principal = QueryStringDecoder.decodeComponent(raw.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "principal in the path: a bad percent-escape");
        }
        int bytes = principal.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > TransportLimits.MAX_PRINCIPAL_BYTES) {
            throw new MalformedMessageException(Status.TOO_LARGE, "principal in the path: " + bytes
                    + " bytes of UTF-8 is above the limit of " + TransportLimits.MAX_PRINCIPAL_BYTES);
        }
        try {
            return TransportLimits.checkPrincipal(principal);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "principal in the path: " + e.getMessage());
        }
    }

    /** The schema uid of a {@code /v1/schemas/{uid}} path: 1 to 16 hex digits, else 400. */
    static long schemaUid(String path) {
        int from = SCHEMA.length();
        int digits = path.length() - from;
        if (digits == 0 || digits > MAX_UID_DIGITS) {
            throw badUid();
        }
        for (int i = from; i < path.length(); i++) {
            if (Character.digit(path.charAt(i), 16) < 0) {
                throw badUid();
            }
        }
        return Long.parseUnsignedLong(path, from, path.length(), 16);
    }

    private static MalformedMessageException badUid() {
        return new MalformedMessageException(Status.BAD_REQUEST, "schema uid in the path: expected 1 to 16 hex digits");
    }

    /**
     * The section names of a read, {@code ?sections=a,b,c} (several {@code sections} parameters add up): each a valid
     * name, none twice, at most {@code max}.
     */
    static List<String> sections(QueryStringDecoder uri, int max) {
        List<String> values = uri.parameters().get("sections");
        if (values == null || values.isEmpty()) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "the query parameter 'sections' is required: "
                    + "?sections=a,b,c names the sections to read");
        }
        List<String> names = new ArrayList<>();
        for (String v : values) {
            // Every comma separates two names, empty ones included (as String.split(",", -1) would, without its array).
            int from = 0;
            while (true) {
                int comma = v.indexOf(',', from);
                String name = comma < 0 ? v.substring(from) : v.substring(from, comma);
                try {
                    TransportLimits.checkSectionName(name);
                } catch (IllegalArgumentException e) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "sections: " + e.getMessage());
                }
                if (names.contains(name)) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "sections: \"" + name + "\" is named twice");
                }
                names.add(name);
                if (comma < 0) {
                    break;
                }
                from = comma + 1;
            }
        }
        if (names.size() > max) {
            throw new MalformedMessageException(Status.TOO_LARGE, "sections: " + names.size() + " is above the limit of "
                    + max);
        }
        return names;
    }

    /** No route has this path: 404. Without a stack trace: it is an answer, not a bug. */
    static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message, null, false, false);
        }
    }

    /** The path has a route, not with this method: 405 with an {@code Allow} header. */
    static final class MethodNotAllowed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String allow;

        MethodNotAllowed(HttpMethod method, String path, String allow) {
            super(method + " is not allowed on " + path + "; allowed: " + allow, null, false, false);
            this.allow = allow;
        }

        /** The value of the Allow header: the methods the path takes. */
        String allow() {
            return allow;
        }
    }
}
