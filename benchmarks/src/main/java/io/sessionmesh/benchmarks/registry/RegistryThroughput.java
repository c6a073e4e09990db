package io.sessionmesh.benchmarks.registry;

import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
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
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Session-operation throughput of a master with the registry on against one with it off, the same closed-loop load on
 * each in alternating rounds of one run (off, on, off, on, ...; which goes first alternates too), with each master's
 * and PostgreSQL's CPU per operation from /proc. Three loads, each a set of chains that each keep one request
 * outstanding, {@code chains} per connection, on one Netty thread:
 * <ul>
 *   <li><b>cycle</b>: create (with a principal), write one ~1 KB attribute, read it, delete: every second operation
 *       is a registry event (CREATED, DELETED), the registry's worst case;</li>
 *   <li><b>mixed</b>: a cycle, then five operations of the workload's 4:1 read/write mix on preloaded sessions (3
 *       sections of ~1 KB read, one written): 2 registry events in 9 operations.</li>
 *   <li><b>reference</b>: the workload's shape (docs/WORKLOAD.md): the chains run only the 4:1 read/write mix on the
 *       preloaded sessions, at full speed, and beside them an open-loop stream creates sessions (each with a
 *       principal) at {@code rate} a second (1,833, the reference rate) on a schedule on a connection of its own,
 *       whatever the answers do, with a short idle timeout ({@code idle}, 30 s); and as many sessions expire a second
 *       during the window: before each window, {@code rate x seconds} sessions are created (unmeasured) with idle
 *       timeouts that make them expire evenly over it, the "on" master's backlog is let drain, and after the window
 *       the sessions it created are deleted (unmeasured, drained again), so that their expiry 30 s later does not fall
 *       into another run's window. The throughput compared is the chains' ops/s; the registry events a second are
 *       the "on" master's STATS {@code registry_written} over the window.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.registry.RegistryThroughput --off 127.0.0.1:7471 \
 *     --on 127.0.0.1:7472 --pids offPid,onPid --rounds 3 --seconds 10 --connections 4 --chains 16
 * </pre>
 */
public final class RegistryThroughput {
    /** How late the master's sweep ends an idle session on average: its deadline rounded up to the second, then the sweep's phase. */
    static final long SWEEP_LATENESS_NANOS = TimeUnit.SECONDS.toNanos(1);

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
        List<String> loads = flags.list("loads", List.of("cycle", "mixed", "reference"), List.of("cycle", "mixed", "reference"));
        int rate = flags.integer("rate", 1833, 1, 1_000_000);
        int idle = flags.integer("idle", 30, 1, 3600);
        int lead = flags.integer("lead", 4, 1, 600);
        Path out = flags.path("out", "benchmarks/results/registry/throughput.json");
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<String> rows = new ArrayList<>();
        Map<String, List<Double>> ratios = new java.util.LinkedHashMap<>();
        String onStats = "{}";
        StringBuilder table = new StringBuilder("| load | round | off ops/s | on ops/s | on / off | master CPU us/op off / on"
                + " | postgres CPU us/op off / on | load avg |\n|---|---:|---:|---:|---:|---|---|---:|\n");
        StringBuilder refTable = new StringBuilder("| round | off ops/s | on ops/s | on / off | creates/s off / on"
                + " | expiries/s off / on | registry events/s (on) | master CPU us/op off / on | postgres CPU us/op off / on"
                + " | postgres us/event (on) | create p99 ms off / on | load avg |\n"
                + "|---:|---:|---:|---:|---|---|---:|---|---|---:|---|---:|\n");
        try {
            Target[] targets = {new Target("off", off, Long.parseLong(pids[0])), new Target("on", on, Long.parseLong(pids[1]))};
            for (Target t : targets) {
                t.prepare(group, sessions, values, connections);
                t.rate = rate;
                t.idle = Duration.ofSeconds(idle);
                t.leadNanos = TimeUnit.SECONDS.toNanos(lead);
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
                        System.out.printf(Locale.ROOT, "%-6s  %5d  %-4s  %,9.0f  %12.1f  %14.1f  %8.2f%s%n", load, round,
                                targets[side].name, r[side].opsPerSecond, r[side].masterUsPerOp, r[side].postgresUsPerOp,
                                r[side].load, load.equals("reference") ? String.format(Locale.ROOT,
                                        "  creates %,.0f/s (%d failed, p99 %.1f ms), expiries %,.0f/s, registry events %,.0f/s%s",
                                        r[side].createsPerSecond, r[side].createFailures, r[side].createP99Micros / 1000.0,
                                        r[side].expiriesPerSecond, r[side].eventsPerSecond, r[side].late ? ", window started late" : "") : "");
                        rows.add(String.format(Locale.ROOT, "{\"load\":\"%s\",\"round\":%d,\"side\":\"%s\",\"first\":%b,"
                                        + "\"ops\":%d,\"seconds\":%.3f,\"opsPerSecond\":%.0f,\"masterCpuUsPerOp\":%.2f,"
                                        + "\"postgresCpuUsPerOp\":%.2f,\"loadAverage\":%.2f,\"creates\":%d,\"createsPerSecond\":%.0f,"
                                + "\"createFailures\":%d,\"createP50us\":%d,\"createP99us\":%d,\"expiries\":%d,"
                                + "\"expiriesPerSecond\":%.0f,\"registryEvents\":%d,\"registryEventsPerSecond\":%.0f,"
                                + "\"windowStartedLate\":%b}", load, round, targets[side].name,
                                i == 0, r[side].ops, r[side].seconds, r[side].opsPerSecond, r[side].masterUsPerOp,
                                r[side].postgresUsPerOp, r[side].load, r[side].creates, r[side].createsPerSecond,
                                r[side].createFailures, r[side].createP50Micros, r[side].createP99Micros, r[side].expiries,
                                r[side].expiriesPerSecond, r[side].events, r[side].eventsPerSecond, r[side].late));
                    }
                    ratios.computeIfAbsent(load, k -> new ArrayList<>()).add(r[1].opsPerSecond / r[0].opsPerSecond);
                    table.append(String.format(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | **%.3f** | %.1f / %.1f | %.1f / %.1f | %.2f |%n",
                            load, round, r[0].opsPerSecond, r[1].opsPerSecond, r[1].opsPerSecond / r[0].opsPerSecond,
                            r[0].masterUsPerOp, r[1].masterUsPerOp, r[0].postgresUsPerOp, r[1].postgresUsPerOp,
                            (r[0].load + r[1].load) / 2));
                    if (load.equals("reference")) {
                        refTable.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | **%.3f** | %,.0f / %,.0f | %,.0f / %,.0f"
                                        + " | %,.0f | %.1f / %.1f | %.1f / %.1f | %.1f | %.1f / %.1f | %.2f |%n", round,
                                r[0].opsPerSecond, r[1].opsPerSecond, r[1].opsPerSecond / r[0].opsPerSecond,
                                r[0].createsPerSecond, r[1].createsPerSecond, r[0].expiriesPerSecond, r[1].expiriesPerSecond,
                                r[1].eventsPerSecond, r[0].masterUsPerOp, r[1].masterUsPerOp, r[0].postgresUsPerOp,
                                r[1].postgresUsPerOp, r[1].postgresUsPerOp * (r[1].ops + r[1].creates) / Math.max(1, r[1].events),
                                r[0].createP99Micros / 1000.0, r[1].createP99Micros / 1000.0, (r[0].load + r[1].load) / 2));
                    }
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
        if (loads.contains("reference")) {
            System.out.println();
            System.out.println("reference: ops/s = the closed-loop 4:1 mix; CPU us/op = CPU over (mix ops + creates);"
                    + " postgres us/event = its CPU over the on master's registry_written in the window");
            System.out.print(refTable);
        }
        ratios.forEach((load, list) -> System.out.printf(Locale.ROOT, "%s: on / off per round %s, median %.3f%n", load,
                list.stream().map(x -> String.format(Locale.ROOT, "%.3f", x)).toList(), median(list)));
        System.out.println("results: " + out);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    record Result(long ops, double seconds, double opsPerSecond, double masterUsPerOp, double postgresUsPerOp, double load,
                  long creates, double createsPerSecond, long createFailures, long createP50Micros, long createP99Micros,
                  long expiries, double expiriesPerSecond, long events, double eventsPerSecond, boolean late) {
        Result(long ops, double seconds, double opsPerSecond, double masterUsPerOp, double postgresUsPerOp, double load) {
            this(ops, seconds, opsPerSecond, masterUsPerOp, postgresUsPerOp, load, 0, 0, 0, 0, 0, 0, 0, 0, 0, false);
        }
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
        int rate;
        Duration idle;
        long leadNanos;
        MasterConnection creates;
        MasterConnection control;

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
            creates = MasterConnection.connect(group, address, MasterConnectionOptions.DEFAULT, null).join();
            control = MasterConnection.connect(group, address, MasterConnectionOptions.DEFAULT, null).join();
        }

        Result run(String load, int chainsPerConnection, int seconds) throws Exception {
            if (load.equals("reference")) {
                return runReference(chainsPerConnection, seconds);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long masterBefore = ProcessCpu.ticks(pid);
            long postgresBefore = ProcessCpu.postgresTicks();
            double loadAverage = ProcessCpu.loadAverage();
            long start = System.nanoTime();
            List<CompletableFuture<Long>> done = new ArrayList<>();
            int seed = 0;
            for (MasterConnection c : conns) {
                for (int i = 0; i < chainsPerConnection; i++) {
                    Chain chain = new Chain(c, this, load.equals("mixed") ? Chain.Mode.MIXED : Chain.Mode.CYCLE, deadline,
                            new SplittableRandom(++seed * 7919L));
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

        /**
         * The reference load: before the window, {@code rate x seconds} sessions whose idle timeouts end them evenly
         * over it; in the window, the chains' 4:1 mix at full speed and an open-loop create stream at {@code rate};
         * after it, the window's sessions deleted so that they do not expire into another run's window.
         */
        Result runReference(int chainsPerConnection, int seconds) throws Exception {
            long periodNanos = 1_000_000_000L / rate;
            int expiring = (int) ((long) rate * seconds);
            long windowStart = System.nanoTime() + leadNanos;
            List<CompletableFuture<?>> pre = new ArrayList<>();
            for (int i = 0; i < expiring; i++) {
                // The sweep ends a session in the first sweep (every second) after the whole second past its deadline,
                // ~1 s late on average: deadlines from 1 s before the window make the expiries fall into it.
                long expiresAt = windowStart - SWEEP_LATENESS_NANOS + i * periodNanos + periodNanos / 2;
                long idleMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(expiresAt - System.nanoTime()));
                pre.add(creates.send(new MasterRequest.Create(Duration.ofMillis(idleMillis), null, "user" + (i % 100_000)), false));
                if (i % 256 == 255) {
                    creates.flush();
                    CompletableFuture.allOf(pre.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                    pre.clear();
                }
            }
            creates.flush();
            CompletableFuture.allOf(pre.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            drain();
            boolean late = System.nanoTime() - windowStart > 0;
            LockSupport.parkNanos(Math.max(0, windowStart - System.nanoTime()));

            MasterStats statsBefore = MasterStats.of(control);
            long masterBefore = ProcessCpu.ticks(pid);
            long postgresBefore = ProcessCpu.postgresTicks();
            double loadAverage = ProcessCpu.loadAverage();
            long start = System.nanoTime();
            long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
            List<CompletableFuture<Long>> done = new ArrayList<>();
            int seed = 0;
            for (MasterConnection c : conns) {
                for (int i = 0; i < chainsPerConnection; i++) {
                    Chain chain = new Chain(c, this, Chain.Mode.REFERENCE, deadline, new SplittableRandom(++seed * 7919L));
                    c.eventLoop().execute(chain::next);
                    done.add(chain.done);
                }
            }
            Histogram createLatency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            AtomicLong answeredInWindow = new AtomicLong();
            AtomicLong createFailures = new AtomicLong();
            ConcurrentLinkedQueue<String> created = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<?>> sent = new ArrayList<>();
            long next = start;
            long n = 0;
            while (true) { // the open-loop stream, on this thread: a create every 1/rate s, whatever the answers do
                long now = System.nanoTime();
                if (now - deadline >= 0) {
                    break;
                }
                boolean any = false;
                while (next - now <= 0) {
                    long intended = next;
                    sent.add(creates.send(new MasterRequest.Create(idle, null, "user" + (n % 100_000)), false)
                            .whenComplete((c, e) -> {
                                long at = System.nanoTime();
                                if (e != null) {
                                    createFailures.incrementAndGet();
                                    return;
                                }
                                created.add(c.sessionId());
                                if (at - deadline < 0) {
                                    answeredInWindow.incrementAndGet();
                                }
                                synchronized (createLatency) {
                                    createLatency.recordValue(Math.min(TimeUnit.SECONDS.toMicros(60),
                                            Math.max(0, (at - intended) / 1000)));
                                }
                            }));
                    n++;
                    next += periodNanos;
                    any = true;
                }
                if (any) {
                    creates.flush();
                }
                LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
            }
            long ops = 0;
            for (CompletableFuture<Long> f : done) {
                ops += f.get(seconds + 60L, TimeUnit.SECONDS);
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long masterTicks = ProcessCpu.ticks(pid) - masterBefore;
            long postgresTicks = ProcessCpu.postgresTicks() - postgresBefore;
            MasterStats statsAfter = MasterStats.of(control);
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get(60, TimeUnit.SECONDS);

            // Unmeasured: the window's sessions go now, not in 30 s inside another run's window.
            List<CompletableFuture<?>> deletes = new ArrayList<>();
            for (String id : created) {
                deletes.add(creates.send(new MasterRequest.Delete(id), false));
                if (deletes.size() == 256) {
                    creates.flush();
                    CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get(60, TimeUnit.SECONDS);
                    deletes.clear();
                }
            }
            creates.flush();
            CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).exceptionally(e -> null).get(60, TimeUnit.SECONDS);
            Thread.sleep(1200); // the sweep (every second) ends the last of the pre-created sessions
            drain();

            long served = ops + answeredInWindow.get();
            long events = Math.max(0, statsAfter.get("registry_written") - statsBefore.get("registry_written"));
            long expiries = statsAfter.get("expiries") - statsBefore.get("expiries");
            return new Result(ops, elapsed, ops / elapsed, ProcessCpu.micros(masterTicks) / served,
                    ProcessCpu.micros(postgresTicks) / served, loadAverage, answeredInWindow.get(),
                    answeredInWindow.get() / elapsed, createFailures.get(), createLatency.getValueAtPercentile(50),
                    createLatency.getValueAtPercentile(99), expiries, expiries / elapsed, events, events / elapsed, late);
        }

        /** Waits (up to 30 s) for the registry's backlog to be written; at once on a master without a registry. */
        void drain() throws Exception {
            for (int i = 0; i < 300 && MasterStats.of(control).get("registry_backlog") > 0; i++) {
                Thread.sleep(100);
            }
        }

        void close() {
            conns.forEach(MasterConnection::close);
            creates.close();
            control.close();
        }
    }

    /**
     * One outstanding request at a time, on its connection's event loop: a cycle, then (mixed) five mix operations; or
     * (reference) mix operations only.
     */
    static final class Chain {
        static final int CYCLE = 4;
        static final int MIX = 5;

        enum Mode { CYCLE, MIXED, REFERENCE }

        final MasterConnection conn;
        final Target target;
        final int first;
        final int steps;
        final long deadline;
        final SplittableRandom random;
        final CompletableFuture<Long> done = new CompletableFuture<>();
        final BinaryTransportCodec codec = new BinaryTransportCodec();
        long ops;
        int step;
        String sessionId;

        Chain(MasterConnection conn, Target target, Mode mode, long deadline, SplittableRandom random) {
            this.conn = conn;
            this.target = target;
            this.first = mode == Mode.REFERENCE ? CYCLE : 0;
            this.steps = switch (mode) {
                case CYCLE -> CYCLE;
                case MIXED -> CYCLE + MIX;
                case REFERENCE -> MIX;
            };
            this.deadline = deadline;
            this.random = random;
        }

        void next() {
            if (System.nanoTime() - deadline >= 0) {
                done.complete(ops);
                return;
            }
            int s = first + step;
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
