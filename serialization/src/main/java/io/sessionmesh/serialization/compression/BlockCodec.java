package io.sessionmesh.serialization.compression;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * One compression library behind two calls that never allocate more than they are given: compress into a
 * bounded buffer (or report that it does not fit), and decompress into a buffer of exactly the declared
 * size (or fail). Native contexts are kept per thread and reused.
 */
abstract class BlockCodec {

    /**
     * Compresses {@code src[off, off+len)} into {@code dst[dstOff, dstOff+maxLen)}.
     *
     * @return the compressed length, or -1 when it does not fit in {@code maxLen}
     */
    abstract int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLen);

    /**
     * Decompresses {@code src[off, off+len)} into all of {@code dst}, which has the declared size.
     *
     * @throws CorruptValueException unless the input is one complete stream of exactly {@code dst.length} bytes
     */
    abstract void decompress(byte[] src, int off, int len, byte[] dst);

    static BlockCodec forCompression(CompressionCodec codec, int level) {
        switch (codec) {
            case DEFLATE:
                return new DeflateCodec(level);
            case LZ4:
                return new Lz4Codec(level);
            case ZSTD:
                return new ZstdCodec(level);
            default:
                throw new IllegalArgumentException("no block codec for " + codec);
        }
    }

    /** Decoders need no level: one per codec serves every value. */
    static final BlockCodec DEFLATE_DECODER = new DeflateCodec(1);
    static final BlockCodec LZ4_DECODER = new Lz4Codec(0);
    static final BlockCodec ZSTD_DECODER = new ZstdCodec(1);

    static BlockCodec decoderFor(CompressionCodec codec) {
        switch (codec) {
            case DEFLATE:
                return DEFLATE_DECODER;
            case LZ4:
                return LZ4_DECODER;
            case ZSTD:
                return ZSTD_DECODER;
            default:
                throw new IllegalArgumentException("no block codec for " + codec);
        }
    }

    /** Raw deflate (no zlib header or checksum: the declared length is checked instead). */
    static final class DeflateCodec extends BlockCodec {
        private final ThreadLocal<Deflater> deflaters;
        private final ThreadLocal<Inflater> inflaters = ThreadLocal.withInitial(() -> new Inflater(true));

        DeflateCodec(int level) {
            this.deflaters = ThreadLocal.withInitial(() -> new Deflater(level, true));
        }

        @Override
        int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLen) {
            Deflater deflater = deflaters.get();
            try {
                deflater.setInput(src, off, len);
                deflater.finish();
                int n = deflater.deflate(dst, dstOff, maxLen);
                return deflater.finished() ? n : -1;
            } finally {
                deflater.reset();
            }
        }

        @Override
        void decompress(byte[] src, int off, int len, byte[] dst) {
            Inflater inflater = inflaters.get();
            try {
                inflater.setInput(src, off, len);
                int n = inflater.inflate(dst);
                if (!inflater.finished()) {
                    throw new CorruptValueException("deflate stream does not end within its declared " + dst.length
                            + " bytes (" + (inflater.needsInput() ? "truncated" : "longer than declared") + ")");
                }
                if (n != dst.length || inflater.getRemaining() != 0) {
                    throw new CorruptValueException("deflate stream gave " + n + " of " + dst.length + " declared bytes, "
                            + inflater.getRemaining() + " input bytes left over");
                }
            } catch (DataFormatException e) {
                throw new CorruptValueException("corrupt deflate stream: " + e.getMessage(), e);
            } finally {
                inflater.reset();
            }
        }
    }

    /** LZ4 block format; decompression always with the bounds-checking decompressor. */
    static final class Lz4Codec extends BlockCodec {
        private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
        private final LZ4Compressor compressor;
        private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

        Lz4Codec(int level) {
            this.compressor = level == 0 ? FACTORY.fastCompressor() : FACTORY.highCompressor(level);
        }

        @Override
        int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLen) {
            try {
                return compressor.compress(src, off, len, dst, dstOff, maxLen);
            } catch (LZ4Exception e) {
                return -1; // does not fit
            }
        }

        @Override
        void decompress(byte[] src, int off, int len, byte[] dst) {
            int n;
            try {
                n = decompressor.decompress(src, off, len, dst, 0, dst.length);
            } catch (LZ4Exception e) {
                throw new CorruptValueException("corrupt LZ4 block or longer than its declared " + dst.length
                        + " bytes: " + e.getMessage(), e);
            }
            if (n != dst.length) {
                throw new CorruptValueException("LZ4 block gave " + n + " of " + dst.length + " declared bytes");
            }
        }
    }

    /** Zstandard frames with per-thread native contexts. */
    static final class ZstdCodec extends BlockCodec {
        private final ThreadLocal<ZstdCompressCtx> compressors;
        private final ThreadLocal<ZstdDecompressCtx> decompressors = ThreadLocal.withInitial(ZstdDecompressCtx::new);

        ZstdCodec(int level) {
            this.compressors = ThreadLocal.withInitial(() -> new ZstdCompressCtx().setLevel(level));
        }

        @Override
        int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxLen) {
            try {
                return compressors.get().compressByteArray(dst, dstOff, maxLen, src, off, len);
            } catch (ZstdException e) {
                return -1; // does not fit (dstSize_tooSmall)
            }
        }

        @Override
        void decompress(byte[] src, int off, int len, byte[] dst) {
            int n;
            try {
                n = decompressors.get().decompressByteArray(dst, 0, dst.length, src, off, len);
            } catch (ZstdException e) {
                throw new CorruptValueException("corrupt zstd frame or longer than its declared " + dst.length
                        + " bytes: " + e.getMessage(), e);
            }
            if (n != dst.length) {
                throw new CorruptValueException("zstd frame gave " + n + " of " + dst.length + " declared bytes");
            }
        }
    }
}
