package io.sessionmesh.serialization.transport;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the binary form with every length checked against its limit and against the bytes left before
 * anything is allocated; every failure is a {@link MalformedMessageException} naming the field and offset.
 */
final class BinaryReader {
    private final byte[] buf;
    private final int start;
    private final int end;
    private int pos;

    BinaryReader(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.start = offset;
        this.pos = offset;
        this.end = offset + length;
    }

    int remaining() {
        return end - pos;
    }

    int offset() {
        return pos - start;
    }

    private void need(int n, String field) {
        if (n > end - pos) {
            throw MalformedMessageException.badRequest("message truncated in " + field + " at offset " + offset()
                    + ": needs " + n + " bytes, " + (end - pos) + " left");
        }
    }

    int u8(String field) {
        need(1, field);
        return buf[pos++] & 0xff;
    }

    int u16(String field) {
        need(2, field);
        int v = (buf[pos] & 0xff) << 8 | buf[pos + 1] & 0xff;
        pos += 2;
        return v;
    }

    int i32(String field) {
        need(4, field);
        int v = (buf[pos] & 0xff) << 24 | (buf[pos + 1] & 0xff) << 16 | (buf[pos + 2] & 0xff) << 8 | buf[pos + 3] & 0xff;
        pos += 4;
        return v;
    }

    /** An unsigned varint of at most 9 bytes (63 bits, so never negative). */
    long varint(String field) {
        int at = offset();
        long v = 0;
        for (int i = 0; i < 9; i++) {
            need(1, field);
            byte b = buf[pos++];
            v |= (long) (b & 0x7f) << (7 * i);
            if (b >= 0) {
                return v;
            }
        }
        throw MalformedMessageException.badRequest(field + " at offset " + at + " is a varint longer than 9 bytes");
    }

    /** A count or length: a varint no larger than {@code max}, else {@code status}. */
    int count(String field, int max, int overLimitStatus) {
        int at = offset();
        long v = varint(field);
        if (v > max) {
            throw new MalformedMessageException(overLimitStatus, field + " at offset " + at + " is " + v
                    + ", over the limit of " + max);
        }
        return (int) v;
    }

    /** A count of items that each take at least {@code minItemBytes}: also bounded by the bytes left. */
    int items(String field, int max, int minItemBytes) {
        int at = offset();
        int n = count(field, max, Status.TOO_LARGE);
        if ((long) n * minItemBytes > remaining()) {
            throw MalformedMessageException.badRequest(field + " at offset " + at + " declares " + n
                    + " items but only " + remaining() + " bytes are left");
        }
        return n;
    }

    String string(String field, int maxBytes) {
        int at = offset();
        int len = count(field + " length", maxBytes, Status.BAD_REQUEST);
        need(len, field);
        String s;
        if (isAscii(buf, pos, len)) {
            s = new String(buf, pos, len, StandardCharsets.ISO_8859_1);
        } else {
            try {
                s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(buf, pos, len)).toString();
            } catch (CharacterCodingException e) {
                throw MalformedMessageException.badRequest(field + " at offset " + at + " is not valid UTF-8");
            }
        }
        pos += len;
        return s;
    }

    byte[] bytes(String field, int maxBytes) {
        int len = count(field + " length", maxBytes, Status.TOO_LARGE);
        need(len, field);
        byte[] value = new byte[len];
        System.arraycopy(buf, pos, value, 0, len);
        pos += len;
        return value;
    }

    private static boolean isAscii(byte[] b, int off, int len) {
        for (int i = off, e = off + len; i < e; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }
}
