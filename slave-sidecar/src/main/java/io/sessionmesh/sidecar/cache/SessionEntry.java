package io.sessionmesh.sidecar.cache;

import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionDelta;

import java.util.Arrays;
import java.util.List;

/**
 * What the cache holds for one session: the sections it has, in wire form, exactly as the master sent or as the
 * sidecar merged them. Immutable: every change makes a new entry, swapped in atomically by {@link SectionCache}.
 *
 * <p>The {@code generation} guards against stale fills. It changes whenever a write of the session starts or ends,
 * or an invalidation arrives; a read that missed remembers the generation it saw and may fill the cache with what
 * the master sent only if the generation is still the same. So a read that overlapped a write never puts the
 * section from before the write back into the cache.
 *
 * <p>The {@code epoch} is the lease epoch of the session's master in which the sections were cached: they are
 * served only in that epoch (see {@code Lease}). The floors are versions known to be on the master: those that
 * invalidations announced, and those that this sidecar's own writes were acknowledged with. A section below its
 * floor is never cached again, whatever answer (a read or another of this sidecar's writes) arrives late. The
 * writes' floors matter because the master does not tell a writer of its own writes (PROTOCOL.md 3.7): two writes
 * of one section through this sidecar may be answered in the other order than the master applied them (they travel
 * on different connections), and once the later one's client has its answer, the earlier one's version must not be
 * cached.
 *
 * <p>The {@code incarnation} tells the entries made for one session apart: the cache makes a new one whenever it has
 * none (the first use, or after an eviction), and every change keeps it. A write's answer is merged only into the
 * incarnation its start was counted in: a new one knows neither of that write nor of the floors the old one held.
 */
public final class SessionEntry {
    private static final EncodedSection[] NONE = {};
    private static final String[] NO_NAMES = {};
    private static final long[] NO_VERSIONS = {};
    private static final byte[] NO_CAUSES = {};
    /** Bytes counted for an entry and for each section on top of their bytes (objects and references). */
    static final int ENTRY_OVERHEAD = 96;
    static final int SECTION_OVERHEAD = 64;
    static final int FLOOR_OVERHEAD = 48;

    /** Which entry of the session this is: new each time the cache makes one, kept by every change. */
    final long incarnation;
    final long generation;
    /** Writes of this session sent through this sidecar and not yet answered (those started in this incarnation). */
    final int writesInFlight;
    /**
     * When the entry must go ({@link System#nanoTime()}): the master's deadline for the session as of its last
     * answer (idle timeout, or the end of its lifetime if sooner), so the cache never outlives the session.
     */
    final long deadline;
    /**
     * The last time a master sent this sidecar a section of the session (a fill or a write's answer), plus the
     * cache's TTL: touches extend the deadline up to here, not beyond, so an entry nobody refreshes goes in time.
     */
    final long freshUntil;
    /** The lease epoch its sections were cached in. */
    final int epoch;
    private final EncodedSection[] sections;
    private final String[] floorNames;
    private final long[] floorVersions;
    /**
     * Index for index with the floors: why the section last went from this entry (a {@link MissCause} code, 0 if it
     * never did), for counting misses by cause. A section that went without a floor has one at version 0 (none).
     */
    private final byte[] dropCauses;

    SessionEntry(long incarnation, long generation, long deadline, int epoch) {
        this(incarnation, generation, 0, deadline, deadline, epoch, NONE, NO_NAMES, NO_VERSIONS, NO_CAUSES);
    }

    private SessionEntry(long incarnation, long generation, int writesInFlight, long deadline, long freshUntil, int epoch,
                         EncodedSection[] sections, String[] floorNames, long[] floorVersions, byte[] dropCauses) {
        this.incarnation = incarnation;
        this.generation = generation;
        this.writesInFlight = writesInFlight;
        this.deadline = Math.min(deadline, freshUntil);
        this.freshUntil = freshUntil;
        this.epoch = epoch;
        this.sections = sections;
        this.floorNames = floorNames;
        this.floorVersions = floorVersions;
        this.dropCauses = dropCauses;
    }

    private SessionEntry with(long newGeneration, int newWrites, long newDeadline, long newFreshUntil, int newEpoch,
                              EncodedSection[] newSections) {
        return new SessionEntry(incarnation, newGeneration, newWrites, newDeadline, newFreshUntil, newEpoch, newSections,
                floorNames, floorVersions, dropCauses);
    }

    /** The same entry with a new deadline from a master's answer (a touch), no later than {@link #freshUntil}. */
    SessionEntry withDeadline(long newDeadline) {
        return with(generation, writesInFlight, newDeadline, freshUntil, epoch, sections);
    }

    public long generation() {
        return generation;
    }

    public long incarnation() {
        return incarnation;
    }

    public int epoch() {
        return epoch;
    }

    /** The cached section of that name, or null. */
    public EncodedSection section(String name) {
        for (EncodedSection s : sections) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    public List<EncodedSection> sections() {
        return List.of(sections);
    }

    /** The lowest version of that section an invalidation allows here (0: none announced). */
    public long floor(String name) {
        for (int i = 0; i < floorNames.length; i++) {
            if (floorNames[i].equals(name)) {
                return floorVersions[i];
            }
        }
        return 0;
    }

    /** Why a section this entry does not hold is missing: how it went, or {@link MissCause#NEW_SECTION}. */
    public MissCause missCause(String name) {
        int f = indexOf(floorNames, name);
        return f < 0 || dropCauses[f] == 0 ? MissCause.NEW_SECTION : MissCause.of(dropCauses[f]);
    }

    /** Bytes this entry stands for in the cache's bound. */
    int weight() {
        long w = ENTRY_OVERHEAD + (long) FLOOR_OVERHEAD * floorNames.length;
        for (EncodedSection s : sections) {
            w += SECTION_OVERHEAD + s.encodedSize();
        }
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /** A write starts: fills of earlier reads are refused from now on. */
    SessionEntry withWriteStarted(long newGeneration) {
        return with(newGeneration, writesInFlight + 1, deadline, freshUntil, epoch, sections);
    }

    /**
     * Sections the master sent in {@code fetchEpoch}, each kept only if it is not older than what is here nor below
     * its floor. Sections cached in an earlier epoch are dropped.
     */
    SessionEntry withFetched(List<EncodedSection> fetched, long newDeadline, long newFreshUntil, int fetchEpoch) {
        EncodedSection[] base = fetchEpoch == epoch ? sections : NONE;
        EncodedSection[] next = Arrays.copyOf(base, base.length + fetched.size());
        int n = base.length;
        for (EncodedSection f : fetched) {
            if (f.version() < floor(f.name())) {
                continue;
            }
            int i = indexOf(next, n, f.name());
            if (i < 0) {
                next[n++] = f;
            } else if (next[i].version() < f.version()) {
                next[i] = f;
            }
        }
        return with(generation, writesInFlight, newDeadline, newFreshUntil, fetchEpoch, n == next.length ? next : Arrays.copyOf(next, n));
    }

    /**
     * The deltas of an acknowledged write (started in this incarnation) merged in: a section the master sent whole at
     * its new version ({@code whole}, the WRITE answer's, PROTOCOL.md 3.2) is cached as it is (write-allocate: also one
     * this cache did not hold); else a cached section one version behind takes its delta; a cached section further
     * behind missed another write and is dropped. A section the write created (new version 1) is the delta itself, and
     * is cached if no other write of the session is in flight here (one in flight may already have made a version 2;
     * caching version 1 meanwhile would be correct, since that write is not acknowledged yet, but would only be
     * replaced). Nothing below a floor is cached, and each version the write was acknowledged with becomes its
     * section's floor: an earlier write of this sidecar whose answer comes later (answers on different connections
     * keep no order) then cannot put its older version back.
     */
    SessionEntry withWrite(List<SectionDelta> deltas, long[] versions, List<EncodedSection> whole, long newGeneration,
                           long newDeadline, long newFreshUntil) {
        boolean alone = writesInFlight <= 1;
        EncodedSection[] next = Arrays.copyOf(sections, sections.length + deltas.size());
        int n = sections.length;
        for (int d = 0; d < deltas.size(); d++) {
            SectionDelta delta = deltas.get(d);
            long v = versions[d];
            int i = indexOf(next, n, delta.section());
            if (v < floor(delta.section())) {
                if (i >= 0 && next[i].version() < v) {
                    next[i] = next[--n];
                }
                continue;
            }
            EncodedSection w = wholeAt(whole, delta.section(), v);
            if (i >= 0) {
                EncodedSection s = next[i];
                if (s.version() >= v) {
                    continue;
                }
                if (w != null) {
                    next[i] = w;
                } else if (s.version() == v - 1) {
                    next[i] = s.apply(delta, v);
                } else {
                    next[i] = next[--n];
                }
            } else if (w != null) {
                next[n++] = w;
            } else if (v == 1 && alone) {
                next[n++] = EncodedSection.empty(delta.section()).apply(delta, 1);
            }
        }
        return with(newGeneration, Math.max(0, writesInFlight - 1), newDeadline, newFreshUntil, epoch,
                n == next.length ? next : Arrays.copyOf(next, n)).withFloors(names(deltas), versions, MissCause.WRITE_NOT_KEPT);
    }

    /** {@link #withWrite(List, long[], List, long, long, long)} without whole sections. */
    SessionEntry withWrite(List<SectionDelta> deltas, long[] versions, long newGeneration, long newDeadline,
                           long newFreshUntil) {
        return withWrite(deltas, versions, List.of(), newGeneration, newDeadline, newFreshUntil);
    }

    private static EncodedSection wholeAt(List<EncodedSection> whole, String name, long version) {
        for (int k = 0; k < whole.size(); k++) {
            EncodedSection w = whole.get(k);
            if (w.version() == version && w.name().equals(name)) {
                return w;
            }
        }
        return null;
    }

    /** Whether every named section is cached here (in whatever epoch). */
    boolean holdsAll(List<String> names) {
        for (int k = 0; k < names.size(); k++) {
            if (section(names.get(k)) == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * A write failed, its outcome is unknown, or its answer cannot be trusted here: without the sections it named.
     *
     * @param counted whether the write's start was counted in this incarnation (it leaves {@link #writesInFlight})
     * @param cause {@link MissCause#WRITE_FAILED}, or {@link MissCause#WRITE_NOT_KEPT} for an acknowledged write
     */
    SessionEntry withWriteFailed(List<String> names, long newGeneration, boolean counted, MissCause cause) {
        SessionEntry e = without(names, newGeneration);
        return e.with(newGeneration, counted ? Math.max(0, writesInFlight - 1) : writesInFlight, deadline, freshUntil,
                epoch, e.sections).withFloors(names, null, cause);
    }

    /**
     * Each named section is on the master at least at its version ({@code versions[i]}; 0 or less: unknown): the
     * version becomes its floor, if higher than the floor it has. Cached copies are left as they are.
     */
    SessionEntry withFloors(List<String> names, long[] versions) {
        return withFloors(names, versions, null);
    }

    /**
     * {@link #withFloors(List, long[])}, and with a {@code cause}, each named section this entry does not hold is
     * noted as gone for that cause ({@link #missCause}); {@code versions} null: floors unchanged.
     */
    private SessionEntry withFloors(List<String> names, long[] versions, MissCause cause) {
        String[] fNames = floorNames;
        long[] fVersions = floorVersions;
        byte[] fCauses = dropCauses;
        for (int k = 0; k < names.size(); k++) {
            String name = names.get(k);
            long v = versions == null ? 0 : versions[k];
            boolean mark = cause != null && section(name) == null;
            if (v <= 0 && !mark) {
                continue;
            }
            int f = indexOf(fNames, name);
            if (f < 0) {
                f = fNames.length;
                fNames = Arrays.copyOf(fNames, f + 1);
                fVersions = Arrays.copyOf(fVersions, f + 1);
                fCauses = Arrays.copyOf(fCauses, f + 1);
                fNames[f] = name;
                fVersions[f] = Math.max(0, v);
            } else if (fVersions[f] < v) {
                fVersions = fVersions == floorVersions ? fVersions.clone() : fVersions;
                fVersions[f] = v;
            }
            if (mark && fCauses[f] != cause.code()) {
                fCauses = fCauses == dropCauses ? fCauses.clone() : fCauses;
                fCauses[f] = cause.code();
            }
        }
        if (fNames == floorNames && fVersions == floorVersions && fCauses == dropCauses) {
            return this;
        }
        return new SessionEntry(incarnation, generation, writesInFlight, deadline, freshUntil, epoch, sections, fNames,
                fVersions, fCauses);
    }

    private static List<String> names(List<SectionDelta> deltas) {
        String[] names = new String[deltas.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = deltas.get(i).section();
        }
        return Arrays.asList(names);
    }

    /** Without the named sections. */
    SessionEntry without(List<String> names, long newGeneration) {
        EncodedSection[] next = sections.clone();
        int n = next.length;
        for (String name : names) {
            int i = indexOf(next, n, name);
            if (i >= 0) {
                next[i] = next[--n];
            }
        }
        return with(newGeneration, writesInFlight, deadline, freshUntil, epoch, Arrays.copyOf(next, n));
    }

    /**
     * An invalidation: each named section is now at least at its version on the master. Copies below that are
     * dropped and the version becomes the section's floor; fills in flight are refused (new generation).
     */
    SessionEntry withInvalidation(List<String> names, long[] versions, long newGeneration) {
        EncodedSection[] next = sections.clone();
        int n = next.length;
        for (int k = 0; k < names.size(); k++) {
            int i = indexOf(next, n, names.get(k));
            if (i >= 0 && next[i].version() < versions[k]) {
                next[i] = next[--n];
            }
        }
        return with(newGeneration, writesInFlight, deadline, freshUntil, epoch,
                n == next.length ? next : Arrays.copyOf(next, n)).withFloors(names, versions, MissCause.INVALIDATED);
    }

    private static int indexOf(EncodedSection[] sections, int n, String name) {
        for (int i = 0; i < n; i++) {
            if (sections[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
