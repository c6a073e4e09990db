package io.sessionmesh.serialization.compression;

/**
 * The codecs a value may be compressed with; the first byte of every framed value is the codec's id, so a
 * reader decodes any codec whatever its own configuration.
 */
public enum CompressionCodec {
    /** Stored as is. */
    NONE(0, 0, 0, 0),
    /** java.util.zip raw deflate (no zlib header); levels 1..9. */
    DEFLATE(1, 1, 9, 1),
    /** LZ4 block format (lz4-java, JNI where it loads); level 0 is the fast compressor, 1..17 the high one. */
    LZ4(2, 0, 17, 0),
    /** Zstandard frame (zstd-jni); levels 1..19 (negative fast levels are not used). */
    ZSTD(3, 1, 19, 1);

    private final byte id;
    private final int minLevel;
    private final int maxLevel;
    private final int defaultLevel;

    CompressionCodec(int id, int minLevel, int maxLevel, int defaultLevel) {
        this.id = (byte) id;
        this.minLevel = minLevel;
        this.maxLevel = maxLevel;
        this.defaultLevel = defaultLevel;
    }

    /** The one-byte id written in front of a framed value. */
    public byte id() {
        return id;
    }

    /** The lowest accepted level. */
    public int minLevel() {
        return minLevel;
    }

    /** The highest accepted level. */
    public int maxLevel() {
        return maxLevel;
    }

    /** The level used when none is given: the fastest of each codec. */
    public int defaultLevel() {
        return defaultLevel;
    }

    /**
     * The codec of a framed value's first byte.
     *
     * @throws CorruptValueException for an id no codec has
     */
    public static CompressionCodec fromId(int id) {
        switch (id) {
            case 0:
                return NONE;
            case 1:
                return DEFLATE;
            case 2:
                return LZ4;
            case 3:
                return ZSTD;
            default:
                throw new CorruptValueException("unknown compression codec id " + id);
        }
    }
}
