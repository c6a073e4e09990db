package io.sessionmesh.client.spring;

import java.util.Objects;

/**
 * A {@code sessionmesh.*} property whose value cannot do what the property is for (a package entry that is a
 * wildcard, a class that is not on the class path, a section name no attribute can reach): the application fails to
 * start, and Spring Boot reports the property, the value and the fix (its failure analysis, by
 * {@code InvalidSessionMeshPropertyFailureAnalyzer}), rather than starting and losing data at run time.
 */
public class InvalidSessionMeshPropertyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;
    private final String problem;
    private final String fix;

    /**
     * @param property the property, such as {@code sessionmesh.allowed-packages}
     * @param value    the bad value (for a list, the bad entry), or null when the property is not set
     * @param problem  what is wrong, as a predicate of the value ("is a wildcard"), or of the property when unset
     * @param fix      what to do instead ("write com.example: a package includes those under it")
     */
    public InvalidSessionMeshPropertyException(String property, String value, String problem, String fix) {
        super(property + (value == null ? " " : ": \"" + value + "\" ") + problem + "; " + fix);
        this.property = Objects.requireNonNull(property, "property");
        this.value = value;
        this.problem = Objects.requireNonNull(problem, "problem");
        this.fix = Objects.requireNonNull(fix, "fix");
    }

    /** The property. */
    public String property() {
        return property;
    }

    /** The bad value or list entry; null when the property is not set. */
    public String value() {
        return value;
    }

    /** What is wrong with the value. */
    public String problem() {
        return problem;
    }

    /** What to write instead. */
    public String fix() {
        return fix;
    }
}
