package io.sessionmesh.registry;

import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A master's writer to the active-session registry: takes its store's lifecycle events on the request path
 * ({@link #record}: O(1), lock-free, never blocks, never throws) and writes them to PostgreSQL from one daemon
 * thread, {@value #THREAD_NAME}, in batches, in order per session.
 *
 * <p>Design. Events wait in a bounded {@link EventBuffer}. The thread migrates the schema when it first reaches the
 * database, then does a full re-sync ({@link Resync}: the master may have restarted empty), then loops: take up to
 * {@code batchEvents} (waiting at most {@code flushInterval} for the first, then until the oldest has waited
 * {@code flushInterval} or the batch is full), write them in one statement
 * ({@link BatchUpsert}), and at most once a {@link #RETENTION_PERIOD} delete a chunk of old ended rows
 * ({@link Retention}). A database that is down or failing never reaches the caller: the batch in hand is kept and
 * retried first, events keep buffering, the status says {@value RegistryStatus#DEGRADED} with the backlog, and the
 * thread retries with a backoff. One WARN per outage, one INFO on recovery; never a stack trace per retry. An event
 * that would exceed the buffer's bound clears it instead and asks for a re-sync, which the thread does as soon as
 * the database answers: the cleared events are covered by it, counted, never silently lost. Every write is guarded
 * by the session's version, so a replay (a new leader of a replicated group resuming, a retried batch) changes
 * nothing; a new leader calls {@link #requestResync()}.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>what</th><th>value</th></tr>
 *   <tr><td>events buffered</td><td>{@link RegistryConfig#bufferEvents()}</td></tr>
 *   <tr><td>events in one statement</td><td>{@link RegistryConfig#batchEvents()}</td></tr>
 *   <tr><td>first retry after a failure, doubling to</td><td>{@link #FIRST_BACKOFF}, {@link #MAX_BACKOFF}</td></tr>
 *   <tr><td>flushing at {@link #close()}</td><td>{@link #CLOSE_FLUSH}, plus one connect timeout</td></tr>
 *   <tr><td>retention runs, at most every</td><td>{@link #RETENTION_PERIOD}, {@link Retention#CHUNK_ROWS} rows at a
 *       time</td></tr>
 * </table>
 */
public final class RegistryWriter implements LifecycleSink, AutoCloseable {
    /** The writer thread's name. */
    public static final String THREAD_NAME = "registry-writer";
    /** The pool's name (in Hikari's logs and metrics). */
    public static final String POOL_NAME = "sessionmesh-registry";
    /** The wait before the first retry after a failure. */
    public static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /** The longest wait between retries. */
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    /** How long {@link #close()} tries to write what is buffered. */
    public static final Duration CLOSE_FLUSH = Duration.ofSeconds(2);
    /** How often a batch that is gathering events looks for more. */
    public static final Duration LINGER_POLL = Duration.ofMillis(2);
    /** How often, at most, ended rows past the retention are looked for. */
    public static final Duration RETENTION_PERIOD = Duration.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(RegistryWriter.class);

    private final RegistryConfig config;
    private final String owner;
    private final ActiveSessions store;
    private final EventBuffer buffer;
    /** Row keys: a keyed hash of each session id, never the id ({@link SessionKeys}). */
    private final SessionKeys keys;
    private final LagStats lag = new LagStats();
    private final StateClock clock = new StateClock(RegistryStatus.DEGRADED);
    private final AtomicBoolean resyncNeeded = new AtomicBoolean(true);
    /** The largest backlog the writer thread saw before a take since the previous status(); status() resets it. */
    private final AtomicLong backlogPeak = new AtomicLong();

    private volatile Thread thread;
    private volatile HikariDataSource pool;
    /** The writer thread is parked waiting for a first event: producers wake it. */
    private volatile boolean idle;
    private volatile boolean closing;
    private volatile long closeDeadlineNanos;

    // Written by the writer thread only; read by status().
    private volatile boolean migrated;
    private volatile boolean failing;
    private volatile String lastError;
    private volatile int pendingEvents;
    private volatile long written;
    private volatile long batches;
    /**
     * A re-sync is running: the writer is DEGRADED until it commits (resyncNeeded is cleared when it starts, so that a
     * request made meanwhile asks for another, and cannot say this alone).
     */
    private volatile boolean resyncing;
    private volatile long resyncs;
    private volatile long resyncRows;
    private volatile long failures;
    // The writer thread's own.
    private long outageStartNanos;
    private long seenOverflows;
    private boolean overflowEpisode;
    private long nextRetentionNanos = System.nanoTime();

    /**
     * A writer for the master (or master group) {@code owner}; nothing happens until {@link #start()}.
     *
     * @param store what a re-sync reads: the master's sessions now
     */
    public RegistryWriter(RegistryConfig config, String owner, ActiveSessions store) {
        this.config = Objects.requireNonNull(config, "config");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.store = Objects.requireNonNull(store, "store");
        this.buffer = new EventBuffer(config.bufferEvents());
        this.keys = new SessionKeys(config.idKey());
    }

    /** Creates the pool and starts the writer thread; a database that is down now is not an error (see status). */
    public synchronized void start() {
        if (thread != null || closing) {
            throw new IllegalStateException("registry writer already " + (closing ? "closed" : "started"));
        }
        pool = RegistryDataSource.pool(config, POOL_NAME, false);
        Thread t = new Thread(this::run, THREAD_NAME);
        t.setDaemon(true);
        thread = t;
        t.start();
        log.info("{}: writing for owner {}", config.describe(), owner);
    }

    /** Takes an event: O(1), never blocks, never throws. A full buffer is cleared and a re-sync covers it. */
    @Override
    public void record(LifecycleEvent event) {
        if (event == null) {
            return;
        }
        if (!buffer.offer(new EventBuffer.Entry(event, System.nanoTime()))) {
            resyncNeeded.set(true);
        }
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    /** Asks for a full re-sync from the store, done as soon as the database answers (call it on becoming leader). */
    public void requestResync() {
        resyncNeeded.set(true);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** How the writer is doing; the lag's interval is since the previous call. */
    public RegistryStatus status() {
        LagStats.Snapshot l = lag.snapshot();
        String state = currentState();
        long since = clock.observe(state);
        long backlog = backlog();
        long peak = Math.max(backlog, backlogPeak.getAndSet(backlog));
        return new RegistryStatus(state, backlog, peak, buffer.bound(), written, batches, resyncs, resyncRows,
                buffer.covered(), failures, failing ? lastError : null, l.p50Micros(), l.p99Micros(), l.maxMicros(),
                since, l.totalP50Micros(), l.totalP99Micros(), l.totalMaxMicros());
    }

    /**
     * Writes what it can within {@link #CLOSE_FLUSH} (no re-sync), then stops the thread and closes the pool. With the
     * database down it returns after about the flush time plus one connect timeout; what was not written is logged.
     */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (closing) {
                return;
            }
            closeDeadlineNanos = System.nanoTime() + CLOSE_FLUSH.toNanos();
            closing = true;
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
            join(t, CLOSE_FLUSH.plus(config.connectTimeout()).plusSeconds(1));
        }
        HikariDataSource p = pool;
        if (p != null) {
            p.close(); // aborts a statement still running, so the thread ends
        }
        if (t != null) {
            join(t, Duration.ofSeconds(1));
        }
        long left = backlog();
        if (left > 0) {
            log.warn("registry writer closed with {} events not written (a re-sync at the next start covers them)", left);
        }
    }

    private static void join(Thread t, Duration timeout) {
        try {
            t.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long backlog() {
        return (long) buffer.size() + pendingEvents;
    }

    private String currentState() {
        return failing || !migrated || resyncing || resyncNeeded.get() ? RegistryStatus.DEGRADED : RegistryStatus.UP;
    }

    private void run() {
        List<EventBuffer.Entry> pending = new ArrayList<>(config.batchEvents());
        long backoffNanos = 0;
        while (!(closing && (System.nanoTime() - closeDeadlineNanos > 0 || (pending.isEmpty() && buffer.isEmpty())))) {
            noticeOverflow();
            long waiting = backlog();
            // Once a batch: the buffer is at its fullest just before the writer takes from it.
            backlogPeak.accumulateAndGet(waiting, Math::max);
            try {
                if (!migrated) {
                    int ran = RegistryDataSource.migrate(pool);
                    migrated = true;
                    log.info("registry schema ready ({} migrations applied)", ran);
                }
                if (!closing && resyncNeeded.get()) {
                    // The batch in hand is older than anything the re-sync reads: written first, so that the re-sync
                    // ends what it leaves active (a row written after the re-sync's start would stay active even
                    // when the event that ended its session was among those the overflow cleared).
                    if (!pending.isEmpty()) {
                        write(pending);
                    }
                    resync();
                }
                if (pending.isEmpty()) {
                    take(pending);
                }
                if (!pending.isEmpty()) {
                    write(pending);
                }
                if (!closing) {
                    retention();
                }
                recovered(waiting);
                backoffNanos = 0;
            } catch (Exception e) {
                failed(e, pending.size());
                backoffNanos = backoffNanos == 0 ? FIRST_BACKOFF.toNanos() : Math.min(2 * backoffNanos,
                        MAX_BACKOFF.toNanos());
                pause(backoffNanos);
            }
            clock.observe(currentState());
        }
    }

    private void take(List<EventBuffer.Entry> pending) {
        if (buffer.drainTo(pending, config.batchEvents()) == 0 && !closing) {
            idle = true;
            if (buffer.isEmpty() && !resyncNeeded.get()) {
                LockSupport.parkNanos(this, config.flushInterval().toNanos());
            }
            idle = false;
            buffer.drainTo(pending, config.batchEvents());
        }
        linger(pending);
        pendingEvents = pending.size();
    }

    /**
     * Lets a batch that is not full gather events until its oldest has waited {@code flushInterval}. Without it the
     * writer, woken by each first event, wrote a statement per few events (at 1,833 creates a second: 900 statements of
     * 4 events, each a commit), and PostgreSQL spent about 90 us of CPU per event, on a 2-core host CPU the master's
     * requests need (benchmarks/RESULTS.md 11 at 1f3fa7a). Producers do not wake the writer meanwhile ({@code idle} is false).
     */
    private void linger(List<EventBuffer.Entry> pending) {
        if (pending.isEmpty()) {
            return;
        }
        long until = pending.get(0).recordedNanos() + config.flushInterval().toNanos();
        long left;
        while (pending.size() < config.batchEvents() && !closing && !resyncNeeded.get()
                && (left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, Math.min(left, LINGER_POLL.toNanos()));
            buffer.drainTo(pending, config.batchEvents() - pending.size());
            pendingEvents = pending.size();
        }
    }

    private void write(List<EventBuffer.Entry> pending) throws SQLException {
        try (Connection c = pool.getConnection()) {
            BatchUpsert.write(c, pending, keys);
        } catch (SQLException e) {
            String sqlState = e.getSQLState();
            if (sqlState == null || !(sqlState.startsWith("22") || sqlState.startsWith("23"))) {
                throw e; // the connection or the database: the batch stays, and is retried first
            }
            // The data itself is refused: retrying would fail forever. A re-sync covers the batch instead.
            log.error("registry refused a batch of {} events ({}): a re-sync covers them", pending.size(), e.getMessage());
            buffer.cover(pending.size());
            pending.clear();
            pendingEvents = 0;
            resyncNeeded.set(true);
            return;
        }
        long committed = System.nanoTime();
        for (EventBuffer.Entry e : pending) {
            lag.record(committed - e.recordedNanos());
        }
        written += pending.size();
        batches++;
        pending.clear();
        pendingEvents = 0;
    }

    private void resync() throws SQLException {
        long overflowsBefore = buffer.overflows();
        resyncing = true;
        resyncNeeded.set(false); // a request or an overflow from now on asks for another
        long start = System.nanoTime();
        Resync.Result r;
        try (Connection c = pool.getConnection()) {
            r = Resync.run(c, owner, store, keys, Runnable::run);
        } catch (SQLException | RuntimeException e) {
            resyncNeeded.set(true);
            throw e;
        } finally {
            resyncing = false;
        }
        resyncs++;
        resyncRows += r.copied();
        if (buffer.overflows() == overflowsBefore) {
            overflowEpisode = false;
        }
        log.info("registry re-synced owner {}: {} active sessions copied (in {} ms), {} rows changed, {} ended, "
                + "in {} ms", owner, r.copied(), r.copyMillis(), r.upserted(), r.ended(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private void retention() throws SQLException {
        if (System.nanoTime() - nextRetentionNanos < 0) {
            return;
        }
        int deleted;
        try (Connection c = pool.getConnection()) {
            deleted = Retention.deleteChunk(c, config.retention());
        }
        if (deleted < Retention.CHUNK_ROWS) {
            nextRetentionNanos = System.nanoTime() + RETENTION_PERIOD.toNanos();
        } // else more are left: the next round deletes another chunk, between batches
        if (deleted > 0) {
            log.debug("registry retention deleted {} ended rows", deleted);
        }
    }

    /** Logs an overflow once per episode (here, not on the request path that caused it). */
    private void noticeOverflow() {
        long overflows = buffer.overflows();
        if (overflows != seenOverflows) {
            seenOverflows = overflows;
            if (!overflowEpisode) {
                overflowEpisode = true;
                log.warn("registry buffer full ({} events): cleared; a full re-sync from the store covers them "
                        + "({} events covered so far)", buffer.bound(), buffer.covered());
            }
        }
    }

    private void failed(Exception e, int pending) {
        failures++;
        lastError = describe(e);
        pendingEvents = pending;
        if (!failing) {
            failing = true;
            outageStartNanos = System.nanoTime();
            log.warn("registry {} unreachable or failing: {}; events wait in the buffer ({} of {}), retrying",
                    config.redactedUrl(), lastError, backlog(), buffer.bound());
        }
    }

    private void recovered(long waited) {
        if (failing) {
            failing = false;
            log.info("registry {} reachable again after {} ms; {} events waited", config.redactedUrl(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outageStartNanos), waited);
        }
    }

    /** The innermost cause's message, on one line (Flyway's messages span several). */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
    }

    private void pause(long nanos) {
        long end = System.nanoTime() + nanos;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            if (closing) {
                left = Math.min(left, closeDeadlineNanos - System.nanoTime());
                if (left <= 0) {
                    return;
                }
            }
            LockSupport.parkNanos(this, left);
        }
    }
}
