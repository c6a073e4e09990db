package io.sessionmesh.benchmarks.client;

import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;
import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.SessionShape;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bytes, not time (benchmarks/RESULTS.md 4.3): what changing one attribute of a 5-attribute section sends with the
 * client jar's delta save, against sending the whole section again. The values are client records of
 * {@value #FIRST_VALUE_BYTES} to {@value #FIRST_VALUE_BYTES} + 4 x {@value #VALUE_STEP_BYTES} bytes (one-nio), as
 * the workload's median values; the change replaces the third with a record of {@value #CHANGED_VALUE_BYTES} B.
 * Deterministic for a given client jar. Needs a running sidecar.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.sessionmesh.benchmarks.client.DeltaBytes [--sidecar URL] [--out file.json]</pre>
 */
public final class DeltaBytes {
    /** Attributes of the section. */
    static final int ATTRIBUTES = 5;
    /** The attribute the change replaces. */
    static final int CHANGED = 2;
    /** The one-nio size of the first value. */
    static final int FIRST_VALUE_BYTES = 200;
    /** Each next value is this much larger. */
    static final int VALUE_STEP_BYTES = 150;
    /** The one-nio size of the new value. */
    static final int CHANGED_VALUE_BYTES = 500;
    static final String SECTION = "cards";

    /** The bytes each save sent. */
    record Result(long delta, long wholeSection) {
        double ratio() {
            return (double) delta / wholeSection;
        }

        String json() {
            return String.format(Locale.ROOT, "{\"delta\":%d,\"wholeSection\":%d,\"ratio\":%.4f}", delta, wholeSection, ratio());
        }
    }

    private DeltaBytes() {
    }

    public static void main(String[] args) throws IOException {
        Settings flags = Settings.fromArgs(args);
        URI sidecar = URI.create(flags.string("sidecar", ClientBenchmark.DEFAULT_SIDECAR));
        Path out = flags.path("out", null);
        flags.checkAllUsed();
        Result r;
        try (SessionMeshClient client = SessionMeshClient.builder().sidecar(sidecar).classFilter(OneNioValues.CLASS_FILTER).build()) {
            r = measure(client);
        }
        System.out.printf(Locale.ROOT, "delta save: %d bytes; resending the section: %d bytes; ratio %.3f%n", r.delta(),
                r.wholeSection(), r.ratio());
        if (out != null) {
            Files.writeString(out, r.json() + "\n");
            System.out.println("results: " + out);
        }
    }

    /** Saves the section, changes one attribute through a new read of it, saves again: what each way sends. */
    static Result measure(SessionMeshClient client) {
        Session s = client.createSession();
        Object[] values = new Object[ATTRIBUTES];
        for (int i = 0; i < ATTRIBUTES; i++) {
            values[i] = OneNioValues.VALUES.clientOfSize(FIRST_VALUE_BYTES + VALUE_STEP_BYTES * i);
            s.section(SECTION).setAttribute(SessionShape.attribute(i), values[i]);
        }
        s.save();
        Object changed = OneNioValues.VALUES.clientOfSize(CHANGED_VALUE_BYTES);
        Session view = client.getSession(s.id(), SECTION);
        view.section(SECTION).setAttribute(SessionShape.attribute(CHANGED), changed);
        long before = client.bytesSent();
        view.save();
        long delta = client.bytesSent() - before;
        // The same change sent as the whole section (what a save of whole sections would send).
        AttributeCodec codec = AttributeCodec.builder().classFilter(OneNioValues.CLASS_FILTER).build();
        Map<String, byte[]> all = new LinkedHashMap<>();
        for (int i = 0; i < ATTRIBUTES; i++) {
            all.put(SessionShape.attribute(i), codec.encode(i == CHANGED ? changed : values[i]));
        }
        WriteRequest whole = new WriteRequest(s.id(), List.of(new SectionDelta(SECTION, all, List.of())));
        return new Result(delta, new BinaryTransportCodec().encode(whole).length);
    }
}
