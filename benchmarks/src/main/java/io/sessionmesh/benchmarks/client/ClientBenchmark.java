package io.sessionmesh.benchmarks.client;

import io.sessionmesh.benchmarks.workload.OneNioValues;
import io.sessionmesh.client.Session;
import io.sessionmesh.client.SessionMeshClient;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The client jar's reads against a running sidecar (benchmarks/RESULTS.md 4.1 and 4.2): the deposit flow's three
 * sections of one session, a sidecar cache hit, per {@link ReadClient} (the client jar's socket pool, the JDK's
 * HttpClient, the client jar's API) and per {@link Reads} (one batch of the three, or three single reads): reads a
 * second ({@link #throughput}) and latency percentiles ({@link #latency}, sampled) in one run; threads with {@code -t}. The sidecar, with its master, runs as
 * processes: benchmarks/run-client-benchmark.sh starts them and names the sidecar with {@code -p sidecar=URL}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ClientBenchmark -p sidecar=http://127.0.0.1:7510 -rf json -rff client.json
 * </pre>
 *
 * <p>The bytes of a delta save against resending the section (4.3) are not timed: {@link DeltaBytes}.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Done.nio.serial.gen.mode=magic_accessor",
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class ClientBenchmark {
    /** The sidecar the script starts. */
    public static final String DEFAULT_SIDECAR = "http://127.0.0.1:7510";
    /** The deposit flow's sections, read together by its offer page. */
    static final List<String> DEPOSIT_SECTIONS = List.of("clientInfo", "defaultCurrency", "interestRates");
    /** Sessions read in turn: enough that reads are spread, few enough to stay in the sidecar's cache. */
    static final int SESSIONS = 200;
    /** The one-nio size of the client record in clientInfo. */
    static final int CLIENT_RECORD_BYTES = 600;

    /** How the three sections are read. */
    public enum Reads {
        /** One request for the three (what {@code @SessionSections} gives). */
        BATCH,
        /** One request a section (without {@code @SessionSections}). */
        SINGLES
    }

    @Param({"SIDECAR_HTTP", "JDK_HTTP_CLIENT", "CLIENT_JAR"})
    public ReadClient client;

    @Param({"BATCH", "SINGLES"})
    public Reads reads;

    @Param(DEFAULT_SIDECAR)
    public String sidecar;

    private SessionMeshClient sessions;
    private ReadClient.Reader reader;
    private List<String> ids;

    /** A thread's place in the sessions: threads start apart, then each reads every session in turn. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        @Setup(Level.Trial)
        public void setUp(ThreadParams thread) {
            next = thread.getThreadIndex() * (SESSIONS / Math.max(1, thread.getThreadCount()));
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        URI uri = URI.create(sidecar);
        sessions = SessionMeshClient.builder().sidecar(uri).classFilter(OneNioValues.CLASS_FILTER).build();
        ids = preload(sessions, SESSIONS);
        reader = client.open(uri, sessions);
        for (String id : ids) {
            reader.read(id, DEPOSIT_SECTIONS, reads == Reads.BATCH); // every section into the sidecar's cache
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        reader.close();
        sessions.close();
    }

    /** Reads a second (of all threads together). */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public Object throughput(Cursor cursor) {
        return read(cursor);
    }

    /** Latency of a read: percentiles of sampled reads. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Object latency(Cursor cursor) {
        return read(cursor);
    }

    private Object read(Cursor cursor) {
        String id = ids.get(cursor.next++ % SESSIONS);
        return reader.read(id, DEPOSIT_SECTIONS, reads == Reads.BATCH);
    }

    /** {@code n} sessions holding the deposit flow's three sections, values as the workload has them. */
    static List<String> preload(SessionMeshClient client, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Session s = client.createSession();
            s.section("clientInfo").setAttribute("client", OneNioValues.VALUES.clientOfSize(CLIENT_RECORD_BYTES));
            s.section("defaultCurrency").setAttribute("currency", "RUB");
            Map<String, BigDecimal> rates = new LinkedHashMap<>();
            for (int m : new int[] {3, 6, 12, 24}) {
                rates.put("RUB/" + m, BigDecimal.valueOf(1400 + m * 10, 2));
            }
            s.section("interestRates").setAttribute("rates", rates);
            s.save();
            ids.add(s.id());
        }
        return ids;
    }
}
