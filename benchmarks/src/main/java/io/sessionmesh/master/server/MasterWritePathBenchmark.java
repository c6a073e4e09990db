package io.sessionmesh.master.server;

import io.sessionmesh.benchmarks.master.MasterVsRedis;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.handler.ServerCounters;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.master.store.StoreLimits;
import io.sessionmesh.master.store.Ticker;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The master's WRITE in process, with no kernel in the way: what {@code MasterVsRedis --ops write} measures over TCP
 * less the sends and receives, which Redis pays as often (benchmarks/RESULTS.md 12.19-12.20). Each invocation is one
 * client batch: {@value #BATCH} WRITEs of one 1 KB attribute, each to a random one of {@code sessions} sessions with
 * three sections ({@link MasterVsRedis}'s names and values), in one buffer, as a pipelined connection sends them.
 * The pipeline paths also count building that buffer and reading the answers back, the same for both.
 *
 * <ul>
 *   <li>{@code PIPELINE}: the batch goes into an {@link EmbeddedChannel} holding the master's own pipeline (the
 *   package-private {@link MasterServerInitializer}, which is why this class sits in the master's package): frame
 *   decoder, write lane, store, answer encoder; the answers are read back and counted.</li>
 *   <li>{@code STORE}: the same writes, made beforehand (each from the model, its wire form encoded on first use),
 *   straight into {@link SessionStore#write}.</li>
 *   <li>{@code SET_PIPELINE}: Redis SET's work in Java behind the master's frame decoder and encoder, for scale (what
 *   {@code MasterFloor --work set} does over TCP): the id as a String, a map look-up, a fresh copy of the value
 *   replacing the old one, an answer of a header and 16 bytes.</li>
 *   <li>{@code SET_STORE}: that work alone, the counterpart of {@code STORE}.</li>
 * </ul>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar MasterWritePathBenchmark -prof gc}: scores and
 * {@code gc.alloc.rate.norm} are a write's, JMH dividing by the batch ({@link OperationsPerInvocation}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "-Dio.netty.leakDetection.level=disabled"})
public class MasterWritePathBenchmark {
    /** WRITEs a batch: MasterVsRedis's pipeline depth. */
    static final int BATCH = 16;
    /** Batches drawn up front, so that choosing sessions costs nothing in the measurement. */
    private static final int BATCHES = 4096;

    /** What a batch goes through. */
    public enum Path { PIPELINE, STORE, SET_PIPELINE, SET_STORE }

    @Param({"PIPELINE", "STORE", "SET_PIPELINE", "SET_STORE"})
    public Path path;

    @Param({"1000"})
    public int sessions;

    private final BinaryTransportCodec codec = new BinaryTransportCodec();
    private ScheduledExecutorService timer;
    private SessionStore store;
    private EmbeddedChannel channel;
    private WriteRequest[] requests;
    private byte[][] bodies;
    /** The same bodies as buffers, for SET_STORE: SET's work reads each from a buffer, as from a frame. */
    private ByteBuf[] bodyBuffers;
    private int[][] batches;
    private int next;
    /** SET's store: each session's one value. */
    private ConcurrentHashMap<String, byte[]> values;

    @Setup(Level.Trial)
    public void setUp() {
        store = new SessionStore(StoreLimits.DEFAULT, Ticker.SYSTEM);
        byte[][] sectionValues = MasterVsRedis.sectionValues();
        requests = new WriteRequest[sessions];
        bodies = new byte[sessions][];
        bodyBuffers = new ByteBuf[sessions];
        values = new ConcurrentHashMap<>();
        for (int i = 0; i < sessions; i++) {
            String id = store.create(Duration.ofMinutes(30), session -> true, null, null).id();
            List<SectionDelta> all = new ArrayList<>();
            for (int s = 0; s < MasterVsRedis.SECTIONS.length; s++) {
                all.add(new SectionDelta(MasterVsRedis.SECTIONS[s], Map.of("value", sectionValues[s]), List.of()));
            }
            store.write(new WriteRequest(id, all));
            requests[i] = new WriteRequest(id, List.of(new SectionDelta(MasterVsRedis.SECTIONS[0],
                    Map.of("value", sectionValues[0]), List.of())));
            bodies[i] = codec.encode(requests[i]);
            bodyBuffers[i] = Unpooled.wrappedBuffer(bodies[i]);
            values.put(id, new byte[sectionValues[0].length]);
        }
        SplittableRandom random = new SplittableRandom(18);
        batches = new int[BATCHES][BATCH];
        for (int[] batch : batches) {
            for (int k = 0; k < BATCH; k++) {
                batch[k] = random.nextInt(sessions);
            }
        }
        timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "write-path-benchmark-timer");
            thread.setDaemon(true); // a setUp that fails (no tearDown then) leaves no thread behind
            return thread;
        });
        MasterConfig config = MasterConfig.of(Map.of());
        channel = path == Path.SET_PIPELINE
                ? new EmbeddedChannel(new FrameDecoder(config.maxFrameBytes()), new FrameEncoder(codec, null, true), new SetWork())
                : new EmbeddedChannel(new MasterServerInitializer(config, store, new ServerCounters(), () -> "{}".getBytes(),
                        new DefaultChannelGroup(GlobalEventExecutor.INSTANCE), new HolderRegistry(2000, timer), null, null,
                        null, null));
        if ((path == Path.PIPELINE || path == Path.SET_PIPELINE) && pipeline() != BATCH) {
            tearDown();
            throw new IllegalStateException(path + " did not answer every WRITE of a batch OK");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        timer.shutdownNow();
    }

    /** One batch; returns the WRITEs answered OK (PIPELINE), or something the JIT cannot drop. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch() {
        return switch (path) {
            case PIPELINE, SET_PIPELINE -> pipeline();
            case STORE -> store();
            case SET_STORE -> {
                long bytes = 0;
                for (int i : nextBatch()) {
                    bytes += set(bodyBuffers[i]);
                }
                yield bytes;
            }
        };
    }

    private int[] nextBatch() {
        int[] batch = batches[next];
        next = (next + 1) & (BATCHES - 1);
        return batch;
    }

    long pipeline() {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer(BATCH * (FrameHeader.BYTES + bodies[0].length + 64));
        int[] batch = nextBatch();
        for (int k = 0; k < BATCH; k++) {
            byte[] body = bodies[batch[k]];
            FrameHeader.write(in, Opcodes.WRITE, 0, 0, k, body.length);
            in.writeBytes(body);
        }
        channel.writeInbound(in);
        int ok = 0;
        for (Object out; (out = channel.readOutbound()) != null; ) {
            ByteBuf answers = (ByteBuf) out;
            try {
                while (answers.isReadable()) {
                    int at = answers.readerIndex();
                    if (answers.getUnsignedByte(at + FrameHeader.STATUS_OFFSET) == Status.OK) {
                        ok++;
                    }
                    answers.skipBytes(FrameHeader.BYTES + (int) answers.getUnsignedInt(at + FrameHeader.LENGTH_OFFSET));
                }
            } finally {
                answers.release();
            }
        }
        return ok;
    }

    long store() {
        long versions = 0;
        for (int i : nextBatch()) {
            versions += store.write(requests[i], 0, Invalidator.NONE).versions()[0];
        }
        return versions;
    }

    /**
     * SET's work for the WRITE body {@code body} (as {@code MasterFloor --work set} does it): the session id (after the
     * message header, a one-byte length and its bytes) as a String, then a fresh copy of the rest replacing the id's
     * value; returns the value's length.
     */
    private int set(ByteBuf body) {
        int at = body.readerIndex() + BinaryTransportCodec.HEADER_BYTES;
        int len = body.getByte(at++);
        byte[] value = new byte[body.writerIndex() - at - len];
        body.getBytes(at + len, value);
        if (values.replace(body.toString(at, len, StandardCharsets.ISO_8859_1), value) == null) {
            throw new IllegalStateException("no value for a session made in setUp");
        }
        return value.length;
    }

    /** SET's work on each WRITE frame, answered with a header and 16 bytes (a TOUCH's answer), as Redis's +OK. */
    private final class SetWork extends ChannelInboundHandlerAdapter {
        private final SessionTimes times = new SessionTimes(1_800_000, 3_600_000);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Frame frame = (Frame) msg;
            try {
                set(frame.body());
                ctx.write(new MasterAnswer.Touched(frame.requestId(), times), ctx.voidPromise());
            } finally {
                frame.release();
            }
        }
    }
}
