package io.sessionmesh.benchmarks.master;

import io.sessionmesh.benchmarks.serialization.OneNioValues;
import io.sessionmesh.serialization.attribute.AttributeCodec;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The master against Redis on the same machine, in one run: a batch read of 3 sections (about 1 KB each,
 * compressed as the attribute codec would) against HGETALL of a 3-field hash of the same sizes, and a write of
 * one attribute against HSET of one field and against SET of a value of the same size (redis-benchmark -t set -d), at
 * 1..64 connections and pipeline depth 1 and 16. Our side runs
 * here on one Netty thread (as redis-benchmark runs on one): each connection sends a batch of {@code depth}
 * requests in one write, waits for all the answers, and sends the next (what redis-benchmark -P does). Like
 * redis-benchmark, it sends requests it encoded once (one per session) and checks each answer's status without
 * decoding its body, so the figures measure the server, not the client. Redis's side is redis-benchmark itself,
 * run by this program right after ours for each configuration.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.master.MasterVsRedis --master 127.0.0.1:7400 \
 *     --redis 127.0.0.1:6390 [--connections 1,4,16,64] [--pipeline 1,16] [--seconds 5] [--sessions 1000] \
 *     [--ops read,write] [--client raw|connection] [--out results/master-vs-redis.json] [--master-pid N --redis-pid N]
 *     [--jit-warmup 15] [--rounds 1]
 * </pre>
 *
 * With the servers' pids, each side's CPU time per request is measured too (from /proc): on a machine shared with
 * other work, the figure least disturbed by it.
 *
 * <p>With {@code --rounds R} (at most {@value #MAX_ROUNDS}), each configuration runs R times in turn, ours then
 * Redis's each time, and the ratio's median over the rounds is printed with every round's: on a shared machine whose
 * speed drifts by a third within minutes, one pair of runs cannot tell a tenth apart, the median of interleaved
 * pairs can come closer.
 */
public final class MasterVsRedis {
    /** The three sections every preloaded session holds. */
    public static final String[] SECTIONS = {"clientInfo", "defaultCurrency", "interestRates"};
    static final long HIGHEST_MICROS = TimeUnit.SECONDS.toMicros(60);

    private MasterVsRedis() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        InetSocketAddress master = resolved(flags.hostPort("master", "127.0.0.1:7400"));
        InetSocketAddress redis = resolved(flags.hostPort("redis", "127.0.0.1:6390"));
        List<Integer> connections = flags.integers("connections", List.of(1, 4, 16, 64), 1, 1024);
        List<Integer> depths = flags.integers("pipeline", List.of(1, 16), 1, 1024);
        int seconds = flags.integer("seconds", 5, 1, 3600);
        int sessions = flags.integer("sessions", 1000, 1, 10_000_000);
        Path out = flags.path("out", "benchmarks/results/master-vs-redis.json");
        List<String> ops = flags.list("ops", List.of("read", "write"), List.of("read", "write"));
        masterPid = flags.integer("master-pid", 0, 0, Integer.MAX_VALUE);
        redisPid = flags.integer("redis-pid", 0, 0, Integer.MAX_VALUE);
        rawClient = flags.choice("client", "raw", List.of("raw", "connection")).equals("raw");
        jitWarmupSeconds = flags.integer("jit-warmup", 15, 0, 600);
        int rounds = flags.integer("rounds", 1, 1, MAX_ROUNDS);
        flags.checkAllUsed();
        System.out.println("our client: " + (rawClient ? "raw (pre-encoded frames, answers counted by their headers, as "
                + "redis-benchmark does)" : "MasterConnection (the sidecar's client: a future and a table entry a request)"));

        byte[][] values = sectionValues();
        System.out.printf("section values: %d, %d, %d bytes (codec-encoded client records)%n",
                values[0].length, values[1].length, values[2].length);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<String> rows = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        StringBuilder summaries = new StringBuilder("| operation | connections | pipeline | rounds | master / Redis "
                + "(SET for writes, HGETALL for reads): median (min..max), each round |\n|---|---:|---:|---:|---|\n");
        table.append("| operation | connections | pipeline | master req/s | Redis req/s | master / Redis | master p50 / p99 / p99.9 us"
                + " | Redis p50 / p99 us | Redis SET req/s, master / SET, p50 / p99 us | CPU us/request: master, Redis, Redis SET |"
                + "\n|---|---:|---:|---:|---:|---:|---|---|---|---|\n");
        try {
            String[] ids = preloadMaster(group, master, sessions, values);
            preloadRedis(redis, sessions, values);
            for (String op : ops) {
                for (int c : connections) {
                    for (int depth : depths) {
                        double[] setRatios = new double[rounds];
                        for (int round = 0; round < rounds; round++) {
                            Result ours = runMaster(group, master, ids, values, op, c, depth, seconds);
                            long n = Math.max(20_000, (long) (ours.throughput * seconds));
                            Result theirs = runRedisBenchmark(redis, sessions, values[0].length, op, c, depth, n);
                            double ratio = ours.throughput / theirs.throughput;
                            System.out.printf(Locale.ROOT, "%-5s c=%-3d P=%-3d master %,10.0f req/s p50 %6.0f p99 %6.0f us "
                                    + "cpu %5.2f us/req | redis %,10.0f req/s p50 %6.0f p99 %6.0f us cpu %5.2f us/req | ratio %.2f%n",
                                    op, c, depth, ours.throughput, ours.p50, ours.p99, ours.cpuPerRequest(), theirs.throughput,
                                    theirs.p50, theirs.p99, theirs.cpuPerRequest(), ratio);
                            // A write is also measured against SET of a value of the same size (issue 18 asks for SET).
                            Result set = op.equals("write")
                                    ? runRedisBenchmark(redis, sessions, values[0].length, "set", c, depth, n) : null;
                            double setRatio = set == null ? Double.NaN : ours.throughput / set.throughput;
                            if (set != null) {
                                System.out.printf(Locale.ROOT, "%-5s c=%-3d P=%-3d %61s"
                                        + "| SET   %,10.0f req/s p50 %6.0f p99 %6.0f us cpu %5.2f us/req | ratio %.2f%n", op, c,
                                        depth, "", set.throughput, set.p50, set.p99, set.cpuPerRequest(), setRatio);
                            }
                            table.append(String.format(Locale.ROOT, "| %s | %d | %d | %,.0f | %,.0f | **%.2f** "
                                    + "| %.0f / %.0f / %.0f | %.0f / %.0f |%s%n",
                                    (op.equals("read") ? "read 3 sections / HGETALL" : "write 1 attribute / HSET, SET")
                                            + (rounds > 1 ? ", round " + (round + 1) : ""), c, depth,
                                    ours.throughput, theirs.throughput, ratio, ours.p50, ours.p99, ours.p999, theirs.p50, theirs.p99,
                                    (set == null ? " - |" : String.format(Locale.ROOT, " %,.0f, **%.2f**, %.0f / %.0f |",
                                            set.throughput, setRatio, set.p50, set.p99))
                                    + String.format(Locale.ROOT, " %.2f, %.2f, %s |", ours.cpuPerRequest(), theirs.cpuPerRequest(),
                                            set == null ? "-" : String.format(Locale.ROOT, "%.2f", set.cpuPerRequest()))));
                            rows.add(String.format(Locale.ROOT, "{\"op\":\"%s\",\"connections\":%d,\"pipeline\":%d,\"master\":%s,"
                                    + "\"redis\":%s,\"ratio\":%.3f%s", op, c, depth, ours.json(), theirs.json(), ratio,
                                    set == null ? "" : String.format(Locale.ROOT, ",\"redisSet\":%s,\"ratioSet\":%.3f",
                                            set.json(), setRatio)) + ",\"round\":" + (round + 1) + "}");
                            setRatios[round] = set == null ? ratio : setRatio;
                        }
                        if (rounds > 1) {
                            String against = op.equals("write") ? "SET" : "HGETALL";
                            String summary = roundsSummary(setRatios);
                            System.out.printf(Locale.ROOT, "%-5s c=%-3d P=%-3d over %d rounds, master / %s: %s%n", op, c,
                                    depth, rounds, against, summary);
                            summaries.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s |%n", op, c, depth, rounds,
                                    summary));
                        }
                    }
                }
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, "{\"seconds\":" + seconds + ",\"sessions\":" + sessions + ",\"sectionBytes\":["
                + values[0].length + "," + values[1].length + "," + values[2].length + "],\"runs\":[\n"
                + String.join(",\n", rows) + "\n]}\n");
        System.out.println();
        System.out.print(table);
        if (rounds > 1) {
            System.out.println("\nThe ratios over the rounds (each round: ours, then Redis's, minutes apart at most):\n");
            System.out.print(summaries);
        }
        System.out.println("\nresults: " + out);
    }

    /** The most rounds a configuration may be run ({@code --rounds}): at the default 5 s a side, 20 minutes. */
    static final int MAX_ROUNDS = 50;

    /** "median (min..max): r1, r2, ..." of the rounds' ratios, two decimals. */
    static String roundsSummary(double[] ratios) {
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        StringBuilder each = new StringBuilder();
        for (double r : ratios) {
            each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", r));
        }
        return String.format(Locale.ROOT, "%.2f (%.2f..%.2f): %s", median, sorted[0], sorted[n - 1], each);
    }

    /** Three client records of different sizes whose codec form (LZ4) is about 1 KB each. */
    public static byte[][] sectionValues() {
        AttributeCodec codec = AttributeCodec.builder().classFilter(OneNioValues.CLASS_FILTER).build();
        byte[][] values = new byte[3][];
        int target = 1500;
        for (int i = 0; i < 3; i++) {
            byte[] v;
            do {
                v = codec.encode(OneNioValues.VALUES.clientOfSize(target));
                target += 50;
            } while (v.length < 1000 + 20 * i);
            values[i] = v;
        }
        return values;
    }

    /** Creates {@code sessions} sessions, each with the three sections of {@code values}; returns their ids. */
    public static String[] preloadMaster(EventLoopGroup group, InetSocketAddress master, int sessions, byte[][] values) {
        String[] ids = new String[sessions];
        try (MasterConnection c = MasterConnection.connect(group, master, MasterConnectionOptions.DEFAULT, null).join()) {
            for (int i = 0; i < sessions; i++) {
                ids[i] = c.create(null).join().sessionId();
                List<SectionDelta> deltas = new ArrayList<>();
                for (int s = 0; s < 3; s++) {
                    deltas.add(new SectionDelta(SECTIONS[s], Map.of("value", values[s]), List.of()));
                }
                c.write(new WriteRequest(ids[i], deltas)).join();
            }
        }
        return ids;
    }

    /** HSET session:%012d for every session (the key form redis-benchmark's -r produces), in RESP. */
    static void preloadRedis(InetSocketAddress redis, int sessions, byte[][] values) throws IOException {
        try (Socket s = new Socket(redis.getHostString(), redis.getPort())) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream cmd = new ByteArrayOutputStream();
            for (int i = 0; i < sessions; i++) {
                cmd.reset();
                List<byte[]> parts = new ArrayList<>(List.of(bytes("HSET"), bytes(String.format("session:%012d", i))));
                for (int f = 0; f < 3; f++) {
                    parts.add(bytes(SECTIONS[f]));
                    parts.add(values[f]);
                }
                cmd.write(bytes("*" + parts.size() + "\r\n"));
                for (byte[] p : parts) {
                    cmd.write(bytes("$" + p.length + "\r\n"));
                    cmd.write(p);
                    cmd.write(bytes("\r\n"));
                }
                out.write(cmd.toByteArray());
                int b = in.read();
                while (b != '\n') {
                    if (b < 0) {
                        throw new IOException("redis closed the connection while preloading");
                    }
                    b = in.read();
                }
            }
        }
    }

    /** What one side measured. */
    record Result(double throughput, double p50, double p99, double p999, double max, long requests, double cpuMicros) {
        Result(double throughput, double p50, double p99, double p999, double max, long requests) {
            this(throughput, p50, p99, p999, max, requests, Double.NaN);
        }

        /** The server's CPU time (user + system) per request, in microseconds; NaN when not measured. */
        double cpuPerRequest() {
            return cpuMicros / requests;
        }

        Result withCpu(double micros) {
            return new Result(throughput, p50, p99, p999, max, requests, micros);
        }

        String json() {
            return String.format(Locale.ROOT, "{\"requestsPerSecond\":%.0f,\"p50us\":%.1f,\"p99us\":%.1f,\"p999us\":%s,"
                    + "\"maxUs\":%.1f,\"requests\":%d,\"serverCpuUsPerRequest\":%s}", throughput, p50, p99,
                    Double.isNaN(p999) ? "null" : String.format(Locale.ROOT, "%.1f", p999), max, requests,
                    Double.isNaN(cpuMicros) ? "null" : String.format(Locale.ROOT, "%.3f", cpuPerRequest()));
        }
    }

    /**
     * Whether our side runs as redis-benchmark does (the default): each connection writes its batch of pre-encoded
     * frames in one write and counts the answers by their 16-byte headers, checking each status; else through
     * {@link MasterConnection}, the sidecar's client, which costs a future, a table entry and a decode a request
     * (it measured about twice the raw client's CPU, and did not set the pace: RESULTS.md 12.8 at 1f3fa7a).
     */
    static boolean rawClient = true;
    /** The first warm-up of each operation against each server process, in seconds (--jit-warmup). */
    static int jitWarmupSeconds = 15;
    /** "pid/address/opcode" of the servers and operations warmed up for {@link #jitWarmupSeconds} already. */
    static final java.util.Set<String> WARMED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The pids of the master and of redis-server, for their CPU time per request (0: not measured). */
    static long masterPid;
    static long redisPid;

    /**
     * CPU time (user + system) a process has used, in microseconds, from /proc (Linux); NaN when unknown. On a
     * shared, busy machine this is the figure that other processes disturb least: a server's cost per request.
     */
    static double cpuMicros(long pid) {
        if (pid <= 0) {
            return Double.NaN;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            return ticks * 1e6 / CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** USER_HZ: 100 on every Linux this runs on. */
    static final double CLOCK_TICKS = 100;

    /** The request bodies of {@code op}, one per session: a read of the three sections, or a write of the first. */
    static byte[][] requestBodies(String[] ids, byte[][] values, String op) {
        BinaryTransportCodec codec = new BinaryTransportCodec();
        byte[][] bodies = new byte[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            bodies[i] = op.equals("read")
                    ? codec.encode(new ReadRequest(ids[i], Arrays.asList(SECTIONS)))
                    : codec.encode(new WriteRequest(ids[i], List.of(new SectionDelta(SECTIONS[0], Map.of("value", values[0]),
                            List.of()))));
        }
        return bodies;
    }

    static Result runMaster(EventLoopGroup group, InetSocketAddress master, String[] ids, byte[][] values, String op,
                            int connections, int depth, int seconds) throws Exception {
        byte[][] bodies = requestBodies(ids, values, op);
        if (rawClient) {
            return runRaw(group, master, bodies, op.equals("read") ? Opcodes.READ : Opcodes.WRITE, connections, depth, seconds,
                    masterPid);
        }
        List<MasterConnection> conns = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            conns.add(MasterConnection.connect(group, master, MasterConnectionOptions.DEFAULT, null).join());
        }
        try {
            int opcode = op.equals("read") ? Opcodes.READ : Opcodes.WRITE;
            return measure((deadline, histogram) -> {
                List<BatchLoop> loops = new ArrayList<>();
                for (MasterConnection c : conns) {
                    Loop loop = new Loop(c, bodies, opcode, depth, deadline, histogram);
                    c.eventLoop().execute(loop::nextBatch);
                    loops.add(loop);
                }
                return loops;
            }, seconds, masterPid, master + "/" + opcode);
        } finally {
            for (MasterConnection c : conns) {
                c.close();
            }
        }
    }

    /** Starts one {@link BatchLoop} per connection, on its event loop, running until {@code deadline}. */
    interface LoopStarter {
        List<BatchLoop> start(long deadline, Histogram histogram);
    }

    /**
     * A warm-up (JIT on both sides), then the measured run, the same loops: throughput, latency and the master's CPU
     * per request; our client's CPU per request is printed. The first run of an operation against a server (its pid
     * and address, and the operation, in {@code warmUpKey}) warms up for {@link #jitWarmupSeconds} (its JIT compiles the path while it runs: on 2 cores that took more than
     * the 2.5 s later runs get, and the first row was measured while C2 still took a fifth of the master's CPU);
     * later runs for half their measured time.
     */
    static Result measure(LoopStarter starter, int seconds, long serverPid, String warmUpKey) throws Exception {
        boolean first = WARMED.add(serverPid + "/" + warmUpKey);
        runLoops(starter, first ? Math.max(jitWarmupSeconds, Math.max(1, seconds / 2)) : Math.max(1, seconds / 2), null);
        Histogram histogram = new Histogram(HIGHEST_MICROS, 3);
        double cpu = cpuMicros(serverPid);
        double self = cpuMicros(ProcessHandle.current().pid());
        long start = System.nanoTime();
        long requests = runLoops(starter, seconds, histogram);
        double elapsed = (System.nanoTime() - start) / 1e9;
        printClientCpu(cpuMicros(ProcessHandle.current().pid()) - self, requests);
        return new Result(requests / elapsed, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), requests, cpuMicros(serverPid) - cpu);
    }

    /** Runs the loops {@code starter} starts for {@code seconds}; returns the requests answered. */
    static long runLoops(LoopStarter starter, int seconds, Histogram histogram) throws Exception {
        long total = 0;
        for (BatchLoop loop : starter.start(System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds), histogram)) {
            total += loop.done.get(seconds + 60L, TimeUnit.SECONDS);
        }
        return total;
    }

    /** Our client's CPU per request (this whole process): whether it, rather than the master, set the pace. */
    static void printClientCpu(double micros, long requests) {
        System.out.printf(Locale.ROOT, "  our client: %.2f us of CPU a request%n", micros / requests);
    }

    /** {@link #runMaster} with the raw client: a warm-up, then the measured run. */
    static Result runRaw(EventLoopGroup group, InetSocketAddress master, byte[][] bodies, int opcode, int connections,
                         int depth, int seconds, long serverPid) throws Exception {
        List<Channel> channels = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                channels.add(new Bootstrap().group(group).channel(NioSocketChannel.class)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .handler(new ChannelInboundHandlerAdapter())
                        .connect(master).sync().channel());
            }
            return measure((deadline, histogram) -> {
                List<BatchLoop> loops = new ArrayList<>();
                for (Channel c : channels) {
                    RawLoop loop = new RawLoop(c, bodies, opcode, depth, deadline, histogram);
                    c.eventLoop().execute(() -> {
                        c.pipeline().addLast(loop.reader);
                        loop.nextBatch();
                    });
                    loops.add(loop);
                }
                return loops;
            }, seconds, serverPid, master + "/" + opcode);
        } finally {
            for (Channel c : channels) {
                c.close().sync();
            }
        }
    }

    /**
     * {@link BatchLoop} on a bare channel, as redis-benchmark runs: the batch's frames in one buffer and one write, the
     * answers counted by their headers (status checked, body skipped). Its {@link #reader} is in the channel's pipeline
     * while the loop runs.
     */
    static final class RawLoop extends BatchLoop {
        final Channel channel;
        int nextId = 1;
        /** Answer bytes not yet a whole frame. */
        ByteBuf pending;
        final ChannelInboundHandlerAdapter reader = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                read(ctx, (ByteBuf) msg);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                done.completeExceptionally(cause);
                ctx.close();
            }
        };

        RawLoop(Channel channel, byte[][] bodies, int opcode, int depth, long deadline, Histogram histogram) {
            super(bodies, opcode, depth, deadline, histogram);
            this.channel = channel;
        }

        @Override
        void send(ThreadLocalRandom random) {
            ByteBuf out = channel.alloc().directBuffer(depth * (FrameHeader.BYTES + bodies[0].length + 64));
            for (int i = 0; i < depth; i++) {
                byte[] body = bodies[random.nextInt(bodies.length)];
                FrameHeader.write(out, opcode, 0, 0, nextId, body.length);
                out.writeBytes(body);
                nextId = nextId == Integer.MAX_VALUE ? 1 : nextId + 1;
            }
            channel.writeAndFlush(out);
        }

        @Override
        void finished() {
            channel.pipeline().remove(reader);
        }

        private void read(ChannelHandlerContext ctx, ByteBuf msg) {
            ByteBuf in = msg;
            if (pending != null) {
                pending.writeBytes(msg);
                msg.release();
                in = pending;
                pending = null;
            }
            try {
                while (in.readableBytes() >= FrameHeader.BYTES) {
                    int start = in.readerIndex();
                    long length = in.getUnsignedInt(start + FrameHeader.LENGTH_OFFSET);
                    if (in.readableBytes() < FrameHeader.BYTES + length) {
                        break;
                    }
                    int status = in.getUnsignedByte(start + 7);
                    in.skipBytes(FrameHeader.BYTES + (int) length);
                    if (status != 0) {
                        done.completeExceptionally(new IllegalStateException("the master answered status " + status));
                        ctx.close();
                        return;
                    }
                    answeredOne();
                }
                if (in.isReadable()) {
                    pending = ctx.alloc().buffer(Math.max(in.readableBytes() * 2, 4096));
                    pending.writeBytes(in);
                }
            } finally {
                in.release();
            }
        }
    }

    /**
     * One connection's closed loop of batches: {@code depth} requests of randomly chosen sessions, the next batch once
     * every answer is in, each answer's latency counted from its batch's send (what redis-benchmark -P does). Runs on
     * the connection's event loop only.
     */
    abstract static class BatchLoop {
        final byte[][] bodies;
        final int opcode;
        final int depth;
        final long deadline;
        final Histogram histogram;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        long answered;
        int outstanding;
        long batchStart;

        BatchLoop(byte[][] bodies, int opcode, int depth, long deadline, Histogram histogram) {
            this.bodies = bodies;
            this.opcode = opcode;
            this.depth = depth;
            this.deadline = deadline;
            this.histogram = histogram;
        }

        /** Sends the next batch, or past the deadline completes {@link #done}. */
        final void nextBatch() {
            if (System.nanoTime() >= deadline) {
                finished();
                done.complete(answered);
                return;
            }
            outstanding = depth;
            batchStart = System.nanoTime();
            send(ThreadLocalRandom.current());
        }

        /** Sends {@code depth} requests of random sessions. */
        abstract void send(ThreadLocalRandom random);

        /** Called once the loop is over, before {@link #done} completes. */
        void finished() {
        }

        /** One answer in: its latency; the next batch once all of this one's are in. */
        final void answeredOne() {
            if (histogram != null) {
                histogram.recordValue(Math.min(HIGHEST_MICROS, (System.nanoTime() - batchStart) / 1000));
            }
            answered++;
            if (--outstanding == 0) {
                nextBatch();
            }
        }
    }

    /** {@link BatchLoop} through {@link MasterConnection}. */
    static final class Loop extends BatchLoop {
        final MasterConnection conn;

        Loop(MasterConnection conn, byte[][] bodies, int opcode, int depth, long deadline, Histogram histogram) {
            super(bodies, opcode, depth, deadline, histogram);
            this.conn = conn;
        }

        @Override
        void send(ThreadLocalRandom random) {
            for (int i = 0; i < depth; i++) {
                byte[] body = bodies[random.nextInt(bodies.length)];
                conn.send(new MasterRequest.Prepared(opcode, body), false).whenComplete((r, e) -> {
                    if (e != null) {
                        done.completeExceptionally(e);
                    } else {
                        answeredOne();
                    }
                });
            }
            conn.flush();
        }
    }

    /** redis-benchmark at the same concurrency and depth; parses its CSV line. */
    static Result runRedisBenchmark(InetSocketAddress redis, int sessions, int valueBytes, String op, int connections,
                                    int depth, long requests) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("redis-benchmark", "-h", redis.getHostString(), "-p",
                String.valueOf(redis.getPort()), "-c", String.valueOf(connections), "-P", String.valueOf(depth),
                "-n", String.valueOf(requests), "-r", String.valueOf(sessions), "--csv"));
        if (op.equals("read")) {
            cmd.addAll(List.of("HGETALL", "session:__rand_int__"));
        } else if (op.equals("set")) {
            cmd.addAll(List.of("-t", "set", "-d", String.valueOf(valueBytes)));
        } else {
            cmd.addAll(List.of("HSET", "session:__rand_int__", SECTIONS[0], "x".repeat(valueBytes)));
        }
        double cpu = cpuMicros(redisPid);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                lines.add(line);
            }
        }
        if (p.waitFor() != 0 || lines.size() < 2) {
            throw new IOException("redis-benchmark failed: " + lines);
        }
        // "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
        String[] f = lines.get(lines.size() - 1).replace("\"", "").split(",");
        double rps = Double.parseDouble(f[1]);
        return new Result(rps, ms(f[4]), ms(f[6]), Double.NaN, ms(f[7]), requests, cpuMicros(redisPid) - cpu);
    }

    private static double ms(String s) {
        return Double.parseDouble(s) * 1000;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static InetSocketAddress resolved(InetSocketAddress unresolved) {
        return new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
    }
}
