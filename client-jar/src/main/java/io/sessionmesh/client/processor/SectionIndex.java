package io.sessionmesh.client.processor;

import io.sessionmesh.client.annotation.SessionSections;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The index {@link SessionSectionsProcessor} writes: for each handler that declares sections, its HTTP methods, URL
 * patterns and sections. One line per handler, tab-separated; lists are comma-separated, and in every item the
 * characters {@code % , TAB CR LF} are written {@code %25 %2C %09 %0D %0A}:
 *
 * <pre>
 * com.example.DepositController#offer(java.lang.String)	GET	/deposits/offer	clientInfo,defaultCurrency,interestRates
 * </pre>
 *
 * Read at run time from every {@value #RESOURCE} on the class path; nothing scans classes. A handler the index lacks
 * (a build without the processor) is read from its annotations when it is first called ({@link #forMethod}).
 */
public final class SectionIndex {
    /** Where the processor writes the index, in the compiled classes. */
    public static final String RESOURCE = "META-INF/sessionmesh/sections.index";

    /** One handler's entry. */
    public record Entry(String handler, List<String> httpMethods, List<String> patterns, List<String> sections) {
        String line() {
            return handler + "\t" + join(httpMethods) + "\t" + join(patterns) + "\t" + join(sections);
        }
    }

    private final Map<String, Entry> byHandler;
    /**
     * {@link #forMethod}'s answers, so that a request does not build the method's key string again; {@link #NONE} for
     * a method without sections. Bounded by the application's handler methods.
     */
    private final Map<Method, Entry> byMethod = new ConcurrentHashMap<>();
    private static final Entry NONE = new Entry("", List.of(), List.of(), List.of());
    private static final Logger log = LoggerFactory.getLogger(SectionIndex.class);
    private final AtomicBoolean warned = new AtomicBoolean();
    private final AtomicLong reflectionFallbacks = new AtomicLong();

    private SectionIndex(Map<String, Entry> byHandler) {
        this.byHandler = Collections.unmodifiableMap(byHandler);
    }

    /** The index of every {@value #RESOURCE} the class loader sees. */
    public static SectionIndex load(ClassLoader loader) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        try {
            Enumeration<URL> urls = loader.getResources(RESOURCE);
            while (urls.hasMoreElements()) {
                URL url = urls.nextElement();
                try (BufferedReader r = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.isBlank() || line.startsWith("#")) {
                            continue;
                        }
                        Entry e = parse(line, url);
                        entries.put(e.handler(), e);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
        return new SectionIndex(entries);
    }

    static Entry parse(String line, Object source) {
        String[] f = line.split("\t", -1);
        if (f.length != 4) {
            throw new IllegalStateException(source + ": a line of " + RESOURCE + " must have 4 tab-separated fields: " + line);
        }
        return new Entry(f[0], split(f[1]), split(f[2]), split(f[3]));
    }

    /**
     * The entry of a handler method, or null when it declares no sections. A method the index does not hold but that
     * carries {@link SessionSections} (or whose class does) was compiled without the processor: its entry is read from
     * the annotations ({@link #fromAnnotations}), with one warning for the index that says how to fix the build.
     *
     * @throws IllegalStateException an annotation the processor would have refused (no section, an invalid or
     *                               repeated name), naming the method
     */
    public Entry forMethod(Method method) {
        Entry e = byMethod.get(method);
        if (e == null) {
            e = byHandler.get(key(method));
            if (e == null) {
                e = fromAnnotations(method);
            }
            e = e == null ? NONE : e;
            byMethod.put(method, e);
        }
        return e == NONE ? null : e;
    }

    /**
     * The entry the processor would have written for {@code m}, without URL patterns or HTTP methods: the class's
     * sections, then the method's own; null when neither is annotated.
     */
    Entry fromAnnotations(Method m) {
        SessionSections own = m.getAnnotation(SessionSections.class);
        SessionSections type = m.getDeclaringClass().getAnnotation(SessionSections.class);
        if (own == null && type == null) {
            return null;
        }
        String key = key(m);
        Set<String> sections = new LinkedHashSet<>();
        for (SessionSections declared : new SessionSections[] {type, own}) {
            if (declared == null) {
                continue;
            }
            if (declared.value().length == 0) {
                throw new IllegalStateException("@SessionSections on " + key + " lists no section");
            }
            Set<String> once = new HashSet<>();
            for (String name : declared.value()) {
                String problem = SectionNames.problem(name);
                if (problem != null) {
                    throw new IllegalStateException("@SessionSections on " + key + ": \"" + name + "\" " + problem);
                }
                if (!once.add(name)) {
                    throw new IllegalStateException("@SessionSections on " + key + ": section \"" + name + "\" is listed twice");
                }
                sections.add(name);
            }
        }
        reflectionFallbacks.incrementAndGet();
        if (!byHandler.isEmpty()) { // the processor ran, and did not take this method for a handler
            log.warn("@SessionSections on {} is not in {} (the processor did not see a request mapping on it: a composed "
                    + "or inherited one?); its sections are read from the annotations", key, RESOURCE);
        } else if (warned.compareAndSet(false, true)) {
            log.warn("@SessionSections on {} is not in {}: this build ran without the SessionMesh annotation processor, "
                    + "so the sections of such handlers are read from their annotations (this warning is logged once). "
                    + "Put io.sessionmesh:sessionmesh-section-processor on the compiler's annotationProcessorPaths: from "
                    + "JDK 23 javac runs no processor it finds on the class path, and a build that sets the paths "
                    + "(Lombok's, say) must list it there too (docs/spring.md, \"@SessionSections and the annotation "
                    + "processor\")", key, RESOURCE);
        }
        return new Entry(key, List.of(), List.of(), List.copyOf(sections));
    }

    /** Handler methods whose entry was read from their annotations, not the index (the processor did not run). */
    public long reflectionFallbacks() {
        return reflectionFallbacks.get();
    }

    public Entry forHandler(String key) {
        return byHandler.get(key);
    }

    public Map<String, Entry> entries() {
        return byHandler;
    }

    /** A method's key, as the processor writes it: binary class name, '#', name, parameter types. */
    public static String key(Method m) {
        StringBuilder b = new StringBuilder(m.getDeclaringClass().getName()).append('#').append(m.getName()).append('(');
        Class<?>[] params = m.getParameterTypes();
        for (int i = 0; i < params.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(typeName(params[i]));
        }
        return b.append(')').toString();
    }

    private static String typeName(Class<?> c) {
        return c.isArray() ? typeName(c.getComponentType()) + "[]" : c.getName();
    }

    static String join(List<String> items) {
        List<String> encoded = new ArrayList<>(items.size());
        for (String s : items) {
            encoded.add(s.replace("%", "%25").replace(",", "%2C").replace("\t", "%09").replace("\r", "%0D")
                    .replace("\n", "%0A"));
        }
        return String.join(",", encoded);
    }

    private static List<String> split(String field) {
        if (field.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(field.split(",", -1)).map(SectionIndex::unescape).toList();
    }

    private static String unescape(String s) {
        return s.replace("%2C", ",").replace("%09", "\t").replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%");
    }
}
