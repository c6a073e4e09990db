package io.sessionmesh.sidecar.cache;

/**
 * Which sessions the cache removed lately (expired or evicted), for telling a miss on a removed session from the
 * first use of a session here ({@link MissCause}). A direct-mapped table of {@value #SLOTS} hashes of session ids,
 * 8 bytes each (128 KiB): a newer removal that lands on the same slot takes it, so it remembers roughly the last
 * {@value #SLOTS} removals. Unsynchronized: a lost or torn update only misfiles one miss, and a 60-bit hash of the id
 * rarely matches another id's.
 */
final class RecentRemovals {
    static final int SLOTS = 1 << 14;
    private static final long CAUSE_BITS = 0xF;

    private final long[] slots = new long[SLOTS];

    void removed(String sessionId, MissCause cause) {
        long h = hash(sessionId);
        slots[(int) (h >>> 50) & (SLOTS - 1)] = (h & ~CAUSE_BITS) | cause.code();
    }

    /** Why the session's entry went, if it went lately: {@link MissCause#EXPIRED}, {@link MissCause#EVICTED}, or null. */
    MissCause causeOf(String sessionId) {
        long h = hash(sessionId);
        long s = slots[(int) (h >>> 50) & (SLOTS - 1)];
        return s != 0 && (s & ~CAUSE_BITS) == (h & ~CAUSE_BITS) ? MissCause.of((byte) (s & CAUSE_BITS)) : null;
    }

    /** FNV-1a 64 over the id's characters, then the MurmurHash3 finalizer. */
    private static long hash(String id) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            h = (h ^ id.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53ef63bL;
        h ^= h >>> 33;
        return h == 0 ? 1 << 4 : h;
    }
}
