package io.sessionmesh.master.store;

import io.sessionmesh.serialization.transport.ReadRequest;
import io.sessionmesh.serialization.transport.ReadResult;
import io.sessionmesh.serialization.transport.SectionData;
import io.sessionmesh.serialization.transport.SectionDelta;
import io.sessionmesh.serialization.transport.Status;
import io.sessionmesh.serialization.transport.WriteRequest;
import io.sessionmesh.serialization.transport.WriteResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The master's in-memory truth: sessions, their sections, versions and expiry.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>Layout.</b> A {@link ConcurrentHashMap} from session id to {@link Session}; a session holds a
 *   copy-on-write array of immutable {@link Section}s, each two parallel arrays of attribute names and value
 *   bytes. Names are shared across sessions through a bounded {@link NamePool}. Values are opaque bytes,
 *   stored as decoded from the request (no second copy) and never interpreted: the master loads no
 *   application class.</li>
 *   <li><b>Concurrency.</b> Reads take no lock: they read the session's sections array once (a volatile
 *   load) and so see every delta of a write or none. Writes to one session take that session's monitor, build
 *   the next sections array and publish it with one volatile store: a write is atomic per session, and two
 *   concurrent writes to different attributes of one section both land (the second applies its delta to the
 *   first's result). Different sessions never contend.</li>
 *   <li><b>Versions.</b> A section that was never written reads as version 0 with no attributes. Each write
 *   that names a section adds one to its version, even one that empties it (a section is never deleted, so
 *   versions never go back). ifVersion is checked for every delta before anything is applied: one mismatch
 *   and the whole write is a CONFLICT.</li>
 *   <li><b>Expiry.</b> A session dies at min(last access + idle timeout, creation + max lifetime). Reads,
 *   writes and touches move the last access (one volatile store). Every operation checks the deadline, so an
 *   expired session answers NOT_FOUND at once; the {@link ExpiryWheel} removes expired sessions in the
 *   background at a cost that grows with the sessions that come due, not with the size of the store. Like
 *   Caffeine's timer wheel (BoundedLocalCache, TimerWheel), but with one ring: deadlines further out than the
 *   ring are simply looked at again once per turn.</li>
 *   <li><b>Limits.</b> {@link StoreLimits}: every write is checked whole before it is published; over a
 *   limit it is refused and nothing of it is applied.</li>
 * </ul>
 */
public final class SessionStore {
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
    private final AtomicLong storeBytes = new AtomicLong();
    private final StoreCounters counters = new StoreCounters();
    private final Object sweepLock = new Object();

    public SessionStore(StoreLimits limits, Ticker ticker) {
        this.limits = limits;
        this.ticker = ticker;
        this.names = new NamePool(limits.maxNames());
        this.wheel = new ExpiryWheel(EXPIRY_RESOLUTION_MILLIS, EXPIRY_SLOTS, ticker.millis());
        this.schemas = new SchemaStore(limits.maxSchemas(), limits.maxSchemaBytes());
    }

    public StoreLimits limits() {
        return limits;
    }

    public SchemaStore schemas() {
        return schemas;
    }

    /** A new empty session. */
    public CreatedSession create() {
        return create(null);
    }

    /**
     * A new empty session with its own idle timeout ({@code null}: the default).
     *
     * @throws StoreException BAD_REQUEST for a timeout out of range, UNAVAILABLE when the store is full
     */
    public CreatedSession create(Duration idleTimeout) {
        Duration idle = idleTimeout == null ? limits.defaultIdleTimeout() : idleTimeout;
        if (idle.toMillis() < 1 || idle.compareTo(limits.maxIdleTimeout()) > 0) {
            throw new StoreException(Status.BAD_REQUEST, "idle timeout " + idle.toMillis() + " ms is outside 1 ms.."
                    + limits.maxIdleTimeout().toMillis() + " ms");
        }
        if (sessions.size() >= limits.maxSessions()) {
            throw new StoreException(Status.UNAVAILABLE, "the store holds its maximum of " + limits.maxSessions() + " sessions");
        }
        long now = ticker.millis();
        Session session;
        do {
            session = new Session(ids.next(), now, idle.toMillis(), limits.maxLifetime().toMillis());
        } while (sessions.putIfAbsent(session.id, session) != null);
        wheel.schedule(session);
        counters.creates.increment();
        return new CreatedSession(session.id, Duration.ofMillis(session.idleTimeout), limits.maxLifetime());
    }

    /**
     * Reads the named sections of a session, all from one consistent state; a section never written comes back
     * empty at version 0. Extends the session's idle time.
     *
     * @throws StoreException NOT_FOUND for an unknown, deleted or expired session
     */
    public ReadResult read(ReadRequest request) {
        Session session = live(request.sessionId());
        Section[] snapshot = session.sections;
        List<String> wanted = request.sectionNames();
        List<SectionData> out = new ArrayList<>(wanted.size());
        for (String name : wanted) {
            Section s = find(snapshot, name);
            out.add(s == null ? new SectionData(name, 0, Map.of()) : s.toData());
        }
        counters.reads.increment();
        counters.sectionsRead.add(wanted.size());
        return new ReadResult(session.id, out);
    }

    /**
     * Applies every delta of a write atomically: all become visible together, each named section's version goes
     * up by one. Extends the session's idle time.
     *
     * @throws StoreException NOT_FOUND, CONFLICT (an ifVersion did not match), TOO_LARGE (a limit), UNAVAILABLE
     *     (the store is full); nothing is applied
     */
    public WriteResult write(WriteRequest request) {
        Session session = live(request.sessionId());
        List<SectionDelta> deltas = request.deltas();
        Map<String, Long> versions = new LinkedHashMap<>(deltas.size() * 2);
        try {
            synchronized (session) {
                long now = ticker.millis();
                if (session.removed || session.isExpired(now)) {
                    throw gone(session, now);
                }
                Section[] current = session.sections;
                Section[] next = Arrays.copyOf(current, current.length + deltas.size());
                int count = current.length;
                long bytes = session.bytes;
                for (SectionDelta delta : deltas) {
                    int i = indexOf(next, count, delta.section());
                    Section old = i >= 0 ? next[i] : null;
                    long version = old == null ? 0 : old.version;
                    if (delta.hasIfVersion() && delta.ifVersion() != version) {
                        counters.conflicts.increment();
                        throw new StoreException(Status.CONFLICT, "section \"" + delta.section() + "\" is at version "
                                + version + ", not " + delta.ifVersion());
                    }
                    if (old == null) {
                        old = Section.empty(names.intern(delta.section()));
                        bytes += old.bytes;
                        i = count++;
                    }
                    Section updated = old.apply(delta, names, limits);
                    bytes += updated.bytes - old.bytes;
                    next[i] = updated;
                    versions.put(delta.section(), updated.version);
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
                if (growth > 0 && storeBytes.addAndGet(growth) > limits.maxStoreBytes()) {
                    storeBytes.addAndGet(-growth);
                    throw new StoreException(Status.UNAVAILABLE, "the store is full: " + limits.maxStoreBytes()
                            + " bytes of sessions");
                } else if (growth <= 0) {
                    storeBytes.addAndGet(growth);
                }
                session.sections = count == next.length ? next : Arrays.copyOf(next, count);
                session.bytes = bytes;
                session.lastAccess = now;
            }
        } catch (StoreException e) {
            if (e.status() == Status.TOO_LARGE) {
                counters.tooLarge.increment();
            }
            throw e;
        }
        counters.writes.increment();
        return new WriteResult(session.id, versions);
    }

    /**
     * Removes a session at once.
     *
     * @throws StoreException NOT_FOUND if there is no such live session
     */
    public void delete(String sessionId) {
        Session session = sessions.get(sessionId);
        long now = ticker.millis();
        if (session == null || session.removed || session.isExpired(now) || !remove(session)) {
            throw gone(session, now);
        }
        counters.deletes.increment();
    }

    /**
     * Extends a session's idle time; no section changes version.
     *
     * @throws StoreException NOT_FOUND
     */
    public void touch(String sessionId) {
        live(sessionId);
        counters.touches.increment();
    }

    /** Removes the sessions that have expired by now; returns how many. Called by the server every second. */
    public int expireDue() {
        long now = ticker.millis();
        long before = counters.expiries.sum();
        synchronized (sweepLock) {
            wheel.advance(now, s -> {
                if (remove(s)) {
                    counters.expiries.increment();
                }
            });
        }
        return (int) (counters.expiries.sum() - before);
    }

    /** The session's live state, or NOT_FOUND; extends its idle time. */
    private Session live(String sessionId) {
        Session session = sessions.get(sessionId);
        long now = ticker.millis();
        if (session == null || session.removed || session.isExpired(now)) {
            throw gone(session, now);
        }
        session.lastAccess = now;
        return session;
    }

    /** NOT_FOUND for a session that is missing, removed or expired; an expired one is removed on the way. */
    private StoreException gone(Session session, long now) {
        if (session != null && !session.removed && session.isExpired(now) && remove(session)) {
            counters.expiries.increment();
        }
        counters.notFound.increment();
        return StoreException.notFound();
    }

    /** Takes a session out of the store; true if this call did it. */
    private boolean remove(Session session) {
        synchronized (session) {
            if (session.removed) {
                return false;
            }
            session.removed = true;
            storeBytes.addAndGet(-session.bytes);
        }
        sessions.remove(session.id, session);
        return true;
    }

    private static Section find(Section[] sections, String name) {
        for (Section s : sections) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static int indexOf(Section[] sections, int count, String name) {
        for (int i = 0; i < count; i++) {
            if (sections[i].name.equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Live sessions. */
    public int sessionCount() {
        return sessions.size();
    }

    /** Payload bytes of all live sessions (names and values). */
    public long storeBytes() {
        return storeBytes.get();
    }

    /** A snapshot of the store's figures, by name, for the STATS operation and the logs. */
    public Map<String, Long> stats() {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("sessions", (long) sessions.size());
        stats.put("store_bytes", storeBytes.get());
        stats.put("max_store_bytes", limits.maxStoreBytes());
        stats.put("names_shared", (long) names.size());
        stats.put("schemas", (long) schemas.size());
        counters.putInto(stats);
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
        }
    }
}
