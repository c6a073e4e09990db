package io.sessionmesh.sidecar.cache;

import io.sessionmesh.serialization.transport.EncodedSection;
import io.sessionmesh.serialization.transport.SectionDelta;

import java.util.Arrays;
import java.util.List;

/**
 * What the cache holds for one session: the sections it has, in wire form, exactly as the master sent or as the
 * sidecar merged them. Immutable: every change makes a new entry, swapped in atomically by {@link SectionCache}.
 *
 * <p>The {@code generation} guards against stale fills. It changes whenever a write of the session starts or
 * ends; a read that missed remembers the generation it saw and may fill the cache with what the master sent only
 * if the generation is still the same. So a read that overlapped a write never puts the section from before the
 * write back into the cache.
 */
public final class SessionEntry {
    private static final EncodedSection[] NONE = {};
    /** Bytes counted for an entry and for each section on top of their bytes (objects and references). */
    static final int ENTRY_OVERHEAD = 96;
    static final int SECTION_OVERHEAD = 64;

    final long generation;
    /** Writes of this session sent through this sidecar and not yet answered. */
    final int writesInFlight;
    /**
     * When the entry must go ({@link System#nanoTime()}): the master's deadline for the session as of its last
     * answer (idle timeout, or the end of its lifetime if sooner), so the cache never outlives the session.
     */
    final long deadline;
    /**
     * How long what is cached may be trusted: the last time a master sent this sidecar a section of the session (a
     * fill or a write's answer), plus the cache's TTL. Touches extend the deadline up to here, not beyond: until
     * masters push invalidations, this bounds how stale a section written through another sidecar can get.
     */
    final long freshUntil;
    private final EncodedSection[] sections;

    SessionEntry(long generation, long deadline) {
        this(generation, 0, deadline, deadline, NONE);
    }

    private SessionEntry(long generation, int writesInFlight, long deadline, long freshUntil, EncodedSection[] sections) {
        this.generation = generation;
        this.writesInFlight = writesInFlight;
        this.deadline = Math.min(deadline, freshUntil);
        this.freshUntil = freshUntil;
        this.sections = sections;
    }

    /** The same entry with a new deadline from a master's answer (a touch), no later than {@link #freshUntil}. */
    SessionEntry withDeadline(long newDeadline) {
        return new SessionEntry(generation, writesInFlight, newDeadline, freshUntil, sections);
    }

    public long generation() {
        return generation;
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

    /** Bytes this entry stands for in the cache's bound. */
    int weight() {
        long w = ENTRY_OVERHEAD;
        for (EncodedSection s : sections) {
            w += SECTION_OVERHEAD + s.encodedSize();
        }
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /** A write starts: fills of earlier reads are refused from now on. */
    SessionEntry withWriteStarted(long newGeneration) {
        return new SessionEntry(newGeneration, writesInFlight + 1, deadline, freshUntil, sections);
    }

    /** Sections the master sent, each kept only if it is not older than what is here. */
    SessionEntry withFetched(List<EncodedSection> fetched, long newDeadline, long newFreshUntil) {
        EncodedSection[] next = Arrays.copyOf(sections, sections.length + fetched.size());
        int n = sections.length;
        for (EncodedSection f : fetched) {
            int i = indexOf(next, n, f.name());
            if (i < 0) {
                next[n++] = f;
            } else if (next[i].version() < f.version()) {
                next[i] = f;
            }
        }
        return new SessionEntry(generation, writesInFlight, newDeadline, newFreshUntil, n == next.length ? next : Arrays.copyOf(next, n));
    }

    /**
     * The deltas of an acknowledged write merged in: a cached section one version behind takes its delta; a cached
     * section further behind missed another write and is dropped. A section the write created (new version 1) is
     * the delta itself, and is cached if no other write of the session is in flight here: with one in flight, it
     * may already have made a version 2 that this one must not hide.
     */
    SessionEntry withWrite(List<SectionDelta> deltas, long[] versions, long newGeneration, long newDeadline, long newFreshUntil) {
        boolean alone = writesInFlight <= 1;
        EncodedSection[] next = Arrays.copyOf(sections, sections.length + deltas.size());
        int n = sections.length;
        for (int d = 0; d < deltas.size(); d++) {
            SectionDelta delta = deltas.get(d);
            long v = versions[d];
            int i = indexOf(next, n, delta.section());
            if (i >= 0) {
                EncodedSection s = next[i];
                if (s.version() == v - 1) {
                    next[i] = s.apply(delta, v);
                } else if (s.version() < v) {
                    next[i] = next[--n];
                }
            } else if (v == 1 && alone) {
                next[n++] = EncodedSection.empty(delta.section()).apply(delta, 1);
            }
        }
        return new SessionEntry(newGeneration, Math.max(0, writesInFlight - 1), newDeadline, newFreshUntil,
                n == next.length ? next : Arrays.copyOf(next, n));
    }

    /** A write failed or its outcome is unknown: without the sections it named. */
    SessionEntry withWriteFailed(List<String> names, long newGeneration) {
        SessionEntry e = without(names, newGeneration);
        return new SessionEntry(newGeneration, Math.max(0, writesInFlight - 1), deadline, freshUntil, e.sections);
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
        return new SessionEntry(newGeneration, writesInFlight, deadline, freshUntil, Arrays.copyOf(next, n));
    }

    private static int indexOf(EncodedSection[] sections, int n, String name) {
        for (int i = 0; i < n; i++) {
            if (sections[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
