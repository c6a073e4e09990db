package io.sessionmesh.benchmarks.driver.scale;

import io.sessionmesh.benchmarks.driver.DriverOptions;
import io.sessionmesh.benchmarks.driver.Report;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.registry.MasterStats;
import io.sessionmesh.settings.Units;
import io.sessionmesh.wire.client.MasterConnection;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reference-scale run's results, through the driver's {@link Report}: {@code scale.json} (every figure, the STATS
 * series and the master's STATS at each step) and {@code scale.md} (the summary lines the results page quotes), in
 * {@code --out}.
 *
 * <p>What "payload" means here: the value bytes the sessions hold (compact: exactly 60 x 200 B a session; standard:
 * the mean value bytes of the logins written). The store counts more ({@code store_bytes}: each section's wire form,
 * i.e. values plus section and attribute names and varint lengths; {@code budget_used_bytes}: that plus its measured
 * per-session and per-section overheads); both are given per session beside the heap.
 */
final class ScaleReport {
    /** Send lag p99 beyond which the driver is said to have fallen behind its schedule. */
    static final long BEHIND_P99_MICROS = 10_000;
    /** Achieved share of the create rate below which the driver is said to have fallen behind. */
    static final double BEHIND_RATE_SHARE = 0.99;

    private final DriverOptions.Scale o;
    private final ScalePlan.Master master;
    private final Map<String, Object> json = new LinkedHashMap<>();
    private final StringBuilder summary = new StringBuilder();
    private JvmMemory.HeapAfterGc baselineHeap;
    private long wallT0;
    /** When the load stopped (wall clock). */
    private long wallStop;
    private Phase fill;
    private Phase window;
    private Window w;

    ScaleReport(DriverOptions.Scale o, ScalePlan.Master master) {
        this.o = o;
        this.master = master;
        json.put("options", o.toString());
        json.put("master", master.command());
        json.put("machine", Report.machine());
        line(describe());
    }

    /** The run in one line. */
    String describe() {
        return String.format(Locale.ROOT, "reference-scale run, mode %s, profile %s: %,d creates/s (each with a login "
                        + "WRITE of its whole data), idle %s, fill %s%s, mix %,d reads+writes/s on the newest %.0f%% of the "
                        + "active set, timeout %s; master %s:%d pid %d", o.steady() ? "steady" : "fill", o.profile(), o.rate(),
                Units.formatDuration(o.idle()), Units.formatDuration(o.fill()), o.steady() ? ", window "
                        + Units.formatDuration(o.window())
                        + String.format(Locale.ROOT, ", rate x idle = %,d sessions", o.steadySessions()) : "",
                o.steady() ? o.mixRate() : 0, 100 * o.liveShare(), Units.formatDuration(o.timeout()),
                master.address().getHostString(), master.address().getPort(), master.pid());
    }

    /** One STATS answer during the run. */
    record Sample(double seconds, String phase, long sessions, long creates, long expiries, long storeBytes,
                  long budgetUsedBytes, long masterTicks, long driverTicks, long errors) {
        static Sample of(double seconds, String phase, MasterStats s, long masterTicks, long driverTicks, long errors) {
            return new Sample(seconds, phase, s.get("sessions"), s.get("creates"), s.get("expiries"), s.get("store_bytes"),
                    s.get("budget_used_bytes"), masterTicks, driverTicks, errors);
        }

        String line() {
            return String.format(Locale.ROOT, "t=%7.1fs %-6s sessions %,10d  creates %,10d  expiries %,10d  store %,9.1f MB  "
                    + "budget %,9.1f MB  errors %,d", seconds, phase, sessions, creates, expiries, storeBytes / 1e6,
                    budgetUsedBytes / 1e6, errors);
        }
    }

    /** The measured window's bounds: wall clock, the master's STATS and CPU, the driver's CPU, the load average. */
    static final class Window {
        long wallStart;
        long wallEnd;
        MasterStats start;
        MasterStats end;
        long masterTicks;
        long driverTicks;
        double loadStart;
        double loadEnd;

        static Window open(MasterConnection control, long masterPid) throws Exception {
            Window w = new Window();
            w.wallStart = System.currentTimeMillis();
            w.masterTicks = ProcessCpu.ticks(masterPid);
            w.driverTicks = ProcessCpu.ticks(ProcessHandle.current().pid());
            w.loadStart = ProcessCpu.loadAverage();
            w.start = MasterStats.of(control);
            return w;
        }

        void close(MasterConnection control, long masterPid) throws Exception {
            wallEnd = System.currentTimeMillis();
            masterTicks = ProcessCpu.ticks(masterPid) - masterTicks;
            driverTicks = ProcessCpu.ticks(ProcessHandle.current().pid()) - driverTicks;
            loadEnd = ProcessCpu.loadAverage();
            end = MasterStats.of(control);
        }

        double seconds() {
            return (wallEnd - wallStart) / 1000.0;
        }

        long delta(String figure) {
            return end.get(figure) - start.get(figure);
        }
    }

    void baseline(MasterStats stats, JvmMemory.HeapAfterGc heap) {
        baselineHeap = heap;
        json.put("baseline", Map.of("heapUsedAfterGcBytes", heap.usedBytes(), "stats", stats.figures()));
        line(String.format(Locale.ROOT, "empty master: heap used after a full GC %,.1f MB, %,d sessions", heap.usedBytes() / 1e6,
                stats.get("sessions")));
    }

    void run(long wallT0, double seconds, Phase fill, Phase window, Window w, List<Sample> samples, boolean refused)
            throws IOException {
        this.wallT0 = wallT0;
        this.fill = fill;
        this.window = window;
        this.w = w;
        json.put("seconds", seconds);
        json.put("samples", samples);
        double fillSeconds = o.steady() ? o.fill().toMillis() / 1000.0 : seconds;
        wallStop = wallT0 + (long) (seconds * 1000);
        json.put("fill", phase(fill, fillSeconds));
        line(String.format(Locale.ROOT, "fill: %.0f s, %,d creates, %,d logins, %,d reads, %,d writes (%,d mix requests skipped: "
                        + "session not created yet), errors %,d %s", fillSeconds, fill.creates.sum(),
                fill.logins.sum(), fill.reads.sum(), fill.writes.sum(), fill.skipped.sum(), fill.errorCount(), fill.errors()));
        if (!o.steady()) {
            json.put("refusedByBudget", refused);
            line(String.format(Locale.ROOT, "fill mode: %s after %.0f s", refused ? "the master refused (UNAVAILABLE: memory "
                    + "budget)" : "stopped without a refusal (max-sessions or the fill's length)", seconds));
            lagLine(fill, seconds);
        }
        if (w == null) {
            return;
        }
        double ws = w.seconds();
        Map<String, Object> win = phase(window, ws);
        long minSessions = Long.MAX_VALUE;
        long maxSessions = 0;
        for (Sample s : samples) {
            if (s.phase().equals("window")) {
                minSessions = Math.min(minSessions, s.sessions());
                maxSessions = Math.max(maxSessions, s.sessions());
            }
        }
        win.put("wallStart", w.wallStart);
        win.put("wallEnd", w.wallEnd);
        win.put("statsAtStart", w.start.figures());
        win.put("statsAtEnd", w.end.figures());
        win.put("masterCpuShare", ProcessCpu.micros(w.masterTicks) / 1e6 / ws);
        win.put("driverCpuShare", ProcessCpu.micros(w.driverTicks) / 1e6 / ws);
        win.put("loadAverage", List.of(w.loadStart, w.loadEnd));
        json.put("window", win);
        long startSessions = w.start.get("sessions");
        long endSessions = w.end.get("sessions");
        line(String.format(Locale.ROOT, "window: %.1f s; active sessions %,d at start, %,d at end (%+.1f%%; samples %,d..%,d); "
                        + "rate x idle = %,d, the rest are sessions the mix used, which idle out after their last use",
                ws, startSessions, endSessions, 100.0 * (endSessions - startSessions) / Math.max(1, startSessions),
                minSessions == Long.MAX_VALUE ? 0 : minSessions, maxSessions, o.steadySessions()));
        line(String.format(Locale.ROOT, "  master: %,.0f creates/s, %,.0f expiries/s, %,.0f reads/s, %,.0f writes/s; CPU %.0f%% of "
                        + "a core; driver CPU %.0f%%; load average %.2f / %.2f", w.delta("creates") / ws,
                w.delta("expiries") / ws, w.delta("reads") / ws, w.delta("writes") / ws,
                100 * ProcessCpu.micros(w.masterTicks) / 1e6 / ws, 100 * ProcessCpu.micros(w.driverTicks) / 1e6 / ws,
                w.loadStart, w.loadEnd));
        line(String.format(Locale.ROOT, "  sent: %,d creates (%,d logins), %,d reads, %,d writes; errors %,d %s",
                window.creates.sum(), window.logins.sum(), window.reads.sum(), window.writes.sum(), window.errorCount(),
                window.errors()));
        Histogram[] h = window.latencies();
        String[] names = {"create", "login (create + WRITE of the whole session)", "read (1-3 sections)",
                "write (1-2 attributes)"};
        for (int i = 0; i < h.length; i++) {
            line(String.format(Locale.ROOT, "  %-44s p50 %s  p99 %s  p99.9 %s  max %s  (n=%,d)", names[i] + ", from intended send:",
                    ms(h[i].getValueAtPercentile(50)), ms(h[i].getValueAtPercentile(99)), ms(h[i].getValueAtPercentile(99.9)),
                    ms(h[i].getMaxValue()), h[i].getTotalCount()));
        }
        lagLine(window, ws);
    }

    /** The driver's own schedule: send lag, achieved create rate, and the verdict. */
    private void lagLine(Phase p, double seconds) {
        Histogram lag = p.sendLag;
        double achieved = p.creates.sum() / seconds;
        boolean behind = lag.getValueAtPercentile(99) > BEHIND_P99_MICROS
                || (o.steady() && achieved < BEHIND_RATE_SHARE * o.rate());
        json.put("driverBehindSchedule" + (p == window ? "" : "Fill"), behind);
        line(String.format(Locale.ROOT, "  driver send lag behind schedule: p50 %s  p99 %s  p99.9 %s  max %s; creates sent "
                        + "%,.1f/s of %,d/s: %s", ms(lag.getValueAtPercentile(50)), ms(lag.getValueAtPercentile(99)),
                ms(lag.getValueAtPercentile(99.9)), ms(lag.getMaxValue()), achieved, o.rate(),
                behind ? "THE DRIVER FELL BEHIND ITS SCHEDULE (latencies still count from the intended time)"
                        : "the driver kept its schedule"));
    }

    void heap(MasterStats before, JvmMemory.HeapAfterGc heap, MasterStats after, long rss) throws IOException {
        double sessions = (before.get("sessions") + after.get("sessions")) / 2.0;
        long logins = fill.logins.sum() + window.logins.sum();
        double valuePerSession = SessionProfile.Kind.of(o.profile()) == SessionProfile.Kind.COMPACT
                ? SessionProfile.COMPACT_SESSION_VALUE_BYTES
                : (double) (fill.valueBytesWritten.sum() + window.valueBytesWritten.sum()) / Math.max(1, logins);
        long store = heap.usedBytes() - baselineHeap.usedBytes();
        double heapPer = store / sessions;
        double rssPer = (double) rss / sessions;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sessionsBeforeGc", before.get("sessions"));
        m.put("sessionsAfterGc", after.get("sessions"));
        m.put("fullGcMillis", heap.gcMillis());
        m.put("heapUsedAfterGcBytes", heap.usedBytes());
        m.put("baselineHeapUsedBytes", baselineHeap.usedBytes());
        m.put("heapOfTheStoreBytes", store);
        m.put("heapPerSession", heapPer);
        m.put("valueBytesPerSession", valuePerSession);
        m.put("storeBytesPerSession", after.get("store_bytes") / (double) after.get("sessions"));
        m.put("budgetUsedPerSession", after.get("budget_used_bytes") / (double) after.get("sessions"));
        m.put("heapOverPayload", heapPer / valuePerSession);
        m.put("rssBytes", rss);
        m.put("rssPerSession", rssPer);
        m.put("rssOverPayload", rssPer / valuePerSession);
        m.put("statsBeforeGc", before.figures());
        m.put("statsAfterGc", after.figures());
        m.put("heapInfo", heap.heapInfo());
        json.put("memory", m);
        // The master's expiry purges once a second, in bunches: with the load stopped, the count at the full GC is one
        // of the two read around it (the mean is taken; the range is what the heap per session may be off by).
        long fewer = Math.min(before.get("sessions"), after.get("sessions"));
        long more = Math.max(before.get("sessions"), after.get("sessions"));
        line(String.format(Locale.ROOT, "memory, load stopped: %,.0f sessions (%,d before the full GC, %,d after: jcmd GC.run "
                + "took %,d ms)", sessions, before.get("sessions"), after.get("sessions"), heap.gcMillis()));
        line(String.format(Locale.ROOT, "  heap used after a full GC %,.1f MB (empty master %,.1f MB): the store's %,.1f MB, "
                        + "%,.0f B a session (%,.0f..%,.0f by the counts before and after)", heap.usedBytes() / 1e6,
                baselineHeap.usedBytes() / 1e6, store / 1e6, heapPer, (double) store / more, (double) store / Math.max(1, fewer)));
        line(String.format(Locale.ROOT, "  payload (value bytes) %,.0f B a session; the store counts %,.0f B (store_bytes: "
                        + "sections' wire form) and %,.0f B (budget_used_bytes) a session; max-store %,.1f MB",
                valuePerSession, after.get("store_bytes") / (double) after.get("sessions"),
                after.get("budget_used_bytes") / (double) after.get("sessions"), after.get("max_store_bytes") / 1e6));
        line(String.format(Locale.ROOT, "  HEAP / PAYLOAD %.3f (aim <= 1.3); RSS %,.1f MB, %,.0f B a session, RSS / payload %.3f "
                + "(RSS holds the whole touched heap, garbage and free regions included)", heapPer / valuePerSession, rss / 1e6,
                rssPer, rssPer / valuePerSession));
        if (!o.steady()) {
            long budget = after.get("budget_used_bytes");
            double budgetPer = budget / (double) after.get("sessions");
            double gib16 = 16.0 * (1L << 30);
            line(String.format(Locale.ROOT, "  in a 16 GiB heap: the budget (at most 70%%: %,.1f GB) holds %,.0f sessions at "
                            + "%,.0f B of budget each; the heap itself %,.0f at %,.0f B each (no room for garbage)",
                    0.7 * gib16 / 1e9, 0.7 * gib16 / budgetPer, budgetPer, (gib16 - baselineHeap.usedBytes()) / heapPer, heapPer));
        }
        gc();
    }

    private void gc() throws IOException {
        List<GcLog.Event> events = GcLog.read(master.gcLog());
        Map<String, Object> g = new LinkedHashMap<>();
        if (w != null) {
            g.put("window", gcFigures("window", events, w.wallStart, w.wallEnd));
        }
        long loadEnd = w != null ? w.wallEnd : wallStop; // not the full GC the memory figures asked for
        g.put("run", gcFigures("fill" + (w != null ? " and window" : ""), events, wallT0, loadEnd));
        json.put("gc", g);
    }

    private Map<String, Object> gcFigures(String what, List<GcLog.Event> events, long from, long to) {
        List<GcLog.Event> pauses = GcLog.pauses(events, from, to);
        List<GcLog.Event> stalls = GcLog.stalls(events, from, to);
        GcLog.Summary s = GcLog.Summary.of(pauses);
        GcLog.Summary st = GcLog.Summary.of(stalls);
        Map<String, Integer> kinds = new TreeMap<>();
        pauses.forEach(e -> kinds.merge(e.what(), 1, Integer::sum));
        double seconds = (to - from) / 1000.0;
        line(String.format(Locale.ROOT, "GC pauses in the %s (%.0f s): %,d, p50 %.3f ms, p99 %.3f ms, max %.3f ms, total %,.1f ms "
                        + "(%.2f%% of the time); allocation stalls %,d (max %.3f ms, total %,.1f ms); kinds %s", what, seconds,
                s.count(), s.p50(), s.p99(), s.max(), s.total(), s.total() / 10 / seconds, st.count(), st.max(), st.total(), kinds));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        m.put("pauses", s);
        m.put("stalls", st);
        m.put("kinds", kinds);
        return m;
    }

    private Map<String, Object> phase(Phase p, double seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        m.put("creates", p.creates.sum());
        m.put("logins", p.logins.sum());
        m.put("reads", p.reads.sum());
        m.put("writes", p.writes.sum());
        m.put("mixSkipped", p.skipped.sum());
        m.put("valueBytesWritten", p.valueBytesWritten.sum());
        m.put("errors", p.errors());
        m.put("errorCount", p.errorCount());
        Histogram[] h = p.latencies();
        String[] names = {"create", "login", "read", "write"};
        Map<String, Object> lat = new LinkedHashMap<>();
        for (int i = 0; i < h.length; i++) {
            lat.put(names[i], percentiles(h[i]));
        }
        m.put("latencyMicrosFromIntended", lat);
        m.put("sendLagMicros", percentiles(p.sendLag));
        return m;
    }

    private static Map<String, Long> percentiles(Histogram h) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("count", h.getTotalCount());
        m.put("p50", h.getValueAtPercentile(50));
        m.put("p90", h.getValueAtPercentile(90));
        m.put("p99", h.getValueAtPercentile(99));
        m.put("p99.9", h.getValueAtPercentile(99.9));
        m.put("max", h.getMaxValue());
        return m;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1000.0);
    }

    private void line(String s) {
        System.out.println(s);
        summary.append(s).append('\n');
    }

    /** Writes scale.json and scale.md to {@code --out}; answers the JSON's figures. */
    Map<String, Object> write() throws IOException {
        Report report = Report.stamped("Plan scale: the reference-scale run");
        json.forEach(report::put);
        report.code(summary.toString());
        System.out.println("results: " + report.write(o.out(), "scale") + " and scale.md");
        return json;
    }
}
