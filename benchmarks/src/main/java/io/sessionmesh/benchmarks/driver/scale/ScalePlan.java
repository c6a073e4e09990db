package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.driver.stack.Flags;
import io.sessionmesh.benchmarks.registry.MasterStats;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.workload.RequestMix;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Plan scale, issue 18's reference-scale run against one real master, which the plan starts itself
 * ({@link ServerProcess}, {@code --master-java}, {@code --master-jvm}: G1 against ZGC, say; its GC log with pause
 * times in {@code --out}) and drives over its protocol, so that nothing but the master is measured: sessions created
 * open loop at the reference rate (docs/WORKLOAD.md: 1,833 a second), each followed by the WRITE of its whole data (a
 * login), idling out after the workload's 5 minutes, with the workload's read/write mix on live sessions on top; then
 * heap and RSS per session against the payload, GC pauses and latency while expiry runs. Two modes:
 * <ul>
 *   <li><b>steady</b>: a fill (until the active set stops growing: rate x idle, and the sessions the mix used, which
 *   idle out after their last use), then a measured window in which as many sessions expire a second as are created;
 *   then, with the load stopped, heap after a full GC.</li>
 *   <li><b>fill</b>: creates (with a long idle timeout) until the master refuses one past its memory budget
 *   ({@code max-store}: UNAVAILABLE) or {@code max-sessions} are in: how many sessions of a profile fit.</li>
 * </ul>
 * Every request goes out on a fixed schedule whatever the answers do, and its latency counts from its intended send
 * time (coordinated-omission safe); how late the driver itself sent is measured too, and the report says when it fell
 * behind. Every answer that is not OK, and every timeout, is an error. The report: scale.json and scale.md
 * ({@link ScaleReport}).
 */
public final class ScalePlan {
    /** Requests a connection may queue beyond the master's in-flight bound: a long pause shows as latency, not errors. */
    static final int MAX_QUEUED = 1 << 16;
    /** Store operations of one end-user request of the mix: two services, each reads, one step in four also writes. */
    static final double OPS_PER_MIX_REQUEST = RequestMix.SERVICES_PER_REQUEST * (1 + 1.0 / RequestMix.WRITE_EVERY);

    /** The GC log's decorations: the wall clock on each line, so that pauses can be matched to the phases. */
    static final String GC_LOG_DECORATIONS = "timemillis,uptime,level,tags";

    private ScalePlan() {
    }

    /**
     * The master under test: where it listens, its process, the jcmd of its JDK and its GC log.
     */
    record Master(InetSocketAddress address, long pid, Path jcmd, Path gcLog, List<String> command) {
    }

    /** Starts the master, runs the plan, writes the report, stops the master; answers the report's JSON. */
    public static Map<String, Object> run(DriverOptions.Scale o) throws Exception {
        Files.createDirectories(o.out());
        Path gcLog = o.out().resolve("gc.log").toAbsolutePath();
        List<String> jvm = new ArrayList<>(o.masterJvm());
        jvm.add("-Xlog:gc*:file=" + gcLog + ":" + GC_LOG_DECORATIONS + ":filecount=0");
        ServerProcess.Builder b = ServerProcess.builder(o.jars().resolve("master-store/target/sessionmesh-master.jar"))
                .java(o.masterJava()).jvm(jvm).log(o.out().resolve("master.log")).startTimeout(Duration.ofMinutes(2))
                .args(Flags.over(List.of("--port", "0", "--connection-idle-timeout", "1h"), o.masterFlags()));
        System.out.println("master: " + String.join(" ", b.command()));
        try (ServerProcess process = b.start()) {
            Master master = new Master(new InetSocketAddress("127.0.0.1", process.port()), process.pid(),
                    o.masterJava().resolveSibling("jcmd"), gcLog, b.command());
            return run(o, master);
        }
    }

    private static Map<String, Object> run(DriverOptions.Scale o, Master m) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        MasterConnectionOptions options = MasterConnectionOptions.builder().requestTimeout(o.timeout()).maxQueued(MAX_QUEUED).build();
        try (MasterConnection creates = connect(group, m.address(), options);
             MasterConnection logins = connect(group, m.address(), options);
             MasterConnection mix = connect(group, m.address(), options);
             MasterConnection control = connect(group, m.address(), options)) {
            ScaleReport report = new ScaleReport(o, m);
            report.baseline(MasterStats.of(control), JvmMemory.afterFullGc(m.jcmd(), m.pid()));
            new ScalePlan.Driver(o, m, report, creates, logins, mix, control).run();
            return report.write();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static MasterConnection connect(EventLoopGroup group, InetSocketAddress master, MasterConnectionOptions options) {
        return MasterConnection.connect(group, master, options, null).join();
    }

    /** The open-loop schedule: the scheduler's thread sends, the connections' event loop records the answers. */
    static final class Driver {
        private final DriverOptions.Scale o;
        private final Master master;
        private final ScaleReport report;
        private final MasterConnection creates;
        private final MasterConnection logins;
        private final MasterConnection mix;
        private final MasterConnection control;
        private final LiveSessions live;
        private final SessionProfile loginValues;
        private final SessionProfile mixValues;
        private final RequestMix requestMix;
        private final SplittableRandom random;
        private final AtomicBoolean refused = new AtomicBoolean();
        private final List<ScaleReport.Sample> samples = Collections.synchronizedList(new ArrayList<>());

        Driver(DriverOptions.Scale o, Master master, ScaleReport report, MasterConnection creates, MasterConnection logins,
               MasterConnection mix, MasterConnection control) {
            this.o = o;
            this.master = master;
            this.report = report;
            this.creates = creates;
            this.logins = logins;
            this.mix = mix;
            this.control = control;
            this.live = o.steady() && o.mixRate() > 0
                    ? new LiveSessions(LiveSessions.capacity(o.rate(), o.idle(), o.liveShare())) : null;
            this.loginValues = new SessionProfile(SessionProfile.Kind.of(o.profile()), o.seed());
            this.mixValues = new SessionProfile(SessionProfile.Kind.of(o.profile()), o.seed() + 1);
            this.random = new SplittableRandom(o.seed());
            this.requestMix = new RequestMix(random);
        }

        void run() throws Exception {
            Phase fill = new Phase("fill");
            Phase window = new Phase("window");
            long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            long wallT0 = System.currentTimeMillis() + 50;
            long fillEnd = t0 + o.fill().toNanos();
            long end = o.steady() ? fillEnd + o.window().toNanos() : fillEnd;
            double createPeriod = 1e9 / o.rate();
            double mixPeriod = o.mixRate() == 0 || live == null ? Double.MAX_VALUE : 1e9 * OPS_PER_MIX_REQUEST / o.mixRate();
            long sampleNanos = o.sample().toNanos();
            long n = 0;
            long m = 0;
            long nextSample = t0;
            ScaleReport.Window w = null;
            while (true) {
                long now = System.nanoTime();
                if (now - end >= 0 || (!o.steady() && (refused.get() || fill.logins.sum() >= o.maxSessions()))) {
                    break;
                }
                if (w == null && o.steady() && now - fillEnd >= 0) {
                    w = ScaleReport.Window.open(control, master.pid());
                }
                long nextCreate = t0 + (long) (n * createPeriod);
                boolean sent = false;
                while (nextCreate - now <= 0 && !(refused.get() && !o.steady())) {
                    create(n, nextCreate, nextCreate - fillEnd < 0 ? fill : window);
                    n++;
                    nextCreate = t0 + (long) (n * createPeriod);
                    sent = true;
                }
                if (sent) {
                    creates.flush();
                }
                long nextMix = mixPeriod == Double.MAX_VALUE ? Long.MAX_VALUE : t0 + (long) (m * mixPeriod);
                sent = false;
                while (nextMix - now <= 0) {
                    sent |= mixRequest(nextMix, nextMix - fillEnd < 0 ? fill : window);
                    m++;
                    nextMix = t0 + (long) (m * mixPeriod);
                }
                if (sent) {
                    mix.flush();
                }
                if (now - nextSample >= 0) {
                    sample(t0, fillEnd, fill, window);
                    nextSample += sampleNanos;
                }
                long next = Math.min(Math.min(nextCreate, nextMix), nextSample);
                LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
            }
            long stoppedAt = System.nanoTime();
            if (w != null) {
                w.close(control, master.pid());
            }
            // The load is stopped: let every answer in (or time out) before the histograms are taken.
            long deadline = System.nanoTime() + o.timeout().toNanos() + TimeUnit.SECONDS.toNanos(5);
            while ((fill.outstanding.get() > 0 || window.outstanding.get() > 0) && System.nanoTime() - deadline < 0) {
                Thread.sleep(50);
            }
            report.run(wallT0, (stoppedAt - t0) / 1e9, fill, window, w, List.copyOf(samples), refused.get());
            MasterStats before = MasterStats.of(control);
            JvmMemory.HeapAfterGc heap = JvmMemory.afterFullGc(master.jcmd(), master.pid());
            MasterStats after = MasterStats.of(control);
            report.heap(before, heap, after, JvmMemory.rssBytes(master.pid()));
        }

        private void create(long creation, long intended, Phase p) {
            p.sent(intended);
            p.creates.increment();
            creates.send(new MasterRequest.Create(o.idle(), null, null), false).whenComplete((c, e) -> {
                if (e != null) {
                    if (p.failed("CREATE", e) == Status.UNAVAILABLE) {
                        refused.set(true);
                    }
                    return;
                }
                p.answered(p.create, intended);
                if (live != null) {
                    live.put(creation, c.sessionId());
                }
                List<SectionDelta> data = loginValues.newSession(); // on the event loop: loginValues is its alone
                long bytes = SessionProfile.valueBytes(data);
                p.outstanding.incrementAndGet();
                logins.send(new MasterRequest.Write(new WriteRequest(c.sessionId(), data))).whenComplete((a, e2) -> {
                    if (e2 != null) {
                        if (p.failed("LOGIN_WRITE", e2) == Status.UNAVAILABLE) {
                            refused.set(true);
                        }
                        return;
                    }
                    p.answered(p.login, intended);
                    p.logins.increment();
                    p.valueBytesWritten.add(bytes);
                });
            });
        }

        /** One end-user request of the mix on one live session: its steps' reads and writes, all at the intended time. */
        private boolean mixRequest(long intended, Phase p) {
            String id = live.pick(random);
            if (id == null) {
                p.skipped.increment();
                return false;
            }
            for (RequestMix.Step<byte[]> step : requestMix.request(random, r -> mixValues.nextValue())) {
                p.sent(intended);
                p.reads.increment();
                mix.send(new MasterRequest.Read(new ReadRequest(id, step.reads())), false).whenComplete((a, e) -> {
                    if (e != null) {
                        p.failed("READ", e);
                    } else {
                        p.answered(p.read, intended);
                    }
                });
                if (step.hasWrites()) {
                    p.sent(intended);
                    p.writes.increment();
                    SectionDelta delta = new SectionDelta(step.writeSection(), step.writes(), List.of());
                    mix.send(new MasterRequest.Write(new WriteRequest(id, List.of(delta))), false).whenComplete((a, e) -> {
                        if (e != null) {
                            p.failed("WRITE", e);
                        } else {
                            p.answered(p.write, intended);
                        }
                    });
                }
            }
            return true;
        }

        /** Asks STATS without waiting (the scheduler must not block); the answer is a sample of the series. */
        private void sample(long t0, long fillEnd, Phase fill, Phase window) {
            long at = System.nanoTime();
            String phase = at - fillEnd < 0 ? "fill" : "window";
            long driverTicks = ProcessCpu.ticks(ProcessHandle.current().pid());
            long masterTicks = ProcessCpu.ticks(master.pid());
            control.stats().whenComplete((json, e) -> {
                if (e != null) {
                    return; // a sample lost; the series says so by its gap
                }
                ScaleReport.Sample s = ScaleReport.Sample.of((at - t0) / 1e9, phase, MasterStats.parse(json), masterTicks,
                        driverTicks, fill.errorCount() + window.errorCount());
                samples.add(s);
                System.out.println(s.line());
            });
        }
    }
}
