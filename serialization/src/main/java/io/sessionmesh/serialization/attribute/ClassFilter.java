package io.sessionmesh.serialization.attribute;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Which classes a client may instantiate when it decodes a value.
 *
 * <p>Two lists, checked by class name before the class is even loaded: a deny list of well-known
 * deserialization gadgets (always applied, whatever is allowed), and the allowed package prefixes, which
 * the application names with {@link #allowing(String...)}, on top of the JDK value types and the
 * collections that attribute values are made of ({@link #ALWAYS_ALLOWED}).
 *
 * <p>There is no filter that allows everything: one-nio runs the {@code readObject}, {@code readExternal},
 * {@code hashCode} and comparators of the classes a value names, and the end user chooses which session is
 * read, so every client says which packages its values come from. A class outside them fails that one value
 * with a {@link ClassNotAllowedException}; the fix is to name its package.
 */
public final class ClassFilter {
    /**
     * Prefixes of classes that are the building blocks of values, allowed whenever prefixes are set.
     * {@code java.lang.} is narrowed by the deny list (reflection, processes, class loaders).
     *
     * <p>{@code java.net.URL} and the {@code java.net.Inet*} addresses are not here: their {@code hashCode}
     * and {@code equals} resolve host names, so a URL put as a key into a map being decoded makes the reader
     * look up a name the writer chose (the URLDNS gadget). An application that does store them names them,
     * for instance {@code allowing("com.example.bank.", "java.net.URL")}.
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
     * filter guides): never instantiated, whatever the allowed prefixes say.
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

    private final List<String> allowedPrefixes;

    private ClassFilter(List<String> allowedPrefixes) {
        this.allowedPrefixes = allowedPrefixes;
    }

    /**
     * A filter that allows the given entries and
     * {@link #ALWAYS_ALLOWED}, minus {@link #ALWAYS_DENIED}. An entry ending with '.' is a package prefix
     * (such as {@code "com.example.bank."}); any other entry is one class and its nested classes.
     */
    public static ClassFilter allowing(String... packagePrefixes) {
        List<String> prefixes = new ArrayList<>(ALWAYS_ALLOWED);
        for (String prefix : packagePrefixes) {
            Objects.requireNonNull(prefix, "packagePrefix");
            if (prefix.isBlank()) {
                throw new IllegalArgumentException("allowed package prefix must not be blank");
            }
            prefixes.add(prefix);
        }
        return new ClassFilter(Collections.unmodifiableList(prefixes));
    }

    /** The allowed prefixes: {@link #ALWAYS_ALLOWED} and the application's. */
    public List<String> allowedPrefixes() {
        return allowedPrefixes;
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
        for (String allowed : allowedPrefixes) {
            if (matches(name, allowed)) {
                return;
            }
        }
        throw new ClassNotAllowedException(className, "its package is not among the allowed prefixes " + allowedPrefixes);
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

    /** An entry ending with '.' is a package prefix; any other entry is one class and its nested classes. */
    private static boolean matches(String name, String entry) {
        if (entry.endsWith(".")) {
            return name.startsWith(entry);
        }
        return name.startsWith(entry) && (name.length() == entry.length() || name.charAt(entry.length()) == '$');
    }

    private static String elementName(String className) {
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
        return "ClassFilter[allow " + allowedPrefixes + ", deny " + ALWAYS_DENIED.size() + " gadget prefixes]";
    }
}
