package io.sessionmesh.sidecar.service;

import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.protocol.WriteId;
import io.sessionmesh.wire.transport.CreateRequest;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.PrincipalSessions;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.RenameRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.SessionCreated;
import io.sessionmesh.wire.transport.SessionPrincipal;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;
import io.sessionmesh.registry.RegistryQueries;
import io.sessionmesh.sidecar.cache.MissCause;
import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.registry.SessionDirectory;
import io.sessionmesh.sidecar.master.Lease;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.sidecar.master.MasterRouter;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.metrics.SidecarMetrics.Op;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the sidecar does, whatever the content type: reads answered from the cache when every section asked for is
 * there, else the missing ones fetched from the session's master in one call; writes sent to the master first and
 * merged into the cache after its answer; everything else passed through. Results are futures that complete on a
 * master connection's thread, or at once for a cache hit.
 *
 * <p>Coherence: a cached section is served only while this sidecar's lease with the session's master is valid and
 * only if it was cached in the lease's current epoch ({@link Lease}); the masters' invalidations reach the cache
 * through {@link InvalidationHandler}.
 *
 * <p>A read served from the cache does not reach the master, which owns expiry; so the sessions read that way are
 * remembered and touched on their master every {@code touch-interval}, in one pipelined batch. Every master answer
 * carries the session's times, which bound how long the cache keeps it.
 */
public final class SidecarService implements SidecarOperations {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SidecarService.class);
    private final MasterRouter router;
    private volatile SessionDirectory directory;
    private final SectionCache cache;
    private final SidecarMetrics metrics;
    private final Cache<Long, byte[]> schemas;
    private final Set<String> touched = ConcurrentHashMap.newKeySet();
    /**
     * Touches sent on one master connection before their answers are in, at most: well under a master's
     * {@code max-in-flight} (1024 by default), so that forwarding touches leaves room for the users' requests.
     */
    public static final int MAX_TOUCHES_IN_FLIGHT = 128;
    private final AtomicLong creates = new AtomicLong();
    /** How long after the lease ran out cached sections may still be served, marked stale (0: never). */
    private final long staleReadWindowNanos;
    /** Section names a miss may also fetch ({@code read-ahead}; 0: none). */
    private volatile int readAhead;
    /** Section names reads through this sidecar asked for, at most {@link SidecarConfig#MAX_READ_AHEAD}, first come. */
    private final Set<String> sectionNames = ConcurrentHashMap.newKeySet();

    public SidecarService(MasterRouter router, SectionCache cache, SidecarMetrics metrics, int schemaCacheSize,
                          Duration staleReadWindow) {
        this.staleReadWindowNanos = staleReadWindow.toNanos();
        this.router = router;
        this.directory = new SessionDirectory(router, null);
        this.cache = cache;
        this.metrics = metrics;
        this.schemas = Caffeine.newBuilder().maximumSize(schemaCacheSize).executor(Runnable::run).build();
        registerMeters();
    }

    /** The cache's, the touches' and the masters' figures in the metrics' Prometheus text, read when scraped. */
    private void registerMeters() {
        metrics.gauge("sessionmesh.sidecar.cache.entries", "sessions with an entry in the cache", cache::entries);
        metrics.gauge("sessionmesh.sidecar.cache.bytes", "bytes the cached sections stand for (cache-max-bytes bounds it)",
                cache::weightedBytes);
        metrics.counter("sessionmesh.sidecar.cache.evictions", "entries evicted for size", cache, SectionCache::evictedBySize);
        metrics.counter("sessionmesh.sidecar.cache.expirations", "entries expired", cache, SectionCache::expired);
        metrics.counter("sessionmesh.sidecar.cache.fills.refused",
                "sections a master sent for a miss and not cached: a write or an invalidation came between", cache,
                SectionCache::fillsRefused);
        for (MissCause cause : MissCause.values()) {
            metrics.counter("sessionmesh.sidecar.read.misses", "reads not served wholly from the cache, by why", cache,
                    c -> c.readMisses(cause), "cause", cause.key());
            metrics.counter("sessionmesh.sidecar.section.misses", "sections asked for and not served from the cache, by why",
                    cache, c -> c.sectionMisses(cause), "cause", cause.key());
        }
        metrics.gauge("sessionmesh.sidecar.touches.pending", "idle-time extensions waiting to be sent", this::pendingTouches);
        metrics.gauge("sessionmesh.sidecar.masters.up", "master groups with a live connection",
                () -> router.pools().stream().filter(MasterPool::isUp).count());
        metrics.counter("sessionmesh.sidecar.master.leader.changes", "leader changes seen in the master groups", router,
                r -> r.pools().stream().mapToLong(MasterPool::leaderChanges).sum());
        metrics.gauge("sessionmesh.sidecar.leases.valid", "master groups whose lease lets this cache serve their sessions",
                () -> {
                    long now = System.nanoTime();
                    return router.pools().stream().filter(p -> p.lease().isValid(now)).count();
                });
        metrics.counter("sessionmesh.sidecar.lease.renewals", "lease renewals by the masters", router,
                r -> r.pools().stream().mapToLong(p -> p.lease().renewals()).sum());
        metrics.counter("sessionmesh.sidecar.lease.expiries", "leases that ran out before a renewal", router,
                r -> r.pools().stream().mapToLong(p -> p.lease().expiries()).sum());
    }

    /**
     * On a miss, also fetch up to {@code names} other section names that reads here asked for and the session's entry
     * does not hold (0: only the missing ones).
     */
    public void readAhead(int names) {
        this.readAhead = Math.max(0, Math.min(SidecarConfig.MAX_READ_AHEAD, names));
    }

    /** Operators' questions about sessions across masters and the registry (the admin endpoint's). */
    public SessionDirectory directory() {
        return directory;
    }

    /** Answers the registry's questions from {@code queries} (null: this sidecar has no registry). */
    public void registry(RegistryQueries queries) {
        SessionDirectory before = directory;
        directory = new SessionDirectory(router, queries);
        before.close();
    }

    public SectionCache cache() {
        return cache;
    }

    public SidecarMetrics metrics() {
        return metrics;
    }

    public MasterRouter router() {
        return router;
    }

    /**
     * A new session on the next reachable master; with a requested id, on the master (or group) that owns the id, routed
     * as a READ of it is (MOVED and MOVING alike): the id places itself, no placement is sent.
     */
    @Override
    public CompletableFuture<SessionCreated> create(CreateRequest request) {
        metrics.request(Op.CREATE);
        Duration idle = request.idleTimeoutSeconds() == 0 ? null : Duration.ofSeconds(request.idleTimeoutSeconds());
        String principal = request.principal().orElse(null);
        String requested = request.sessionId().orElse(null);
        if (requested != null) {
            return timed(router.call(requested, c -> c.send(new MasterRequest.Create(idle, null, principal, requested))))
                    .handle((routed, error) -> {
                        if (error != null) {
                            throw unwrapped(error);
                        }
                        MasterAnswer.Created c = routed.value();
                        cache.evict(requested); // nothing an earlier session of this id left here is this one's
                        return new SessionCreated(c.sessionId(), c.idleTimeout().toSeconds(), c.maxLifetime().toSeconds());
                    });
        }
        return timed(router.create(creates.getAndIncrement(),
                        (c, placement) -> c.send(new MasterRequest.Create(idle, placement, principal))))
                .thenApply(c -> new SessionCreated(c.sessionId(), c.idleTimeout().toSeconds(), c.maxLifetime().toSeconds()));
    }

    /**
     * A batch read: from the cache when it has every section and the lease with the session's master is valid,
     * else one master call for the missing ones. With the master unreachable and stale reads allowed, what the cache
     * has is served, marked stale, for a bounded time after the lease ran out.
     */
    @Override
    public CompletableFuture<ReadOutcome> read(String sessionId, List<String> sections) {
        metrics.request(Op.READ);
        MasterPool pool = router.forSession(sessionId);
        Lease lease = pool.lease();
        Lease.State state = lease.state();
        boolean serve = state.isValid(System.nanoTime());
        SectionCache.Lookup lookup = cache.lookup(sessionId, sections, state.epoch(), serve);
        EncodedSection[] found = lookup.found();
        List<String> missing = lookup.missing();
        if (missing.isEmpty()) {
            metrics.hits.increment();
            metrics.sectionsFromCache.add(found.length);
            touched.add(sessionId);
            return CompletableFuture.completedFuture(new ReadOutcome(new EncodedReadResult(sessionId, List.of(found)), false));
        }
        if (!serve) {
            metrics.leaseInvalidReads.increment();
        }
        if (missing.size() == sections.size()) {
            metrics.misses.increment();
        } else {
            metrics.partialHits.increment();
            metrics.sectionsFromCache.add(sections.size() - missing.size());
        }
        metrics.sectionsFromMaster.add(missing.size());
        List<String> fetch = withReadAhead(sessionId, sections, missing, state.epoch());
        boolean exact = fetch == missing;
        return timed(router.call(sessionId, c -> c.read(new ReadRequest(sessionId, fetch))))
                .handle((routed, error) -> {
                    if (error != null) {
                        ReadOutcome stale = staleRead(sessionId, sections, lease, error);
                        if (stale != null) {
                            return stale;
                        }
                        throw failed(sessionId, error);
                    }
                    MasterAnswer.Read answer = routed.value();
                    EncodedReadResult result = answer.result();
                    SessionTimes t = answer.times();
                    // Cached only under the lease of the group it came from: a session read where it moved to is not
                    // cached until this sidecar's map sends its reads there first.
                    if (t != null && routed.pool() == pool) {
                        cache.fill(sessionId, lookup.generation(), state.epoch(), lease::epoch, result.sections(),
                                t.idleTimeoutMillis(), t.lifetimeLeftMillis());
                    }
                    return new ReadOutcome(combine(sessionId, sections, found, result.sections(), exact), false);
                });
    }

    /** What the cache has, served stale, if allowed: the master is unreachable and the lease ran out not too long ago. */
    private ReadOutcome staleRead(String sessionId, List<String> sections, Lease lease, Throwable error) {
        if (staleReadWindowNanos <= 0) {
            return null;
        }
        int status = status(error);
        if (status != Status.UNAVAILABLE && status != Status.TIMEOUT) {
            return null;
        }
        if (lease.invalidForNanos(System.nanoTime()) > staleReadWindowNanos) {
            return null;
        }
        EncodedSection[] cached = cache.peekAll(sessionId, sections);
        if (cached == null) {
            return null;
        }
        metrics.staleReads.increment();
        return new ReadOutcome(new EncodedReadResult(sessionId, List.of(cached)), true);
    }

    /**
     * The names to fetch for a miss: the missing ones, and with read-ahead on, other names reads here asked for that
     * the session's entry does not hold (the same list when there are none). Learns the names asked for.
     */
    private List<String> withReadAhead(String sessionId, List<String> asked, List<String> missing, int epoch) {
        int max = readAhead;
        if (max == 0) {
            return missing;
        }
        for (int i = 0; i < asked.size(); i++) {
            String name = asked.get(i);
            if (sectionNames.size() < SidecarConfig.MAX_READ_AHEAD && !sectionNames.contains(name)) {
                sectionNames.add(name);
            }
        }
        List<String> extra = cache.notHeld(sessionId, sectionNames, asked, epoch, max);
        if (extra.isEmpty()) {
            return missing;
        }
        metrics.sectionsReadAhead.add(extra.size());
        List<String> fetch = new ArrayList<>(missing.size() + extra.size());
        fetch.addAll(missing);
        fetch.addAll(extra);
        return fetch;
    }

    /**
     * The answer to a read: the sections found in the cache and those fetched, in the order asked for.
     *
     * @param exact whether {@code fetched} holds only the missing sections (no read-ahead)
     */
    private static EncodedReadResult combine(String sessionId, List<String> names, EncodedSection[] found,
                                             List<EncodedSection> fetched, boolean exact) {
        if (exact && fetched.size() == names.size()) {
            return new EncodedReadResult(sessionId, fetched);
        }
        Map<String, EncodedSection> byName = new HashMap<>(fetched.size() * 2);
        for (EncodedSection s : fetched) {
            byName.put(s.name(), s);
        }
        List<EncodedSection> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            out.add(found[i] != null ? found[i] : byName.get(names.get(i)));
        }
        return new EncodedReadResult(sessionId, List.copyOf(out));
    }

    /**
     * A write: the master first; after its answer the cache takes the deltas (or drops what it can no longer trust).
     * It goes with its write id (the caller's, or one made here), so that this sidecar can send it again when its
     * outcome is unknown (PROTOCOL.md 3.12): at most {@link #MAX_UNKNOWN_WRITE_RETRIES} times, each after
     * {@link #UNKNOWN_WRITE_RETRY_PAUSE_MILLIS} and only within {@code master-timeout} of the write's start. The write is
     * answered within that time, whatever its attempts do: OUTCOME_UNKNOWN when any attempt may have been applied and
     * none was answered.
     */
    @Override
    public CompletableFuture<WriteResult> write(WriteRequest request, WriteId writeId) {
        metrics.request(Op.WRITE);
        String id = request.sessionId();
        MasterPool pool = router.forSession(id);
        Lease lease = pool.lease();
        int epoch = lease.epoch();
        List<SectionDelta> deltas = request.deltas();
        List<String> names = deltas.size() == 1 ? List.of(deltas.get(0).section())
                : deltas.stream().map(SectionDelta::section).toList();
        // write-allocate: sections not cached here come back whole (a master that does not know the flag ignores it)
        SectionCache.WriteStart start = cache.startWrite(id, epoch, names);
        long incarnation = start.incarnation();
        WriteId sent = writeId != null ? writeId : mastersTakeWriteIds ? WriteId.next() : null;
        long deadline = System.nanoTime() + router.requestTimeout().toNanos();
        CompletableFuture<MasterRouter.Routed<MasterAnswer.Write>> answer = new CompletableFuture<>();
        attemptWrite(request, start.wantsWhole(), sent, deadline, 0, false, answer);
        // answered within master-timeout: an attempt still out then has an unknown outcome (its late answer is dropped)
        java.util.concurrent.ScheduledFuture<?> cap = WRITE_TIMERS.schedule(() ->
                answer.completeExceptionally(new MasterException(Status.OUTCOME_UNKNOWN, "WRITE: no answer within"
                        + " master-timeout " + router.requestTimeout().toMillis()
                        + " ms; it may or may not have been applied (send it again with the same Idempotency-Key)")),
                Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        answer.whenComplete((r, e) -> cap.cancel(false));
        return timed(answer).handle((routed, error) -> {
            if (error != null) {
                cache.writeFailed(id, incarnation, names);
                throw failed(id, error);
            }
            MasterAnswer.Write written = routed.value();
            WriteResult result = written.result();
            SessionTimes t = routed.pool() == pool ? written.times() : null; // moved: the cache drops what it had
            long[] versions = new long[request.deltas().size()];
            for (int i = 0; i < versions.length; i++) {
                Long v = result.versions().get(request.deltas().get(i).section());
                versions[i] = v == null ? -1 : v;
            }
            if (t == null) {
                cache.writeFailed(id, incarnation, names, true);
            } else {
                cache.writeAcknowledged(id, incarnation, request.deltas(), versions, written.sections(), epoch, lease::epoch,
                        t.idleTimeoutMillis(), t.lifetimeLeftMillis());
            }
            return result;
        });
    }

    /** Times a write whose outcome is unknown is sent again by this sidecar, at most (with the same write id). */
    public static final int MAX_UNKNOWN_WRITE_RETRIES = 2;
    /** The pause before a write whose outcome is unknown is sent again (a broken connection is reconnecting). */
    public static final long UNKNOWN_WRITE_RETRY_PAUSE_MILLIS = 50;
    /**
     * Each write's master-timeout cap and the pauses before its retries: one daemon thread for the process; a cap is
     * cancelled, and taken out of the queue, when its write is answered, so the queue holds the writes in flight.
     */
    private static final java.util.concurrent.ScheduledThreadPoolExecutor WRITE_TIMERS = writeTimers();

    private static java.util.concurrent.ScheduledThreadPoolExecutor writeTimers() {
        java.util.concurrent.ScheduledThreadPoolExecutor timers = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "sidecar-write-timers");
            t.setDaemon(true);
            return t;
        });
        timers.setRemoveOnCancelPolicy(true);
        return timers;
    }

    /** False once a master answered a write id UNSUPPORTED_VERSION (an older build): writes go without one since. */
    private volatile boolean mastersTakeWriteIds = true;

    /**
     * One attempt of a write; completes {@code answer} with its answer, or sends it again: after OUTCOME_UNKNOWN (with
     * the write id: at most {@link #MAX_UNKNOWN_WRITE_RETRIES} times), and after a failure that applied nothing once an
     * earlier attempt's outcome is unknown (the master is reconnecting), while time is left. {@code unknown}: an earlier
     * attempt may have been applied, so no later failure may be reported as one that applied nothing.
     */
    private void attemptWrite(WriteRequest request, boolean wantsWhole, WriteId writeId, long deadline, int retries,
                              boolean unknown, CompletableFuture<MasterRouter.Routed<MasterAnswer.Write>> answer) {
        router.call(request.sessionId(), c -> c.write(request, wantsWhole, writeId)).whenComplete((routed, error) -> {
            if (error == null) {
                answer.complete(routed);
                return;
            }
            int status = MasterException.statusOf(error);
            if (status == Status.UNSUPPORTED_VERSION && writeId != null && !unknown) {
                // a master of an older build: it applied nothing; without an id a retry would not be safe, so none
                mastersTakeWriteIds = false;
                log.warn("a master does not take write ids (an older build): writes go without them, and are not sent"
                        + " again when their outcome is unknown");
                attemptWrite(request, wantsWhole, null, deadline, MAX_UNKNOWN_WRITE_RETRIES, false, answer);
                return;
            }
            boolean nowUnknown = unknown || status == Status.OUTCOME_UNKNOWN;
            boolean appliedNothing = status == Status.UNAVAILABLE || status == Status.TIMEOUT;
            boolean again = writeId != null && !answer.isDone() && (status == Status.OUTCOME_UNKNOWN
                    ? retries < MAX_UNKNOWN_WRITE_RETRIES : unknown && appliedNothing);
            long left = deadline - System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(UNKNOWN_WRITE_RETRY_PAUSE_MILLIS);
            if (again && left > 0) {
                int next = status == Status.OUTCOME_UNKNOWN ? retries + 1 : retries;
                WRITE_TIMERS.schedule(() -> attemptWrite(request, wantsWhole, writeId, deadline, next, true, answer),
                        UNKNOWN_WRITE_RETRY_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
                return;
            }
            if (nowUnknown && status != Status.OUTCOME_UNKNOWN && appliedNothing) {
                // this attempt applied nothing, but an earlier one may have: the write's outcome is still unknown
                answer.completeExceptionally(new MasterException(Status.OUTCOME_UNKNOWN, "WRITE: sent, then its"
                        + " connection broke; sent again ("
                        + error.getMessage() + "): it may or may not have been applied"));
            } else {
                answer.completeExceptionally(error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error);
            }
        });
    }

    @Override
    public CompletableFuture<Void> touch(String sessionId) {
        metrics.request(Op.TOUCH);
        touched.remove(sessionId);
        return timed(router.call(sessionId, c -> c.touch(sessionId))).handle((routed, error) -> {
            if (error != null) {
                throw failed(sessionId, error);
            }
            SessionTimes t = routed.value();
            if (t != null) {
                cache.extend(sessionId, t.idleTimeoutMillis(), t.lifetimeLeftMillis());
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> delete(String sessionId) {
        metrics.request(Op.DELETE);
        touched.remove(sessionId);
        return timed(router.call(sessionId, c -> c.delete(sessionId))).handle((r, error) -> {
            cache.evict(sessionId);
            if (error != null) {
                throw failed(sessionId, error);
            }
            return null;
        });
    }

    /**
     * RENAME on the old id's master, routed as DELETE is. A new id that another master (or group) owns is CONFLICT here,
     * before any master is asked: an atomic rename across masters is not possible, and the caller can pick another id.
     * The cache drops the old id before and after (as DELETE does after): the master forgets this sidecar as a holder
     * of it, so nothing of it may be served from here again; the new id's sections are read from the master when asked.
     */
    @Override
    public CompletableFuture<SessionCreated> rename(String sessionId, RenameRequest request) {
        metrics.request(Op.RENAME);
        String newId = request.newId().orElse(sessionId);
        if (!newId.equals(sessionId) && router.forSession(newId) != router.forSession(sessionId)) {
            return CompletableFuture.failedFuture(new MasterException(Status.CONFLICT, RenameRequest.NEW_ID_ON_ANOTHER_MASTER
                    + " than the session's (" + router.forSession(sessionId).name() + "); an atomic rename across masters "
                    + "is not possible: choose another id"));
        }
        Duration idle = request.idleTimeoutSeconds() == 0 ? null : Duration.ofSeconds(request.idleTimeoutSeconds());
        cache.evict(sessionId);
        return timed(router.call(sessionId, c -> c.send(new MasterRequest.Rename(sessionId, newId, idle))))
                .handle((routed, error) -> {
                    cache.evict(sessionId);
                    if (error != null) {
                        throw unwrapped(error); // the old id's pending touches stay: the session is still there
                    }
                    touched.remove(sessionId);
                    // nothing an earlier session of the new id left here may be served as this one
                    cache.evict(newId);
                    SessionTimes t = routed.value();
                    return new SessionCreated(newId, t.idleTimeoutMillis() / 1000, t.lifetimeLeftMillis() / 1000);
                });
    }

    /** Routed as DELETE and TOUCH are (MOVED, MOVING, NOT_LEADER alike); the cache is left alone, even on NOT_FOUND. */
    @Override
    public CompletableFuture<Void> setPrincipal(String sessionId, String principal) {
        metrics.request(Op.PRINCIPAL);
        return timed(router.call(sessionId, c -> c.send(new MasterRequest.SetPrincipal(sessionId, principal))))
                .handle((r, error) -> {
                    if (error != null) {
                        throw unwrapped(error);
                    }
                    return null;
                });
    }

    /** DESCRIBE on the session's master, routed as {@link #setPrincipal} is; only the principal is passed on. */
    @Override
    public CompletableFuture<SessionPrincipal> principal(String sessionId) {
        metrics.request(Op.PRINCIPAL);
        return timed(router.call(sessionId, c -> c.send(new MasterRequest.Describe(sessionId)))).handle((r, error) -> {
            if (error != null) {
                throw unwrapped(error);
            }
            return new SessionPrincipal(sessionId, r.value().principal());
        });
    }

    /**
     * PRINCIPAL_SESSIONS to every group's leader, in the order a move needs and with the map held still
     * ({@link MasterRouter#callEveryGroup}); each group lists its store's sessions of the principal and those in flight
     * out of it (its outbox). The ids are merged (none twice). Complete only when every group answered with its whole
     * list and no move began or ended meanwhile. UNAVAILABLE, naming the groups, when none answered.
     */
    @Override
    public CompletableFuture<PrincipalSessions> sessionsOf(String principal) {
        metrics.request(Op.PRINCIPAL_SESSIONS);
        return router.callEveryGroup(pool -> timed(pool.call(c -> c.send(new MasterRequest.PrincipalSessions(principal)))))
                .thenApply(every -> {
                    java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
                    boolean complete = every.mapHeld();
                    int answered = 0;
                    StringBuilder failures = new StringBuilder();
                    for (int i = 0; i < every.results().size(); i++) {
                        CompletableFuture<MasterAnswer.SessionsOfPrincipal> f = every.results().get(i);
                        if (f.isCompletedExceptionally()) {
                            complete = false;
                            Throwable error = f.handle((a, e) -> e).join();
                            failures.append(failures.length() == 0 ? "" : "; ").append(every.pools().get(i).name())
                                    .append(": ").append(Status.name(status(error)));
                            continue;
                        }
                        MasterAnswer.SessionsOfPrincipal a = f.join();
                        answered++;
                        ids.addAll(a.sessionIds());
                        complete &= !a.truncated();
                    }
                    if (answered == 0) {
                        throw new CompletionException(new MasterException(Status.UNAVAILABLE,
                                "no master answered the list of a principal's sessions (" + failures + ")"));
                    }
                    return new PrincipalSessions(principal, List.copyOf(ids), complete);
                });
    }

    private static CompletionException unwrapped(Throwable error) {
        return new CompletionException(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
    }

    /** Stores a one-nio schema on the master its uid places it on. */
    @Override
    public CompletableFuture<Void> publishSchema(long uid, byte[] schema) {
        metrics.request(Op.SCHEMA_PUBLISH);
        byte[] held = schemas.getIfPresent(uid);
        // null checked apart: Jazzer 0.24's hook on Arrays.equals crashes the JVM on a null array
        // (docs/development.md, "Fuzzing")
        if (held != null && java.util.Arrays.equals(held, schema)) {
            return CompletableFuture.completedFuture(null);
        }
        return timed(router.forSchema(uid).call(c -> c.publishSchema(uid, schema))).thenRun(() -> schemas.put(uid, schema));
    }

    /** A schema by uid, from memory or from its master. */
    @Override
    public CompletableFuture<byte[]> fetchSchema(long uid) {
        metrics.request(Op.SCHEMA_FETCH);
        byte[] known = schemas.getIfPresent(uid);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        CompletableFuture<byte[]> fetched = router.forSchema(uid).call(c -> c.fetchSchema(uid)).exceptionallyCompose(e -> {
            MasterPool before = router.schemaFallback(uid); // ranges moving: it may not have been copied yet
            return before != null && status(e) == Status.NOT_FOUND ? before.call(c -> c.fetchSchema(uid))
                    : CompletableFuture.failedFuture(e);
        });
        return timed(fetched).thenApply(s -> {
            schemas.put(uid, s);
            return s;
        });
    }

    /**
     * Touches, on their masters, the sessions read only from the cache since the last call, so that the masters'
     * idle timers see those reads. A session the master no longer has leaves the cache.
     */
    public void forwardTouches() {
        if (touched.isEmpty()) {
            return;
        }
        List<String> ids = new ArrayList<>(touched);
        touched.removeAll(ids);
        java.util.Map<MasterConnection, List<String>> byConnection = new java.util.HashMap<>();
        for (String id : ids) {
            MasterConnection c = router.forSession(id).connection();
            if (c == null) {
                touched.add(id); // try again next time
                continue;
            }
            byConnection.computeIfAbsent(c, k -> new ArrayList<>()).add(id);
        }
        byConnection.forEach((c, list) -> forwardTouches(c, list, 0));
    }

    /**
     * Sends {@code ids[from..]} as pipelined batches of at most {@value #MAX_TOUCHES_IN_FLIGHT}, each flushed once,
     * the next when the last one's answers are in: thousands of touches never fill a master's in-flight limit,
     * which would refuse the users' own requests on that connection meanwhile.
     */
    private void forwardTouches(MasterConnection c, List<String> ids, int from) {
        int to = Math.min(ids.size(), from + MAX_TOUCHES_IN_FLIGHT);
        CompletableFuture<?>[] batch = new CompletableFuture<?>[to - from];
        for (int i = from; i < to; i++) {
            String id = ids.get(i);
            metrics.touchesForwarded.increment();
            batch[i - from] = c.send(new MasterRequest.Touch(id), false).whenComplete((t, e) -> {
                if (e != null) {
                    int status = status(e);
                    if (status == Status.NOT_FOUND) {
                        cache.evict(id);
                    } else if (status == Status.UNAVAILABLE) {
                        touched.add(id); // the connection went: next time, on another
                    }
                } else if (t != null) {
                    cache.extend(id, t.idleTimeoutMillis(), t.lifetimeLeftMillis());
                }
            });
        }
        c.flush();
        if (to < ids.size()) {
            CompletableFuture.allOf(batch).whenComplete((x, e) -> forwardTouches(c, ids, to));
        }
    }

    /** Sessions waiting for their touch to be forwarded. */
    public int pendingTouches() {
        return touched.size();
    }

    private <T> CompletableFuture<T> timed(CompletableFuture<T> call) {
        long start = System.nanoTime();
        return call.whenComplete((r, e) -> metrics.masterCall(System.nanoTime() - start));
    }

    /** The error to pass on; a session its master does not have leaves the cache. */
    private CompletionException failed(String sessionId, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (status(cause) == Status.NOT_FOUND) {
            cache.evict(sessionId);
            touched.remove(sessionId);
        }
        return new CompletionException(cause);
    }

    /**
     * The status an error stands for: a master's or a malformed message's own; BAD_REQUEST for an argument the sidecar
     * refused; INTERNAL for anything else (a bug here, never blamed on the master).
     */
    public static int status(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof MasterException m) {
            return m.status();
        }
        if (cause instanceof MalformedMessageException m) {
            return m.status();
        }
        if (cause instanceof IllegalArgumentException) {
            return Status.BAD_REQUEST;
        }
        return Status.INTERNAL;
    }
}
