package io.sessionmesh.testing.hosts;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names a run of {@link TestHosts} gives what it makes, in one place, so that {@link Cleanup} finds exactly those
 * and nothing else: every name starts with {@link #PREFIX} and carries the run's id, a few lower-case letters and
 * digits, and each kind of name has one pattern that the cleanup matches in full.
 *
 * <table>
 *   <caption>Names of run {@code k3x9q}</caption>
 *   <tr><th>what</th><th>name</th><th>limit</th></tr>
 *   <tr><td>network namespace of host {@code a}</td><td>{@code smh-k3x9q-a}</td><td>none that matters</td></tr>
 *   <tr><td>bridge in the root namespace</td><td>{@code smhk3x9qbr}</td><td>15 characters (IFNAMSIZ)</td></tr>
 *   <tr><td>root end of host 3's veth</td><td>{@code smhk3x9qv3}</td><td>15 characters</td></tr>
 *   <tr><td>iptables comment, tmpfs source</td><td>{@code smh-k3x9q}</td><td></td></tr>
 *   <tr><td>the run's owner file</td><td>{@code /run/sessionmesh-test-hosts/k3x9q.pid}</td><td></td></tr>
 * </table>
 */
final class RunNames {
    /** What every name of every run starts with. */
    static final String PREFIX = "smh";
    /** Characters in a run id: 36^5, about 60 million, so that two runs on one machine do not draw the same. */
    static final int RUN_ID_CHARS = 5;
    /** Where each live run writes its owner's pid (cleared at boot: /run is a tmpfs on Debian). */
    static final Path STATE_DIR = Path.of("/run/sessionmesh-test-hosts");

    private static final String ID = "([a-z0-9]{" + RUN_ID_CHARS + "})";
    static final Pattern NAMESPACE = Pattern.compile(PREFIX + "-" + ID + "-[a-z][a-z0-9]*");
    static final Pattern LINK = Pattern.compile(PREFIX + ID + "(br|v\\d{1,2})");
    static final Pattern TAG = Pattern.compile(PREFIX + "-" + ID);
    static final Pattern STATE_FILE = Pattern.compile(ID + "\\.pid");
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String id;

    RunNames(String id) {
        if (!id.matches("[a-z0-9]{" + RUN_ID_CHARS + "}")) {
            throw new IllegalArgumentException("run id " + id + " is not " + RUN_ID_CHARS + " lower-case letters or digits");
        }
        this.id = id;
    }

    /** A fresh run id. */
    static RunNames fresh() {
        StringBuilder b = new StringBuilder(RUN_ID_CHARS);
        for (int i = 0; i < RUN_ID_CHARS; i++) {
            b.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return new RunNames(b.toString());
    }

    String id() {
        return id;
    }

    String namespace(String host) {
        return PREFIX + "-" + id + "-" + host;
    }

    String bridge() {
        return PREFIX + id + "br";
    }

    String veth(int host) {
        return PREFIX + id + "v" + host;
    }

    /** The iptables comment and the tmpfs source of this run. */
    String tag() {
        return PREFIX + "-" + id;
    }

    Path stateFile() {
        return STATE_DIR.resolve(id + ".pid");
    }

    /** The run id in {@code name} when the whole name is one of the run names that {@code pattern} describes. */
    static Optional<String> runOf(Pattern pattern, String name) {
        Matcher m = pattern.matcher(name);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
