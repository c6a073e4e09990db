package io.sessionmesh.benchmarks.driver.stack;

import java.util.ArrayList;
import java.util.List;

/** Flags of the processes a stack starts, as the driver's own flags give them: one string split at spaces. */
public final class Flags {
    private Flags() {
    }

    /** {@code "--io-threads 1 --vnodes 64"} as its words; none for a blank line. */
    public static List<String> split(String line) {
        return line == null || line.isBlank() ? List.of() : List.of(line.trim().split("\\s+"));
    }

    /** A flag's name: {@code --name} of {@code --name=value} or of {@code --name}. */
    public static String name(String flag) {
        int eq = flag.indexOf('=');
        return eq < 0 ? flag : flag.substring(0, eq);
    }

    /** Whether {@code flags} name {@code name} ({@code --name value} or {@code --name=value}). */
    public static boolean names(List<String> flags, String name) {
        return flags.stream().anyMatch(f -> name(f).equals(name));
    }

    /**
     * {@code defaults} with {@code user} after them, a default the user names left out: a server refuses a flag given
     * twice, and Spring reads a setting given twice as a list, not as the last one.
     */
    public static List<String> over(List<String> defaults, List<String> user) {
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < defaults.size(); i++) {
            String flag = defaults.get(i);
            boolean valueFollows = flag.startsWith("--") && !flag.contains("=") && i + 1 < defaults.size()
                    && !defaults.get(i + 1).startsWith("--");
            if (!names(user, name(flag))) {
                flags.add(flag);
                if (valueFollows) {
                    flags.add(defaults.get(i + 1));
                }
            }
            if (valueFollows) {
                i++;
            }
        }
        flags.addAll(user);
        return flags;
    }
}
