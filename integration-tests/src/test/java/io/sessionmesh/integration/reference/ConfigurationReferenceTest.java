package io.sessionmesh.integration.reference;

import com.fasterxml.jackson.databind.JsonNode;

import io.sessionmesh.client.spring.SessionMeshProperties;
import io.sessionmesh.httpsession.SessionMeshHttpSessionProperties;

import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The committed docs/configuration.md is what the settings' declarations and the Spring metadata render now: a
 * setting added, a default or a range changed, or a description edited without regenerating the reference fails here,
 * naming the first line that differs and the command that regenerates the file.
 */
class ConfigurationReferenceTest {
    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    @Test
    void committedReference_isWhatTheDeclarationsRender() throws IOException {
        Path file = ROOT.resolve(ConfigurationReference.FILE);
        String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        String difference = firstDifference(committed, ConfigurationReference.render());
        if (difference != null) {
            fail(ConfigurationReference.FILE + " is out of date with the settings' declarations: " + difference
                    + "\nRegenerate it from the project's root with\n  " + ConfigurationReference.COMMAND
                    + "\nand commit it.");
        }
    }

    /** Where {@code committed} first differs from {@code rendered}, in words; null when they are the same. */
    static String firstDifference(String committed, String rendered) {
        List<String> have = committed.lines().toList();
        List<String> want = rendered.lines().toList();
        for (int i = 0; i < Math.max(have.size(), want.size()); i++) {
            String h = i < have.size() ? have.get(i) : null;
            String w = i < want.size() ? want.get(i) : null;
            if (h == null || !h.equals(w)) {
                return "line " + (i + 1) + " is\n  " + (h == null ? "(past the end of the file)" : h)
                        + "\nbut the declarations render\n  " + (w == null ? "(no line: the file should end before it)" : w);
            }
        }
        return committed.equals(rendered) ? null : "the two differ only in line endings or the final newline";
    }

    /**
     * The defaults the reference shows for Spring properties are those the properties classes hold: the processor
     * finds literal ones itself, and additional-spring-configuration-metadata.json gives those it cannot see
     * (constants of another class), which nothing else would keep in step.
     */
    @Test
    void springMetadataDefaults_areThePropertiesClassesDefaults() throws ReflectiveOperationException {
        for (Class<?> type : List.of(SessionMeshProperties.class, SessionMeshHttpSessionProperties.class)) {
            JsonNode metadata = ConfigurationReference.metadataOf(type);
            String prefix = StreamSupport.stream(metadata.path("groups").spliterator(), false)
                    .filter(g -> g.path("type").asText().equals(type.getName())).findFirst().orElseThrow()
                    .path("name").asText() + ".";
            Object defaults = type.getDeclaredConstructor().newInstance();
            for (JsonNode p : metadata.path("properties")) {
                String name = p.path("name").asText();
                Object value = defaults;
                for (String part : name.substring(prefix.length()).split("\\.")) {
                    value = getter(value.getClass(), part).invoke(value);
                }
                JsonNode shown = p.path("defaultValue");
                if (value instanceof Duration d) { // "1s" or "1000ms": either is the same default
                    assertEquals(d, DurationStyle.detectAndParse(shown.asText()), name);
                } else {
                    assertEquals(json(value), shown.isMissingNode() ? null : shown.toString(), name);
                }
            }
        }
    }

    /** A value as the metadata's defaultValue writes it (JSON), or null where it gives none. */
    private static String json(Object value) {
        if (value == null || value instanceof List<?> l && l.isEmpty()) {
            return null;
        }
        if (value instanceof List<?> l) {
            return l.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(",", "[", "]"));
        }
        if (value instanceof Enum<?> e) {
            return "\"" + e.name().toLowerCase(Locale.ROOT).replace('_', '-') + "\"";
        }
        return value instanceof Boolean || value instanceof Number ? value.toString() : "\"" + value + "\"";
    }

    /** {@code getDefaultSection} for {@code default-section} ({@code is...} for a boolean). */
    private static Method getter(Class<?> type, String property) throws NoSuchMethodException {
        String camel = Pattern.compile("-(.)").matcher(property).replaceAll(m -> m.group(1).toUpperCase(Locale.ROOT));
        String suffix = Character.toUpperCase(camel.charAt(0)) + camel.substring(1);
        try {
            return type.getMethod("get" + suffix);
        } catch (NoSuchMethodException e) {
            return type.getMethod("is" + suffix);
        }
    }

    @Test
    void firstDifference_namesTheLine_andEitherEnd() {
        assertNull(firstDifference("a\nb\n", "a\nb\n"));
        assertEquals("line 2 is\n  b\nbut the declarations render\n  c", firstDifference("a\nb\n", "a\nc\n"));
        assertEquals("line 2 is\n  (past the end of the file)\nbut the declarations render\n  b",
                firstDifference("a\n", "a\nb\n"));
    }

    @Test
    void markdown_turnsJavadocTagsIntoCode_andCellsEscapeWhatTablesAndHtmlWouldEat() {
        assertEquals("`ClassFilter#ALWAYS_ALLOWED` or `x.y`, see the docs",
                ConfigurationReference.markdown("{@link io.sessionmesh.serialization.ClassFilter#ALWAYS_ALLOWED} or\n"
                        + " {@code x.y}, see {@link Foo the docs}"));
        assertEquals("`a\\|b` group:&lt;name&gt; `<c>`", ConfigurationReference.cell("`a|b` group:<name> `<c>`"));
    }
}
