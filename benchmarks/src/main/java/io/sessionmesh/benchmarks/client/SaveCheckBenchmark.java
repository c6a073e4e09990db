package io.sessionmesh.benchmarks.client;

import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.serialization.attribute.ClassFilter;
import io.sessionmesh.serialization.attribute.DecodedValue;

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

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What a save costs for a value that was read and not changed (issue 18): the check "did this JVM change it in
 * place?" the way it was made before ({@link #encodeAndCompare}: encode, compressing, and compare with the bytes read)
 * and the way it is made now ({@link #encodeIfChanged}: nothing for a value that cannot change in place, else an
 * uncompressed serialization compared with the serialized bytes the decode kept). Values like the example service's:
 * a record, a {@code List.of} of records, the same records in an {@code ArrayList}, and a 2 KB list of strings that
 * compresses (LZ4 is tried).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Done.nio.serial.gen.mode=magic_accessor", "-Xms1g", "-Xmx1g"})
public class SaveCheckBenchmark {
    /** A deposit, as the example service keeps it. */
    public record Deposit(String id, String currency, BigDecimal amount, int months, BigDecimal percent, LocalDate openedOn)
            implements Serializable {
    }

    /** The kinds of value compared. */
    public enum Kind { RECORD, LIST_OF_RECORDS, ARRAYLIST_OF_RECORDS, COMPRESSIBLE_2KB }

    @Param({"RECORD", "LIST_OF_RECORDS", "ARRAYLIST_OF_RECORDS", "COMPRESSIBLE_2KB"})
    public Kind kind;

    private AttributeCodec codec;
    private byte[] stored;
    private DecodedValue read;

    @Setup
    public void setUp() {
        codec = AttributeCodec.builder().classFilter(ClassFilter.allowing("io.sessionmesh.")).build();
        List<Deposit> deposits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            deposits.add(new Deposit("D" + i, "RUB", new BigDecimal("1000" + i), 3 * (i + 1), new BigDecimal("15.5"),
                    LocalDate.of(2026, 1 + i, 1)));
        }
        Object value = switch (kind) {
            case RECORD -> deposits.get(0);
            case LIST_OF_RECORDS -> List.copyOf(deposits);
            case ARRAYLIST_OF_RECORDS -> deposits;
            case COMPRESSIBLE_2KB -> {
                SplittableRandom r = new SplittableRandom(1);
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    lines.add("operation " + r.nextInt(10) + " of account 40817810" + r.nextInt(1000));
                }
                yield lines;
            }
        };
        stored = codec.encode(value);
        read = codec.decodeForUpdate(stored);
    }

    /** Before: encode (serialize and try to compress) and compare with the bytes read. */
    @Benchmark
    public boolean encodeAndCompare() {
        return Arrays.equals(codec.encode(read.value()), stored);
    }

    /** Now: {@link AttributeCodec#encodeIfChanged(DecodedValue)}. */
    @Benchmark
    public byte[] encodeIfChanged() {
        return codec.encodeIfChanged(read);
    }
}
