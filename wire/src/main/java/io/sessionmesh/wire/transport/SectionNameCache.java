package io.sessionmesh.wire.transport;

/**
 * One {@code String} per section name for the names decoded again and again: a deployment uses a few dozen section
 * names, and every request names some of them. A name found here is neither checked nor decoded again (its bytes are
 * those of a name that passed {@link Utf8#check}), and the same instance comes back each time, so a store that keeps
 * its names shared (the master's name pool offers its own instances here, {@link #offer}) finds a section by reference
 * before it compares characters.
 *
 * <p>Direct-mapped and shared by every thread of the process: {@link #SLOTS} slots of at most
 * {@link #MAX_NAME_BYTES} ASCII bytes each, so at most about 100 KB whatever clients send; a name that collides with
 * another replaces it. Reads and writes race on purpose: a {@code String} is immutable and safely published through
 * its final fields, so a reader sees a whole name or another one, and checks the bytes either way. A name decoded on a
 * miss takes its slot, so a miss costs what decoding cost before, plus one store; two names that share a slot (or a
 * client flooding it with names of its own) cost what decoding did, never a wrong name.
 */
public final class SectionNameCache {
    /** Slots, a power of two. */
    public static final int SLOTS = 1024;
    /** Longer names (and names that are not ASCII) are decoded every time. */
    public static final int MAX_NAME_BYTES = 64;

    private static final String[] NAMES = new String[SLOTS];

    private SectionNameCache() {
    }

    /** The cached name whose ASCII bytes are {@code b[off, off + len)}, or null. */
    static String find(byte[] b, int off, int len) {
        if (len > MAX_NAME_BYTES) {
            return null;
        }
        int h = 0;
        for (int i = off, end = off + len; i < end; i++) {
            h = 31 * h + b[i];
        }
        String s = NAMES[slot(h)];
        if (s == null || s.length() != len) {
            return null;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != b[off + i]) { // a cached name is ASCII: byte b equals char b; a negative byte never matches
                return null;
            }
        }
        return s;
    }

    /**
     * Makes {@code name} the instance handed out for its bytes, over whatever the slot held; ignored unless it is a
     * short ASCII name without control characters (so that bytes found here need no check). A store that keeps one
     * instance per name offers it here.
     */
    public static void offer(String name) {
        if (cacheable(name)) {
            put(name);
        }
    }

    /** {@link #offer} of a name the caller has found ASCII and checked as {@link Utf8#check} does (the decoder). */
    static void put(String name) {
        if (name.length() <= MAX_NAME_BYTES) {
            NAMES[slot(name.hashCode())] = name; // for ASCII, String.hashCode is the hash of its bytes in find
        }
    }

    private static boolean cacheable(String name) {
        int len = name.length();
        if (len == 0) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            char c = name.charAt(i);
            if (c >= 0x80 || Utf8.isControl(c)) { // a name found here is not checked again: only what check would pass
                return false;
            }
        }
        return true;
    }

    private static int slot(int h) {
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
