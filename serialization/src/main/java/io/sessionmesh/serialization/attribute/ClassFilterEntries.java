package io.sessionmesh.serialization.attribute;

import io.sessionmesh.serialization.attribute.InvalidClassFilterEntryException.Kind;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * The checks of the entries a {@link ClassFilter} is made with: each entry comes back in the form the filter matches
 * (trimmed, a package without its trailing dot) or is refused with the fix. An entry is refused when it is not a
 * name as Java writes it (JLS 6.5, 13.1: parts that are identifiers and no keyword, joined by single dots) and
 * when it can match nothing, because {@link ClassFilter#ALWAYS_DENIED} covers all of it. A part that starts with an
 * upper-case letter is taken as a class, as Java's naming conventions have it (JLS 6.1): a package entry ending in
 * one names a class, and a class entry with one before its last part names a nested class with a dot.
 */
final class ClassFilterEntries {
    /** What a package is in the fixes. */
    private static final String PACKAGE_INCLUDES = "a package includes those under it";
    /** The advice for a name that is not Java's. */
    private static final String AS_JAVA_WRITES_IT = "write the name as the package declaration of its classes does,"
            + " parts of letters, digits and _ joined by single dots, for instance com.example.bank";

    /** Java's keywords and literals (JLS 3.9, 3.10.3, 3.10.8): never a part of a package or class name. */
    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "_", "true", "false", "null");

    private ClassFilterEntries() {
    }

    /**
     * A package entry: {@code com.example.bank} or, as before, {@code com.example.bank.}; returned trimmed and
     * without the dot.
     */
    static String packageName(String entry) {
        String name = trimmed(Kind.PACKAGE, entry, "a package, for instance com.example.bank");
        if (name.indexOf('/') >= 0) {
            throw InvalidClassFilterEntryException.write(Kind.PACKAGE, entry, "is written with slashes",
                    name.replace('/', '.'), Kind.PACKAGE, "a package name joins its parts with dots");
        }
        String withoutDot = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        String[] parts = checkParts(Kind.PACKAGE, entry, withoutDot);
        String last = parts[parts.length - 1];
        if (Character.isUpperCase(last.charAt(0))) {
            throw InvalidClassFilterEntryException.write(Kind.PACKAGE, entry,
                    "names a class (its last part, " + last + ", starts with an upper-case letter)", withoutDot,
                    Kind.CLASS, null);
        }
        String prefix = withoutDot + ".";
        for (String denied : ClassFilter.ALWAYS_DENIED) {
            if (denied.endsWith(".") && prefix.startsWith(denied)) {
                throw InvalidClassFilterEntryException.advise(Kind.PACKAGE, entry,
                        "can match nothing: every class under it is always denied (\"" + denied
                                + "\" in ClassFilter.ALWAYS_DENIED)",
                        "remove it: those classes are never decoded, whatever is allowed");
            }
        }
        return withoutDot;
    }

    /**
     * A class entry: a binary name such as {@code java.net.URL} or {@code com.example.Outer$Inner}; returned
     * trimmed.
     */
    static String className(String entry) {
        String name = trimmed(Kind.CLASS, entry, "a class, for instance java.net.URL");
        if (name.startsWith("[")) {
            String element = ClassFilter.elementName(name);
            if (element == null) {
                throw InvalidClassFilterEntryException.advise(Kind.CLASS, entry, "is an array type",
                        "name its element class, if it has one: an array is checked by its element class, and arrays"
                                + " of primitives are always allowed");
            }
            throw InvalidClassFilterEntryException.write(Kind.CLASS, entry, "is an array type", element, Kind.CLASS,
                    "an array is checked by its element class");
        }
        if (name.indexOf('/') >= 0) {
            throw InvalidClassFilterEntryException.write(Kind.CLASS, entry, "is written with slashes",
                    name.replace('/', '.'), Kind.CLASS, "a class's binary name joins its package's parts with dots");
        }
        if (name.endsWith(".")) {
            String packageName = name.substring(0, name.length() - 1);
            throw InvalidClassFilterEntryException.write(Kind.CLASS, entry,
                    "ends with a dot, as a package prefix does", packageName, Kind.PACKAGE, PACKAGE_INCLUDES);
        }
        String[] parts = checkParts(Kind.CLASS, entry, name);
        for (int i = 0; i < parts.length - 1; i++) {
            if (Character.isUpperCase(parts[i].charAt(0))) {
                String outer = String.join(".", Arrays.copyOf(parts, i + 1));
                String binary = outer + "$" + String.join("$", Arrays.copyOfRange(parts, i + 1, parts.length));
                throw InvalidClassFilterEntryException.write(Kind.CLASS, entry,
                        "names a nested class with a dot (" + parts[i] + " starts with an upper-case letter, so it is"
                                + " a class, not a package)", binary, Kind.CLASS,
                        "a nested class's binary name joins it to its outer class with $, and " + outer
                                + " alone includes its nested classes");
            }
        }
        for (String denied : ClassFilter.ALWAYS_DENIED) {
            if (ClassFilter.matches(name, denied)) {
                throw InvalidClassFilterEntryException.advise(Kind.CLASS, entry,
                        "is always denied (\"" + denied + "\" in ClassFilter.ALWAYS_DENIED)",
                        "remove it: the class is never decoded, whatever is allowed");
            }
        }
        return name;
    }

    /** The entry without the spaces around it; refused when blank or a wildcard. */
    private static String trimmed(Kind kind, String entry, String example) {
        Objects.requireNonNull(entry, kind == Kind.PACKAGE ? "packageName" : "className");
        String name = entry.strip();
        if (name.isEmpty()) {
            throw InvalidClassFilterEntryException.advise(kind, entry, "is blank",
                    "name " + example + ", or remove the empty entry (a comma too many)");
        }
        if (name.indexOf('*') >= 0) {
            throw wildcard(kind, entry, name);
        }
        return name;
    }

    /** The parts of a dotted name, each an identifier and no keyword. */
    private static String[] checkParts(Kind kind, String entry, String name) {
        String[] parts = name.split("\\.", -1);
        for (String part : parts) {
            if (part.isEmpty()) {
                throw InvalidClassFilterEntryException.advise(kind, entry,
                        name.startsWith(".") ? "starts with a dot" : "has an empty part between two dots",
                        AS_JAVA_WRITES_IT);
            }
            if (!isIdentifier(part)) {
                throw InvalidClassFilterEntryException.advise(kind, entry,
                        "has a part that is not a Java identifier (" + part + ")", AS_JAVA_WRITES_IT);
            }
            if (KEYWORDS.contains(part)) {
                throw InvalidClassFilterEntryException.advise(kind, entry,
                        "has a Java keyword for a part (" + part + "), which no package or class name can have",
                        AS_JAVA_WRITES_IT);
            }
        }
        return parts;
    }

    private static boolean isIdentifier(String part) {
        if (!Character.isJavaIdentifierStart(part.codePointAt(0))) {
            return false;
        }
        for (int i = Character.charCount(part.codePointAt(0)); i < part.length(); ) {
            int c = part.codePointAt(i);
            if (!Character.isJavaIdentifierPart(c) || Character.isIdentifierIgnorable(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /**
     * An entry with a {@code *}: {@code com.example.*} and {@code com.example.**} are the package
     * {@code com.example}, in the package list.
     */
    private static InvalidClassFilterEntryException wildcard(Kind kind, String entry, String name) {
        String base = name;
        while (base.endsWith("*") || base.endsWith(".")) {
            base = base.substring(0, base.length() - 1);
        }
        if (base.indexOf('*') < 0 && isPackageName(base)) {
            return InvalidClassFilterEntryException.write(kind, entry, "is a wildcard", base, Kind.PACKAGE,
                    PACKAGE_INCLUDES);
        }
        return InvalidClassFilterEntryException.advise(kind, entry, "is a wildcard",
                "name each package without one (" + PACKAGE_INCLUDES + "); no entry allows every class");
    }

    /** Whether a name would pass {@link #packageName} (used for the fixes, which must be valid). */
    private static boolean isPackageName(String name) {
        try {
            packageName(name);
            return true;
        } catch (InvalidClassFilterEntryException e) {
            return false;
        }
    }
}
