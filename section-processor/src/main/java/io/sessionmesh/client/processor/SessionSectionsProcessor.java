package io.sessionmesh.client.processor;

import io.sessionmesh.client.annotation.SessionSections;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks {@link SessionSections} declarations at compile time and writes {@link SectionIndex#RESOURCE}.
 *
 * <p>Errors, each on the element and the annotation value at fault: an empty list; a blank name; a name listed twice;
 * a name that is not a valid section name (1..255 bytes of UTF-8, no control character, no comma). A method without
 * a Spring request mapping still gets its entry (with no URL), and a warning, since nothing will route to it.
 *
 * <p>The HTTP methods and URL patterns come from Spring's mapping annotations ({@code @RequestMapping},
 * {@code @GetMapping}, ...), read by name so the processor needs no Spring on the compiler's path; a class-level
 * {@code @RequestMapping} prefixes the method's paths.
 */
@SupportedAnnotationTypes("io.sessionmesh.client.annotation.SessionSections")
public final class SessionSectionsProcessor extends AbstractProcessor {
    private static final String SPRING = "org.springframework.web.bind.annotation.";
    private static final Map<String, String> MAPPINGS = Map.of(
            SPRING + "GetMapping", "GET", SPRING + "PostMapping", "POST", SPRING + "PutMapping", "PUT",
            SPRING + "PatchMapping", "PATCH", SPRING + "DeleteMapping", "DELETE", SPRING + "RequestMapping", "");

    private final Map<String, SectionIndex.Entry> entries = new LinkedHashMap<>();
    /** Class-level declarations, checked once each (null: bad). */
    private final Map<TypeElement, List<String>> classDeclarations = new LinkedHashMap<>();
    private Messager messager;
    private Elements elements;
    private Types types;
    private Filer filer;

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        messager = env.getMessager();
        elements = env.getElementUtils();
        types = env.getTypeUtils();
        filer = env.getFiler();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        for (Element e : round.getElementsAnnotatedWith(SessionSections.class)) {
            List<String> own = e instanceof TypeElement t ? checkOnce(t) : check(e);
            if (own == null) {
                continue;
            }
            if (e.getKind() == ElementKind.METHOD) {
                ExecutableElement m = (ExecutableElement) e;
                List<String> sections = union(classSections((TypeElement) m.getEnclosingElement()), own);
                index(m, sections, true);
            } else if (e instanceof TypeElement type) {
                for (Element member : type.getEnclosedElements()) {
                    if (member.getKind() == ElementKind.METHOD && member.getAnnotation(SessionSections.class) == null
                            && mapping(member) != null) {
                        index((ExecutableElement) member, own, false);
                    }
                }
            }
        }
        if (round.processingOver()) {
            write();
        }
        return true;
    }

    /** The sections declared on an element, checked; null (and errors reported) when the declaration is bad. */
    private List<String> check(Element e) {
        AnnotationMirror mirror = mirror(e);
        AnnotationValue value = valueOf(mirror, "value");
        List<String> names = new ArrayList<>();
        boolean ok = true;
        @SuppressWarnings("unchecked")
        List<? extends AnnotationValue> items = value == null ? List.of() : (List<? extends AnnotationValue>) value.getValue();
        if (items.isEmpty()) {
            messager.printMessage(Diagnostic.Kind.ERROR, "@SessionSections lists no section: name the sections this "
                    + "handler reads, or remove the annotation", e, mirror, value);
            return null;
        }
        Set<String> seen = new LinkedHashSet<>();
        for (AnnotationValue item : items) {
            String name = String.valueOf(item.getValue());
            String problem = SectionNames.problem(name);
            if (problem != null) {
                messager.printMessage(Diagnostic.Kind.ERROR, "@SessionSections: \"" + printable(name) + "\" " + problem,
                        e, mirror, item);
                ok = false;
            } else if (!seen.add(name)) {
                messager.printMessage(Diagnostic.Kind.ERROR, "@SessionSections: section \"" + name + "\" is listed twice",
                        e, mirror, item);
                ok = false;
            } else {
                names.add(name);
            }
        }
        return ok ? names : null;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }

    private List<String> classSections(TypeElement type) {
        if (type.getAnnotation(SessionSections.class) == null) {
            return List.of();
        }
        List<String> s = checkOnce(type);
        return s == null ? List.of() : s;
    }

    private List<String> checkOnce(TypeElement type) {
        if (!classDeclarations.containsKey(type)) {
            classDeclarations.put(type, check(type));
        }
        return classDeclarations.get(type);
    }

    private static List<String> union(List<String> a, List<String> b) {
        Set<String> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return new ArrayList<>(all);
    }

    private void index(ExecutableElement m, List<String> sections, boolean explicit) {
        Mapping mapping = mapping(m);
        if (mapping == null && explicit) {
            messager.printMessage(Diagnostic.Kind.WARNING, "@SessionSections on a method with no Spring request mapping "
                    + "(@RequestMapping, @GetMapping, ...): it is indexed without a URL", m);
        }
        Mapping prefix = typeMapping((TypeElement) m.getEnclosingElement());
        List<String> patterns = new ArrayList<>();
        List<String> methods = new ArrayList<>();
        if (mapping != null) {
            List<String> bases = prefix == null || prefix.paths.isEmpty() ? List.of("") : prefix.paths;
            List<String> paths = mapping.paths.isEmpty() ? List.of("") : mapping.paths;
            for (String base : bases) {
                for (String path : paths) {
                    patterns.add(joinPath(base, path));
                }
            }
            methods.addAll(mapping.methods.isEmpty() && prefix != null ? prefix.methods : mapping.methods);
        }
        String key = key(m);
        entries.put(key, new SectionIndex.Entry(key, methods, patterns, sections));
    }

    private static String joinPath(String base, String path) {
        String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        String p = path.isEmpty() || path.startsWith("/") ? path : "/" + path;
        String joined = b + p;
        return joined.isEmpty() ? "/" : joined;
    }

    /** The method's key as {@link SectionIndex#key} computes it at run time. */
    private String key(ExecutableElement m) {
        TypeElement owner = (TypeElement) m.getEnclosingElement();
        StringBuilder b = new StringBuilder(elements.getBinaryName(owner).toString()).append('#')
                .append(m.getSimpleName()).append('(');
        List<? extends VariableElement> params = m.getParameters();
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(erasedName(types.erasure(params.get(i).asType())));
        }
        return b.append(')').toString();
    }

    private String erasedName(TypeMirror t) {
        if (t.getKind() == TypeKind.ARRAY) {
            return erasedName(((ArrayType) t).getComponentType()) + "[]";
        }
        if (t.getKind() == TypeKind.DECLARED) {
            return elements.getBinaryName((TypeElement) ((DeclaredType) t).asElement()).toString();
        }
        return t.toString();
    }

    /** A Spring mapping: HTTP methods (empty: any) and paths. */
    private record Mapping(List<String> methods, List<String> paths) {
    }

    private Mapping mapping(Element e) {
        for (AnnotationMirror a : e.getAnnotationMirrors()) {
            String type = ((TypeElement) a.getAnnotationType().asElement()).getQualifiedName().toString();
            String fixed = MAPPINGS.get(type);
            if (fixed != null) {
                List<String> methods = new ArrayList<>();
                if (!fixed.isEmpty()) {
                    methods.add(fixed);
                } else {
                    for (String m : strings(valueOf(a, "method"))) {
                        methods.add(m.substring(m.lastIndexOf('.') + 1));
                    }
                }
                List<String> paths = new ArrayList<>(strings(valueOf(a, "value")));
                paths.addAll(strings(valueOf(a, "path")));
                return new Mapping(methods, paths);
            }
        }
        return null;
    }

    private Mapping typeMapping(TypeElement type) {
        return mapping(type);
    }

    private static List<String> strings(AnnotationValue v) {
        if (v == null) {
            return List.of();
        }
        Object o = v.getValue();
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> list) {
            for (Object item : list) {
                out.add(String.valueOf(((AnnotationValue) item).getValue()));
            }
        } else {
            out.add(String.valueOf(o));
        }
        return out;
    }

    private static AnnotationMirror mirror(Element e) {
        for (AnnotationMirror a : e.getAnnotationMirrors()) {
            if (((TypeElement) a.getAnnotationType().asElement()).getQualifiedName().contentEquals(SessionSections.class.getName())) {
                return a;
            }
        }
        return null;
    }

    private static AnnotationValue valueOf(AnnotationMirror a, String name) {
        if (a == null) {
            return null;
        }
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : a.getElementValues().entrySet()) {
            if (e.getKey().getSimpleName().contentEquals(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    private void write() {
        if (entries.isEmpty()) {
            return;
        }
        try {
            FileObject f = filer.createResource(StandardLocation.CLASS_OUTPUT, "", SectionIndex.RESOURCE);
            try (Writer w = f.openWriter()) {
                w.write("# @SessionSections index, written by " + getClass().getName() + "\n");
                w.write("# handler\thttp methods\turl patterns\tsections\n");
                for (SectionIndex.Entry e : entries.values()) {
                    w.write(e.line());
                    w.write('\n');
                }
            }
        } catch (IOException e) {
            messager.printMessage(Diagnostic.Kind.ERROR, "cannot write " + SectionIndex.RESOURCE + ": " + e.getMessage());
        }
    }
}
