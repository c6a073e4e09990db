package io.sessionmesh.benchmarks.load;

import io.sessionmesh.client.routing.StickyRouter;
import io.sessionmesh.workload.RequestMix;
import io.sessionmesh.workload.Scale;
import io.sessionmesh.workload.Zipf;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One system under one mode: the active sessions (Zipf s = 0.99 over them; a fifth of them replaced by new logins a
 * minute), end-user requests of two service steps each, routed to a node by a per-service {@link StickyRouter} (or at
 * random), in a closed loop of users or at a fixed arrival rate. Latency goes to HdrHistogram recorders per operation
 * (read, save, step, login) and per end-user request; in the open loop a request's latency counts from when it was
 * due, so a system that falls behind is charged for the wait (no coordinated omission).
 */
final class LoadPhase {
    /** Highest latency recorded; slower requests are clamped to it. */
    static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** Open-loop requests waiting for a worker at most; beyond, a request is dropped and counted. */
    static final int MAX_BACKLOG = 100_000;
    static final List<String> OPERATIONS = List.of("read", "save", "step", "login", "request");

    final StoreUnderTest store;
    private final WorkloadModel model;
    private final LoadOptions options;
    private final AtomicReferenceArray<String> slots;
    private final Zipf zipf;
    private final List<StickyRouter> routers = new ArrayList<>();
    private final Map<String, Recorder> recorders = new TreeMap<>();
    private final LongAdder completed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final AtomicLong lastErrorAt = new AtomicLong();
    private volatile String lastError;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger nextSlot = new AtomicInteger();
    /** With {@code --login sticky}: the node of service 0 that served each live session's login. */
    private final Map<String, Integer> loginNodes = new java.util.concurrent.ConcurrentHashMap<>();
    /** Held to record one request's operations (shared) and to turn the interval (exclusive): intervals hold whole requests. */
    private final ReadWriteLock turning = new ReentrantReadWriteLock();

    LoadPhase(StoreUnderTest store, WorkloadModel model, LoadOptions options) {
        this.store = store;
        this.model = model;
        this.options = options;
        this.slots = new AtomicReferenceArray<>(options.sessions());
        this.zipf = Zipf.workload(options.sessions());
        for (int s = 0; s < WorkloadModel.SERVICES; s++) {
            List<String> nodes = new ArrayList<>();
            for (int n = 0; n < store.nodesPerService(); n++) {
                nodes.add("service" + s + "-node" + n);
            }
            routers.add(new StickyRouter(nodes));
        }
        for (String op : OPERATIONS) {
            recorders.put(op, new Recorder(MAX_NANOS, 3));
        }
    }

    /** Logs every slot's session in, with a few threads. */
    void fill() throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(thread("fill-" + t, () -> {
                SplittableRandom r = new SplittableRandom(ThreadLocalRandom.current().nextLong());
                for (int i; (i = next.getAndIncrement()) < slots.length(); ) {
                    slots.set(i, login(r));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < slots.length(); i++) {
            if (slots.get(i) == null) {
                throw new IllegalStateException(store.name() + ": filling the sessions failed");
            }
        }
    }

    /** Starts the closed loop: {@code users} threads, each sending its next request when the last is answered. */
    List<Thread> startClosed(int users) {
        running.set(true);
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            threads.add(thread("user-" + u, () -> {
                SplittableRandom r = new SplittableRandom(ThreadLocalRandom.current().nextLong());
                while (running.get()) {
                    request(r, System.nanoTime());
                }
            }));
        }
        threads.add(churn());
        return threads;
    }

    /** Starts the open loop: requests due every 1/rate s, served by {@code workers} threads. */
    List<Thread> startOpen(int rate, int workers) {
        running.set(true);
        BlockingQueue<Long> due = new ArrayBlockingQueue<>(MAX_BACKLOG);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            threads.add(thread("worker-" + w, () -> {
                SplittableRandom r = new SplittableRandom(ThreadLocalRandom.current().nextLong());
                try {
                    while (running.get()) {
                        Long at = due.poll(100, TimeUnit.MILLISECONDS);
                        if (at != null) {
                            request(r, at);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        threads.add(thread("arrivals", () -> {
            long period = 1_000_000_000L / rate;
            long next = System.nanoTime();
            while (running.get()) {
                next += period;
                if (!sleepUntil(next)) {
                    return;
                }
                if (!due.offer(next)) {
                    dropped.increment();
                }
            }
        }));
        threads.add(churn());
        return threads;
    }

    /** New sessions at the workload's rate, each replacing the next slot in turn. */
    private Thread churn() {
        return thread("logins", () -> {
            SplittableRandom r = new SplittableRandom(ThreadLocalRandom.current().nextLong());
            long period = Scale.newSessionIntervalNanos(slots.length());
            long next = System.nanoTime();
            while (running.get()) {
                next += period;
                if (!sleepUntil(next)) {
                    return;
                }
                long start = System.nanoTime();
                try {
                    String id = login(r);
                    record("login", System.nanoTime() - start);
                    forget(slots.getAndSet(Math.floorMod(nextSlot.getAndIncrement(), slots.length()), id));
                } catch (RuntimeException e) {
                    failed(e);
                }
            }
        });
    }

    /**
     * One end-user request for the session in a Zipf-chosen slot, due at {@code dueNanos}. A session that expired
     * while idle (between phases, or a cold one) is counted and replaced by a new login, as its user would log in
     * again; that request is not counted as a request. Its operations are recorded together, in one interval. Its operations are recorded together when it completes, so that
     * an interval holds whole requests (up to the few in flight when the interval turns).
     */
    private void request(SplittableRandom r, long dueNanos) {
        int slot = zipf.next(r);
        String session = slots.get(slot);
        List<RequestMix.Step<Object>> steps = model.request(r);
        long[][] times = new long[steps.size()][];
        try {
            for (int i = 0; i < steps.size(); i++) {
                RequestMix.Step<Object> step = steps.get(i);
                Integer loginNode = step.service() == 0 ? loginNodes.get(session) : null;
                int node = !options.sticky() ? r.nextInt(store.nodesPerService())
                        : loginNode != null ? loginNode
                        : routers.get(step.service()).nodes().indexOf(routers.get(step.service()).nodeFor(session));
                long start = System.nanoTime();
                long[] t = store.step(node, session, step);
                times[i] = new long[] {System.nanoTime() - start, t[0], t[1]};
            }
            long end = System.nanoTime();
            turning.readLock().lock();
            try {
                for (long[] t : times) {
                    record("step", t[0]);
                    record("read", t[1]);
                    if (t[2] > 0) {
                        record("save", t[2]);
                    }
                }
                record("request", end - dueNanos);
            } finally {
                turning.readLock().unlock();
            }
            completed.increment();
        } catch (StoreUnderTest.SessionGone e) {
            expired.increment();
            try {
                String id = login(r);
                if (slots.compareAndSet(slot, session, id)) {
                    forget(session);
                } else {
                    forget(id);
                }
            } catch (RuntimeException again) {
                failed(again);
            }
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /**
     * A login on a node of service 0 the balancer picks (at random: a login has no session id to route by); with
     * {@code --login sticky} (and sticky routing) service 0 keeps the session on that node.
     */
    private String login(SplittableRandom r) {
        int node = r.nextInt(store.nodesPerService());
        String id = store.create(node, model.newSession(r));
        if (options.loginSticky() && options.sticky()) {
            loginNodes.put(id, node);
        }
        return id;
    }

    private void forget(String session) {
        if (session != null) {
            loginNodes.remove(session);
        }
    }

    private void record(String op, long nanos) {
        recorders.get(op).recordValue(Math.min(MAX_NANOS, Math.max(0, nanos)));
    }

    private void failed(RuntimeException e) {
        errors.increment();
        lastError = e.toString();
        lastErrorAt.set(System.nanoTime());
    }

    void stop(List<Thread> threads) throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(70));
        }
    }

    /** The histograms since the last call, by operation. */
    Map<String, Histogram> interval() {
        Map<String, Histogram> out = new TreeMap<>();
        turning.writeLock().lock();
        try {
            recorders.forEach((op, rec) -> out.put(op, rec.getIntervalHistogram()));
        } finally {
            turning.writeLock().unlock();
        }
        return out;
    }

    long completed() {
        return completed.sum();
    }

    long errors() {
        return errors.sum();
    }

    long dropped() {
        return dropped.sum();
    }

    /** Requests that found their session expired (and logged in again). */
    long expired() {
        return expired.sum();
    }

    String lastError() {
        return lastError;
    }

    /** Sleeps until {@code System.nanoTime()} reaches {@code deadline}; false when interrupted. */
    private static boolean sleepUntil(long deadline) {
        long wait = deadline - System.nanoTime();
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                return false;
            }
        }
        return true;
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
