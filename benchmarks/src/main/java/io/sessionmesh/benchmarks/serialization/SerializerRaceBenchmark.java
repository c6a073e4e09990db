package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.workload.WorkloadValues;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The serializer race of the reference system, rerun on the values of docs/WORKLOAD.md: the full round
 * trip of one attribute value (to bytes and back), and each half, for every {@link Contender}. For
 * SESSIONMESH the round trip includes compression and decompression (serialize, compress, decompress,
 * deserialize).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Done.nio.serial.gen.mode=magic_accessor", "-Xms1g", "-Xmx1g",
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=error"})
public class SerializerRaceBenchmark {

    @Param({"ONE_NIO_PLAIN", "ONE_NIO_PERSIST", "JACKSON_TYPED", "JAVA_SERIALIZATION", "SESSIONMESH", "SESSIONMESH_UNCOMPRESSED"})
    public Contender contender;

    @Param({"SMALL", "B64", "B256", "KB1", "KB8", "KB64", "BLOBS_5X1KB"})
    public WorkloadValues.Kind value;

    private Object object;
    private byte[] bytes;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        object = OneNioValues.VALUES.of(value);
        bytes = contender.write(object);
        Object back = contender.read(bytes);
        boolean same = object instanceof Map ? sameBlobs(object, back) : Objects.equals(object, back);
        if (!same) {
            throw new IllegalStateException(contender + " does not round-trip " + value + ": " + back);
        }
    }

    @SuppressWarnings("unchecked")
    private static boolean sameBlobs(Object a, Object b) {
        Map<String, byte[]> x = (Map<String, byte[]>) a;
        Map<String, byte[]> y = (Map<String, byte[]>) b;
        return x.size() == y.size() && x.entrySet().stream().allMatch(e -> java.util.Arrays.equals(e.getValue(), y.get(e.getKey())));
    }

    @Benchmark
    public Object roundTrip() throws Exception {
        return contender.read(contender.write(object));
    }

    @Benchmark
    public byte[] serialize() throws Exception {
        return contender.write(object);
    }

    @Benchmark
    public Object deserialize() throws Exception {
        return contender.read(bytes);
    }
}
