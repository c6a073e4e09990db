package io.sessionmesh.serialization.attribute;

import java.util.Objects;

/**
 * An entry given to a {@link ClassFilter} that is not a package or class name as Java writes it, or that can match
 * nothing: refused when the filter is made, so that it never turns values into {@link ClassNotAllowedException}s
 * later. It carries the entry, the problem and the fix apart, so that a caller that takes the entries from settings
 * (the Spring Boot integration) can name its own settings in the fix ({@link #fix(String, String)}).
 */
public final class InvalidClassFilterEntryException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The two lists of a filter: what an entry was given as, and where its fix puts it. */
    public enum Kind {
        /** {@link ClassFilter#allowingPackages}: a package and the packages under it. */
        PACKAGE,
        /** {@link ClassFilter#andClasses}: a class and its nested classes. */
        CLASS
    }

    /** The Java API's names of the two lists, for {@link #getMessage()}. */
    private static final String PACKAGES_METHOD = "allowingPackages";
    private static final String CLASSES_METHOD = "andClasses";

    private final Kind kind;
    private final String entry;
    private final String problem;
    private final String correction;
    private final Kind correctionKind;
    private final String reason;

    private InvalidClassFilterEntryException(Kind kind, String entry, String problem, String correction,
                                             Kind correctionKind, String reason) {
        super(render(kind, entry, problem, correction, correctionKind, reason, PACKAGES_METHOD, CLASSES_METHOD));
        this.kind = kind;
        this.entry = entry;
        this.problem = problem;
        this.correction = correction;
        this.correctionKind = correctionKind;
        this.reason = reason;
    }

    /** An entry whose fix is another value, in the list {@code correctionKind}; {@code reason} may be null. */
    static InvalidClassFilterEntryException write(Kind kind, String entry, String problem, String correction,
                                                  Kind correctionKind, String reason) {
        return new InvalidClassFilterEntryException(kind, entry, problem, Objects.requireNonNull(correction),
                correctionKind, reason);
    }

    /** An entry whose fix is said in words ({@code advice}), not as a value to write. */
    static InvalidClassFilterEntryException advise(Kind kind, String entry, String problem, String advice) {
        return new InvalidClassFilterEntryException(kind, entry, problem, null, null, Objects.requireNonNull(advice));
    }

    /** The list the entry was given in. */
    public Kind kind() {
        return kind;
    }

    /** The entry as given. */
    public String entry() {
        return entry;
    }

    /** What is wrong with it, as a predicate of the entry: "is a wildcard", "names a class (...)". */
    public String problem() {
        return problem;
    }

    /**
     * What to do instead, naming the two lists as the caller calls them.
     *
     * @param packagesName the caller's name of the package list (a method, a property)
     * @param classesName  the caller's name of the class list
     */
    public String fix(String packagesName, String classesName) {
        return fix(entry, kind, correction, correctionKind, reason, packagesName, classesName);
    }

    private static String render(Kind kind, String entry, String problem, String correction, Kind correctionKind,
                                 String reason, String packagesName, String classesName) {
        return (kind == Kind.PACKAGE ? packagesName : classesName) + ": \"" + entry + "\" " + problem + "; "
                + fix(entry, kind, correction, correctionKind, reason, packagesName, classesName);
    }

    private static String fix(String entry, Kind kind, String correction, Kind correctionKind, String reason,
                              String packagesName, String classesName) {
        if (correction == null) {
            return reason;
        }
        String fix;
        if (correctionKind == kind) {
            fix = "write " + correction;
        } else {
            String list = correctionKind == Kind.PACKAGE ? packagesName : classesName;
            fix = (correction.equals(entry.strip()) ? "put it" : "put " + correction) + " in " + list;
        }
        return reason == null ? fix : fix + ": " + reason;
    }
}
