package io.sessionmesh.benchmarks.refscale;

import io.sessionmesh.benchmarks.registry.MasterStats;
import io.sessionmesh.benchmarks.load.ProcessCpu;
import io.sessionmesh.settings.Settings;
import io.sessionmesh.settings.Units;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 18's reference-scale run against one real master: sessions created open loop at the reference rate
 * (docs/WORKLOAD.md: 1,833 a second), each followed by the WRITE of its whole data (a login), idling out after the
 * workload's 5 minutes, with the workload's read/write mix on live sessions on top; then heap and RSS per session
 * against the payload, GC pauses and latency while expiry runs. Two modes:
 * <ul>
 *   <li><b>steady</b>: a fill (until the active set stops growing: rate x idle, and the sessions the mix used, which
 *   idle out after their last use), then a measured window in which as many sessions expire a second as are created;
 *   then, with the load stopped, heap after a full GC.</li>
 *   <li><b>fill</b>: creates (with a long idle timeout) until the master refuses one past its memory budget
 *   ({@code max-store}: UNAVAILABLE) or {@code max-sessions} are in: how many sessions of a profile fit.</li>
 * </ul>
 * Every request goes out on a fixed schedule whatever the answers do, and its latency counts from its intended send
 * time (coordinated-omission safe); how late the driver itself sent is measured too, and the report says when it fell
 * behind. Every answer that is not OK, and every timeout, is an error.
 *
 * <table>
 *   <caption>Flags and defaults</caption>
 *   <tr><th>flag</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>master, master-pid</td><td>127.0.0.1:7400, required</td><td>the master, and its process (CPU, RSS, jcmd)</td></tr>
 *   <tr><td>jcmd</td><td>this JVM's</td><td>the jcmd of the master's JDK (heap after a full GC)</td></tr>
 *   <tr><td>gc-log</td><td>none</td><td>the master's GC log (-Xlog:gc*:file=...:timemillis,uptime,level,tags)</td></tr>
 *   <tr><td>mode</td><td>steady</td><td>steady or fill</td></tr>
 *   <tr><td>profile</td><td>compact</td><td>compact (every value 200 B) or standard (the workload's sizes): {@link SessionProfile}</td></tr>
 *   <tr><td>rate</td><td>1833</td><td>sessions created a second</td></tr>
 *   <tr><td>idle</td><td>5m (steady), 24h (fill)</td><td>the sessions' idle timeout</td></tr>
 *   <tr><td>fill</td><td>(1 + live-share) x idle + max(5s, idle / 10) (steady: {@link RunOptions#steadyAfter}), 1h
 *       (fill: the longest it runs)</td><td>the fill phase</td></tr>
 *   <tr><td>window</td><td>5m</td><td>the measured window (steady)</td></tr>
 *   <tr><td>mix-rate</td><td>2000</td><td>reads + writes a second on live sessions (0: none)</td></tr>
 *   <tr><td>live-share-percent</td><td>90</td><td>the newest share of the active set the mix draws from ({@link LiveSessions})</td></tr>
 *   <tr><td>max-sessions</td><td>0 (no bound)</td><td>fill: stop after this many logins</td></tr>
 *   <tr><td>timeout</td><td>10s</td><td>a request not answered in this is an error (TIMEOUT)</td></tr>
 *   <tr><td>sample</td><td>5s</td><td>how often STATS is asked for (active sessions over time)</td></tr>
 *   <tr><td>out</td><td>benchmarks/results/reference-scale</td><td>directory of reference-scale.json and summary.txt</td></tr>
 * </table>
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.refscale.ReferenceScaleRun --master 127.0.0.1:7480 --master-pid 1234 \
 *     --gc-log gc.log --rate 1833 --idle 5m --window 5m --mix-rate 2000 --out benchmarks/results/reference-scale-x
 * </pre>
 * benchmarks/run-reference-scale.sh starts the master and runs this.
 */
public final class ReferenceScaleRun {
    /** Requests a connection may queue beyond the master's in-flight bound: a long pause shows as latency, not errors. */
    static final int MAX_QUEUED = 1 << 16;
    /** Store operations of one end-user request of the mix: two services, each reads, one step in four also writes. */
    static final double OPS_PER_MIX_REQUEST = RequestMix.SERVICES_PER_REQUEST * (1 + 1.0 / RequestMix.WRITE_EVERY);

    private ReferenceScaleRun() {
    }

    public static void main(String[] args) throws Exception {
        RunOptions o = RunOptions.parse(Settings.fromArgs(args));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        MasterConnectionOptions options = MasterConnectionOptions.builder().requestTimeout(o.timeout()).maxQueued(MAX_QUEUED).build();
        try (MasterConnection creates = connect(group, o.master(), options);
             MasterConnection logins = connect(group, o.master(), options);
             MasterConnection mix = connect(group, o.master(), options);
             MasterConnection control = connect(group, o.master(), options)) {
            RunReport report = new RunReport(o);
            report.baseline(MasterStats.of(control), JvmMemory.afterFullGc(o.jcmd(), o.masterPid()));
            new ReferenceScaleRun.Driver(o, report, creates, logins, mix, control).run();
            report.write();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static MasterConnection connect(EventLoopGroup group, InetSocketAddress master, MasterConnectionOptions options) {
        return MasterConnection.connect(group, master, options, null).join();
    }

    /** The open-loop schedule: the scheduler's thread sends, the connections' event loop records the answers. */
    static final class Driver {
        private final RunOptions o;
        private final RunReport report;
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
        private final List<RunReport.Sample> samples = Collections.synchronizedList(new ArrayList<>());

        Driver(RunOptions o, RunReport report, MasterConnection creates, MasterConnection logins, MasterConnection mix,
               MasterConnection control) {
            this.o = o;
            this.report = report;
            this.creates = creates;
            this.logins = logins;
            this.mix = mix;
            this.control = control;
            this.live = o.steady() && o.mixRate() > 0
                    ? new LiveSessions(LiveSessions.capacity(o.rate(), o.idle(), o.liveShare())) : null;
            this.loginValues = new SessionProfile(o.profile(), o.seed());
            this.mixValues = new SessionProfile(o.profile(), o.seed() + 1);
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
            RunReport.Window w = null;
            while (true) {
                long now = System.nanoTime();
                if (now - end >= 0 || (!o.steady() && (refused.get() || fill.logins.sum() >= o.maxSessions()))) {
                    break;
                }
                if (w == null && o.steady() && now - fillEnd >= 0) {
                    w = RunReport.Window.open(control, o.masterPid());
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
                w.close(control, o.masterPid());
            }
            // The load is stopped: let every answer in (or time out) before the histograms are taken.
            long deadline = System.nanoTime() + o.timeout().toNanos() + TimeUnit.SECONDS.toNanos(5);
            while ((fill.outstanding.get() > 0 || window.outstanding.get() > 0) && System.nanoTime() - deadline < 0) {
                Thread.sleep(50);
            }
            report.run(wallT0, (stoppedAt - t0) / 1e9, fill, window, w, List.copyOf(samples), refused.get());
            MasterStats before = MasterStats.of(control);
            JvmMemory.HeapAfterGc heap = JvmMemory.afterFullGc(o.jcmd(), o.masterPid());
            MasterStats after = MasterStats.of(control);
            report.heap(before, heap, after, JvmMemory.rssBytes(o.masterPid()));
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
            long masterTicks = ProcessCpu.ticks(o.masterPid());
            control.stats().whenComplete((json, e) -> {
                if (e != null) {
                    return; // a sample lost; the series says so by its gap
                }
                RunReport.Sample s = RunReport.Sample.of((at - t0) / 1e9, phase, MasterStats.parse(json), masterTicks,
                        driverTicks, fill.errorCount() + window.errorCount());
                samples.add(s);
                System.out.println(s.line());
            });
        }
    }

    /** The flags, read once and validated. */
    record RunOptions(InetSocketAddress master, long masterPid, Path jcmd, Path gcLog, boolean steady,
                      SessionProfile.Kind profile, int rate, Duration idle, Duration fill, Duration window, int mixRate,
                      double liveShare, long maxSessions, Duration timeout, Duration sample, long seed, Path out) {
        static RunOptions parse(Settings f) {
            InetSocketAddress a = f.hostPort("master", "127.0.0.1:7400");
            InetSocketAddress master = new InetSocketAddress(a.getHostString(), a.getPort());
            long pid = f.integer("master-pid", 0, 1, Integer.MAX_VALUE);
            Path jcmd = f.path("jcmd", Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
            Path gcLog = f.path("gc-log", null);
            boolean steady = f.choice("mode", "steady", List.of("steady", "fill")).equals("steady");
            SessionProfile.Kind profile = SessionProfile.Kind.of(f.choice("profile", "compact", List.of("compact", "standard")));
            int rate = f.integer("rate", 1833, 1, 100_000);
            Duration idle = f.duration("idle", steady ? Duration.ofMinutes(5) : Duration.ofHours(24), Duration.ofSeconds(1),
                    Duration.ofDays(1));
            int mixRate = f.integer("mix-rate", 2000, 0, 1_000_000);
            double liveShare = f.integer("live-share-percent", 90, 1, 99) / 100.0;
            Duration fill = f.duration("fill", steady ? steadyAfter(idle, mixRate == 0 ? 0 : liveShare) : Duration.ofHours(1),
                    Duration.ofSeconds(1), Duration.ofDays(1));
            Duration window = f.duration("window", Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofDays(1));
            long maxSessions = f.integer("max-sessions", 0, 0, Integer.MAX_VALUE);
            Duration timeout = f.duration("timeout", Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofMinutes(5));
            Duration sample = f.duration("sample", Duration.ofSeconds(5), Duration.ofMillis(100), Duration.ofHours(1));
            long seed = f.integer("seed", 18, 0, Integer.MAX_VALUE);
            Path out = f.path("out", "benchmarks/results/reference-scale");
            f.checkAllUsed();
            if (steady && fill.compareTo(idle) < 0) {
                throw new IllegalArgumentException("--fill " + fill + " is shorter than --idle " + idle
                        + ": the window would start before the active set reaches its steady state");
            }
            return new RunOptions(master, pid, jcmd, gcLog, steady, profile, rate, idle, fill, window, mixRate, liveShare,
                    maxSessions == 0 ? Long.MAX_VALUE : maxSessions, timeout, sample, seed, out);
        }

        /**
         * When the active set stops growing. Reads and writes move a session's last access, so a session the mix uses
         * lives on after its creation's idle timeout: until idle after its last use, which is at most share x idle after
         * its creation (then its slot of {@link LiveSessions} goes to a newer one). From (1 + share) x idle on, as many
         * sessions end a second as are created; a tenth of the idle time (at least 5 s) more lets the expiry sweep catch up.
         */
        static Duration steadyAfter(Duration idle, double liveShare) {
            long ms = idle.toMillis();
            return Duration.ofMillis((long) (ms * (1 + liveShare)) + Math.max(5_000, ms / 10));
        }

        /** Active sessions of the steady state without the mix: rate x idle (the mix keeps some alive longer). */
        long steadySessions() {
            return (long) (rate * (idle.toMillis() / 1000.0));
        }

        String describe() {
            return String.format(Locale.ROOT, "reference-scale run, mode %s, profile %s: %,d creates/s (each with a login "
                    + "WRITE of its whole data), idle %s, fill %s%s, mix %,d reads+writes/s on the newest %.0f%% of the "
                    + "active set, timeout %s; master %s:%d pid %d", steady ? "steady" : "fill", profile.flag(), rate,
                    Units.formatDuration(idle), Units.formatDuration(fill), steady ? ", window " + Units.formatDuration(window)
                            + String.format(Locale.ROOT, ", rate x idle = %,d sessions", steadySessions()) : "",
                    steady ? mixRate : 0, 100 * liveShare, Units.formatDuration(timeout), master.getHostString(),
                    master.getPort(), masterPid);
        }
    }
}
