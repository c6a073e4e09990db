package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.workload.WorkloadValues;
import io.sessionmesh.serialization.compression.CompressionCodec;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.compression.ValueCompressor;

import one.nio.serial.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Compress + decompress of one one-nio-serialized workload value with every codec and level considered,
 * always compressing (threshold 0, no minimum saving) so each option is measured on every size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Done.nio.serial.gen.mode=magic_accessor", "-Xms1g", "-Xmx1g"})
public class CompressionBenchmark {

    /** Codec and level. */
    public enum Option {
        DEFLATE_1(CompressionCodec.DEFLATE, 1), DEFLATE_6(CompressionCodec.DEFLATE, 6), DEFLATE_9(CompressionCodec.DEFLATE, 9),
        LZ4_FAST(CompressionCodec.LZ4, 0), ZSTD_1(CompressionCodec.ZSTD, 1), ZSTD_3(CompressionCodec.ZSTD, 3);

        final CompressionCodec codec;
        final int level;

        Option(CompressionCodec codec, int level) {
            this.codec = codec;
            this.level = level;
        }

        ValueCompressor compressor() {
            return new ValueCompressor(CompressionOptions.builder().codec(codec).level(level).thresholdBytes(0)
                    .minSavingPercent(0).build());
        }
    }

    @Param({"DEFLATE_1", "DEFLATE_6", "DEFLATE_9", "LZ4_FAST", "ZSTD_1", "ZSTD_3"})
    public Option option;

    @Param({"SMALL", "KB1", "KB8", "KB64"})
    public WorkloadValues.Kind value;

    private ValueCompressor compressor;
    private byte[] raw;
    private byte[] framed;

    @Setup
    public void setUp() throws Exception {
        compressor = option.compressor();
        raw = Serializer.serialize(OneNioValues.VALUES.of(value));
        framed = compressor.encode(raw);
    }

    @Benchmark
    public byte[] compressDecompress() {
        return compressor.decode(compressor.encode(raw));
    }

    @Benchmark
    public byte[] decompress() {
        return compressor.decode(framed);
    }
}
