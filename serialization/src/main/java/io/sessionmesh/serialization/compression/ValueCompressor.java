package io.sessionmesh.serialization.compression;

import java.util.Objects;

/**
 * Frames one attribute value, compressing it when that pays.
 *
 * <pre>
 * stored as is:  +--------+----------------------+
 *                | 0x00   | value bytes          |
 *                +--------+----------------------+
 * compressed:    +--------+---------------------------+-------------------------+
 *                | id 1-3 | uncompressed length:      | compressed block/frame  |
 *                |        | unsigned LEB128, 1-5 bytes|                         |
 *                +--------+---------------------------+-------------------------+
 * </pre>
 * A value is compressed only when it is at least {@link CompressionOptions#thresholdBytes()} long and the
 * compressed frame saves at least {@link CompressionOptions#minSavingPercent()} of the stored-as-is frame.
 * Decoding reads the codec from the first byte, so it accepts every codec whatever the options; it
 * refuses a declared length above {@link CompressionOptions#maxDecompressedBytes()} before allocating,
 * and never writes more than the declared length. Thread-safe.
 */
public final class ValueCompressor {
    /** Bytes of the frame header in front of a value stored as is. */
    public static final int STORED_HEADER_BYTES = 1;
    /** At most 5 bytes of LEB128 for a 31-bit length. */
    private static final int MAX_VARINT_BYTES = 5;

    private final CompressionOptions options;
    private final BlockCodec encoder;

    public ValueCompressor(CompressionOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.encoder = options.codec() == CompressionCodec.NONE ? null
                : BlockCodec.forCompression(options.codec(), options.level());
    }

    public CompressionOptions options() {
        return options;
    }

    /** Frames a whole array. */
    public byte[] encode(byte[] raw) {
        return encode(raw, 0, raw.length);
    }

    /** Frames {@code raw[off, off+len)}: compressed when it pays, otherwise stored as is. */
    public byte[] encode(byte[] raw, int off, int len) {
        Objects.checkFromIndexSize(off, len, raw.length);
        if (encoder != null && len >= options.thresholdBytes() && len > 0) {
            byte[] compressed = tryCompress(raw, off, len);
            if (compressed != null) {
                return compressed;
            }
        }
        byte[] framed = new byte[len + STORED_HEADER_BYTES];
        framed[0] = CompressionCodec.NONE.id();
        System.arraycopy(raw, off, framed, STORED_HEADER_BYTES, len);
        return framed;
    }

    /**
     * Frames a value that the caller serialized at offset {@link #STORED_HEADER_BYTES} of {@code buffer},
     * leaving byte 0 free: when it is not worth compressing, the buffer itself becomes the frame, with no copy.
     */
    public byte[] encodeInPlace(byte[] buffer) {
        int len = buffer.length - STORED_HEADER_BYTES;
        if (encoder != null && len >= options.thresholdBytes() && len > 0) {
            byte[] compressed = tryCompress(buffer, STORED_HEADER_BYTES, len);
            if (compressed != null) {
                return compressed;
            }
        }
        buffer[0] = CompressionCodec.NONE.id();
        return buffer;
    }

    private byte[] tryCompress(byte[] raw, int off, int len) {
        // The frame must save minSavingPercent of the stored frame (len + 1 bytes).
        long limit = (long) (len + STORED_HEADER_BYTES) * (100 - options.minSavingPercent()) / 100;
        int header = 1 + varintSize(len);
        int maxPayload = (int) Math.min(Integer.MAX_VALUE, limit - header);
        if (maxPayload <= 0) {
            return null;
        }
        byte[] buffer = new byte[header + maxPayload];
        int n = encoder.compress(raw, off, len, buffer, header, maxPayload);
        if (n < 0) {
            return null;
        }
        buffer[0] = options.codec().id();
        writeVarint(buffer, 1, len);
        byte[] framed = new byte[header + n];
        System.arraycopy(buffer, 0, framed, 0, framed.length);
        return framed;
    }

    /**
     * Whether a framed value is stored as is, so that its bytes can be read in place from
     * {@link #payloadOffset}.
     *
     * @throws CorruptValueException for an empty frame or an unknown codec id
     */
    public static boolean isUncompressed(byte[] framed, int off, int len) {
        if (len < 1) {
            throw new CorruptValueException("empty value: no compression header");
        }
        return CompressionCodec.fromId(framed[off]) == CompressionCodec.NONE;
    }

    /** Where the value bytes of a frame stored as is begin, relative to the frame. */
    public static int payloadOffset(byte[] framed, int off, int len) {
        return STORED_HEADER_BYTES;
    }

    /** Decodes a whole framed array. */
    public byte[] decode(byte[] framed) {
        return decode(framed, 0, framed.length);
    }

    /**
     * Decodes the framed value in {@code framed[off, off+len)}.
     *
     * @throws CorruptValueException naming the codec, the declared size and what is wrong
     */
    public byte[] decode(byte[] framed, int off, int len) {
        Objects.checkFromIndexSize(off, len, framed.length);
        CompressionCodec codec;
        if (len < 1) {
            throw new CorruptValueException("empty value: no compression header");
        }
        codec = CompressionCodec.fromId(framed[off]);
        if (codec == CompressionCodec.NONE) {
            byte[] raw = new byte[len - STORED_HEADER_BYTES];
            System.arraycopy(framed, off + STORED_HEADER_BYTES, raw, 0, raw.length);
            return raw;
        }
        int end = off + len;
        int pos = off + 1;
        long declared = 0;
        int shift = 0;
        while (true) {
            if (pos >= end) {
                throw new CorruptValueException(codec + " value of " + len + " bytes ends inside its length");
            }
            byte b = framed[pos++];
            declared |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                break;
            }
            shift += 7;
            if (shift >= 7 * MAX_VARINT_BYTES) {
                throw new CorruptValueException(codec + " value has a length of more than " + MAX_VARINT_BYTES + " bytes");
            }
        }
        if (declared > options.maxDecompressedBytes()) {
            throw new CorruptValueException(codec + " value declares " + declared + " bytes, over the limit of "
                    + options.maxDecompressedBytes());
        }
        if (declared == 0) {
            throw new CorruptValueException(codec + " value declares 0 bytes: empty values are never compressed");
        }
        byte[] raw = new byte[(int) declared];
        BlockCodec.decoderFor(codec).decompress(framed, pos, end - pos, raw);
        return raw;
    }

    private static int varintSize(int value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    private static void writeVarint(byte[] dst, int pos, int value) {
        while ((value & ~0x7f) != 0) {
            dst[pos++] = (byte) ((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        dst[pos] = (byte) value;
    }
}
