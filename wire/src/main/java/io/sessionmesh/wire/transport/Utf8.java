package io.sessionmesh.wire.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 without allocation: the JDK's decoder replaces bad input with U+FFFD, which would turn a
 * malformed name into a wrong one, and its encoder replaces unpaired surrogates with '?'. Names are checked
 * here once, on the bytes when decoding and on the chars when building the model, with the same rules: no
 * control character (C0, DEL, C1), no unpaired surrogate, well-formed UTF-8 (no overlong form, no encoded
 * surrogate, nothing above U+10FFFF).
 */
final class Utf8 {
    /** Returned by {@link #check} when every byte is ASCII. */
    static final int ASCII = -1;
    /** Returned by {@link #check} when the bytes are valid and some are not ASCII. */
    static final int NON_ASCII = -2;

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long SPACES = 0x2020202020202020L;

    private Utf8() {
    }

    static boolean isControl(int c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F);
    }

    /**
     * The UTF-8 length of a name, or {@code -(index + 1)} for the first char that is a control character or
     * an unpaired surrogate.
     */
    static int nameLength(String s) {
        return length(s, true);
    }

    /** The UTF-8 length of a text, or {@code -(index + 1)} for the first unpaired surrogate. */
    static int textLength(String s) {
        return length(s, false);
    }

    private static int length(String s, boolean rejectControls) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (rejectControls && isControl(c)) {
                    return -(i + 1);
                }
            } else if (c < 0x800) {
                if (rejectControls && c <= 0x9F) {
                    return -(i + 1);
                }
                bytes += 1;
            } else if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == n || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return -(i + 1);
                }
                i++;
                bytes += 2; // 4 bytes for 2 chars
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Writes a string already checked by {@link #length}; returns the position after it. */
    static int encode(String s, byte[] dst, int pos) {
        int n = s.length();
        int i = 0;
        while (i < n) { // ASCII run: the common case for names
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            dst[pos++] = (byte) c;
            i++;
        }
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[pos++] = (byte) c;
            } else if (c < 0x800) {
                dst[pos++] = (byte) (0xC0 | c >> 6);
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c)) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[pos++] = (byte) (0xF0 | cp >> 18);
                dst[pos++] = (byte) (0x80 | (cp >> 12 & 0x3F));
                dst[pos++] = (byte) (0x80 | (cp >> 6 & 0x3F));
                dst[pos++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                dst[pos++] = (byte) (0xE0 | c >> 12);
                dst[pos++] = (byte) (0x80 | (c >> 6 & 0x3F));
                dst[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return pos;
    }

    /**
     * Checks {@code len} bytes at {@code off}: {@link #ASCII}, {@link #NON_ASCII}, or the index of the first
     * byte of an invalid sequence or of a rejected control character.
     */
    static int check(byte[] b, int off, int len, boolean rejectControls) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i];
            if (c < 0) {
                break;
            }
            if (rejectControls && (c < 0x20 || c == 0x7F)) {
                return i;
            }
            i++;
        }
        if (i == end) {
            return ASCII;
        }
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                if (rejectControls && (c < 0x20 || c == 0x7F)) {
                    return i;
                }
                i++;
                continue;
            }
            int n = sequenceLength(b, i, end);
            if (n < 0 || (rejectControls && c == 0xC2 && (b[i + 1] & 0xFF) <= 0x9F)) {
                return i;
            }
            i += n;
        }
        return NON_ASCII;
    }

    /** The length of the well-formed multi-byte sequence at {@code i}, or -1 (Unicode table 3-7). */
    private static int sequenceLength(byte[] b, int i, int end) {
        int c = b[i] & 0xFF;
        if (c >= 0xC2 && c <= 0xDF) {
            return i + 1 < end && isTrail(b[i + 1]) ? 2 : -1;
        }
        if (c >= 0xE0 && c <= 0xEF) {
            if (i + 2 >= end) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            int lo = c == 0xE0 ? 0xA0 : 0x80;
            int hi = c == 0xED ? 0x9F : 0xBF;
            return c1 >= lo && c1 <= hi && isTrail(b[i + 2]) ? 3 : -1;
        }
        if (c >= 0xF0 && c <= 0xF4) {
            if (i + 3 >= end) {
                return -1;
            }
            int c1 = b[i + 1] & 0xFF;
            int lo = c == 0xF0 ? 0x90 : 0x80;
            int hi = c == 0xF4 ? 0x8F : 0xBF;
            return c1 >= lo && c1 <= hi && isTrail(b[i + 2]) && isTrail(b[i + 3]) ? 4 : -1;
        }
        return -1;
    }

    private static boolean isTrail(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** Decodes bytes that {@link #check} accepted; {@code ascii} is whether it returned {@link #ASCII}. */
    static String decode(byte[] b, int off, int len, boolean ascii) {
        // ISO-8859-1 is a plain copy into a compact string; exact for ASCII.
        return new String(b, off, len, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /**
     * Checks a JSON document's bytes before Jackson sees them: well-formed UTF-8 (Jackson accepts overlong
     * forms and encoded surrogates) and no raw control byte but tab, CR and LF (JSON allows no other, and this
     * also refuses UTF-16 and UTF-32 input, which Jackson would otherwise detect and accept). Returns -1 or the
     * index of the first bad byte. Eight ASCII bytes at a time: base64 values are most of a document.
     */
    static int checkJson(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            if (i + 8 <= end) {
                long x = (long) LONG_LE.get(b, i);
                // No high bit set, and no byte below 0x20 (exact for bytes < 0x80).
                if ((x & HIGH_BITS) == 0 && ((x - SPACES) & ~x & HIGH_BITS) == 0) {
                    i += 8;
                    continue;
                }
            }
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                    return i;
                }
                i++;
            } else {
                int n = sequenceLength(b, i, end);
                if (n < 0) {
                    return i;
                }
                i += n;
            }
        }
        return -1;
    }

    /** A name for an error message: quoted, escaped, and cut after 64 chars. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 64) + 8).append('"');
        int n = Math.min(s.length(), 64);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (isControl(c) || Character.isSurrogate(c) || c == '"' || c == '\\') {
                sb.append(String.format("\\u%04X", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
        if (s.length() > n) {
            sb.append("...(").append(s.length()).append(" chars)");
        }
        return sb.toString();
    }
}
