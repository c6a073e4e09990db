package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.workload.SessionShape;
import io.sessionmesh.workload.ValueSizes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a reference-scale session holds: the uniform shape of docs/WORKLOAD.md ({@value SessionShape#SECTIONS} sections
 * of {@value SessionShape#ATTRIBUTES} attributes, named as the workload names them), with values of random bytes (as
 * compressed values are) in one of two profiles. Not thread-safe: one instance a thread.
 *
 * <table>
 *   <caption>Profiles</caption>
 *   <tr><th>profile</th><th>value size</th><th>value bytes a session</th></tr>
 *   <tr><td>{@link Kind#COMPACT}</td><td>{@value #COMPACT_VALUE_BYTES} B, every value (the workload's median)</td>
 *       <td>{@value #COMPACT_SESSION_VALUE_BYTES} B</td></tr>
 *   <tr><td>{@link Kind#STANDARD}</td><td>the workload's log-normal ({@link ValueSizes}: median 200 B, p99 8 KB, at most
 *       64 KB, mean about 700 B)</td><td>about 42 KB (benchmarks/RESULTS.md 2.3 at 1f3fa7a)</td></tr>
 * </table>
 */
final class SessionProfile {
    /** The compact profile's every value: the workload's median size. */
    static final int COMPACT_VALUE_BYTES = ValueSizes.MEDIAN_BYTES;
    /** Values a session holds in either profile. */
    static final int VALUES_PER_SESSION = SessionShape.SECTIONS * SessionShape.ATTRIBUTES;
    /** Value bytes of a compact session. */
    static final int COMPACT_SESSION_VALUE_BYTES = VALUES_PER_SESSION * COMPACT_VALUE_BYTES;
    /** Distinct compact values to pick from (the master copies each into its own sections; sharing is the driver's). */
    private static final int COMPACT_POOL = 64;

    /** The two profiles, by flag value. */
    enum Kind {
        /** Every value {@value #COMPACT_VALUE_BYTES} B. */
        COMPACT,
        /** The workload's value sizes. */
        STANDARD;

        static Kind of(String flag) {
            return valueOf(flag.toUpperCase(Locale.ROOT));
        }

        String flag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final SplittableRandom random;
    private final ValueSizes sizes;
    private final byte[] source = new byte[ValueSizes.MAX_BYTES];
    private final byte[][] compact = new byte[COMPACT_POOL][];

    SessionProfile(Kind kind, long seed) {
        this.kind = kind;
        this.random = new SplittableRandom(seed);
        this.sizes = new ValueSizes(seed);
        random.nextBytes(source);
        for (int i = 0; i < COMPACT_POOL; i++) {
            compact[i] = Arrays.copyOfRange(source, i * COMPACT_VALUE_BYTES, (i + 1) * COMPACT_VALUE_BYTES);
        }
    }

    Kind kind() {
        return kind;
    }

    /** The next value: in the compact profile one of a few shared arrays, in the standard one a new array. */
    byte[] nextValue() {
        if (kind == Kind.COMPACT) {
            return compact[random.nextInt(COMPACT_POOL)];
        }
        return Arrays.copyOf(source, sizes.next());
    }

    /** A new session's whole data, every section (as the client writes it at login, in one WRITE). */
    List<SectionDelta> newSession() {
        List<SectionDelta> deltas = new ArrayList<>(SessionShape.SECTIONS);
        for (String section : SessionShape.uniformSectionNames()) {
            Map<String, byte[]> set = new LinkedHashMap<>();
            for (int a = 0; a < SessionShape.ATTRIBUTES; a++) {
                set.put(SessionShape.attribute(a), nextValue());
            }
            deltas.add(new SectionDelta(section, set, List.of()));
        }
        return deltas;
    }

    /** Value bytes of {@code deltas} (what a session holds beyond names and lengths: the payload). */
    static long valueBytes(List<SectionDelta> deltas) {
        long sum = 0;
        for (SectionDelta d : deltas) {
            for (byte[] v : d.set().values()) {
                sum += v.length;
            }
        }
        return sum;
    }
}
