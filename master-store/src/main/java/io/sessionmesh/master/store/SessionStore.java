package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.coherence.HolderRegistry;
import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.master.coherence.SessionHolders;
import io.sessionmesh.registry.ActiveSessions;
import io.sessionmesh.registry.LifecycleEvent;
import io.sessionmesh.registry.LifecycleSink;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.EncodedWrite;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.SectionNameCache;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The master's in-memory truth: sessions, their sections, versions and expiry.
 *
 * <h2>Design</h2>
 * One class, because every operation must see a session's data, its expiry and its holder bookkeeping under one
 * monitor, in one order; the parts that stand alone are classes of their own ({@link ExpiryWheel}, {@link NamePool},
 * {@link SchemaStore}, {@link SessionHolders}).
 * <ul>
 *   <li><b>Layout.</b> A {@link ConcurrentHashMap} from session id to {@link Session}; a session holds a
 *   copy-on-write array of immutable {@link EncodedSection}s: each section is one byte array in the form it
 *   takes on the wire, so a read answer is a copy of those arrays and a section costs one array header, not one
 *   per attribute. Section names are shared across sessions through a bounded {@link NamePool}. Values are
 *   opaque bytes, never interpreted: the master loads no application class.</li>
 *   <li><b>Concurrency.</b> A read by a client that caches nothing takes no lock: it reads the session's sections
 *   array once (a volatile load) and so sees every delta of a write or none. A read by a cache (a sidecar) takes the
 *   session's monitor, because it must note the cache as a holder of what it read in step with the state it read
 *   (otherwise a write could slip between the two and never tell it). Writes and deletes take the session's monitor,
 *   build the next sections array and publish it with one volatile store: a write is atomic per session, and two
 *   concurrent writes to different attributes of one section both land (the second applies its delta to the
 *   first's result). Different sessions never contend; the only store-wide state written per operation is a
 *   {@link LongAdder} of bytes.</li>
 *   <li><b>Coherence.</b> Who holds which section, and the write still waiting for its invalidations, are the
 *   coherence package's ({@link SessionHolders}, one per session that a cache has read or written); the store calls
 *   it under the session's monitor right where it reads or publishes, so invalidations of one session leave in the
 *   order of its writes, and returns the {@link Fence} a write's acknowledgement waits for (PROTOCOL.md 3.7).</li>
 *   <li><b>Versions.</b> A section that was never written reads as version 0 with no attributes. Each write
 *   that names a section adds one to its version, even one that empties it (a section is never deleted, so
 *   versions never go back). ifVersion is checked for every delta before anything is applied: one mismatch
 *   and the whole write is a CONFLICT.</li>
 *   <li><b>Expiry.</b> A session dies at min(last access + idle timeout, creation + max lifetime), by the injected
 *   {@link Ticker}. Reads, writes and touches move the last access (one release store). Every operation checks the
 *   deadline, so an expired session answers NOT_FOUND at once; the {@link ExpiryWheel} removes expired sessions in
 *   the background at a cost that grows with the sessions that come due, not with the size of the store. Like
 *   Caffeine's timer wheel (BoundedLocalCache, TimerWheel), but with one ring: deadlines further out than the
 *   ring are simply looked at again once per turn.</li>
 *   <li><b>Limits.</b> {@link StoreLimits}: every write is checked whole before it is published; over a
 *   limit it is refused and nothing of it is applied. One {@link MemoryBudget} (max-store) counts every byte the
 *   store keeps: sections' wire bytes, a measured overhead per session and per section, shared names, schemas and
 *   removed sessions still in the expiry wheel; a CREATE, a growing WRITE or a new schema that does not fit is
 *   UNAVAILABLE, what shrinks is always served.</li>
 *   <li><b>Ids and renames.</b> A CREATE may name its id (an application's own): taken only while a live session has
 *   it. {@link #rename} moves a session to a new id under the old session's monitor (a new {@link Session} sharing the
 *   same immutable sections), so a reader sees it under one id or the other, and the store never holds two sessions'
 *   monitors at once (an expired session on the new id is removed before), so crossing renames cannot deadlock.</li>
 *   <li><b>Replicas.</b> In a replicated group (the master's {@code replication} package) every replica's store
 *   applies the same log: each change comes with the leader's time ({@code now} parameters) and, for a creation, the
 *   id the leader chose, so all compute the same state; sessions leave only through the log
 *   ({@link #removeOnlyThroughTheLog}, {@link #expire}); {@link #lead} starts a leader's term;
 *   {@link StoreSnapshot} writes and reads the whole store. That is why this class is over 600 lines: these are the
 *   same operations under the same monitor, with the time and the removal made explicit.</li>
 * </ul>
 */
public final class SessionStore {
    /** Removed sessions the expiry wheel may hold before a sweep purges them, whatever the live count. */
    public static final int PURGE_MIN_ENTRIES = 10_000;
    /** Share of the memory budget removed sessions in the expiry wheel may take before a sweep purges them. */
    public static final double PURGE_BUDGET_SHARE = 1.0 / 16;
    /** Width of one bucket of the expiry wheel. */
    public static final long EXPIRY_RESOLUTION_MILLIS = 1000;
    /** Buckets in the ring: 4096 one-second buckets, about 68 minutes. */
    public static final int EXPIRY_SLOTS = 4096;

    private final StoreLimits limits;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();
    private final NamePool names;
    private final SessionIds ids = new SessionIds();
    private final ExpiryWheel wheel;
    private final SchemaStore schemas;
    /** The write ids of the writes applied lately (PROTOCOL.md 3.12): a write sent again is not applied twice. */
    private final RecentWrites recentWrites = new RecentWrites();
    /** Every byte the store keeps, against max-store: LongAdders, so writers on different threads do not fight over one cache line. */
    private final MemoryBudget budget;
    private final StoreCounters counters = new StoreCounters();
    /** Where lifecycle events go (the registry), and the owner they name. */
    private volatile StoreLifecycle lifecycle;
    /** Wall-clock minus ticker milliseconds at start: what turns the store's times into epoch ones for operators. */
    private final long epochOffset;
    private final Object sweepLock = new Object();
    /**
     * Set for a replica of a group: only the log removes sessions (EXPIRE, DELETE, LOGOUT, a move's HANDOFF), judged
     * by what the log alone has seen ({@link Session#loggedAccess}, never the leader's reads), so every replica holds the
     * same ones; a change in the log applies to every session the log has not removed ({@link #changing}); a read that
     * meets an expired session answers NOT_FOUND and leaves it to the leader's next EXPIRE.
     */
    private volatile boolean removalsByLogOnly;
    /** The sessions of each principal: what "log out everywhere" and a principal's session list walk. */
    private final PrincipalIndex byPrincipal = new PrincipalIndex();

    public SessionStore(StoreLimits limits, Ticker ticker) {
        this.limits = limits;
        this.ticker = ticker;
        this.epochOffset = System.currentTimeMillis() - ticker.millis();
        this.lifecycle = new StoreLifecycle(LifecycleSink.NONE, "master", epochOffset);
        this.wheel = new ExpiryWheel(EXPIRY_RESOLUTION_MILLIS, EXPIRY_SLOTS, ticker.millis());
        this.budget = new MemoryBudget(limits.maxStoreBytes(), sessions::size, wheel::removedEntries);
        this.names = new NamePool(limits.maxNames(), budget);
        this.schemas = new SchemaStore(limits.maxSchemas(), limits.maxSchemaBytes(), budget);
    }

    /** The store's one memory budget (max-store). */
    public MemoryBudget budget() {
        return budget;
    }

    public StoreLimits limits() {
        return limits;
    }

    public SchemaStore schemas() {
        return schemas;
    }

    /** The writes applied lately under a write id, by session ({@link RecentWrites}). */
    public RecentWrites recentWrites() {
        return recentWrites;
    }

    /** A new empty session. */
    public CreatedSession create() {
        return create(null);
    }

    /**
     * A new empty session with its own idle timeout ({@code null}: the default).
     *
     * @throws StoreException BAD_REQUEST for a timeout out of range, UNAVAILABLE when the store holds max-sessions
     *     sessions or a session's overhead does not fit in its memory budget
     */
    public CreatedSession create(Duration idleTimeout) {
        return create(idleTimeout, id -> true);
    }

    /** Most ids tried for one session whose id must pass a placement test (expected: the number of masters). */
    public static final int MAX_ID_ATTEMPTS = 100_000;

    /**
     * A new empty session whose id passes {@code acceptId} (its place on the masters' ring is this master's).
     *
     * @throws StoreException BAD_REQUEST for a timeout out of range or an id test that nothing passes,
     *     UNAVAILABLE when the store is full
     */
    public CreatedSession create(Duration idleTimeout, java.util.function.Predicate<String> acceptId) {
        return create(idleTimeout, acceptId, null, null);
    }

    /**
     * {@link #create(Duration, java.util.function.Predicate)} for {@code principal} (null: no one yet), asked by the
     * peer {@code host} (what the registry records as the host that created it; null: unknown).
     */
    public CreatedSession create(Duration idleTimeout, java.util.function.Predicate<String> acceptId, String principal,
                                 String host) {
        Duration idle = checkedIdleTimeout(idleTimeout, principal);
        long now = ticker.millis();
        Session session;
        int attempts = 0;
        do {
            String id = ids.next();
            while (!acceptId.test(id)) {
                if (++attempts >= MAX_ID_ATTEMPTS) {
                    throw new StoreException(Status.BAD_REQUEST, "no id out of " + MAX_ID_ATTEMPTS
                            + " falls on this master's part of the ring: is the placement right?");
                }
                id = ids.next();
            }
            session = new Session(id, now, idle.toMillis(), limits.maxLifetime().toMillis());
            session.principal = principal;
            session.host = host;
        } while (sessions.putIfAbsent(session.id, session) != null);
        byPrincipal.add(session);
        return created(session);
    }

    /**
     * A new empty session with the id a replicated group's leader chose ({@link #newId()}), at the time in its log:
     * every replica makes the same session.
     *
     * @throws StoreException BAD_REQUEST for a timeout out of range, CONFLICT when the id is taken, UNAVAILABLE when
     *     the store is full
     */
    public CreatedSession create(String id, Duration idleTimeout, long now) {
        return create(id, idleTimeout, now, null, null);
    }

    /**
     * {@link #create(String, Duration, long)} for {@code principal}, asked by {@code host} (either may be null). The id
     * is taken only while a live session has it: one that has expired but is not yet purged is removed (recorded as
     * expired) and the id made again, as every replica does alike at the log's time.
     */
    public CreatedSession create(String id, Duration idleTimeout, long now, String principal, String host) {
        Duration idle = checkedIdleTimeout(idleTimeout, principal);
        Session session = new Session(id, now, idle.toMillis(), limits.maxLifetime().toMillis());
        session.principal = principal;
        session.host = host;
        if (!claim(id, session, now)) {
            throw new StoreException(Status.CONFLICT, "session id " + SessionIds.redact(id) + " is taken");
        }
        byPrincipal.add(session);
        return created(session);
    }

    /**
     * A new empty session with the id an application chose (CREATE with flag REQUESTED_ID), now.
     *
     * @throws StoreException CONFLICT when a live session has the id, BAD_REQUEST, UNAVAILABLE as {@link #create(Duration)}
     */
    public CreatedSession createWithId(String id, Duration idleTimeout, String principal, String host) {
        return create(id, idleTimeout, ticker.millis(), principal, host);
    }

    /**
     * Puts {@code session} under {@code id} unless a live session has it; an expired one found there leaves first. True
     * if the session is in.
     */
    private boolean claim(String id, Session session, long now) {
        while (true) {
            Session held = sessions.putIfAbsent(id, session);
            if (held == null) {
                return true;
            }
            // A replica of a group judges by what its log removed, never by expiry: whether a session has expired
            // depends on its last use, and reads (not in the log) reached the leader only, so the replicas would
            // disagree. An expired session there keeps its id until the leader's EXPIRE takes it out.
            if (!held.removed && (removalsByLogOnly || !held.isExpired(now))) {
                return false;
            }
            if (!held.removed && remove(held, LifecycleEvent.Kind.EXPIRED)) {
                counters.expiries.increment();
            }
            sessions.remove(id, held); // a removed session whose removal is still under way elsewhere
        }
    }

    /**
     * The last-use time a snapshot records: a replica's the log's ({@link Session#loggedAccess}), so that every
     * replica's snapshot at one index holds the same; a master alone's, its last access.
     */
    long snapshotAccess(Session session) {
        return removalsByLogOnly ? session.loggedAccess : session.lastAccess;
    }

    /** This store is a replica's: sessions leave it only through the group's log (see {@link #removalsByLogOnly}). */
    public void removeOnlyThroughTheLog() {
        removalsByLogOnly = true;
        budget.replica();
    }

    /** A fresh random session id (for a group's leader to choose before it replicates the creation). */
    public String newId() {
        return ids.next();
    }

    private Duration checkedIdleTimeout(Duration idleTimeout, String principal) {
        Duration idle = idleTimeout == null ? limits.defaultIdleTimeout() : idleTimeout;
        if (idle.toMillis() < 1 || idle.compareTo(limits.maxIdleTimeout()) > 0) {
            throw new StoreException(Status.BAD_REQUEST, "idle timeout " + idle.toMillis() + " ms is outside 1 ms.."
                    + limits.maxIdleTimeout().toMillis() + " ms");
        }
        if (sessions.size() >= limits.maxSessions()) {
            throw new StoreException(Status.UNAVAILABLE, "the store holds its maximum of " + limits.maxSessions() + " sessions");
        }
        budget.check(MemoryBudget.SESSION_OVERHEAD + MemoryBudget.principalCost(principal), "CREATE");
        return idle;
    }

    private CreatedSession created(Session session) {
        budget.principalsChanged(MemoryBudget.principalCost(session.principal));
        wheel.schedule(session);
        counters.creates.increment();
        lifecycle.created(session);
        return new CreatedSession(session.id, Duration.ofMillis(session.idleTimeout), limits.maxLifetime());
    }

    /**
     * Reads the named sections of a session, all from one consistent state; a section never written comes back
     * empty at version 0. Extends the session's idle time. The sections are the stored ones, in wire form.
     *
     * @throws StoreException NOT_FOUND for an unknown, deleted or expired session
     */
    public EncodedReadResult read(ReadRequest request) {
        return read(request, 0);
    }

    /**
     * A read by a cache that will keep what it reads: {@code holderBit} (its {@link HolderRegistry} bit) is noted on
     * every section read, in step with the state read, so that any later write of those sections tells it.
     */
    public EncodedReadResult read(ReadRequest request, long holderBit) {
        Session session = live(request.sessionId(), ticker.millis(), !removalsByLogOnly);
        List<String> wanted = request.sectionNames();
        List<EncodedSection> out = new ArrayList<>(wanted.size());
        if (holderBit == 0) {
            EncodedSection[] snapshot = session.sections;
            for (String name : wanted) {
                int i = indexOf(snapshot, snapshot.length, name);
                out.add(i >= 0 ? snapshot[i] : EncodedSection.empty(name));
            }
        } else {
            synchronized (session) {
                if (session.removed) {
                    throw gone(session, ticker.millis(), !removalsByLogOnly);
                }
                EncodedSection[] snapshot = session.sections;
                SessionHolders holders = session.holders();
                for (String name : wanted) {
                    int i = indexOf(snapshot, snapshot.length, name);
                    if (i >= 0) {
                        out.add(snapshot[i]);
                        holders.heldAt(i, holderBit);
                    } else {
                        out.add(EncodedSection.empty(name));
                        holders.heldAbsent(holderBit);
                    }
                }
            }
        }
        counters.reads.increment();
        counters.sectionsRead.add(wanted.size());
        return new EncodedReadResult(session.id, Collections.unmodifiableList(out));
    }

    /**
     * Applies every delta of a write atomically: all become visible together, each named section's version goes
     * up by one. Extends the session's idle time.
     *
     * @throws StoreException NOT_FOUND, CONFLICT (an ifVersion did not match), TOO_LARGE (a limit), UNAVAILABLE
     *     (a write that grows the store past its memory budget); nothing is applied
     */
    public WriteResult write(WriteRequest request) {
        return write(request, 0, Invalidator.NONE).result();
    }

    /**
     * What a write did: the write, each delta's new section version (in order; for its answer, {@link #result}), what
     * its acknowledgement must wait for (null: nothing), the session's times as the write left them (PROTOCOL.md 3.2,
     * for the answer without a second look-up of the session), and its sections as the write left them (the published
     * array, never changed; for {@link #wholeSections}).
     */
    public record Written(EncodedWrite write, long[] versions, Fence fence, SessionTimes times, EncodedSection[] after) {
        /** The write's answer: its session id, and each delta's section and new version (made here, not kept). */
        public WriteResult result() {
            return WriteResult.of(write, versions);
        }

        /**
         * The sections the write made, whole, where the new version is above 1 (a writer's cache builds version 1 from
         * its delta), in the order of the deltas: what a WRITE with flag WHOLE_SECTIONS is answered with.
         */
        public List<EncodedSection> wholeSections(WriteRequest request) {
            List<EncodedSection> out = new ArrayList<>(request.deltaCount());
            for (int d = 0; d < request.deltaCount(); d++) {
                int i = indexOf(after, after.length, request.section(d));
                if (i >= 0 && after[i].version() > 1) {
                    out.add(after[i]);
                }
            }
            return out;
        }
    }

    /**
     * A write by {@code writerBit} (0: a client that caches nothing): applied as {@link #write(WriteRequest)}, then,
     * under the session's lock, every other cache that holds a section it changed is told through
     * {@code invalidator} and stops being a holder; the writer becomes the only holder of those sections (it merges
     * its own write into its cache).
     */
    public Written write(WriteRequest request, long writerBit, Invalidator invalidator) {
        return write(request, writerBit, invalidator, ticker.millis());
    }

    /**
     * The store's clock ({@link Ticker#millis()}): for a caller that applies several writes at one reading of it
     * ({@link #write(WriteRequest, long, Invalidator, long)}).
     */
    public long now() {
        return ticker.millis();
    }

    /**
     * {@link #write(WriteRequest, long, Invalidator)} at {@code now}: a replicated group's log time, or one reading of
     * {@link #now()} shared by the writes of one read.
     */
    public Written write(WriteRequest request, long writerBit, Invalidator invalidator, long now) {
        // The request's wire form (a decoded request's own bytes; a model's, encoded once): each delta is applied from
        // it straight into the section's next version, so every caller (a connection, the log, a test) gets the same.
        EncodedWrite write = request.encoded();
        Session session = changing(write.sessionId(), now);
        int n = write.deltaCount();
        long[] versions = new long[n];
        Fence fence;
        EncodedSection[] after;
        try {
            synchronized (session) {
                if (session.removed) {
                    throw gone(session, now);
                }
                EncodedSection[] current = session.sections;
                // the usual write changes sections the session has: one array of the same size; room for the rest of the
                // deltas once one adds a section, cut to size at the end
                EncodedSection[] next = current.clone();
                int count = current.length;
                long bytes = session.bytes;
                for (int d = 0; d < n; d++) {
                    String section = write.section(d);
                    int i = indexOf(next, count, section);
                    if (i < 0 && count == next.length) {
                        next = Arrays.copyOf(next, count + n - d);
                    }
                    EncodedSection old = i >= 0 ? next[i] : null;
                    long version = old == null ? 0 : old.version();
                    long ifVersion = write.ifVersion(d);
                    if (ifVersion != SectionDelta.NO_VERSION && ifVersion != version) {
                        counters.conflicts.increment();
                        throw new StoreException(Status.CONFLICT, "section \"" + section + "\" is at version "
                                + version + ", not " + ifVersion);
                    }
                    if (write.maxValueBytes(d) > limits.maxAttributeBytes()) {
                        checkValues(write.delta(d)); // names the first value over the limit
                    }
                    if (old == null) {
                        old = EncodedSection.empty(names.intern(section));
                        i = count++;
                    } else {
                        bytes -= old.encodedSize();
                    }
                    EncodedSection updated = old.apply(write, d, version + 1);
                    checkSection(updated);
                    bytes += updated.encodedSize();
                    next[i] = updated;
                    versions[d] = updated.version();
                }
                if (count > limits.maxSectionsPerSession()) {
                    throw StoreException.tooLarge("the session would hold " + count + " sections, above the limit of "
                            + limits.maxSectionsPerSession());
                }
                if (bytes > limits.maxSessionBytes()) {
                    throw StoreException.tooLarge("the session would be " + bytes + " bytes, above the limit of "
                            + limits.maxSessionBytes());
                }
                long growth = bytes - session.bytes;
                int added = count - current.length;
                budget.check(growth + (long) added * MemoryBudget.SECTION_OVERHEAD, "this WRITE");
                budget.sectionsChanged(added, growth);
                session.sections = after = count == next.length ? next : Arrays.copyOf(next, count);
                session.bytes = bytes;
                fence = session.holders == null && writerBit == 0 ? null
                        : session.holders().written(session.id, session.sections, write.sections(), versions, writerBit,
                                invalidator);
            }
        } catch (StoreException e) {
            if (e.status() == Status.TOO_LARGE) {
                counters.tooLarge.increment();
            }
            throw e;
        }
        counters.writes.increment();
        return new Written(write, versions, fence,
                new SessionTimes(session.idleTimeout, Math.max(0, session.hardDeadline - now)), after);
    }

    /**
     * Removes a session at once.
     *
     * @throws StoreException NOT_FOUND if there is no such live session
     */
    public void delete(String sessionId) {
        delete(sessionId, 0, Invalidator.NONE);
    }

    /**
     * Removes a session at once, telling every cache that holds any of it except {@code deleterBit} (which drops it
     * itself); returns what the acknowledgement waits for (null: nothing).
     *
     * @throws StoreException NOT_FOUND if there is no such live session
     */
    public Fence delete(String sessionId, long deleterBit, Invalidator invalidator) {
        return delete(sessionId, deleterBit, invalidator, ticker.millis());
    }

    /** {@link #delete(String, long, Invalidator)} at {@code now} (a replicated group's log time). */
    public Fence delete(String sessionId, long deleterBit, Invalidator invalidator, long now) {
        Session session = sessions.get(sessionId);
        if (session == null || session.removed || expiredHere(session, now)) {
            throw gone(session, now, !removalsByLogOnly); // a replica decides by the log alone (see changing)
        }
        Fence fence;
        synchronized (session) {
            if (session.removed) {
                throw gone(session, now);
            }
            fence = session.holders == null ? null : session.holders.deleted(session.id, deleterBit, invalidator);
            remove(session, LifecycleEvent.Kind.DELETED);
        }
        counters.deletes.increment();
        return fence;
    }

    /** What {@link #logout} did: the sessions it deleted, and what the acknowledgement waits for (null: nothing). */
    public record LoggedOut(int sessions, Fence fence) {
    }

    /**
     * "Log out everywhere" on this store: deletes every live session of {@code principal}, each as {@link #delete}
     * does (every cache holding any of it told, except {@code deleterBit}), recorded as logged out. Looks only at the
     * principal's sessions ({@link PrincipalIndex}).
     */
    public LoggedOut logout(String principal, long deleterBit, Invalidator invalidator) {
        return logout(principal, deleterBit, invalidator, ticker.millis());
    }

    /** {@link #logout(String, long, Invalidator)} at {@code now} (a replicated group's log time). */
    public LoggedOut logout(String principal, long deleterBit, Invalidator invalidator, long now) {
        int count = 0;
        Fence all = null;
        for (Session found : byPrincipal.sessionsOf(principal)) {
            Session session = current(found);
            // a replica logs out every session its log has not removed, as its leader did (see changing)
            if (!principal.equals(session.principal) || session.removed || expiredHere(session, now)) {
                continue;
            }
            synchronized (session) {
                if (session.removed || !principal.equals(session.principal)) {
                    continue;
                }
                Fence fence = session.holders == null ? null : session.holders.deleted(session.id, deleterBit, invalidator);
                remove(session, LifecycleEvent.Kind.LOGGED_OUT);
                if (fence != null && !fence.isDone()) {
                    if (all == null) {
                        all = new Fence();
                    }
                    all.after(fence);
                }
            }
            count++;
            counters.logouts.increment();
        }
        if (all != null) {
            all.arm();
        }
        return new LoggedOut(count, all);
    }

    /**
     * Sets a session's principal, or clears it ({@code principal} null); a use of the session, like a write.
     *
     * @throws StoreException NOT_FOUND if there is no such live session, UNAVAILABLE if a longer principal does not fit
     *     in the memory budget
     */
    public void setPrincipal(String sessionId, String principal) {
        setPrincipal(sessionId, principal, ticker.millis());
    }

    /** {@link #setPrincipal(String, String)} at {@code now} (a replicated group's log time). */
    public void setPrincipal(String sessionId, String principal, long now) {
        Session session = changing(sessionId, now);
        synchronized (session) {
            if (session.removed) {
                throw gone(session, now);
            }
            long growth = MemoryBudget.principalCost(principal) - MemoryBudget.principalCost(session.principal);
            if (growth > 0) {
                budget.check(growth, "PRINCIPAL");
            }
            if (!java.util.Objects.equals(principal, session.principal)) {
                byPrincipal.remove(session);
                session.principal = principal;
                byPrincipal.add(session);
            }
            budget.principalsChanged(growth);
            session.registryVersion++;
            lifecycle.record(LifecycleEvent.Kind.PRINCIPAL_CHANGED, session, now);
        }
        counters.principalChanges.increment();
    }

    /** What {@link #rename} did: the session's times under its new id, and what the acknowledgement waits for (null: nothing). */
    public record Renamed(SessionTimes times, Fence fence) {
    }

    /**
     * Moves a live session to {@code newId} ({@code oldId} itself: keeps the id) and gives it {@code idleTimeout} (null:
     * keeps its own), atomically: its sections, versions, principal, host, creation time and lifetime deadline go with
     * it, the old id is gone at once (a second rename of it is NOT_FOUND: the first wins), and the idle time starts
     * again, as a TOUCH would. Every cache that holds any of it, but {@code renamerBit} (which drops it itself), is told
     * as for a DELETE of the old id; the returned fence is what the answer waits for. The registry sees the old id
     * deleted and the new one created (its creation time the session's). Never refused for the memory budget: the
     * session's bytes move, they do not grow.
     *
     * @throws StoreException NOT_FOUND for an unknown, deleted or expired old id, CONFLICT when a live session has
     *     the new id, BAD_REQUEST for a timeout out of range
     */
    public Renamed rename(String oldId, String newId, Duration idleTimeout, long renamerBit, Invalidator invalidator) {
        return rename(oldId, newId, idleTimeout, renamerBit, invalidator, ticker.millis());
    }

    /** {@link #rename(String, String, Duration, long, Invalidator)} at {@code now} (a replicated group's log time). */
    public Renamed rename(String oldId, String newId, Duration idleTimeout, long renamerBit, Invalidator invalidator, long now) {
        if (idleTimeout != null && (idleTimeout.toMillis() < 1 || idleTimeout.compareTo(limits.maxIdleTimeout()) > 0)) {
            throw new StoreException(Status.BAD_REQUEST, "idle timeout " + idleTimeout.toMillis() + " ms is outside 1 ms.."
                    + limits.maxIdleTimeout().toMillis() + " ms");
        }
        Session session = sessions.get(oldId);
        // a replica of a group decides by the log alone, not by expiry (see claim): the leader checked the session
        // was live before it proposed the rename, and every replica applies it alike
        if (session == null || session.removed || expiredHere(session, now)) {
            throw gone(session, now, !removalsByLogOnly);
        }
        if (!newId.equals(oldId) && !removalsByLogOnly) {
            // An expired session on the new id leaves first, outside the old session's monitor: a store never holds two
            // sessions' monitors at once, so two renames that cross cannot deadlock.
            Session held = sessions.get(newId);
            if (held != null && !held.removed && held.isExpired(now) && remove(held, LifecycleEvent.Kind.EXPIRED)) {
                counters.expiries.increment();
            }
        }
        Session renamed;
        Fence fence;
        synchronized (session) {
            if (session.removed) {
                throw gone(session, now);
            }
            long idle = idleTimeout == null ? session.idleTimeout : idleTimeout.toMillis();
            if (newId.equals(oldId)) {
                // Only the idle timeout changes: the session stays where it is, and the caches in front drop their copies,
                // whose times say the old timeout (a shorter one must not let them outlive the session).
                session.idleTimeout = idle;
                session.touchByLog(now);
                fence = session.holders == null ? null : session.holders.deleted(session.id, renamerBit, invalidator);
                renamed = session;
            } else {
                renamed = new Session(newId, session.createdAt, idle, session.hardDeadline, now);
                renamed.sections = session.sections;
                renamed.bytes = session.bytes;
                Identity.of(session).applyTo(renamed);
                renamed.registryVersion = 1;
                Session holder;
                while ((holder = sessions.putIfAbsent(newId, renamed)) != null) {
                    if (!holder.removed) {
                        throw new StoreException(Status.CONFLICT, "the new session id is taken");
                    }
                    sessions.remove(newId, holder); // removed, its removal still under way elsewhere: not a holder
                }
                byPrincipal.add(renamed);
                fence = session.holders == null ? null : session.holders.deleted(session.id, renamerBit, invalidator);
                session.renamedTo = renamed;
                movedAway(session, now);
                wheel.schedule(renamed);
                lifecycle.created(renamed);
            }
        }
        counters.renames.increment();
        return new Renamed(new SessionTimes(renamed.idleTimeout, Math.max(0, renamed.hardDeadline - now)), fence);
    }

    /**
     * The old half of a rename, under the session's monitor: the session leaves its id, recorded as deleted; its
     * sections, bytes and principal now count for the renamed session, so the budget does not change.
     */
    private void movedAway(Session session, long now) {
        session.removed = true;
        byPrincipal.remove(session);
        session.registryVersion++;
        lifecycle.record(LifecycleEvent.Kind.DELETED, session, now);
        wheel.removed();
        // The expiry wheel may hold the session until its bucket comes due: it must not keep the sections alive.
        session.sections = Session.NO_SECTIONS;
        session.bytes = 0;
        if (session.holders != null) {
            session.holders.clear();
        }
        sessions.remove(session.id, session);
    }

    /** What {@link #sessionsOf} found: at most its limit of ids, and whether the principal has more live sessions. */
    public record PrincipalSessionIds(List<String> ids, boolean truncated) {
    }

    /**
     * The ids of {@code principal}'s live sessions (not removed, not expired now), at most {@code limit}, in no
     * particular order; no session is used (no idle time restarts). Walks the principal's entry of the index, as
     * {@link #logout} does: each session's principal is read again without its monitor (a volatile field), so a change
     * that races with the walk is either seen or not, as with any read that starts before a write ends.
     */
    public PrincipalSessionIds sessionsOf(String principal, int limit) {
        long now = ticker.millis();
        counters.principalLists.increment();
        Set<String> ids = new LinkedHashSet<>(Math.min(limit, 16));
        for (Session found : byPrincipal.sessionsOf(principal)) {
            Session session = current(found);
            if (!principal.equals(session.principal) || session.removed || session.isExpired(now)
                    || ids.contains(session.id)) {
                continue;
            }
            if (ids.size() == limit) {
                return new PrincipalSessionIds(List.copyOf(ids), true);
            }
            ids.add(session.id);
        }
        return new PrincipalSessionIds(List.copyOf(ids), false);
    }

    /**
     * The session a pass over the store met, or what it became by RENAMEs since: a rename puts the new session in a
     * slot the pass may have passed already and takes the old one out, so without this the pass would see neither.
     */
    /** How many principals the index holds an entry for (for tests: no more than the sessions' principals). */
    int indexedPrincipals() {
        return byPrincipal.principals();
    }

    private static Session current(Session found) {
        Session s = found;
        while (s.removed && s.renamedTo != null) {
            s = s.renamedTo;
        }
        return s;
    }

    /** A session as an operator looks it up, without using it; times in epoch milliseconds. */
    public record Description(long createdAt, long lastAccess, long expiresAt, long idleTimeout, long registryVersion,
                              String principal) {
    }

    /**
     * A session's times and principal; the session is not used. Null if there is no such live session.
     */
    public Description describe(String sessionId) {
        long now = ticker.millis();
        Session session = sessions.get(sessionId);
        if (session == null || session.removed || session.isExpired(now)) {
            return null;
        }
        synchronized (session) {
            return new Description(session.createdAt + epochOffset, session.lastAccess + epochOffset,
                    session.deadline() + epochOffset, session.idleTimeout, session.registryVersion, session.principal);
        }
    }

    /**
     * Sends this store's lifecycle events to {@code sink}, naming {@code owner} (this master, or its group) as their
     * holder; {@link LifecycleSink#NONE} (the default) turns it off.
     */
    public void recordLifecycle(LifecycleSink sink, String owner) {
        lifecycle = new StoreLifecycle(sink, owner, epochOffset);
    }

    /** Every live session as the registry's re-sync reads it (weakly consistent). */
    public ActiveSessions activeSessions() {
        return active -> {
            StoreLifecycle now = lifecycle;
            long at = ticker.millis();
            for (Session session : sessions.values()) {
                LifecycleEvent event;
                synchronized (session) {
                    if (session.removed || session.isExpired(at)) {
                        continue;
                    }
                    event = now.event(LifecycleEvent.Kind.ACTIVE, session, at);
                }
                active.accept(event);
            }
        };
    }

    /**
     * Extends a session's idle time; no section changes version.
     *
     * @throws StoreException NOT_FOUND
     */
    public void touch(String sessionId) {
        touch(sessionId, ticker.millis());
    }

    /** {@link #touch(String)} at {@code now} (a replicated group's log time). */
    public void touch(String sessionId, long now) {
        changing(sessionId, now);
        counters.touches.increment();
    }

    /**
     * A session's idle timeout and how long it may live at most from now, for the caches in front of this master:
     * a cache must not keep a session longer than its master does. Null if there is no such live session.
     */
    public SessionTimes times(String sessionId) {
        Session session = sessions.get(sessionId);
        long now = ticker.millis();
        if (session == null || session.removed || session.isExpired(now)) {
            return null;
        }
        return new SessionTimes(session.idleTimeout, Math.max(0, session.hardDeadline - now));
    }

    /** Removes the sessions that have expired by now; returns how many. Called by the server every second. */
    public int expireDue() {
        long now = ticker.millis();
        long before = counters.expiries.sum();
        synchronized (sweepLock) {
            wheel.advance(now, s -> {
                if (remove(s, LifecycleEvent.Kind.EXPIRED)) {
                    counters.expiries.increment();
                }
            });
            purgeIfMostlyRemoved();
        }
        return (int) (counters.expiries.sum() - before);
    }

    /**
     * A replicated group's leader: the sessions that have expired by {@code now}, which it proposes to remove
     * ({@link #expire}); they leave the expiry wheel here and go back to it if they turn out to be alive.
     */
    public List<String> expiredBy(long now) {
        List<String> expired = new ArrayList<>();
        synchronized (sweepLock) {
            wheel.advance(now, s -> expired.add(s.id));
            purgeIfMostlyRemoved();
        }
        return expired;
    }

    /**
     * Puts sessions that {@link #expiredBy} took off the wheel back on it, when their EXPIRE was not applied: the next
     * sweep looks at them again. Returns how many were put back (those still live).
     */
    public int scheduleExpiryAgain(List<String> sessionIds) {
        int back = 0;
        for (String id : sessionIds) {
            Session session = sessions.get(id);
            if (session != null && !session.removed) {
                wheel.scheduleAgain(session);
                back++;
            }
        }
        return back;
    }

    /**
     * A replica applies its leader's expiry: each named session that is expired at {@code now} (the leader's time in
     * the log) is removed; one used since is put back on the expiry wheel. Returns how many were removed.
     */
    public int expire(List<String> sessionIds, long now) {
        int removed = 0;
        for (String id : sessionIds) {
            Session session = sessions.get(id);
            if (session == null || session.removed) {
                continue;
            }
            // by the log's time of its last use, which every replica agrees on: the leader's reads are not in the log
            if (removalsByLogOnly ? session.isExpiredByLog(now) : session.isExpired(now)) {
                if (remove(session, LifecycleEvent.Kind.EXPIRED)) {
                    counters.expiries.increment();
                    removed++;
                }
            } else {
                // kept (the log used it since the leader looked): its deadline is the later of the two views, so the
                // wheel looks at it again when that comes, not a turn of the ring later
                session.touch(session.loggedAccess); // the later of the two: a last use never goes back
                wheel.schedule(session);
            }
        }
        return removed;
    }

    /**
     * A replica that follows keeps its expiry wheel from growing: sessions past their deadline by its own clock leave
     * the wheel (their leader decides whether they go); {@link #lead} rebuilds the wheel when it becomes the leader.
     */
    public void forgetDue(long now) {
        synchronized (sweepLock) {
            wheel.advance(now, s -> { });
            purgeIfMostlyRemoved();
        }
    }

    /**
     * A replica starts to lead its group at {@code now}: it cannot know which sessions the old leader served reads
     * of since they last reached the log, so every session counts as used now (a failover may give an idle session
     * one more idle timeout, never one less); nobody holds anything any more (caches registered with this replica
     * before lost their leases with its leadership); the expiry wheel holds every live session again.
     */
    public void lead(long now) {
        synchronized (sweepLock) {
            wheel.reset(now);
            for (Session session : sessions.values()) {
                synchronized (session) {
                    if (session.removed) {
                        continue;
                    }
                    // the log's last use from the log alone (this replica's own reads, if it led before, are not in it)
                    session.loggedAccess = Math.max(now, session.loggedAccess);
                    session.touch(session.loggedAccess); // the later of the two: a last use never goes back
                    if (session.holders != null) {
                        session.holders.clear();
                    }
                }
                wheel.schedule(session);
            }
        }
    }

    /**
     * With each sweep (every second): once the expiry wheel holds more removed sessions than live ones (and at least
     * {@link #PURGE_MIN_ENTRIES}), or they take more than {@link #PURGE_BUDGET_SHARE} of the memory budget, they are
     * taken out, so deleted sessions cost at most about as much as live ones, plus one second of deletes, and a full
     * budget is never held up by the dead for longer than a second. Under the sweep lock.
     */
    private void purgeIfMostlyRemoved() {
        long removed = wheel.removedEntries();
        if (removed > Math.max(sessions.size(), PURGE_MIN_ENTRIES)
                || removed * MemoryBudget.REMOVED_ENTRY_OVERHEAD > limits.maxStoreBytes() * PURGE_BUDGET_SHARE) {
            counters.wheelPurges.increment();
            wheel.purgeRemoved();
        }
    }

    /** Entries in the expiry wheel, live and removed (a walk of the wheel: for tests). */
    int wheelEntries() {
        return wheel.size();
    }

    /** The sessions, for {@link StoreSnapshot}. */
    java.util.Collection<Session> sessionsForSnapshot() {
        return sessions.values();
    }

    /** Empties the store before a snapshot is loaded into it. */
    void clearForSnapshot() {
        synchronized (sweepLock) {
            for (Session session : sessions.values()) {
                remove(session, null);
            }
            wheel.reset(ticker.millis());
            schemas.clear();
        }
    }

    /**
     * A session taken out of this store for a move to the group that owns it now (PROTOCOL.md 3.9): what a snapshot
     * keeps of it, and the fence of the invalidations sent to every cache that holds any of it (null: none).
     */
    public record Taken(String id, long createdAt, long idleTimeout, long hardDeadline, long lastAccess,
                        EncodedSection[] sections, Identity identity, Fence fence) {
    }

    /**
     * Takes a live session out of the store for a move, telling every cache that holds any of it (as a delete does);
     * null when there is no such live session.
     */
    public Taken takeForMove(String sessionId, Invalidator invalidator, long now) {
        Session session = sessions.get(sessionId);
        if (session == null || session.removed || expiredHere(session, now)) {
            return null;
        }
        synchronized (session) {
            if (session.removed) {
                return null;
            }
            Fence fence = session.holders == null ? null : session.holders.deleted(session.id, 0, invalidator);
            // a replica records the log's last use, counting the move as one (as a new leader does): every replica's
            // outbox then holds the same record, and a session its leader kept alive by reads arrives alive
            long lastAccess = removalsByLogOnly ? Math.max(session.loggedAccess, now) : session.lastAccess;
            Taken taken = new Taken(session.id, session.createdAt, session.idleTimeout, session.hardDeadline,
                    lastAccess, session.sections, Identity.of(session), fence);
            remove(session, null);
            return taken;
        }
    }

    /**
     * A session moved here from another group, as it was there; false (and nothing changes) when this store has a
     * session of that id already (the same move sent twice: what is here is as new or newer) or it has expired.
     */
    public boolean adopt(String id, long createdAt, long idleTimeout, long hardDeadline, long lastAccess,
                         EncodedSection[] sections, Identity identity, long now) {
        Session existing = sessions.get(id);
        if (existing != null && !existing.removed) {
            return false;
        }
        Session session = new Session(id, createdAt, idleTimeout, hardDeadline, lastAccess);
        if (session.isExpired(now)) {
            return false;
        }
        long bytes = 0;
        for (EncodedSection section : sections) {
            bytes += section.encodedSize();
        }
        session.sections = sections;
        session.bytes = bytes;
        identity.applyTo(session);
        session.registryVersion++;
        if (sessions.putIfAbsent(id, session) != null) {
            return false;
        }
        byPrincipal.add(session);
        budget.sectionsChanged(sections.length, bytes);
        budget.principalsChanged(MemoryBudget.principalCost(session.principal));
        wheel.schedule(session);
        synchronized (session) {
            lifecycle.record(LifecycleEvent.Kind.MOVED, session, now);
        }
        return true;
    }

    /**
     * A digest of what every replica of a group holds alike: each live session's id, times set by the log (created,
     * idle timeout, hard deadline; not the last access, which a leader's reads move), principal and sections (name,
     * version, bytes), and every schema. Independent of the order sessions were made in; two replicas at the same log
     * index have the same digest. Walks the whole store: for tests and operators, not for a hot path.
     */
    public long digest() {
        long sum = 0;
        for (Session session : sessions.values()) {
            if (session.removed) {
                continue;
            }
            long h = Digest.of(session.id);
            synchronized (session) {
                h = Digest.mix(h, session.createdAt);
                h = Digest.mix(h, session.idleTimeout);
                h = Digest.mix(h, session.hardDeadline);
                h = Digest.mix(h, Digest.of(session.principal));
                for (EncodedSection section : session.sections) {
                    h = Digest.mix(h, Digest.of(section.name()));
                    h = Digest.mix(h, section.version());
                    h = Digest.mix(h, section.hashCode());
                }
            }
            sum += Digest.finish(h);
        }
        long[] schemas = {0};
        this.schemas.forEach((uid, bytes) -> schemas[0] += Digest.finish(Digest.mix(uid, java.util.Arrays.hashCode(bytes))));
        return Digest.mix(sum, schemas[0]);
    }

    /**
     * What adopting this live session would add to another store's memory budget (its overhead, its sections' and its
     * principal's), or -1 when there is no such live session: for a move's check of the receiving group's room.
     */
    public long moveCost(String id) {
        Session session = sessions.get(id);
        if (session == null || session.removed || session.isExpired(ticker.millis())) {
            return -1;
        }
        synchronized (session) {
            return MemoryBudget.SESSION_OVERHEAD + (long) session.sections.length * MemoryBudget.SECTION_OVERHEAD
                    + session.bytes + MemoryBudget.principalCost(session.principal);
        }
    }

    /** Whether this store holds a session of that id that is not removed (expired or not). */
    public boolean isLive(String id) {
        Session existing = sessions.get(id);
        return existing != null && !existing.removed;
    }

    /** The ids of live sessions, for a move's scan: weakly consistent (sessions made or removed meanwhile may be missed). */
    public java.util.Iterator<String> sessionIds() {
        return sessions.keySet().iterator();
    }

    /** A session from a snapshot, as it was. */
    void restore(String id, long createdAt, long idleTimeout, long hardDeadline, long lastAccess, EncodedSection[] sections,
                 Identity identity) {
        Session session = new Session(id, createdAt, idleTimeout, hardDeadline, lastAccess);
        identity.applyTo(session);
        budget.principalsChanged(MemoryBudget.principalCost(session.principal));
        long bytes = 0;
        for (int i = 0; i < sections.length; i++) {
            bytes += sections[i].encodedSize();
        }
        session.sections = sections;
        session.bytes = bytes;
        budget.sectionsChanged(sections.length, bytes);
        sessions.put(id, session);
        byPrincipal.add(session);
        wheel.schedule(session);
    }

    /** The session's live state, or NOT_FOUND; extends its idle time. */
    private Session live(String sessionId, long now) {
        return live(sessionId, now, true);
    }

    /**
     * Whether this store counts {@code session} expired at {@code now} by its own clock: a master alone does; a replica
     * of a group never does, only its log removes sessions ({@link #removalsByLogOnly}).
     */
    private boolean expiredHere(Session session, long now) {
        return !removalsByLogOnly && session.isExpired(now);
    }

    /**
     * The session a change applies to, or NOT_FOUND; extends its idle time. A master alone judges as {@link #live}. A
     * replica of a group ({@link #removalsByLogOnly}) applies a change to every session its log has not removed, expired
     * by its own clock or not: its leader checked the session was live, by every read it served, before it proposed the
     * change, and a replica that judged by its own last access (which misses those reads) would drop a change its
     * leader acknowledged.
     */
    private Session changing(String sessionId, long now) {
        if (!removalsByLogOnly) {
            return live(sessionId, now);
        }
        Session session = sessions.get(sessionId);
        if (session == null || session.removed) {
            throw gone(session, now, false);
        }
        session.touchByLog(now);
        return session;
    }

    /** {@link #live(String, long)}; {@code mayRemove} false: an expired session is answered NOT_FOUND but stays. */
    private Session live(String sessionId, long now, boolean mayRemove) {
        Session session = sessions.get(sessionId);
        if (session == null || session.removed || session.isExpired(now)) {
            throw gone(session, now, mayRemove);
        }
        session.touch(now);
        return session;
    }

    /** NOT_FOUND for a session that is missing, removed or expired; an expired one is removed on the way. */
    private StoreException gone(Session session, long now) {
        return gone(session, now, true);
    }

    private StoreException gone(Session session, long now, boolean mayRemove) {
        if (mayRemove && session != null && !session.removed && session.isExpired(now)
                && remove(session, LifecycleEvent.Kind.EXPIRED)) {
            counters.expiries.increment();
        }
        counters.notFound.increment();
        return StoreException.notFound();
    }

    /**
     * Takes a session out of the store; true if this call did it. {@code why} is what the registry records (null:
     * nothing, the session goes on elsewhere or the whole store is being replaced).
     */
    private boolean remove(Session session, LifecycleEvent.Kind why) {
        synchronized (session) {
            if (session.removed) {
                return false;
            }
            session.removed = true;
            byPrincipal.remove(session);
            budget.principalsChanged(-MemoryBudget.principalCost(session.principal));
            if (why != null) {
                session.registryVersion++;
                lifecycle.record(why, session, ticker.millis());
            }
            wheel.removed();
            budget.sectionsChanged(-session.sections.length, -session.bytes);
            // The expiry wheel may hold the session until its bucket comes due: let the data go now.
            session.sections = Session.NO_SECTIONS;
            session.bytes = 0;
            if (session.holders != null) {
                session.holders.clear();
            }
        }
        sessions.remove(session.id, session);
        return true;
    }

    private void checkValues(SectionDelta delta) {
        for (Map.Entry<String, byte[]> e : delta.set().entrySet()) {
            if (e.getValue().length > limits.maxAttributeBytes()) {
                throw StoreException.tooLarge("attribute \"" + e.getKey() + "\" of section \"" + delta.section() + "\" is "
                        + e.getValue().length + " bytes, above the limit of " + limits.maxAttributeBytes());
            }
        }
    }

    private void checkSection(EncodedSection s) {
        if (s.attributeCount() > limits.maxAttributesPerSection()) {
            throw StoreException.tooLarge("section \"" + s.name() + "\" would hold " + s.attributeCount()
                    + " attributes, above the limit of " + limits.maxAttributesPerSection());
        }
        if (s.encodedSize() > limits.maxSectionBytes()) {
            throw StoreException.tooLarge("section \"" + s.name() + "\" would be " + s.encodedSize()
                    + " bytes, above the limit of " + limits.maxSectionBytes());
        }
    }

    /**
     * Where section {@code name} is, or -1. First by reference: a name the store created a section with is the name
     * pool's instance, and a request decodes a known name to that same instance ({@link NamePool#intern}), so the
     * usual look-up reads no name's characters; then by value. A section found by value offers its own instance to the
     * cache again, so that a slot another name took over comes back to the store's instance.
     */
    private static int indexOf(EncodedSection[] sections, int count, String name) {
        for (int i = 0; i < count; i++) {
            if (sections[i].name() == name) {
                return i;
            }
        }
        for (int i = 0; i < count; i++) {
            if (sections[i].name().equals(name)) {
                SectionNameCache.offer(sections[i].name());
                return i;
            }
        }
        return -1;
    }

    /** Live sessions. */
    public int sessionCount() {
        return sessions.size();
    }

    /** Bytes of all live sessions' sections in their wire form (names, values and their lengths). */
    public long storeBytes() {
        return budget.sectionBytes();
    }

    /** A snapshot of the store's figures, by name, for the STATS operation and the logs. */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("sessions", (long) sessions.size());
        stats.put("store_bytes", budget.sectionBytes());
        stats.put("max_store_bytes", limits.maxStoreBytes());
        budget.putInto(stats);
        stats.put("names_shared", (long) names.size());
        stats.put("schemas", (long) schemas.size());
        counters.putInto(stats);
        recentWrites.putInto(stats);
        return stats;
    }

    /** What {@link #create} made. */
    public record CreatedSession(String id, Duration idleTimeout, Duration maxLifetime) {
    }

    /** Operation counters, cheap under contention. */
    private static final class StoreCounters {
        final LongAdder creates = new LongAdder();
        final LongAdder reads = new LongAdder();
        final LongAdder sectionsRead = new LongAdder();
        final LongAdder writes = new LongAdder();
        final LongAdder deletes = new LongAdder();
        final LongAdder touches = new LongAdder();
        final LongAdder expiries = new LongAdder();
        final LongAdder conflicts = new LongAdder();
        final LongAdder notFound = new LongAdder();
        final LongAdder tooLarge = new LongAdder();
        final LongAdder wheelPurges = new LongAdder();
        final LongAdder logouts = new LongAdder();
        final LongAdder principalChanges = new LongAdder();
        final LongAdder renames = new LongAdder();
        final LongAdder principalLists = new LongAdder();

        void putInto(Map<String, Long> stats) {
            stats.put("creates", creates.sum());
            stats.put("reads", reads.sum());
            stats.put("sections_read", sectionsRead.sum());
            stats.put("writes", writes.sum());
            stats.put("deletes", deletes.sum());
            stats.put("touches", touches.sum());
            stats.put("expiries", expiries.sum());
            stats.put("conflicts", conflicts.sum());
            stats.put("not_found", notFound.sum());
            stats.put("too_large", tooLarge.sum());
            stats.put("expiry_wheel_purges", wheelPurges.sum());
            stats.put("logouts", logouts.sum());
            stats.put("principal_changes", principalChanges.sum());
            stats.put("renames", renames.sum());
            stats.put("principal_lists", principalLists.sum());
        }
    }
}
