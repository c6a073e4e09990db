package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.workload.WorkloadValues;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;

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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The transport message of the reference system's comparison: one section of 5 attributes of 1 KB byte[],
 * as a read result, encoded and decoded in the binary form and in the JSON form.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TransportBenchmark {

    /** The two forms of one model. */
    public enum Form { BINARY, JSON }

    @Param({"BINARY", "JSON"})
    public Form form;

    private final BinaryTransportCodec binary = new BinaryTransportCodec();
    private final JsonTransportCodec json = new JsonTransportCodec();
    private ReadResult message;
    private byte[] encoded;

    @Setup
    public void setUp() {
        message = new ReadResult("Qm9vdHN0cmFwU2Vzc2lvbklkMDAx", List.of(new SectionData("blobs", 12, WorkloadValues.fiveBlobs())));
        encoded = encode();
        if (!decode().equals(message)) {
            throw new IllegalStateException(form + " does not round-trip");
        }
    }

    private byte[] encode() {
        return form == Form.BINARY ? binary.encode(message) : json.encode(message);
    }

    private ReadResult decode() {
        return form == Form.BINARY ? binary.decode(encoded, ReadResult.class) : json.decode(encoded, ReadResult.class);
    }

    @Benchmark
    public Object encodeDecode() {
        byte[] bytes = encode();
        return form == Form.BINARY ? binary.decode(bytes, ReadResult.class) : json.decode(bytes, ReadResult.class);
    }

    @Benchmark
    public byte[] encodeOnly() {
        return encode();
    }

    @Benchmark
    public Object decodeOnly() {
        return decode();
    }
}
