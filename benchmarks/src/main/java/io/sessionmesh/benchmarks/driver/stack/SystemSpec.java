package io.sessionmesh.benchmarks.driver.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One stack of a run as {@code --systems} names it: a system ({@link Stack#SYSTEMS}), and optionally a name of its own,
 * the project tree whose jars it runs and flags of its own for its masters or sidecars, so that one run measures two
 * builds, or two settings, of the same system side by side, their windows interleaved:
 *
 * <pre>
 *   [name=]system[@tree][+master:--flag=value][+sidecar:--flag=value]...
 *
 *   sessionmesh                                      the system, from --jars, named after itself
 *   before=sessionmesh@/tmp/old-tree                 an older build (its jars built under that tree)
 *   two-loops=sessionmesh+sidecar:--io-threads=2     the same build, its sidecars with one more flag
 * </pre>
 *
 * A stack's own flags come after the run's ({@code --master-flags}, {@code --sidecar-flags}) and replace any of the same
 * name. Names are unique in a run; a name is what the report calls the stack.
 */
public record SystemSpec(String name, String system, Path jars, List<String> masterFlags, List<String> sidecarFlags) {
    /** The roles a stack's own flags may go to. */
    public static final List<String> ROLES = List.of("master", "sidecar");

    public SystemSpec {
        masterFlags = List.copyOf(masterFlags);
        sidecarFlags = List.copyOf(sidecarFlags);
    }

    /** The system alone: named after itself, from {@code jars}, no flags of its own. */
    public static SystemSpec of(String system, Path jars) {
        return new SystemSpec(system, system, jars, List.of(), List.of());
    }

    /**
     * The stacks {@code tokens} name, in order.
     *
     * @throws IllegalArgumentException naming the token: an unknown system or role, a tree without the project's
     *                                  jars' folders, a flag not of the form {@code --name=value}, a name given twice
     */
    public static List<SystemSpec> parse(List<String> tokens, Path defaultJars) {
        List<SystemSpec> specs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String token : tokens) {
            SystemSpec spec = parse(token, defaultJars);
            if (!names.add(spec.name)) {
                throw new IllegalArgumentException("--systems: " + spec.name + " is named twice; give each stack its own "
                        + "name (name=system...)");
            }
            specs.add(spec);
        }
        return List.copyOf(specs);
    }

    static SystemSpec parse(String token, Path defaultJars) {
        String[] parts = token.split("\\+");
        String head = parts[0];
        int eq = head.indexOf('=');
        String name = eq < 0 ? null : head.substring(0, eq);
        String rest = eq < 0 ? head : head.substring(eq + 1);
        int at = rest.indexOf('@');
        String system = at < 0 ? rest : rest.substring(0, at);
        if (!Stack.SYSTEMS.contains(system)) {
            throw new IllegalArgumentException("--systems: " + token + " names no system (" + String.join(", ", Stack.SYSTEMS)
                    + ")");
        }
        if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("--systems: " + token + ": a name is letters, digits, '.', '_' and '-'");
        }
        Path jars = defaultJars;
        if (at >= 0) {
            jars = Path.of(rest.substring(at + 1)).toAbsolutePath().normalize();
            if (!Files.isDirectory(jars.resolve("master-store"))) {
                throw new IllegalArgumentException("--systems: " + token + ": " + jars + " is not a SessionMesh project tree");
            }
        }
        List<String> master = new ArrayList<>();
        List<String> sidecar = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            int colon = parts[i].indexOf(':');
            String role = colon < 0 ? "" : parts[i].substring(0, colon);
            String flag = colon < 0 ? "" : parts[i].substring(colon + 1);
            if (!ROLES.contains(role) || !flag.startsWith("--") || flag.indexOf('=') < 3) {
                throw new IllegalArgumentException("--systems: " + token + ": '" + parts[i] + "' is not role:--name=value "
                        + "with a role of " + ROLES);
            }
            (role.equals("master") ? master : sidecar).add(flag);
        }
        if (name == null) {
            name = at < 0 && parts.length == 1 ? system : token.replaceAll("[^A-Za-z0-9._-]+", "_");
        }
        return new SystemSpec(name, system, jars, master, sidecar);
    }
}
