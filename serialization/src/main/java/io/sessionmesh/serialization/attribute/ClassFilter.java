package io.sessionmesh.serialization.attribute;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which classes a client may instantiate when it decodes a value.
 *
 * <p>Two lists, checked by class name before the class is even loaded: a deny list of well-known deserialization
 * gadgets (always applied, whatever is allowed), and what the application allows, on top of the JDK value types and
 * the collections that attribute values are made of ({@link #ALWAYS_ALLOWED}):
 * <pre>{@code
 * ClassFilter.allowingPackages("com.example.bank")     // com.example.bank and every package under it
 *         .andClasses("java.net.URL");                 // that class and its nested classes
 * }</pre>
 *
 * <table>
 *   <caption>Entries</caption>
 *   <tr><th>entry</th><th>allows</th><th>does not allow</th></tr>
 *   <tr><td>package {@code com.example.bank} (or, as before, {@code com.example.bank.})</td>
 *       <td>{@code com.example.bank.Client}, {@code com.example.bank.cards.Card}</td>
 *       <td>{@code com.example.banking.Loan}, {@code com.example.Other}</td></tr>
 *   <tr><td>class {@code java.net.URL}</td><td>{@code java.net.URL} and its nested classes</td>
 *       <td>{@code java.net.URLConnection}</td></tr>
 * </table>
 *
 * <p>Each entry is checked when the filter is made: one that is not a name as Java writes it (a wildcard, a class
 * among the packages, a keyword) or that can match nothing (everything under it is always denied) is refused with an
 * {@link InvalidClassFilterEntryException} that names the fix, so that no entry silently turns values into
 * {@link ClassNotAllowedException}s. Leading and trailing spaces are trimmed.
 *
 * <p>There is no filter that allows everything: one-nio runs the {@code readObject}, {@code readExternal},
 * {@code hashCode} and comparators of the classes a value names, and the end user chooses which session is
 * read, so every client says which packages its values come from. A class outside them fails that one value
 * with a {@link ClassNotAllowedException}; the fix is to name its package.
 *
 * <p>Immutable: {@link #andClasses} makes a new filter.
 */
public final class ClassFilter {
    /**
     * Prefixes of classes that are the building blocks of values, allowed by every filter. An entry ending with '.'
     * is a package prefix, any other one class and its nested classes. {@code java.lang.} is narrowed by the deny
     * list (reflection, processes, class loaders).
     *
     * <p>{@code java.net.URL} and the {@code java.net.Inet*} addresses are not here: their {@code hashCode}
     * and {@code equals} resolve host names, so a URL put as a key into a map being decoded makes the reader
     * look up a name the writer chose (the URLDNS gadget). An application that does store them names them,
     * for instance {@code allowingPackages("com.example.bank").andClasses("java.net.URL")}.
     *
     * <p>{@code java.io.Serializable} is here because fields are declared with it, and a fetched schema's
     * field types pass the filter too; being an interface, nothing is ever made of that class itself.
     */
    public static final List<String> ALWAYS_ALLOWED = List.of(
            "java.lang.", "java.util.", "java.time.", "java.math.", "java.net.URI", "java.io.Serializable",
            "java.sql.Date", "java.sql.Timestamp", "java.sql.Time",
            "com.google.common.collect.");

    /**
     * Well-known gadget classes and packages (ysoserial and the deny lists of Jackson and the JDK's serial
     * filter guides): never instantiated, whatever is allowed. Written as {@link #ALWAYS_ALLOWED} is.
     */
    public static final List<String> ALWAYS_DENIED = List.of(
            "java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.Process", "java.lang.Class",
            "java.lang.ClassLoader", "java.lang.Thread", "java.lang.System", "java.lang.reflect.",
            "java.lang.invoke.", "java.lang.ref.", "java.lang.Module",
            "java.rmi.", "sun.rmi.", "javax.management.", "javax.naming.", "com.sun.jndi.", "java.beans.",
            "javax.script.", "javax.swing.", "java.awt.", "sun.", "jdk.", "com.sun.org.apache.",
            "com.sun.rowset.", "java.util.logging.", "java.util.concurrent.ThreadPoolExecutor",
            "java.util.ServiceLoader", "java.util.PriorityQueue",
            "org.apache.commons.collections.functors.", "org.apache.commons.collections4.functors.",
            "org.apache.commons.collections.keyvalue.TiedMapEntry",
            "org.apache.commons.collections4.keyvalue.TiedMapEntry",
            "org.apache.commons.beanutils.BeanComparator", "org.apache.commons.fileupload.",
            "org.apache.xalan.", "org.apache.wicket.util.upload.", "org.apache.myfaces.",
            "org.apache.tomcat.dbcp.", "org.apache.commons.dbcp.", "org.apache.click.",
            "org.codehaus.groovy.runtime.", "groovy.lang.", "org.python.core.", "org.mozilla.javascript.",
            "bsh.", "clojure.", "com.mchange.", "org.hibernate.engine.", "org.hibernate.tuple.",
            "org.hibernate.property.", "org.springframework.beans.factory.", "org.springframework.aop.",
            "org.springframework.core.SerializableTypeWrapper", "org.springframework.transaction.jta.",
            "org.jboss.interceptor.", "org.jboss.weld.", "com.sun.syndication.", "net.sf.json.",
            "com.alibaba.fastjson.", "ch.qos.logback.core.db.", "com.zaxxer.hikari.", "org.slf4j.",
            "one.nio.");

    /** The application's packages, without the trailing dot. */
    private final List<String> packages;
    /** The application's classes. */
    private final List<String> classes;
    /** What {@link #check} matches: {@link #ALWAYS_ALLOWED}, the packages as prefixes ending with '.', the classes. */
    private final List<String> allowedEntries;

    private ClassFilter(List<String> packages, List<String> classes) {
        this.packages = List.copyOf(packages);
        this.classes = List.copyOf(classes);
        List<String> entries = new ArrayList<>(ALWAYS_ALLOWED);
        for (String p : packages) {
            entries.add(p + ".");
        }
        entries.addAll(classes);
        this.allowedEntries = List.copyOf(entries);
    }

    /**
     * A filter that allows the classes of the given packages and of the packages under them, and
     * {@link #ALWAYS_ALLOWED}, minus {@link #ALWAYS_DENIED}: {@code "com.example.bank"} allows
     * {@code com.example.bank.Client} and {@code com.example.bank.cards.Card}, not {@code com.example.banking.Loan}.
     * None: the JDK value types and collections only.
     *
     * @param packageNames package names as Java writes them; a trailing dot (the former prefix form) is accepted
     * @throws InvalidClassFilterEntryException for an entry that is not a package name (blank, a wildcard, an
     *     illegal identifier, a class: its last part starts with an upper-case letter) or that can match nothing
     *     (every class under it is always denied), naming the fix
     */
    public static ClassFilter allowingPackages(String... packageNames) {
        Set<String> checked = new LinkedHashSet<>();
        for (String name : packageNames) {
            checked.add(ClassFilterEntries.packageName(name));
        }
        return new ClassFilter(new ArrayList<>(checked), List.of());
    }

    /**
     * This filter, also allowing the given classes and their nested classes: {@code "java.net.URL"}, or
     * {@code "com.example.Outer$Inner"} for a nested class alone.
     *
     * @param classNames binary class names ({@link Class#getName()} form)
     * @throws InvalidClassFilterEntryException for an entry that is not a binary class name (blank, a wildcard, a
     *     package prefix ending with a dot, a nested class joined with a dot) or that is always denied, naming the fix
     */
    public ClassFilter andClasses(String... classNames) {
        Set<String> checked = new LinkedHashSet<>(classes);
        for (String name : classNames) {
            checked.add(ClassFilterEntries.className(name));
        }
        return new ClassFilter(packages, new ArrayList<>(checked));
    }

    /** The application's packages ({@link #allowingPackages}), without the trailing dot. */
    public List<String> allowedPackages() {
        return packages;
    }

    /** The application's classes ({@link #andClasses}). */
    public List<String> allowedClasses() {
        return classes;
    }

    /**
     * Checks a class name ({@link Class#getName()} form; arrays are checked by their element class).
     *
     * @throws ClassNotAllowedException naming the class and the rule that refused it
     */
    public void check(String className) {
        String name = elementName(className);
        if (name == null) {
            return; // an array of primitives
        }
        for (String denied : ALWAYS_DENIED) {
            if (matches(name, denied)) {
                throw new ClassNotAllowedException(className, "it matches the always-denied entry '" + denied + "'");
            }
        }
        for (String allowed : allowedEntries) {
            if (matches(name, allowed)) {
                return;
            }
        }
        throw new ClassNotAllowedException(className, "it is in none of the allowed packages " + packages
                + " and not among the allowed classes " + classes + " (JDK value types and collections are always"
                + " allowed: ClassFilter.ALWAYS_ALLOWED)");
    }

    /** Whether {@link #check} would pass. */
    public boolean isAllowed(String className) {
        try {
            check(className);
            return true;
        } catch (ClassNotAllowedException e) {
            return false;
        }
    }

    /**
     * An entry of {@link #ALWAYS_ALLOWED}, {@link #ALWAYS_DENIED} or {@code allowedEntries}: one ending with '.' is
     * a package prefix; any other entry is one class and its nested classes.
     */
    static boolean matches(String name, String entry) {
        if (entry.endsWith(".")) {
            return name.startsWith(entry);
        }
        return name.startsWith(entry) && (name.length() == entry.length() || name.charAt(entry.length()) == '$');
    }

    /** The element class of an array name ({@code [Lcom.x.Y;}), the name itself if not an array; null for primitives. */
    static String elementName(String className) {
        if (!className.startsWith("[")) {
            return className;
        }
        int i = 0;
        while (i < className.length() && className.charAt(i) == '[') {
            i++;
        }
        if (i < className.length() && className.charAt(i) == 'L' && className.endsWith(";")) {
            return className.substring(i + 1, className.length() - 1);
        }
        return null;
    }

    @Override
    public String toString() {
        return "ClassFilter[packages " + packages + ", classes " + classes + ", " + ALWAYS_ALLOWED.size()
                + " always allowed, deny " + ALWAYS_DENIED.size() + " gadget prefixes]";
    }
}
