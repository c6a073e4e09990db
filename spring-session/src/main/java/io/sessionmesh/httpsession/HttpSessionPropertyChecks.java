package io.sessionmesh.httpsession;

import io.sessionmesh.client.spring.InvalidSessionMeshPropertyException;
import io.sessionmesh.wire.transport.TransportLimits;

import java.util.List;

/**
 * The start-up checks of {@code sessionmesh.http-session.*} that binding does not make: a value that would silently
 * match nothing fails the start with an {@link InvalidSessionMeshPropertyException} naming the fix (Spring Boot
 * reports it with the client jar's failure analyzer).
 *
 * <table>
 *   <caption>What is checked</caption>
 *   <tr><th>property</th><th>refused</th></tr>
 *   <tr><td>{@code default-section}</td><td>a name that breaks the section name rules or is
 *       {@value AttributeSections#META_SECTION}; spaces around it</td></tr>
 *   <tr><td>{@code sections}</td><td>as {@code default-section}, and a wildcard or a dot: an attribute is placed by
 *       the part of its name before the first dot, so such a section claims no attribute</td></tr>
 *   <tr><td>{@code url-patterns}</td><td>a pattern that is not {@code /exact/path}, {@code /prefix/*} or
 *       {@code *.ext}: a servlet container takes {@code /cart/**} or {@code /api/*}{@code /items} as an exact
 *       path that no request has, and {@code *.tar.gz} as an extension no path has</td></tr>
 * </table>
 *
 * {@code flush-mode} and {@code save-mode} are enums: Spring Boot's binding refuses other values.
 */
final class HttpSessionPropertyChecks {
    static final String DEFAULT_SECTION = "sessionmesh.http-session.default-section";
    static final String SECTIONS = "sessionmesh.http-session.sections";
    static final String URL_PATTERNS = SessionMeshHttpSessionAutoConfiguration.URL_PATTERNS_PROPERTY;

    private HttpSessionPropertyChecks() {
    }

    /** The attribute mapping of {@code default-section} and {@code sections}. */
    static AttributeSections sections(SessionMeshHttpSessionProperties p) {
        String defaultSection = p.getDefaultSection() == null ? "" : p.getDefaultSection();
        section(DEFAULT_SECTION, defaultSection, false);
        for (String s : p.getSections()) {
            section(SECTIONS, s == null ? "" : s, true);
        }
        return new AttributeSections(defaultSection, p.getSections());
    }

    private static void section(String property, String name, boolean listed) {
        if (name.isBlank()) {
            throw new InvalidSessionMeshPropertyException(property, name, "is blank", listed
                    ? "remove the empty entry (a comma too many)"
                    : "name the section of the attributes no listed section claims, "
                            + AttributeSections.DEFAULT_SECTION + " by default");
        }
        if (!name.equals(name.strip())) {
            throw new InvalidSessionMeshPropertyException(property, name, "has spaces around it, which are part of a"
                    + " section name", "write " + name.strip());
        }
        if (listed && (name.indexOf('*') >= 0 || name.indexOf('.') >= 0)) {
            String section = name.split("[.*]", 2)[0];
            String problem = name.indexOf('*') >= 0 ? "is a wildcard"
                    : "has a dot, so it claims no attribute (an attribute is placed by the part of its name before"
                            + " the first dot)";
            throw new InvalidSessionMeshPropertyException(property, name, problem, section.isEmpty()
                    ? "name each section: the section cart claims every attribute named cart.<name>"
                    : "write " + section + ": it claims every attribute named " + section + ".<name>");
        }
        if (name.equals(AttributeSections.META_SECTION)) {
            throw new InvalidSessionMeshPropertyException(property, name, "is the section of the session's own figures"
                    + " (its creation time and idle timeout)", "name another section");
        }
        try {
            AttributeSections.check(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidSessionMeshPropertyException(property, name,
                    "breaks the section name rules (" + e.getMessage() + ")",
                    "name a section of 1.." + TransportLimits.MAX_NAME_BYTES + " bytes of UTF-8 without control"
                            + " characters or commas");
        }
    }

    /** The filter's servlet URL patterns, each one that can match a request. */
    static List<String> urlPatterns(List<String> patterns) {
        for (String pattern : patterns) {
            urlPattern(pattern == null ? "" : pattern);
        }
        return patterns;
    }

    private static void urlPattern(String pattern) {
        if (pattern.isBlank()) {
            throw new InvalidSessionMeshPropertyException(URL_PATTERNS, pattern, "is blank",
                    "remove the empty entry (a comma too many); /* serves every path");
        }
        if (pattern.startsWith("*.")) {
            String extension = pattern.substring(2);
            if (extension.isEmpty() || extension.indexOf('/') >= 0 || extension.indexOf('*') >= 0
                    || extension.indexOf('.') >= 0) {
                throw new InvalidSessionMeshPropertyException(URL_PATTERNS, pattern, "is not an extension pattern that"
                        + " a servlet container matches (it compares what follows the last dot of a path)",
                        "write one extension, such as *.html");
            }
            return;
        }
        if (!pattern.startsWith("/")) {
            throw new InvalidSessionMeshPropertyException(URL_PATTERNS, pattern, "does not start with /, as a servlet"
                    + " URL pattern other than *.ext does", "write " + pathPattern("/" + pattern));
        }
        String valid = pathPattern(pattern);
        if (!valid.equals(pattern)) {
            String prefix = valid.substring(0, valid.length() - 2);
            throw new InvalidSessionMeshPropertyException(URL_PATTERNS, pattern, "has a * where a servlet URL pattern"
                    + " has none, so it is taken as an exact path that no request has (patterns are /exact/path,"
                    + " /prefix/* and *.ext)", "write " + valid + ": it serves "
                    + (prefix.isEmpty() ? "every path" : prefix + " and every path under it"));
        }
    }

    /**
     * A pattern starting with / as a servlet container matches it: itself when it is an exact path or
     * {@code /prefix/*}, else {@code /prefix/*} of the part before its first *.
     */
    private static String pathPattern(String pattern) {
        int star = pattern.indexOf('*');
        if (star < 0 || (star == pattern.length() - 1 && pattern.endsWith("/*"))) {
            return pattern;
        }
        return pattern.substring(0, star).replaceAll("/+$", "") + "/*";
    }
}
