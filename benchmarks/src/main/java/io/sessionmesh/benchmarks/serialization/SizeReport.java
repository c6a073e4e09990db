package io.sessionmesh.benchmarks.serialization;

import io.sessionmesh.workload.WorkloadValues;
import io.sessionmesh.serialization.compression.CompressionOptions;
import io.sessionmesh.serialization.compression.ValueCompressor;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;

import one.nio.serial.Serializer;

import java.util.List;

/**
 * Bytes, not time: the size of every workload value with every serializer, then the one-nio plain bytes
 * after each compression option, then the transport message in both forms. Prints markdown tables.
 * Run: {@code java -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.serialization.SizeReport}.
 */
public final class SizeReport {
    private SizeReport() {
    }

    public static void main(String[] args) throws Exception {
        StringBuilder header = new StringBuilder("| value |");
        StringBuilder rule = new StringBuilder("|---|");
        for (Contender c : Contender.values()) {
            header.append(' ').append(c).append(" |");
            rule.append("---:|");
        }
        System.out.println("Serialized bytes per value:\n");
        System.out.println(header);
        System.out.println(rule);
        for (WorkloadValues.Kind kind : WorkloadValues.Kind.values()) {
            Object value = OneNioValues.VALUES.of(kind);
            StringBuilder row = new StringBuilder("| " + kind + " |");
            for (Contender c : Contender.values()) {
                row.append(' ').append(c.write(value).length).append(" |");
            }
            System.out.println(row);
        }

        System.out.println("\nOne-nio plain bytes before and after each compression option (always compressing):\n");
        StringBuilder h2 = new StringBuilder("| value | raw |");
        StringBuilder r2 = new StringBuilder("|---|---:|");
        for (CompressionBenchmark.Option o : CompressionBenchmark.Option.values()) {
            h2.append(' ').append(o).append(" |");
            r2.append("---:|");
        }
        h2.append(" default codec (LZ4 from 512 B, >= 10% saving) |");
        r2.append("---:|");
        System.out.println(h2);
        System.out.println(r2);
        ValueCompressor defaults = new ValueCompressor(CompressionOptions.DEFAULT);
        for (WorkloadValues.Kind kind : WorkloadValues.Kind.values()) {
            byte[] raw = Serializer.serialize(OneNioValues.VALUES.of(kind));
            StringBuilder row = new StringBuilder("| " + kind + " | " + raw.length + " |");
            for (CompressionBenchmark.Option o : CompressionBenchmark.Option.values()) {
                row.append(' ').append(o.compressor().encode(raw).length).append(" |");
            }
            row.append(' ').append(defaults.encode(raw).length).append(" |");
            System.out.println(row);
        }

        ReadResult message = new ReadResult("Qm9vdHN0cmFwU2Vzc2lvbklkMDAx",
                List.of(new SectionData("blobs", 12, WorkloadValues.fiveBlobs())));
        int binary = new BinaryTransportCodec().encode(message).length;
        int json = new JsonTransportCodec().encode(message).length;
        System.out.printf("%nTransport message, one section of 5 x 1 KB byte[]: binary %d B, JSON %d B, binary/JSON %.2f%n",
                binary, json, binary / (double) json);
    }
}
