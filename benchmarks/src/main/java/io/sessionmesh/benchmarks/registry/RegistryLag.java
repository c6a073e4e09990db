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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The registry's lag at the reference rate (docs/WORKLOAD.md: 110,000 sessions created a minute, 1,833 a second),
 * against a real master with the registry on. Open loop: creates (each with a principal) go out on a fixed schedule,
 * whatever the answers do, and so do reads and writes of the workload's 4:1 mix on preloaded sessions at a modest rate;
 * each request's latency counts from its intended send time, so a stall shows as latency, not as fewer requests.
 *
 * <p>Sessions end as they do in the steady state: those created during the warm-up get idle timeouts that make them
 * expire spread evenly over the measured window (at the warm-up's creation rate, so with warm-up = window as many
 * expire as are created), and those created in the window get the workload's 5 minutes, so that their rows still
 * hold the creation's {@code recorded_at} when the database is asked afterwards.
 *
 * <p>The lag is taken two ways over the same window: (a) the master's own (record to commit, STATS'
 * {@code registry_lag_interval_*}: one STATS call opens the window, one closes it), and (b) the database's
 * {@code recorded_at - created_at} over the rows created in the window, which also holds the time from the store's
 * creation to its record() and compares two clocks (the JVM's currentTimeMillis, PostgreSQL's clock_timestamp) of one
 * host, to the millisecond of created_at.
 *
 * <pre>
 * java -cp benchmarks.jar io.sessionmesh.benchmarks.registry.RegistryLag --master 127.0.0.1:7461 --master-pid 1234 \
 *     --jdbc jdbc:postgresql://127.0.0.1:5432/sm_bench --rate 1833 --warmup 60 --seconds 60 --mix-rate 2000 \
 *     --out benchmarks/results/registry/lag.json
 * </pre>
 */
public final class RegistryLag {
    static final long HIGHEST_MICROS = TimeUnit.SECONDS.toMicros(60);
    static final Duration WINDOW_IDLE = Duration.ofMinutes(5);

    private RegistryLag() {
    }

    public static void main(String[] args) throws Exception {
        Settings flags = Settings.fromArgs(args);
        InetSocketAddress master = resolved(flags.hostPort("master", "127.0.0.1:7461"));
        long masterPid = flags.integer("master-pid", 0, 0, Integer.MAX_VALUE);
        String jdbc = flags.string("jdbc", "jdbc:postgresql://127.0.0.1:5432/sm_bench");
        String dbUser = flags.string("db-user", "postgres");
        int rate = flags.integer("rate", 1833, 1, 1_000_000);
        int warmup = flags.integer("warmup", 60, 1, 3600);
        int seconds = flags.integer("seconds", 60, 1, 3600);
        int mixRate = flags.integer("mix-rate", 2000, 0, 1_000_000);
        int principals = flags.integer("principals", 100_000, 1, 100_000_000);
        int sessions = flags.integer("sessions", 1000, 1, 1_000_000);
        Path out = flags.path("out", "benchmarks/results/registry/lag.json");
        flags.checkAllUsed();

        byte[][] values = MasterVsRedis.sectionValues();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (MasterConnection creates = MasterConnection.connect(group, master, MasterConnectionOptions.DEFAULT, null).join();
             MasterConnection mix = MasterConnection.connect(group, master, MasterConnectionOptions.DEFAULT, null).join();
             MasterConnection control = MasterConnection.connect(group, master, MasterConnectionOptions.DEFAULT, null).join()) {
            String[] ids = MasterVsRedis.preloadMaster(group, master, sessions, values);
            BinaryTransportCodec codec = new BinaryTransportCodec();
            byte[][] reads = new byte[ids.length][];
            byte[][] writes = new byte[ids.length][];
            for (int i = 0; i < ids.length; i++) {
                reads[i] = codec.encode(new ReadRequest(ids[i], Arrays.asList(MasterVsRedis.SECTIONS)));
                writes[i] = codec.encode(new WriteRequest(ids[i], List.of(new SectionDelta(MasterVsRedis.SECTIONS[0],
                        Map.of("value", values[0]), List.of()))));
            }
            Histogram createLatency = new Histogram(HIGHEST_MICROS, 3);
            Histogram readLatency = new Histogram(HIGHEST_MICROS, 3);
            Histogram writeLatency = new Histogram(HIGHEST_MICROS, 3);
            AtomicLong failures = new AtomicLong();

            long periodNanos = 1_000_000_000L / rate;
            long mixPeriodNanos = mixRate == 0 ? Long.MAX_VALUE : 1_000_000_000L / mixRate;
            long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            long windowStart = t0 + TimeUnit.SECONDS.toNanos(warmup);
            long windowEnd = windowStart + TimeUnit.SECONDS.toNanos(seconds);
            long nextCreate = t0;
            long nextMix = t0;
            long created = 0;
            long createdInWindow = 0;
            long mixSent = 0;
            SplittableRandom random = new SplittableRandom(17);
            boolean windowOpen = false;
            MasterStats before = null;
            long wallStart = 0;
            long masterTicks = 0;
            long postgresTicks = 0;
            double loadAtStart = 0;
            System.out.printf(Locale.ROOT, "warm-up %d s, then %d s measured: %d creates/s (principal user<n %% %d>), "
                    + "%d reads+writes/s on %d sessions%n", warmup, seconds, rate, principals, mixRate, sessions);
            while (true) {
                long now = System.nanoTime();
                if (!windowOpen && now - windowStart >= 0) {
                    windowOpen = true;
                    before = MasterStats.of(control); // opens the master's interval
                    wallStart = System.currentTimeMillis();
                    masterTicks = ProcessCpu.ticks(masterPid);
                    postgresTicks = ProcessCpu.postgresTicks();
                    loadAtStart = ProcessCpu.loadAverage();
                    synchronized (createLatency) {
                        createLatency.reset();
                        readLatency.reset();
                        writeLatency.reset();
                    }
                }
                if (now - windowEnd >= 0) {
                    break;
                }
                boolean sent = false;
                while (nextCreate - now <= 0) {
                    long intended = nextCreate;
                    Duration idle = idleTimeout(intended, t0, windowStart, windowEnd);
                    if (intended - windowStart >= 0) {
                        createdInWindow++;
                    }
                    creates.send(new MasterRequest.Create(idle, null, "user" + (created % principals)), false)
                            .whenComplete((r, e) -> answered(createLatency, intended, e, failures));
                    created++;
                    nextCreate += periodNanos;
                    sent = true;
                }
                if (sent) {
                    creates.flush();
                }
                sent = false;
                while (nextMix - now <= 0) {
                    long intended = nextMix;
                    int s = random.nextInt(ids.length);
                    boolean write = random.nextInt(5) == 0;
                    mix.send(new MasterRequest.Prepared(write ? Opcodes.WRITE : Opcodes.READ, write ? writes[s] : reads[s]), false)
                            .whenComplete((r, e) -> answered(write ? writeLatency : readLatency, intended, e, failures));
                    mixSent++;
                    nextMix += mixPeriodNanos;
                    sent = true;
                }
                if (sent) {
                    mix.flush();
                }
                LockSupport.parkNanos(Math.max(0, Math.min(nextCreate, nextMix) - System.nanoTime()));
            }
            long wallEnd = System.currentTimeMillis();
            MasterStats after = MasterStats.of(control); // closes the interval: the window's lag and backlog peak
            long masterCpu = ProcessCpu.ticks(masterPid) - masterTicks;
            long postgresCpu = ProcessCpu.postgresTicks() - postgresTicks;
            double loadAtEnd = ProcessCpu.loadAverage();
            double elapsed = (wallEnd - wallStart) / 1000.0;
            // Let the writer finish the window's events before the database is asked.
            MasterStats drained = after;
            for (int i = 0; i < 100 && drained.get("registry_backlog") > 0; i++) {
                Thread.sleep(100);
                drained = MasterStats.of(control);
            }
            Thread.sleep(200);
            Db db = query(jdbc, dbUser, wallStart, wallEnd);

            String summary = String.format(Locale.ROOT, """
                    window: %.1f s, %,d creates (%.0f/s) and %,d reads+writes sent; %d failed requests
                    load average (1 min) at start / end of window: %.2f / %.2f
                    (a) master, record -> commit, over the window: p50 %,d us, p99 %,d us, max %,d us \
                    (since start: p50 %,d us, p99 %,d us, max %,d us)
                    (b) database, recorded_at - created_at, %,d rows created in the window: p50 %,.0f us, p99 %,.0f us, max %,.0f us
                        expiries ended in the window (recorded_at - ended_at), %,d rows: p50 %,.0f us, p99 %,.0f us, max %,.0f us
                    registry: backlog peak in the window %,d events, events written in the window %,d (%.0f/s), \
                    batches %,d (%.1f events each), degraded %d, resyncs %d, failures %d
                    create answered, from its intended send: p50 %,d us, p99 %,d us, max %,d us
                    read / write answered, from intended send: p50 %,d / %,d us, p99 %,d / %,d us
                    CPU in the window: master %.1f%% of a core (%.1f us per create), postgres (all processes) %.1f%% \
                    of a core (%.1f us per create, %.1f us per registry event)
                    """,
                    elapsed, createdInWindow, createdInWindow / elapsed, mixSent, failures.get(), loadAtStart, loadAtEnd,
                    after.get("registry_lag_interval_p50_micros"), after.get("registry_lag_interval_p99_micros"),
                    after.get("registry_lag_interval_max_micros"), after.get("registry_lag_p50_micros"),
                    after.get("registry_lag_p99_micros"), after.get("registry_lag_max_micros"),
                    db.createdRows, db.createdP50, db.createdP99, db.createdMax,
                    db.expiredRows, db.expiredP50, db.expiredP99, db.expiredMax,
                    after.get("registry_backlog_interval_peak"), delta(before, after, "registry_written"),
                    delta(before, after, "registry_written") / elapsed, delta(before, after, "registry_batches"),
                    (double) delta(before, after, "registry_written") / Math.max(1, delta(before, after, "registry_batches")),
                    after.get("registry_degraded"), delta(before, after, "registry_resyncs"),
                    delta(before, after, "registry_failures"),
                    createLatency.getValueAtPercentile(50), createLatency.getValueAtPercentile(99), createLatency.getMaxValue(),
                    readLatency.getValueAtPercentile(50), writeLatency.getValueAtPercentile(50),
                    readLatency.getValueAtPercentile(99), writeLatency.getValueAtPercentile(99),
                    100 * ProcessCpu.micros(masterCpu) / 1e6 / elapsed, ProcessCpu.micros(masterCpu) / createdInWindow,
                    100 * ProcessCpu.micros(postgresCpu) / 1e6 / elapsed, ProcessCpu.micros(postgresCpu) / createdInWindow,
                    ProcessCpu.micros(postgresCpu) / Math.max(1, delta(before, after, "registry_written")));
            System.out.print(summary);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, String.format(Locale.ROOT, """
                    {"rate":%d,"warmupSeconds":%d,"seconds":%d,"mixRate":%d,"windowStartMillis":%d,"windowEndMillis":%d,
                    "createdInWindow":%d,"mixSent":%d,"failures":%d,"loadAverage":[%.2f,%.2f],
                    "masterCpuTicks":%d,"postgresCpuTicks":%d,"ticksPerSecond":%d,
                    "db":{"createdRows":%d,"createdP50us":%.0f,"createdP99us":%.0f,"createdMaxUs":%.0f,
                          "expiredRows":%d,"expiredP50us":%.0f,"expiredP99us":%.0f,"expiredMaxUs":%.0f},
                    "createLatencyUs":{"p50":%d,"p99":%d,"max":%d},
                    "statsAtWindowStart":%s,
                    "statsAtWindowEnd":%s,
                    "statsDrained":%s}
                    """, rate, warmup, seconds, mixRate, wallStart, wallEnd, createdInWindow, mixSent, failures.get(),
                    loadAtStart, loadAtEnd, masterCpu, postgresCpu, ProcessCpu.TICKS_PER_SECOND,
                    db.createdRows, db.createdP50, db.createdP99, db.createdMax,
                    db.expiredRows, db.expiredP50, db.expiredP99, db.expiredMax,
                    createLatency.getValueAtPercentile(50), createLatency.getValueAtPercentile(99), createLatency.getMaxValue(),
                    before.json(), after.json(), drained.json()));
            System.out.println("results: " + out);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * Warm-up sessions expire spread evenly over the window (the steady state's expiry flow); the window's own last
     * {@link #WINDOW_IDLE}, longer than the run, so their rows keep their creation's recorded_at.
     */
    static Duration idleTimeout(long intended, long t0, long windowStart, long windowEnd) {
        if (intended - windowStart >= 0) {
            return WINDOW_IDLE;
        }
        double f = (double) (intended - t0) / (windowStart - t0);
        long expiresAt = windowStart + (long) (f * (windowEnd - windowStart));
        return Duration.ofNanos(Math.max(TimeUnit.MILLISECONDS.toNanos(1), expiresAt - intended));
    }

    private static void answered(Histogram h, long intendedNanos, Throwable e, AtomicLong failures) {
        if (e != null) {
            failures.incrementAndGet();
            return;
        }
        long micros = Math.min(HIGHEST_MICROS, Math.max(0, (System.nanoTime() - intendedNanos) / 1000));
        synchronized (h) {
            h.recordValue(micros);
        }
    }

    private static long delta(MasterStats before, MasterStats after, String name) {
        return after.get(name) - before.get(name);
    }

    record Db(long createdRows, double createdP50, double createdP99, double createdMax, long expiredRows,
              double expiredP50, double expiredP99, double expiredMax) {
    }

    /** (b): percentiles in SQL over the rows the window created, and over the expiries it ended. */
    static Db query(String jdbc, String user, long fromMillis, long toMillis) throws Exception {
        String sql = """
                SELECT count(*),
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_us),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY lag_us),
                       max(lag_us)
                FROM (SELECT extract(epoch FROM recorded_at - %s) * 1e6 AS lag_us FROM sm_session
                      WHERE %s >= to_timestamp(? / 1000.0) AND %s < to_timestamp(? / 1000.0) %s) AS w
                """;
        try (Connection c = DriverManager.getConnection(jdbc, user, "")) {
            double[] created = run(c, String.format(sql, "created_at", "created_at", "created_at", "AND version = 1"),
                    fromMillis, toMillis);
            double[] expired = run(c, String.format(sql, "ended_at", "ended_at", "ended_at", "AND state = 'expired'"),
                    fromMillis, toMillis);
            return new Db((long) created[0], created[1], created[2], created[3], (long) expired[0], expired[1], expired[2],
                    expired[3]);
        }
    }

    private static double[] run(Connection c, String sql, long from, long to) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new double[] {rs.getLong(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4)};
            }
        }
    }

    static InetSocketAddress resolved(InetSocketAddress unresolved) {
        return new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
    }
}
