package io.sessionmesh.wire.transport;

/**
 * Standard base64 (RFC 4648 section 4) with padding, strict: no whitespace, no missing padding, and the
 * unused bits of the last group must be zero, so that one value has exactly one form. Decodes straight from
 * the parser's char buffer into an array of the exact size, known before allocating.
 */
final class Base64Codec {
    private static final int[] DECODE = new int[128];

    static {
        java.util.Arrays.fill(DECODE, -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            DECODE[alphabet.charAt(i)] = i;
        }
    }

    private Base64Codec() {
    }

    /** The decoded length of well-formed input of {@code len} chars ending in {@code pad} '=' chars. */
    static long decodedLength(int len, int pad) {
        return (long) len / 4 * 3 - pad;
    }

    /** The number of trailing '=' (0..2), or -1 if the length or the padding is wrong. */
    static int padding(char[] c, int off, int len) {
        if (len % 4 != 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int pad = c[off + len - 1] == '=' ? (c[off + len - 2] == '=' ? 2 : 1) : 0;
        return pad;
    }

    /**
     * Decodes {@code len} chars whose {@link #padding} is {@code pad}; on a bad char, returns null and puts
     * its index (from {@code off}) in {@code error[0]}.
     */
    static byte[] decode(char[] c, int off, int len, int pad, int[] error) {
        byte[] out = new byte[(int) decodedLength(len, pad)];
        int o = 0;
        int full = len - (pad > 0 ? 4 : 0);
        int i = 0;
        for (; i < full; i += 4) {
            int v = sextet(c, off + i) << 18 | sextet(c, off + i + 1) << 12 | sextet(c, off + i + 2) << 6 | sextet(c, off + i + 3);
            if (v < 0) {
                error[0] = firstBad(c, off, i, 4);
                return null;
            }
            out[o++] = (byte) (v >> 16);
            out[o++] = (byte) (v >> 8);
            out[o++] = (byte) v;
        }
        if (pad > 0) {
            int a = sextet(c, off + i);
            int b = sextet(c, off + i + 1);
            int d = pad == 1 ? sextet(c, off + i + 2) : 0;
            if ((a | b | d) < 0) {
                error[0] = firstBad(c, off, i, 4 - pad);
                return null;
            }
            int v = a << 18 | b << 12 | d << 6;
            if ((pad == 2 && (v & 0xFFFF) != 0) || (pad == 1 && (v & 0xFF) != 0)) {
                error[0] = i + 3 - pad; // the last data char carries bits that the padding drops
                return null;
            }
            out[o++] = (byte) (v >> 16);
            if (pad == 1) {
                out[o] = (byte) (v >> 8);
            }
        }
        return out;
    }

    private static int sextet(char[] c, int i) {
        char ch = c[i];
        return ch < 128 ? DECODE[ch] : -1; // -1 spreads into a negative group
    }

    private static int firstBad(char[] c, int off, int i, int n) {
        for (int k = 0; k < n; k++) {
            if (sextet(c, off + i + k) < 0) {
                return i + k;
            }
        }
        return i;
    }
}
