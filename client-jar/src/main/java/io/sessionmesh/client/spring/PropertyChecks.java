package io.sessionmesh.client.spring;

import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.InvalidClassFilterEntryException;

import java.util.List;

/**
 * The start-up checks of {@link SessionMeshProperties} that binding does not make: a value that cannot do what its
 * property is for (an allowed package that can match no class, a header name no request can carry) fails the start
 * with an {@link InvalidSessionMeshPropertyException} naming the fix, instead of reading as "no session" later.
 *
 * <table>
 *   <caption>What is checked</caption>
 *   <tr><th>property</th><th>refused</th></tr>
 *   <tr><td>{@code allowed-packages}</td><td>unset together with {@code allowed-classes}; an entry that is no package
 *       name (blank, a wildcard, a class, an illegal identifier) or whose every class is always denied
 *       ({@link ClassFilter#allowingPackages})</td></tr>
 *   <tr><td>{@code allowed-classes}</td><td>an entry that is no binary class name or is always denied
 *       ({@link ClassFilter#andClasses}), or names no class on the application's class path</td></tr>
 *   <tr><td>{@code session-header}, {@code principal.header}</td><td>a name that is not an HTTP field name (RFC 9110
 *       token); for {@code session-header}, none</td></tr>
 *   <tr><td>{@code session-cookie}, {@code route-cookie}</td><td>a name that is not a cookie name (RFC 6265 token);
 *       empty is none</td></tr>
 *   <tr><td>{@code nodes}</td><td>a blank node, or, with a route cookie, one that cannot be its value</td></tr>
 *   <tr><td>{@code cookie-same-site}</td><td>None without {@code cookie-secure} (the setter refuses anything but
 *       Strict, Lax and None)</td></tr>
 * </table>
 */
final class PropertyChecks {
    static final String ALLOWED_PACKAGES = "sessionmesh.allowed-packages";
    static final String ALLOWED_CLASSES = "sessionmesh.allowed-classes";
    static final String SESSION_HEADER = "sessionmesh.session-header";
    static final String SESSION_COOKIE = "sessionmesh.session-cookie";
    static final String ROUTE_COOKIE = "sessionmesh.route-cookie";
    static final String PRINCIPAL_HEADER = "sessionmesh.principal.header";
    static final String NODES = "sessionmesh.nodes";
    static final String COOKIE_SAME_SITE = "sessionmesh.cookie-same-site";

    /** RFC 9110 tchar besides letters and digits: the characters of header and cookie names. */
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private PropertyChecks() {
    }

    /**
     * The class filter of {@code allowed-packages} and {@code allowed-classes}; each class is looked up in
     * {@code loader} (loaded, not initialised) after the deny list has passed it.
     */
    static ClassFilter classFilter(SessionMeshProperties p, ClassLoader loader) {
        List<String> packages = p.getAllowedPackages() == null ? List.of() : p.getAllowedPackages();
        List<String> classes = p.getAllowedClasses() == null ? List.of() : p.getAllowedClasses();
        if (packages.isEmpty() && classes.isEmpty()) {
            throw new InvalidSessionMeshPropertyException(ALLOWED_PACKAGES, null,
                    "is not set, and session values are decoded only as classes the application names",
                    "name the packages whose classes session values may be decoded as, for instance "
                            + ALLOWED_PACKAGES + "=com.example.bank (comma-separated; a package includes those"
                            + " under it, and JDK value types and collections are always allowed)");
        }
        ClassFilter filter;
        try {
            filter = ClassFilter.allowingPackages(packages.toArray(new String[0]));
        } catch (InvalidClassFilterEntryException e) {
            throw refused(ALLOWED_PACKAGES, e);
        }
        try {
            filter = filter.andClasses(classes.toArray(new String[0]));
        } catch (InvalidClassFilterEntryException e) {
            throw refused(ALLOWED_CLASSES, e);
        }
        for (String name : filter.allowedClasses()) {
            try {
                Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                String last = name.substring(name.lastIndexOf('.') + 1);
                throw new InvalidSessionMeshPropertyException(ALLOWED_CLASSES, name,
                        "names no class on the application's class path",
                        Character.isLowerCase(last.charAt(0))
                                ? "if it is a package, put it in " + ALLOWED_PACKAGES + "; if a class, check its"
                                        + " spelling and that its jar is a dependency of the application"
                                : "check its spelling (a nested class is written Outer$Inner) and that its jar is a"
                                        + " dependency of the application");
            }
        }
        return filter;
    }

    /** The request-side properties: header and cookie names, nodes, SameSite. */
    static void cookiesAndHeaders(SessionMeshProperties p) {
        String header = p.getSessionHeader();
        if (header == null || header.isEmpty()) {
            throw new InvalidSessionMeshPropertyException(SESSION_HEADER, header == null ? "" : header, "is empty",
                    "name the request header that carries the session id between services, X-Session-Id by default");
        }
        token(SESSION_HEADER, header, "header name", "X-Session-Id");
        cookieName(SESSION_COOKIE, p.getSessionCookie(), "SESSIONMESH");
        cookieName(ROUTE_COOKIE, p.getRouteCookie(), "SMROUTE");
        String principalHeader = p.getPrincipal().getHeader();
        if (principalHeader != null && !principalHeader.isEmpty()) {
            token(PRINCIPAL_HEADER, principalHeader, "header name", "X-Authenticated-User");
        }
        boolean routeCookie = p.getRouteCookie() != null && !p.getRouteCookie().isEmpty();
        for (String node : p.getNodes()) {
            if (node == null || node.isBlank()) {
                throw new InvalidSessionMeshPropertyException(NODES, node == null ? "" : node, "is blank",
                        "name each node of this service once, for instance " + NODES + "=node-a,node-b,"
                                + " or remove the empty entry");
            }
            if (routeCookie && !isCookieValue(node)) {
                throw new InvalidSessionMeshPropertyException(NODES, node,
                        "cannot be the value of the route cookie " + p.getRouteCookie() + " (a space, comma,"
                                + " semicolon, quote or backslash, or a character outside ASCII)",
                        "name the node with letters, digits and - _ . only, such as node-a");
            }
        }
        if ("None".equals(p.getCookieSameSite()) && !p.isCookieSecure()) {
            throw new InvalidSessionMeshPropertyException(COOKIE_SAME_SITE, "None",
                    "needs sessionmesh.cookie-secure = true: browsers drop a SameSite=None cookie that is not Secure",
                    "set sessionmesh.cookie-secure=true, or use Lax or Strict for plain-HTTP development");
        }
    }

    private static InvalidSessionMeshPropertyException refused(String property, InvalidClassFilterEntryException e) {
        return new InvalidSessionMeshPropertyException(property, e.entry(), e.problem(),
                e.fix(ALLOWED_PACKAGES, ALLOWED_CLASSES));
    }

    /** A cookie name: empty is none; else an RFC 6265 token. */
    private static void cookieName(String property, String name, String example) {
        if (name != null && !name.isEmpty()) {
            token(property, name, "cookie name", example);
        }
    }

    private static void token(String property, String name, String what, String example) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean tchar = c < 128 && (Character.isLetterOrDigit(c) || TOKEN_SYMBOLS.indexOf(c) >= 0);
            if (!tchar) {
                String shown = Character.isWhitespace(c) || Character.isISOControl(c)
                        ? String.format("U+%04X", (int) c) : "'" + c + "'";
                throw new InvalidSessionMeshPropertyException(property, name,
                        "is not a " + what + " (" + shown + " at index " + i + "), so no request can carry it",
                        "write a name of letters, digits and - _ . only, such as " + example);
            }
        }
    }

    /** RFC 6265 cookie-octet: ASCII without controls, space, '"', ',', ';' and '\'. */
    private static boolean isCookieValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\') {
                return false;
            }
        }
        return true;
    }
}
