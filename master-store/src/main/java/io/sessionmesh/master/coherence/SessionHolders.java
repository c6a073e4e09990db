package io.sessionmesh.master.coherence;

import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionDelta;

import java.util.Arrays;
import java.util.List;

/**
 * Which caches hold which sections of one session, and the session's last write still waiting for its invalidations:
 * the coherence bookkeeping the store keeps beside each session's data (PROTOCOL.md 3.7). One {@code long} of
 * {@link HolderRegistry} bits per section, index for index with the session's sections array (sections are only ever
 * appended, so an index never changes meaning), plus the caches that read a section the session does not have (they
 * hold it as empty, at version 0).
 *
 * <p>Not thread-safe: the store calls every method under the session's monitor, right where it reads or publishes the
 * session's sections, so that the bits are in step with what each cache was given, and invalidations of one session
 * leave in the order of its writes.
 */
public final class SessionHolders {
    private static final String[] NO_NAMES = {};
    private static final long[] NO_VERSIONS = {};

    private long[] bySection = NO_VERSIONS;
    private long absent;
    /** The last write (or delete) of the session whose acknowledgement waits, or null. */
    private Fence pending;

    /** A cache ({@code bit}) was given section {@code index}. */
    public void heldAt(int index, long bit) {
        grow(index + 1);
        bySection[index] |= bit;
    }

    /** A cache ({@code bit}) read a section the session does not have. */
    public void heldAbsent(long bit) {
        absent |= bit;
    }

    /**
     * A write by {@code writerBit} (0: a client that caches nothing) was just published: every other cache that holds a
     * section it changed is told through {@code invalidator} and stops being a holder; the writer becomes the only
     * holder of those sections (it merges its own write into its cache).
     *
     * @param sections the session's sections after the write
     * @param versions the new version of each delta's section
     * @return what the write's acknowledgement waits for: the invalidations and the session's previous fenced write
     *     (null: nothing)
     */
    public Fence written(String sessionId, EncodedSection[] sections, List<SectionDelta> deltas, long[] versions,
                         long writerBit, Invalidator invalidator) {
        String[] names = new String[deltas.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = deltas.get(i).section();
        }
        return written(sessionId, sections, names, versions, writerBit, invalidator);
    }

    /**
     * {@link #written(String, EncodedSection[], List, long[], long, Invalidator)} by the names of the sections written
     * (the store's write has them without the deltas' model); {@code names} is handed over.
     */
    public Fence written(String sessionId, EncodedSection[] sections, String[] names, long[] versions,
                         long writerBit, Invalidator invalidator) {
        long others = 0;
        if (bySection.length > 0 || absent != 0 || writerBit != 0) {
            grow(sections.length);
            long self = writerBit == HolderRegistry.SHARED_BIT ? 0 : writerBit;
            for (String name : names) {
                int i = indexOf(sections, name);
                // A section new with this write was held, as empty, by every cache that read it absent.
                others |= (bySection[i] | (sections[i].version() == 1 ? absent : 0)) & ~self;
                bySection[i] = writerBit;
            }
        }
        Fence previous = pendingFence();
        if (others == 0 && previous == null) {
            return null;
        }
        return remember(invalidator.invalidate(sessionId, others, names, versions, previous));
    }

    /**
     * The session was deleted by {@code deleterBit}: every other cache that holds any of it is told; returns what the
     * acknowledgement waits for (null: nothing). The bookkeeping is cleared.
     */
    public Fence deleted(String sessionId, long deleterBit, Invalidator invalidator) {
        long all = absent;
        for (long h : bySection) {
            all |= h;
        }
        all &= ~(deleterBit == HolderRegistry.SHARED_BIT ? 0 : deleterBit);
        Fence previous = pendingFence();
        Fence fence = all == 0 && previous == null ? null : invalidator.invalidate(sessionId, all, NO_NAMES, NO_VERSIONS, previous);
        clear();
        return fence;
    }

    /**
     * Forgets every holder and the pending fence: the session left the store (expired). Caches in front find out by
     * themselves: their copies expire by the times the master gave them.
     */
    public void clear() {
        bySection = NO_VERSIONS;
        absent = 0;
        pending = null;
    }

    /** The bits of the caches that hold section {@code index} (for tests and the admin view). */
    public long holdersOf(int index) {
        return index < bySection.length ? bySection[index] : 0;
    }

    /** The caches that read a section the session does not have. */
    public long absentHolders() {
        return absent;
    }

    private Fence pendingFence() {
        if (pending != null && pending.isDone()) {
            pending = null;
        }
        return pending;
    }

    private Fence remember(Fence fence) {
        pending = fence == null || fence.isDone() ? null : fence;
        return fence;
    }

    private void grow(int sections) {
        if (bySection.length < sections) {
            bySection = Arrays.copyOf(bySection, sections);
        }
    }

    private static int indexOf(EncodedSection[] sections, String name) {
        for (int i = 0; i < sections.length; i++) {
            if (sections[i].name().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("section \"" + name + "\" of a published write is missing");
    }
}
