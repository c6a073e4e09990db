package io.sessionmesh.wire.protocol;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The id of one write, chosen by whoever first sends it (the client jar, or the sidecar for a caller that sent none),
 * and sent again unchanged with every retry of that write: a master that has applied a write of this id to the session
 * answers the retry with that write's versions instead of applying it again (PROTOCOL.md 3.12). 16 bytes on the wire
 * (the high half first, big-endian), 32 lowercase hex digits over HTTP ({@code Idempotency-Key}).
 *
 * <p>Ids need to be unique per session only (a master looks one up with its session id), among the writes of the
 * last {@code RecentWrites} window; {@link #next()} makes them from a random 64-bit prefix drawn once per process and
 * a counter, so that two processes collide only if they draw the same prefix (2^-64) and then write to the same
 * session with the same count.
 */
public record WriteId(long high, long low) {
    /** Bytes of a write id on the wire. */
    public static final int BYTES = 16;
    /** Characters of its hex form. */
    public static final int HEX_CHARS = 32;

    private static final long PREFIX = new SecureRandom().nextLong();
    private static final AtomicLong COUNTER = new AtomicLong(new SecureRandom().nextLong());

    /** A new id, unique in this process and, with overwhelming odds, across processes. */
    public static WriteId next() {
        return new WriteId(PREFIX, COUNTER.incrementAndGet());
    }

    /** The 32 lowercase hex digits of the id (high half first). */
    public String hex() {
        return String.format("%016x%016x", high, low);
    }

    /**
     * The id of 32 hex digits (either case), as {@link #hex()} writes it.
     *
     * @throws IllegalArgumentException naming the rule for anything else (never repeating the text: it comes from a caller)
     */
    public static WriteId parseHex(CharSequence text) {
        if (text.length() != HEX_CHARS) {
            throw new IllegalArgumentException("a write id is " + HEX_CHARS + " hex digits, not " + text.length()
                    + " characters");
        }
        return new WriteId(hexLong(text, 0), hexLong(text, 16));
    }

    private static long hexLong(CharSequence text, int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            int d = Character.digit(text.charAt(i), 16);
            if (d < 0) {
                throw new IllegalArgumentException("a write id is " + HEX_CHARS + " hex digits: a character at " + i
                        + " is not one");
            }
            v = v << 4 | d;
        }
        return v;
    }

    @Override
    public String toString() {
        return hex();
    }
}
