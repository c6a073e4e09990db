package io.sessionmesh.serialization.transport;

/**
 * Writes the binary form into an array sized exactly beforehand: unsigned LEB128 varints, strings as a
 * varint byte length and UTF-8, byte values as a varint length and the bytes.
 */
final class BinaryWriter {
    private final byte[] buf;
    private int pos;

    BinaryWriter(int size) {
        this.buf = new byte[size];
    }

    byte[] array() {
        if (pos != buf.length) {
            throw new IllegalStateException("wrote " + pos + " of " + buf.length + " bytes");
        }
        return buf;
    }

    void u8(int v) {
        buf[pos++] = (byte) v;
    }

    void u16(int v) {
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void i32(int v) {
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
    }

    void varint(long v) {
        while ((v & ~0x7fL) != 0) {
            buf[pos++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    void string(String s) {
        int len = utf8Length(s);
        varint(len);
        if (len == s.length()) {
            for (int i = 0; i < len; i++) {
                buf[pos++] = (byte) s.charAt(i);
            }
        } else {
            byte[] utf8 = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            System.arraycopy(utf8, 0, buf, pos, utf8.length);
            pos += utf8.length;
        }
    }

    void bytes(byte[] value) {
        varint(value.length);
        System.arraycopy(value, 0, buf, pos, value.length);
        pos += value.length;
    }

    static int varintSize(long v) {
        int size = 1;
        while ((v & ~0x7fL) != 0) {
            size++;
            v >>>= 7;
        }
        return size;
    }

    static int stringSize(String s) {
        int len = utf8Length(s);
        return varintSize(len) + len;
    }

    static int bytesSize(byte[] value) {
        return varintSize(value.length) + value.length;
    }

    /** UTF-8 length without allocating; strings of the model have no unpaired surrogates. */
    static int utf8Length(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    len += 1;
                } else if (Character.isHighSurrogate(c)) {
                    len += 2;
                    i++;
                } else {
                    len += 2;
                }
            }
        }
        return len;
    }
}
