package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.http.ApiRoutes.Route;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.TransportLimits;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The route table and its parameters, without Netty's pipeline. */
class ApiRoutesTest {
    static final List<HttpMethod> METHODS = List.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
            HttpMethod.DELETE, HttpMethod.HEAD);

    @ParameterizedTest
    @CsvSource({
        "POST, /v1/sessions, CREATE_SESSION",
        "GET, /v1/sessions/abc, READ_SESSION",
        "PATCH, /v1/sessions/abc, WRITE_SESSION",
        "DELETE, /v1/sessions/abc, DELETE_SESSION",
        "POST, /v1/sessions/abc/touch, TOUCH_SESSION",
        "PUT, /v1/sessions/abc/principal, SET_PRINCIPAL",
        "DELETE, /v1/sessions/abc/principal, CLEAR_PRINCIPAL",
        "GET, /v1/sessions/abc/principal, GET_PRINCIPAL",
        "POST, /v1/sessions/abc/rename, RENAME_SESSION",
        "PUT, /v1/schemas/ff, PUBLISH_SCHEMA",
        "GET, /v1/schemas/ff, FETCH_SCHEMA",
    })
    void match_eachRoute_isFound(String method, String path, Route route) {
        assertEquals(route, ApiRoutes.match(HttpMethod.valueOf(method), path));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/", "/v1", "v1/sessions", "/v2/sessions", "/V1/sessions"})
    void match_pathOutsideV1_isNotFoundSayingTheApiIsUnderV1(String path) {
        ApiRoutes.NotFound e = assertThrows(ApiRoutes.NotFound.class, () -> ApiRoutes.match(HttpMethod.GET, path));
        assertEquals("no such endpoint: GET " + path + " (the API is under /v1)", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/", "/v1/sessionsX", "/v1/schemas", "/v1/schemas/ff/x", "/v1/sessions/abc/",
        "/v1/sessions/abc/touch/", "/v1/sessions/abc/x/touch", "/v1/sessions/abc/principal/", "/v1/sessions/abc/principals",
        "/v1/sessions/abc/rename/", "/v1/sessions/abc/renamed", "/v1/principals"})
    void match_unknownPathUnderV1_isNotFound(String path) {
        ApiRoutes.NotFound e = assertThrows(ApiRoutes.NotFound.class, () -> ApiRoutes.match(HttpMethod.GET, path));
        assertEquals("no such endpoint: GET " + path, e.getMessage());
    }

    /** Any local process could list a user's session ids by name on the API: the list is on the admin port now. */
    @ParameterizedTest
    @ValueSource(strings = {"/v1/principals/alice/sessions", "/v1/principals/a/b/sessions", "/v1/principals/",
        "/v1/principals/alice"})
    void match_principalsSessions_isNotFoundNamingTheAdminRoute(String path) {
        for (HttpMethod m : List.of(HttpMethod.GET, HttpMethod.POST)) {
            ApiRoutes.NotFound e = assertThrows(ApiRoutes.NotFound.class, () -> ApiRoutes.match(m, path));
            assertEquals("no such endpoint: " + m + " " + path + " (a principal's sessions are listed on the admin port: "
                    + "GET /admin/principals/{principal}/live-sessions)", e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "GET    | /v1/sessions           | POST",
        "PUT    | /v1/sessions/abc       | GET, PATCH, DELETE",
        "POST   | /v1/sessions/abc       | GET, PATCH, DELETE",
        "GET    | /v1/sessions/abc/touch | POST",
        "POST   | /v1/sessions/abc/principal | GET, PUT, DELETE",
        "PATCH  | /v1/sessions/abc/principal | GET, PUT, DELETE",
        "GET    | /v1/sessions/abc/rename | POST",
        "DELETE | /v1/schemas/ff         | GET, PUT",
    })
    void match_wrongMethod_isMethodNotAllowedWithTheRoutesMethods(String method, String path, String allow) {
        ApiRoutes.MethodNotAllowed e = assertThrows(ApiRoutes.MethodNotAllowed.class,
                () -> ApiRoutes.match(HttpMethod.valueOf(method), path));
        assertEquals(allow, e.allow());
        assertEquals(method + " is not allowed on " + path + "; allowed: " + allow, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "PUT | /v1/sessions/bad id",
        "GET | /v1/sessions/bad id/touch",
        "POST | /v1/sessions/bad id/principal",
        "GET | /v1/sessions/bad id/other",
        "GET | /v1/sessions//touch",
        "PATCH | /v1/schemas/xyz",
    })
    void match_badPathParameter_isBadRequestBeforeTheMethodOrTheRest(String method, String path) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> ApiRoutes.match(HttpMethod.valueOf(method), path));
        assertEquals(Status.BAD_REQUEST, e.status());
    }

    @Test
    void sessionId_ofEachSessionPath_isTheIdAlone() {
        assertEquals("abc", ApiRoutes.sessionId("/v1/sessions/abc"));
        assertEquals("abc", ApiRoutes.sessionId("/v1/sessions/abc/touch"));
    }

    @Test
    void sessionId_tooLongOrEmpty_isTooLargeOrBadRequest() {
        String tooLong = "/v1/sessions/" + "x".repeat(TransportLimits.MAX_SESSION_ID_BYTES + 1);
        assertEquals(Status.TOO_LARGE, assertThrows(MalformedMessageException.class, () -> ApiRoutes.sessionId(tooLong)).status());
        MalformedMessageException empty = assertThrows(MalformedMessageException.class, () -> ApiRoutes.sessionId("/v1/sessions/"));
        assertEquals(Status.BAD_REQUEST, empty.status());
        assertTrue(empty.getMessage().startsWith("session id in the path: "), empty.getMessage());
    }

    /** The admin port's {@code /admin/principals/{principal}/live-sessions} path's principal. */
    static String principal(String rawPath) {
        return ApiRoutes.principal(rawPath, "/admin/principals/", "/live-sessions");
    }

    @Test
    void principal_percentEncodedInTheRawPath_isDecodedOnce() {
        assertEquals("alice", principal("/admin/principals/alice/live-sessions"));
        assertEquals("alice@example.com", principal("/admin/principals/alice%40example.com/live-sessions"));
        assertEquals("a/b c+d", principal("/admin/principals/a%2Fb%20c+d/live-sessions"));
        assertEquals("100%", principal("/admin/principals/100%25/live-sessions"));
        assertEquals("ünï", principal("/admin/principals/%C3%BCn%C3%AF/live-sessions"));
    }

    @Test
    void principal_tooLong_isTooLargeWithoutRepeatingIt() {
        String tooLong = "x".repeat(TransportLimits.MAX_PRINCIPAL_BYTES + 1);
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> principal("/admin/principals/" + tooLong + "/live-sessions"));
        assertEquals(Status.TOO_LARGE, e.status());
        assertTrue(!e.getMessage().contains(tooLong), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/admin/principals//live-sessions", "/admin/principals/a/b/live-sessions", "/admin/principals/a%01b/live-sessions",
        "/admin/principals/%zz/live-sessions", "/admin/principals/%/live-sessions"})
    void principal_emptyControlBadEscapeOrTwoSegments_isBadRequest(String rawPath) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> principal(rawPath));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().startsWith("principal in the path"), e.getMessage());
    }

    @Test
    void schemaUid_oneToSixteenHexDigits_isTheUnsignedValue() {
        assertEquals(0xff, ApiRoutes.schemaUid("/v1/schemas/fF"));
        assertEquals(0, ApiRoutes.schemaUid("/v1/schemas/0"));
        assertEquals(-1L, ApiRoutes.schemaUid("/v1/schemas/ffffffffffffffff"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0123456789abcdef0", "xyz", "-1", "+1", "1 "})
    void schemaUid_notOneToSixteenHexDigits_isBadRequest(String uid) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> ApiRoutes.schemaUid("/v1/schemas/" + uid));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertEquals("schema uid in the path: expected 1 to 16 hex digits", e.getMessage());
    }

    static List<String> sections(String uri, int max) {
        return ApiRoutes.sections(new QueryStringDecoder(uri), max);
    }

    @Test
    void sections_commaSeparatedAndRepeated_addUpInOrder() {
        assertEquals(List.of("a"), sections("/v1/sessions/x?sections=a", 10));
        assertEquals(List.of("b", "a", "c"), sections("/v1/sessions/x?sections=b,a&sections=c", 10));
    }

    @ParameterizedTest
    @ValueSource(strings = {"?sections=", "?sections=a,,b", "?sections=a,", "?sections=,a", "?sections=a,b,a", "?other=a", ""})
    void sections_missingEmptyOrRepeatedName_isBadRequest(String query) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> sections("/v1/sessions/x" + query, 10));
        assertEquals(Status.BAD_REQUEST, e.status());
    }

    @Test
    void sections_overTheLimit_isTooLargeNamingIt() {
        MalformedMessageException e = assertThrows(MalformedMessageException.class, () -> sections("/x?sections=a,b,c", 2));
        assertEquals(Status.TOO_LARGE, e.status());
        assertEquals("sections: 3 is above the limit of 2", e.getMessage());
    }

    /**
     * Every path of up to five segments from a set that reaches each branch (and, up to three, without the leading
     * slash), with every method: the same outcome (the route and its parameter, or the same error with the same
     * message) as the String.split router this replaced.
     */
    @Test
    void match_everyPathAndMethod_agreesWithTheSplitBasedRouterItReplaced() {
        String[] tokens = {"", "v1", "sessions", "schemas", "abc", "touch", "principal", "rename", "ff", "bad id", "x".repeat(129)};
        List<String> paths = new ArrayList<>(List.of(""));
        segments(new ArrayList<>(), tokens, 5, paths);
        int compared = 0;
        for (String path : paths) {
            for (HttpMethod method : METHODS) {
                assertEquals(before(method, path), now(method, path), method + " " + path);
                compared++;
            }
        }
        assertTrue(compared > 100_000, "compared " + compared);
    }

    private static void segments(List<String> prefix, String[] tokens, int depth, List<String> paths) {
        if (depth == 0) {
            return;
        }
        for (String t : tokens) {
            prefix.add(t);
            paths.add("/" + String.join("/", prefix));
            if (prefix.size() <= 3) {
                paths.add(String.join("/", prefix));
            }
            segments(prefix, tokens, depth - 1, paths);
            prefix.remove(prefix.size() - 1);
        }
    }

    /** The route, and its parameter as ApiHandler takes it, or the error. */
    private static String now(HttpMethod method, String path) {
        try {
            Route r = ApiRoutes.match(method, path);
            return switch (r) {
                case CREATE_SESSION -> r.name();
                case PUBLISH_SCHEMA, FETCH_SCHEMA -> r + " " + ApiRoutes.schemaUid(path);
                default -> r + " " + ApiRoutes.sessionId(path);
            };
        } catch (RuntimeException e) {
            return outcome(e);
        }
    }

    private static String outcome(RuntimeException e) {
        if (e instanceof ApiRoutes.MethodNotAllowed m) {
            return "405 [" + m.allow() + "] " + m.getMessage();
        }
        if (e instanceof ApiRoutes.NotFound) {
            return "404 " + e.getMessage();
        }
        return ((MalformedMessageException) e).status() + " " + e.getMessage();
    }

    /** The router of ApiHandler before it was cut up (commit fabbbd9), with its checks, as it was; and the principal and rename routes. */
    private static String before(HttpMethod method, String path) {
        try {
            String[] parts = path.split("/", -1);
            if (parts.length < 3 || !parts[0].isEmpty() || !parts[1].equals("v1")) {
                throw new ApiRoutes.NotFound("no such endpoint: " + method + " " + path + " (the API is under /v1)");
            }
            if (parts[2].equals("sessions")) {
                if (parts.length == 3) {
                    requireMethod(method, path, HttpMethod.POST);
                    return "CREATE_SESSION";
                }
                String id = oldSessionId(parts[3]);
                if (parts.length == 4) {
                    if (method.equals(HttpMethod.GET)) {
                        return "READ_SESSION " + id;
                    } else if (method.equals(HttpMethod.PATCH)) {
                        return "WRITE_SESSION " + id;
                    } else if (method.equals(HttpMethod.DELETE)) {
                        return "DELETE_SESSION " + id;
                    }
                    throw new ApiRoutes.MethodNotAllowed(method, path, "GET, PATCH, DELETE");
                }
                if (parts.length == 5 && parts[4].equals("touch")) {
                    requireMethod(method, path, HttpMethod.POST);
                    return "TOUCH_SESSION " + id;
                }
                if (parts.length == 5 && parts[4].equals("principal")) { // added with the principal routes
                    if (method.equals(HttpMethod.GET)) {
                        return "GET_PRINCIPAL " + id;
                    } else if (method.equals(HttpMethod.PUT)) {
                        return "SET_PRINCIPAL " + id;
                    } else if (method.equals(HttpMethod.DELETE)) {
                        return "CLEAR_PRINCIPAL " + id;
                    }
                    throw new ApiRoutes.MethodNotAllowed(method, path, "GET, PUT, DELETE");
                }
                if (parts.length == 5 && parts[4].equals("rename")) { // added with the rename route
                    requireMethod(method, path, HttpMethod.POST);
                    return "RENAME_SESSION " + id;
                }
            } else if (parts[2].equals("schemas") && parts.length == 4) {
                long uid = oldUid(parts[3]);
                if (method.equals(HttpMethod.PUT)) {
                    return "PUBLISH_SCHEMA " + uid;
                } else if (method.equals(HttpMethod.GET)) {
                    return "FETCH_SCHEMA " + uid;
                }
                throw new ApiRoutes.MethodNotAllowed(method, path, "GET, PUT");
            }
            throw new ApiRoutes.NotFound("no such endpoint: " + method + " " + path);
        } catch (RuntimeException e) {
            return outcome(e);
        }
    }

    private static void requireMethod(HttpMethod method, String path, HttpMethod expected) {
        if (!method.equals(expected)) {
            throw new ApiRoutes.MethodNotAllowed(method, path, expected.name());
        }
    }

    private static String oldSessionId(String raw) {
        try {
            return TransportLimits.checkSessionId(raw);
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(raw.length() > TransportLimits.MAX_SESSION_ID_BYTES ? Status.TOO_LARGE
                    : Status.BAD_REQUEST, "session id in the path: " + e.getMessage());
        }
    }

    private static long oldUid(String raw) {
        if (raw.isEmpty() || raw.length() > 16 || !raw.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "schema uid in the path: expected 1 to 16 hex digits");
        }
        return Long.parseUnsignedLong(raw, 16);
    }
}
