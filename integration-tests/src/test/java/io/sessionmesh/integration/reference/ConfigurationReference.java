package io.sessionmesh.integration.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.sessionmesh.client.spring.SessionMeshProperties;
import io.sessionmesh.httpsession.SessionMeshHttpSessionProperties;
import io.sessionmesh.local.LocalMain;
import io.sessionmesh.master.config.MasterSettings;
import io.sessionmesh.registry.RegistrySettings;
import io.sessionmesh.settings.Setting;
import io.sessionmesh.settings.SettingList;
import io.sessionmesh.sidecar.config.SidecarSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders docs/configuration.md, the settings reference: one table per program from its settings' declarations
 * ({@link MasterSettings}, {@link SidecarSettings}, {@link LocalMain#DIFFERENCES}, {@link RegistrySettings}), and one
 * per Spring properties class from the {@code META-INF/spring-configuration-metadata.json} that Spring Boot's
 * configuration processor writes from its Javadoc. {@code main} writes the file ({@link #COMMAND});
 * {@link ConfigurationReferenceTest} fails when the committed one differs.
 *
 * <p>Here, in the integration tests' test code, because this module alone sees every program and the Spring modules
 * without any of them depending on another for it, and nothing of it ships.
 */
public final class ConfigurationReference {
    /** The reference, from the project's root. */
    public static final Path FILE = Path.of("docs", "configuration.md");
    /** The command that regenerates it, from the project's root (the profile runs {@link #main} with the root). */
    public static final String COMMAND = "mvn -B -ntp -q -pl integration-tests -am process-test-classes "
            + "-Pconfiguration-reference";
    /** Where the configuration processor writes the metadata of a module's properties classes. */
    static final String SPRING_METADATA = "META-INF/spring-configuration-metadata.json";
    /** Javadoc's inline tags as the processor leaves them in a description: {@code {@code x}}, {@code {@link a.B#c}}. */
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|link|linkplain|value) ([^}]*)}");

    private ConfigurationReference() {
    }

    /** Writes the reference under the project root given (default: the working directory). */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path file = root.resolve(FILE);
        Files.writeString(file, render(), StandardCharsets.UTF_8);
        System.out.println("wrote " + file);
    }

    /** The whole reference, as docs/configuration.md holds it. */
    public static String render() {
        StringBuilder b = new StringBuilder();
        b.append("# Configuration reference\n\n");
        b.append("<!-- Generated: do not edit. Regenerate with `").append(COMMAND).append("`. -->\n\n");
        b.append("Generated from the settings' own declarations (`MasterSettings`, `SidecarSettings`, `RegistrySettings`, "
                + "`LocalMain`), which the programs read their settings through, and from the Spring Boot configuration "
                + "metadata of the client jar and `sessionmesh-spring-session`, which Spring Boot's configuration "
                + "processor writes from the properties classes' Javadoc. Do not edit it: change the declaration or the "
                + "Javadoc, then regenerate it from the project's root with\n\n");
        b.append("```\n").append(COMMAND).append("\n```\n\n");
        b.append("(`ConfigurationReferenceTest`, in `mvn -B -ntp verify`, fails while this file differs from what they "
                + "render.)\n\n");
        b.append("The master, the sidecar and local mode take flags (`--name value` or `--name=value`; a bare `--name` "
                + "is true) and/or a properties file (`--config file`, same names; flags win). Sizes take units k, m, "
                + "g and t (binary: 1k = 1024 bytes; a bare number is bytes), durations ms, s, m, h and d (a bare number "
                + "is seconds). A misspelt or out-of-range setting stops the program with exit status 2 and a message "
                + "that names it, `--help` lists every setting with its default and what it accepts, and the effective "
                + "configuration is printed at start. A setting *read with* another is read only when that one is "
                + "given; without it, it is refused as unknown.\n\n");

        b.append("## Master (`sessionmesh-master.jar`)\n\n");
        b.append("With `registry-url`, the master also reads the [registry settings](#registry-master-and-sidecar).\n\n");
        settingsTable(b, MasterSettings.OWN, null);
        b.append("\n## Sidecar (`sessionmesh-sidecar.jar`)\n\n");
        b.append("With `registry-url`, the sidecar also reads the [registry settings](#registry-master-and-sidecar) "
                + "its admin endpoint's queries need.\n\n");
        settingsTable(b, SidecarSettings.OWN, null);
        b.append("\n## Local mode (`sessionmesh-local.jar`)\n\n");
        b.append("A sidecar with a master inside it, in one process: the sidecar's settings, with these defaults "
                + "changed.\n\n");
        settingsTable(b, LocalMain.DIFFERENCES, null);
        b.append("\n## Registry (master and sidecar)\n\n");
        b.append("The PostgreSQL active-session registry's settings. A master reads them all; a sidecar only those not "
                + "marked *master only*.\n\n");
        settingsTable(b, RegistrySettings.WRITER, RegistrySettings.QUERIES);

        b.append("\n## Spring Boot properties\n\n");
        b.append("The client jar's Spring Boot integration and the HttpSession drop-in bind these properties as Spring "
                + "Boot binds any (`application.properties`, YAML, environment variables such as "
                + "`SESSIONMESH_SIDECARURI`). IDEs complete and document them from the same metadata.\n\n");
        b.append("### `sessionmesh.*`: the client jar (`sessionmesh-spring-boot-starter`)\n\n");
        propertiesTable(b, SessionMeshProperties.class);
        b.append("\n### `sessionmesh.http-session.*`: the HttpSession drop-in (`sessionmesh-spring-session`)\n\n");
        propertiesTable(b, SessionMeshHttpSessionProperties.class);
        return b.toString();
    }

    /** One row a setting; those not in {@code shared} (when given) are marked as read by the master only. */
    private static void settingsTable(StringBuilder b, SettingList settings, SettingList shared) {
        b.append("| setting | default | accepts | meaning |\n|---|---|---|---|\n");
        for (Setting<?> s : settings.settings()) {
            String meaning = s.meaning();
            if (shared != null && shared.get(s.name()) == null) {
                meaning = "*Master only.* " + meaning;
            }
            if (s.condition() != null) {
                meaning = "*Read with `" + s.condition().name() + "`.* " + meaning;
            }
            row(b, "`" + s.name() + "`", s.shownDefault(), s.accepts(), meaning);
        }
    }

    /** One row a property of the metadata the processor wrote for {@code propertiesClass}'s module. */
    private static void propertiesTable(StringBuilder b, Class<?> propertiesClass) {
        JsonNode metadata = metadataOf(propertiesClass);
        b.append("| property | type | default | meaning |\n|---|---|---|---|\n");
        for (JsonNode p : metadata.path("properties")) {
            String name = p.path("name").asText();
            row(b, "`" + name + "`", type(p.path("type").asText(), hints(metadata, name)),
                    defaultValue(p.path("defaultValue")), markdown(p.path("description").asText()));
        }
    }

    /**
     * The metadata in the jar or classes directory {@code propertiesClass} was loaded from: every module's metadata has
     * the same resource name, Spring Boot's own included.
     */
    static JsonNode metadataOf(Class<?> propertiesClass) {
        URL location = propertiesClass.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader module = new URLClassLoader(new URL[] {location}, null);
             InputStream in = module.getResourceAsStream(SPRING_METADATA)) {
            if (in == null) {
                throw new IllegalStateException("no " + SPRING_METADATA + " in " + location
                        + ": the configuration processor did not run on " + propertiesClass.getName());
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The values a property's hints list, or an enum type's constants; empty when neither. */
    private static List<String> hints(JsonNode metadata, String property) {
        List<String> values = new ArrayList<>();
        for (JsonNode h : metadata.path("hints")) {
            if (h.path("name").asText().equals(property)) {
                h.path("values").forEach(v -> values.add(v.path("value").asText()));
            }
        }
        return values;
    }

    /** {@code java.util.List<java.lang.String>} as {@code List<String>}, with the values it takes. */
    private static String type(String javaType, List<String> hinted) {
        List<String> values = new ArrayList<>(hinted);
        try {
            Class<?> c = Class.forName(javaType, false, ConfigurationReference.class.getClassLoader());
            if (c.isEnum() && values.isEmpty()) {
                Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name()).forEach(values::add);
            }
        } catch (ClassNotFoundException e) {
            // a generic type (List<String>): no values to list
        }
        String simple = "`" + javaType.replaceAll("[\\w$]+\\.", "").replace('$', '.') + "`";
        return values.isEmpty() ? simple : simple + ": " + String.join(", ", values);
    }

    private static String defaultValue(JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            return "none";
        }
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(v -> items.add(v.asText()));
            return items.isEmpty() ? "none" : String.join(",", items);
        }
        return value.asText();
    }

    /** A Javadoc description as Markdown: {@code {@code x}} and {@code {@link a.b.C#d}} become code, {@code C#d}. */
    static String markdown(String javadoc) {
        Matcher m = INLINE_TAG.matcher(javadoc);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String text = m.group(2).strip();
            int space = text.indexOf(' ');
            String replacement = m.group(1).equals("code") ? "`" + text + "`"
                    : space > 0 ? text.substring(space + 1) // a link's label is prose
                    : "`" + text.replaceAll("^[\\w.]+\\.(?=[A-Z])", "") + "`";
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString().replaceAll("\\s+", " ").strip();
    }

    private static void row(StringBuilder b, String... cells) {
        b.append('|');
        for (String cell : cells) {
            b.append(' ').append(cell(cell)).append(" |");
        }
        b.append('\n');
    }

    /**
     * A table cell: {@code |} escaped everywhere (GitHub needs it inside code too), and {@code <} and {@code >} outside
     * code, where they would start an HTML tag ({@code group:<name>}).
     */
    static String cell(String text) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (char ch : text.toCharArray()) {
            if (ch == '`') {
                code = !code;
            }
            if (ch == '|') {
                out.append("\\|");
            } else if (!code && ch == '<') {
                out.append("&lt;");
            } else if (!code && ch == '>') {
                out.append("&gt;");
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }
}
