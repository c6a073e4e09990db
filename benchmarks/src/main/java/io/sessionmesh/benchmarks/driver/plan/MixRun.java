package io.sessionmesh.benchmarks.driver.plan;

import io.sessionmesh.benchmarks.driver.load.HttpLoad;
import io.sessionmesh.benchmarks.driver.load.SessionSet;
import io.sessionmesh.benchmarks.driver.measure.ProcessCpu;
import io.sessionmesh.benchmarks.driver.measure.StackCounters;
import io.sessionmesh.benchmarks.driver.stack.Stack;
import io.sessionmesh.workload.Scale;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The standard workload on one stack, for the mix and the demo plans: its sessions logged in ({@link #fill}), then the
 * page mix ({@link SessionSet#mix}) in a closed or an open loop with new sessions logging in at the workload's rate
 * beside it (a fifth of the active set a minute, open loop), a warm-up, and a measured window with a progress line
 * every few seconds. What the window did: latency by request kind, the stack's counters and CPU. One {@link HttpLoad}
 * from the first login to the end, so its errors count from the start.
 */
final class MixRun implements AutoCloseable {
    /** Connections to a host of the login stream, at most: a few logins a second. */
    static final int LOGIN_CONNECTIONS = 4;
    /** The longest the first logins may take. */
    static final long FILL_TIMEOUT_MINUTES = 30;

    final Stack stack;
    final SessionSet sessions;
    final HttpLoad load;
    private final StackCounters counters;
    private final int count;

    MixRun(Stack stack, SessionSet sessions, int count, boolean masterStats) {
        this.stack = stack;
        this.sessions = sessions;
        this.count = count;
        this.load = new HttpLoad(stack.appAddresses());
        this.counters = new StackCounters(stack, masterStats);
    }

    /** Logs a session into every slot with {@code users} closed-loop users; false when a login failed. */
    boolean fill(int users) throws Exception {
        load.closedLoop(users, sessions.fill()).get(FILL_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        return load.errorCount() == 0 && sessions.full();
    }

    /** Starts the mix ({@code users} closed-loop users with {@code rate} 0, else an open loop) and the login stream. */
    void start(int users, int rate, int maxConnections) {
        if (rate == 0) {
            load.closedLoop(users, sessions.mix());
        } else {
            load.openLoop(rate, sessions.mix(), maxConnections);
        }
        load.openLoop(Scale.newSessionsPerSecond(count), sessions.logins(), LOGIN_CONNECTIONS);
    }

    /**
     * The warm-up, then the measured window, {@code progress} told every {@code every}; the load is stopped at the end
     * and what was answered meanwhile added to the window's histograms.
     */
    Result measure(Duration warmup, Duration duration, Duration every, Consumer<Progress> progress) throws Exception {
        Thread.sleep(warmup.toMillis());
        load.interval();
        StackCounters.Snapshot before = counters.snapshot();
        ProcessCpu.Snapshot cpuBefore = ProcessCpu.Snapshot.take(stack.pidsByRole());
        long expired = sessions.expired();
        long dropped = load.dropped();
        long reconnects = load.reconnects();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long answersAtStart = load.answers();
        Histogram all = new Histogram(HttpLoad.MAX_MICROS, 3);
        Map<String, Histogram> byKind = new TreeMap<>();
        while (System.nanoTime() < end) {
            long left = end - System.nanoTime();
            Thread.sleep(Math.max(1, Math.min(every.toMillis(), TimeUnit.NANOSECONDS.toMillis(left))));
            Histogram h = add(all, byKind);
            progress.accept(new Progress((System.nanoTime() - start) / 1e9, load.answers() - answersAtStart, h,
                    counters.snapshot().minus(before), load.errorCount()));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        ProcessCpu.Snapshot cpu = ProcessCpu.Snapshot.take(stack.pidsByRole()).minus(cpuBefore);
        StackCounters.Snapshot after = counters.snapshot();
        load.stop();
        add(all, byKind);
        return new Result(seconds, all, byKind, after.minus(before), cpu, load.errors(), sessions.expired() - expired,
                load.dropped() - dropped, load.reconnects() - reconnects);
    }

    /** The load's interval into the window's histograms; answers the interval's histogram of every request. */
    private Histogram add(Histogram all, Map<String, Histogram> byKind) {
        Map<String, Histogram> interval = load.interval();
        Histogram h = interval.remove(HttpLoad.ALL);
        all.add(h);
        interval.forEach((kind, k) -> byKind.merge(kind, k, (a, b) -> {
            a.add(b);
            return a;
        }));
        return h;
    }

    @Override
    public void close() {
        load.close();
        counters.close();
    }

    /**
     * Where the window stands.
     *
     * @param requests answers since the window's start
     * @param interval latency since the last progress
     * @param counters the stack's counters since the window's start
     * @param errors errors since the load's start
     */
    record Progress(double seconds, long requests, Histogram interval, StackCounters.Snapshot counters, long errors) {
    }

    /**
     * What the window did.
     *
     * @param all latency of every request (microseconds), logins included
     * @param errors by "kind status", since the load's start (the first logins included)
     * @param expired requests that found their session gone (logged in again, not errors)
     * @param dropped open-loop requests dropped by a full backlog
     */
    record Result(double seconds, Histogram all, Map<String, Histogram> byKind, StackCounters.Snapshot counters,
                  ProcessCpu.Snapshot cpu, Map<String, Long> errors, long expired, long dropped, long reconnects) {
        long requests() {
            return all.getTotalCount();
        }

        long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }

        double perRequest(long n) {
            return requests() == 0 ? 0 : (double) n / requests();
        }
    }
}
