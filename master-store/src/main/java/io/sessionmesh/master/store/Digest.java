package io.sessionmesh.master.store;

import java.nio.charset.StandardCharsets;

/**
 * A 64-bit hash for comparing replicas' states ({@link SessionStore#digest}): values mixed in order, finished with a
 * strong avalanche (the finaliser of MurmurHash3), so that the wrapping sum of many records' digests, which does not
 * depend on their order, still tells two different states apart. Not a cryptographic hash.
 */
public final class Digest {
    private static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private Digest() {
    }

    public static long mix(long h, long value) {
        return Long.rotateLeft(h ^ (value * MULTIPLIER), 27) * 5 + 0x52DCE729;
    }

    public static long of(String text) {
        if (text == null) {
            return 0;
        }
        long h = 1;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h = h * 31 + b;
        }
        return mix(text.length(), h);
    }

    public static long finish(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
