package io.sessionmesh.benchmarks.registry;

import io.sessionmesh.benchmarks.master.MasterVsRedis;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Session-operation throughput of a master with the registry on against one with it off, the same closed-loop load on
 * each in alternating rounds of one run (off, on, off, on, ...; which goes first alternates too), with each master's
 * and PostgreSQL's CPU per operation from /proc. Two loads, each a set of chains that each keep one request
 * outstanding, {@code chains} per connection, on one Netty thread:
 * <ul>
 *   <li><b>cycle</b>: create (with a principal), write one ~1 KB attribute, read it, delete: every second operation
 *       is a registry event (CREATED, DELETED), the registry's worst case;</li>
 *   <li><b>mixed</b>: a cycle, then five operations of the workload's 4:1 read/write mix on preloaded sessions (3
 *       sections of ~1 KB read, one written): 2 registry events in 9 operations.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.registry.RegistryThroughput --off 127.0.0.1:7471 \
 *     --on 127.0.0.1:7472 --pids offPid,onPid --rounds 3 --seconds 10 --connections 4 --chains 16
 * </pre>
 */
public final class RegistryThroughput {
    private RegistryThroughput() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        InetSocketAddress off = RegistryLag.resolved(flags.hostPort("off", "127.0.0.1:7471"));
        InetSocketAddress on = RegistryLag.resolved(flags.hostPort("on", "127.0.0.1:7472"));
        String[] pids = flags.string("pids", "0,0").split(",");
        int rounds = flags.integer("rounds", 3, 1, 100);
        int seconds = flags.integer("seconds", 10, 1, 3600);
        int connections = flags.integer("connections", 4, 1, 256);
        int chains = flags.integer("chains", 16, 1, 1024);
        int sessions = flags.integer("sessions", 1000, 1, 1_000_000);
        List<String> loads = flags.list("loads", List.of("cycle", "mixed"), List.of("cycle", "mixed"));
        Path out = flags.path("out", "benchmarks/results/registry/throughput.json");
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<String> rows = new ArrayList<>();
        Map<String, List<Double>> ratios = new java.util.LinkedHashMap<>();
        String onStats = "{}";
        StringBuilder table = new StringBuilder("| load | round | off ops/s | on ops/s | on / off | master CPU us/op off / on"
                + " | postgres CPU us/op off / on | load avg |\n|---|---:|---:|---:|---:|---|---|---:|\n");
        try {
            Target[] targets = {new Target("off", off, Long.parseLong(pids[0])), new Target("on", on, Long.parseLong(pids[1]))};
            for (Target t : targets) {
                t.prepare(group, sessions, values, connections);
            }
            for (String load : loads) { // warm-up: JIT on both sides, not measured
                for (Target t : targets) {
                    t.run(load, chains, Math.max(2, seconds / 2));
                }
            }
            System.out.println("load    round  side  ops/s      master us/op  postgres us/op  load avg");
            for (int round = 1; round <= rounds; round++) {
                for (String load : loads) {
                    Result[] r = new Result[2];
                    for (int i = 0; i < 2; i++) {
                        int side = (i + round + 1) % 2; // round 1: off first; round 2: on first; ...
                        r[side] = targets[side].run(load, chains, seconds);
                        System.out.printf(Locale.ROOT, "%-6s  %5d  %-4s  %,9.0f  %12.1f  %14.1f  %8.2f%n", load, round,
                                targets[side].name, r[side].opsPerSecond, r[side].masterUsPerOp, r[side].postgresUsPerOp,
                                r[side].load);
                        rows.add(String.format(Locale.ROOT, "{\"load\":\"%s\",\"round\":%d,\"side\":\"%s\",\"first\":%b,"
                                        + "\"ops\":%d,\"seconds\":%.3f,\"opsPerSecond\":%.0f,\"masterCpuUsPerOp\":%.2f,"
                                        + "\"postgresCpuUsPerOp\":%.2f,\"loadAverage\":%.2f}", load, round, targets[side].name,
                                i == 0, r[side].ops, r[side].seconds, r[side].opsPerSecond, r[side].masterUsPerOp,
                                r[side].postgresUsPerOp, r[side].load));
                    }
                    ratios.computeIfAbsent(load, k -> new ArrayList<>()).add(r[1].opsPerSecond / r[0].opsPerSecond);
                    table.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | **%.3f** | %.1f / %.1f | %.1f / %.1f | %.2f |%n",
                            load, round, r[0].opsPerSecond, r[1].opsPerSecond, r[1].opsPerSecond / r[0].opsPerSecond,
                            r[0].masterUsPerOp, r[1].masterUsPerOp, r[0].postgresUsPerOp, r[1].postgresUsPerOp,
                            (r[0].load + r[1].load) / 2));
                }
            }
            MasterStats stats = MasterStats.of(targets[1].conns.get(0));
            onStats = stats.json();
            System.out.printf(Locale.ROOT, "registry of the 'on' master since its start: %,d events written in %,d batches, "
                    + "lag p50 %,d us, p99 %,d us, max %,d us, backlog peak %,d, degraded %d, resyncs %d, "
                    + "failures %d%n", stats.get("registry_written"), stats.get("registry_batches"),
                    stats.get("registry_lag_p50_micros"), stats.get("registry_lag_p99_micros"),
                    stats.get("registry_lag_max_micros"), stats.get("registry_backlog_interval_peak"),
                    stats.get("registry_degraded"), stats.get("registry_resyncs"), stats.get("registry_failures"));
            for (Target t : targets) {
                t.close();
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, String.format(Locale.ROOT, "{\"rounds\":%d,\"seconds\":%d,\"connections\":%d,\"chains\":%d,"
                + "\"sessions\":%d,\"onMasterStats\":%s,\"runs\":[%n%s%n]}%n", rounds, seconds, connections, chains, sessions,
                onStats, String.join(",\n", rows)));
        System.out.println();
        System.out.print(table);
        ratios.forEach((load, list) -> System.out.printf(Locale.ROOT, "%s: on / off per round %s, median %.3f%n", load,
                list.stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).toList(), median(list)));
        System.out.println("results: " + out);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    record Result(long ops, double seconds, double opsPerSecond, double masterUsPerOp, double postgresUsPerOp, double load) {
    }

    /** One master under test: its connections, preloaded sessions and encoded requests. */
    static final class Target {
        final String name;
        final InetSocketAddress address;
        final long pid;
        final List<MasterConnection> conns = new ArrayList<>();
        byte[][] reads;
        byte[][] writes;
        byte[] value;

        Target(String name, InetSocketAddress address, long pid) {
            this.name = name;
            this.address = address;
            this.pid = pid;
        }

        void prepare(EventLoopGroup group, int sessions, byte[][] values, int connections) {
            String[] ids = MasterVsRedis.preloadMaster(group, address, sessions, values);
            BinaryTransportCodec codec = new BinaryTransportCodec();
            reads = new byte[ids.length][];
            writes = new byte[ids.length][];
            for (int i = 0; i < ids.length; i++) {
                reads[i] = codec.encode(new ReadRequest(ids[i], Arrays.asList(MasterVsRedis.SECTIONS)));
                writes[i] = codec.encode(new WriteRequest(ids[i], List.of(new SectionDelta(MasterVsRedis.SECTIONS[0],
                        Map.of("value", values[0]), List.of()))));
            }
            value = values[0];
            for (int i = 0; i < connections; i++) {
                conns.add(MasterConnection.connect(group, address, MasterConnectionOptions.DEFAULT, null).join());
            }
        }

        Result run(String load, int chainsPerConnection, int seconds) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long masterBefore = ProcessCpu.ticks(pid);
            long postgresBefore = ProcessCpu.postgresTicks();
            double loadAverage = ProcessCpu.loadAverage();
            long start = System.nanoTime();
            List<CompletableFuture<Long>> done = new ArrayList<>();
            int seed = 0;
            for (MasterConnection c : conns) {
                for (int i = 0; i < chainsPerConnection; i++) {
                    Chain chain = new Chain(c, this, load.equals("mixed"), deadline, new SplittableRandom(++seed * 7919L));
                    c.eventLoop().execute(chain::next);
                    done.add(chain.done);
                }
            }
            long ops = 0;
            for (CompletableFuture<Long> f : done) {
                ops += f.get(seconds + 60L, TimeUnit.SECONDS);
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            double masterUs = ProcessCpu.micros(ProcessCpu.ticks(pid) - masterBefore) / ops;
            double postgresUs = ProcessCpu.micros(ProcessCpu.postgresTicks() - postgresBefore) / ops;
            return new Result(ops, elapsed, ops / elapsed, masterUs, postgresUs, loadAverage);
        }

        void close() {
            conns.forEach(MasterConnection::close);
        }
    }

    /** One outstanding request at a time, on its connection's event loop: a cycle, then (mixed) five mix operations. */
    static final class Chain {
        static final int CYCLE = 4;
        static final int MIX = 5;

        final MasterConnection conn;
        final Target target;
        final boolean mixed;
        final long deadline;
        final SplittableRandom random;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final BinaryTransportCodec codec = new BinaryTransportCodec();
        long ops;
        int step;
        String sessionId;

        Chain(MasterConnection conn, Target target, boolean mixed, long deadline, SplittableRandom random) {
            this.conn = conn;
            this.target = target;
            this.mixed = mixed;
            this.deadline = deadline;
            this.random = random;
        }

        void next() {
            if (System.nanoTime() - deadline >= 0) {
                done.complete(ops);
                return;
            }
            int steps = mixed ? CYCLE + MIX : CYCLE;
            int s = step;
            step = (step + 1) % steps;
            CompletableFuture<?> answer = switch (s) {
                case 0 -> conn.send(new MasterRequest.Create(null, null, "user" + random.nextInt(100_000)))
                        .thenAccept(c -> sessionId = c.sessionId());
                case 1 -> conn.send(new MasterRequest.Write(new WriteRequest(sessionId, List.of(new SectionDelta(
                        MasterVsRedis.SECTIONS[0], Map.of("value", target.value), List.of())))));
                case 2 -> conn.send(new MasterRequest.Read(new ReadRequest(sessionId, List.of(MasterVsRedis.SECTIONS[0]))));
                case 3 -> conn.send(new MasterRequest.Delete(sessionId));
                default -> {
                    int i = random.nextInt(target.reads.length);
                    boolean write = random.nextInt(5) == 0;
                    yield conn.send(new MasterRequest.Prepared(write ? Opcodes.WRITE : Opcodes.READ,
                            write ? target.writes[i] : target.reads[i]));
                }
            };
            answer.whenComplete((r, e) -> {
                if (e != null) {
                    done.completeExceptionally(e);
                    return;
                }
                ops++;
                if (conn.eventLoop().inEventLoop()) {
                    next();
                } else {
                    conn.eventLoop().execute(this::next);
                }
            });
        }
    }
}
