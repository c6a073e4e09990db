package io.sessionmesh.serialization.compression;

import java.util.Objects;

/**
 * How values are compressed. Immutable; {@link #builder()} or {@link #DEFAULT}.
 *
 * <table>
 *   <caption>Options and defaults (chosen by measurement: serialization/COMPRESSION.md)</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>codec</td><td>{@link #DEFAULT_CODEC}</td><td>codec for new values</td></tr>
 *   <tr><td>level</td><td>the codec's {@link CompressionCodec#defaultLevel()}</td><td>codec level</td></tr>
 *   <tr><td>thresholdBytes</td><td>{@value #DEFAULT_THRESHOLD_BYTES}</td><td>smaller values are stored as is</td></tr>
 *   <tr><td>minSavingPercent</td><td>{@value #DEFAULT_MIN_SAVING_PERCENT}</td><td>keep the compressed form only if it
 *       is at least this much smaller</td></tr>
 *   <tr><td>maxDecompressedBytes</td><td>{@value #DEFAULT_MAX_DECOMPRESSED_BYTES}</td><td>a value declaring more is
 *       refused before anything is allocated</td></tr>
 * </table>
 */
public final class CompressionOptions {
    /** LZ4: the cheapest codec that still halves typical values (COMPRESSION.md). */
    public static final CompressionCodec DEFAULT_CODEC = CompressionCodec.LZ4;
    /** Below this size compression costs more than the bytes it saves. */
    public static final int DEFAULT_THRESHOLD_BYTES = 512;
    /** A compressed form must save at least this share of the size, or the value is stored as is. */
    public static final int DEFAULT_MIN_SAVING_PERCENT = 10;
    /** 16 MiB: far above the 1 MiB attribute limit, far below what would hurt a JVM. */
    public static final int DEFAULT_MAX_DECOMPRESSED_BYTES = 16 << 20;
    /** The defaults. */
    public static final CompressionOptions DEFAULT = builder().build();
    /** No compression at all (values are still framed with the NONE id). */
    public static final CompressionOptions NONE = builder().codec(CompressionCodec.NONE).build();

    private final CompressionCodec codec;
    private final int level;
    private final int thresholdBytes;
    private final int minSavingPercent;
    private final int maxDecompressedBytes;

    private CompressionOptions(Builder b) {
        this.codec = b.codec;
        this.level = b.level == null ? b.codec.defaultLevel() : b.level;
        this.thresholdBytes = b.thresholdBytes;
        this.minSavingPercent = b.minSavingPercent;
        this.maxDecompressedBytes = b.maxDecompressedBytes;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    public CompressionCodec codec() {
        return codec;
    }

    public int level() {
        return level;
    }

    public int thresholdBytes() {
        return thresholdBytes;
    }

    public int minSavingPercent() {
        return minSavingPercent;
    }

    public int maxDecompressedBytes() {
        return maxDecompressedBytes;
    }

    @Override
    public String toString() {
        return "compression " + codec + (codec == CompressionCodec.NONE ? "" : " level " + level + " from "
                + thresholdBytes + " B if it saves " + minSavingPercent + "%") + ", max " + maxDecompressedBytes + " B";
    }

    /** Builds {@link CompressionOptions}; {@link #build()} checks every value and names the bad one. */
    public static final class Builder {
        private CompressionCodec codec = DEFAULT_CODEC;
        private Integer level;
        private int thresholdBytes = DEFAULT_THRESHOLD_BYTES;
        private int minSavingPercent = DEFAULT_MIN_SAVING_PERCENT;
        private int maxDecompressedBytes = DEFAULT_MAX_DECOMPRESSED_BYTES;

        private Builder() {
        }

        public Builder codec(CompressionCodec codec) {
            this.codec = Objects.requireNonNull(codec, "codec");
            return this;
        }

        public Builder level(int level) {
            this.level = level;
            return this;
        }

        public Builder thresholdBytes(int thresholdBytes) {
            this.thresholdBytes = thresholdBytes;
            return this;
        }

        public Builder minSavingPercent(int minSavingPercent) {
            this.minSavingPercent = minSavingPercent;
            return this;
        }

        public Builder maxDecompressedBytes(int maxDecompressedBytes) {
            this.maxDecompressedBytes = maxDecompressedBytes;
            return this;
        }

        public CompressionOptions build() {
            if (level != null && (level < codec.minLevel() || level > codec.maxLevel())) {
                throw new IllegalArgumentException("compression level " + level + " is outside " + codec + "'s range "
                        + codec.minLevel() + ".." + codec.maxLevel());
            }
            if (thresholdBytes < 0) {
                throw new IllegalArgumentException("thresholdBytes must not be negative: " + thresholdBytes);
            }
            if (minSavingPercent < 0 || minSavingPercent > 99) {
                throw new IllegalArgumentException("minSavingPercent must be in 0..99: " + minSavingPercent);
            }
            if (maxDecompressedBytes <= 0) {
                throw new IllegalArgumentException("maxDecompressedBytes must be positive: " + maxDecompressedBytes);
            }
            return new CompressionOptions(this);
        }
    }
}
