package io.sessionmesh.sidecar.cache;

import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionDelta;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The sidecar's cache: session id to {@link SessionEntry}, bounded by bytes (Caffeine's size-aware W-TinyLFU
 * eviction over each entry's section bytes). Every change is an atomic compute on the session's key; reads of the
 * cache take no lock. With a bound of 0 bytes nothing is cached.
 *
 * <p>Expiry: an entry lives until the deadline its master gave with its last answer for the session (the session's
 * idle timeout from then, or the end of its lifetime if sooner). Reads served from the cache do not extend it: they
 * are forwarded to the master as touches, and the touch's answer extends it. So the cache never serves a session its
 * master has expired. Nor does it keep sections longer than {@code maxTtl} after a master last sent them: touches do
 * not extend past that.
 *
 * <p>Coherence: the masters push invalidations ({@link #invalidate}); an entry is served only in the lease epoch it
 * was filled in, and only while the lease is valid (the caller checks, see {@code Lease}).
 *
 * <p>Filling after a miss is guarded by the entry's generation (see {@link SessionEntry}): a write in progress
 * or finished since the miss makes the fill a no-op. A write's answer is merged only into the entry its start was
 * counted in ({@link #writeStarted} returns which), and every version a write is acknowledged with becomes a floor,
 * so that answers of this sidecar's own writes, which may come back in any order, never put an older version back.
 */
public final class SectionCache {
    private final Cache<String, SessionEntry> cache;
    private final boolean enabled;
    private final long maxTtlNanos;
    private final Ticker ticker;
    private final AtomicLong generations = new AtomicLong();
    private final LongAdder evictedBySize = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final LongAdder fillsRefused = new LongAdder();
    private final RecentRemovals removals = new RecentRemovals();
    private final LongAdder[] sectionMisses = adders();
    private final LongAdder[] readMisses = adders();

    public SectionCache(long maxBytes, Duration maxTtl) {
        this(maxBytes, maxTtl, Ticker.systemTicker());
    }

    /** With a clock of the caller's choosing (tests move it by hand, so nothing waits for expiry). */
    public SectionCache(long maxBytes, Duration maxTtl, Ticker ticker) {
        this.enabled = maxBytes > 0;
        this.maxTtlNanos = maxTtl.toNanos();
        this.ticker = ticker;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(Math.max(0, maxBytes))
                .weigher((String id, SessionEntry e) -> e.weight())
                .expireAfter(new Expiry<String, SessionEntry>() {
                    @Override
                    public long expireAfterCreate(String id, SessionEntry e, long now) {
                        return Math.max(0, e.deadline - now);
                    }

                    @Override
                    public long expireAfterUpdate(String id, SessionEntry e, long now, long current) {
                        return Math.max(0, e.deadline - now);
                    }

                    @Override
                    public long expireAfterRead(String id, SessionEntry e, long now, long current) {
                        return current;
                    }
                })
                .ticker(ticker)
                .executor(Runnable::run) // maintenance on the caller's thread: no pool, and eviction is prompt
                .removalListener((String id, SessionEntry e, RemovalCause cause) -> {
                    if (cause == RemovalCause.SIZE) {
                        evictedBySize.increment();
                        removals.removed(id, MissCause.EVICTED);
                    } else if (cause == RemovalCause.EXPIRED) {
                        expired.increment();
                        removals.removed(id, MissCause.EXPIRED);
                    }
                })
                .build();
    }

    /** What a read found: the cached sections (null where missing), the names to fetch, the generation seen. */
    public record Lookup(EncodedSection[] found, List<String> missing, long generation) {
    }

    /**
     * Looks the sections up; when some are missing, makes sure an entry exists so the fill can be guarded.
     *
     * @param epoch the lease epoch of the session's master: sections cached in another epoch count as missing
     * @param serve whether cached sections may be served at all (the lease is valid): if not, all count as missing
     */
    public Lookup lookup(String sessionId, List<String> names, int epoch, boolean serve) {
        EncodedSection[] found = new EncodedSection[names.size()];
        if (!enabled) {
            return new Lookup(found, names, -1);
        }
        SessionEntry e = cache.getIfPresent(sessionId);
        if (e != null && serve && e.epoch == epoch) {
            List<String> missing = null;
            for (int i = 0; i < found.length; i++) {
                EncodedSection s = e.section(names.get(i));
                if (s == null) {
                    if (missing == null) {
                        missing = new ArrayList<>(names.size() - i);
                    }
                    missing.add(names.get(i));
                    MissCause cause = e.missCause(names.get(i));
                    sectionMisses[cause.ordinal()].increment();
                    if (missing.size() == 1) {
                        readMisses[cause.ordinal()].increment();
                    }
                } else {
                    found[i] = s;
                }
            }
            if (missing == null) {
                return new Lookup(found, List.of(), e.generation);
            }
            return new Lookup(found, missing, e.generation);
        }
        MissCause cause = !serve ? MissCause.LEASE : e != null ? MissCause.EPOCH : removedOrNew(sessionId);
        sectionMisses[cause.ordinal()].add(names.size());
        readMisses[cause.ordinal()].increment();
        if (e == null) {
            e = cache.asMap().computeIfAbsent(sessionId, k -> newEntry(epoch));
        }
        return new Lookup(found, names, e.generation);
    }

    private MissCause removedOrNew(String sessionId) {
        MissCause c = removals.causeOf(sessionId);
        return c == null ? MissCause.NEW_SESSION : c;
    }

    /**
     * Up to {@code max} of {@code candidates}, not among {@code asked}, that the session's entry does not hold in this
     * epoch (all of them when it has no entry, or one of another epoch): what a miss may read ahead.
     */
    public List<String> notHeld(String sessionId, java.util.Collection<String> candidates, List<String> asked, int epoch,
                                int max) {
        if (!enabled || max <= 0) {
            return List.of();
        }
        SessionEntry e = cache.getIfPresent(sessionId);
        boolean none = e == null || e.epoch != epoch;
        List<String> out = new ArrayList<>(Math.min(max, candidates.size()));
        for (String name : candidates) {
            if (out.size() == max) {
                break;
            }
            if (!asked.contains(name) && (none || e.section(name) == null)) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * The cached sections of a session whatever their epoch, or null unless every one is there: for serving stale
     * reads while no master can be reached.
     */
    public EncodedSection[] peekAll(String sessionId, List<String> names) {
        SessionEntry e = enabled ? cache.getIfPresent(sessionId) : null;
        if (e == null) {
            return null;
        }
        EncodedSection[] found = new EncodedSection[names.size()];
        for (int i = 0; i < found.length; i++) {
            if ((found[i] = e.section(names.get(i))) == null) {
                return null;
            }
        }
        return found;
    }

    /**
     * Puts what the master sent for a miss, unless the session was written or invalidated meanwhile (generation
     * changed) or the lease epoch it was read in is over.
     *
     * @param epoch the lease epoch when the read was looked up
     * @param currentEpoch the lease epoch now (read inside the atomic update)
     * @param idleMillis the session's idle timeout as the master gave it
     * @param lifetimeLeftMillis its lifetime left as the master gave it
     */
    public void fill(String sessionId, long generation, int epoch, IntSupplier currentEpoch, List<EncodedSection> fetched,
                     long idleMillis, long lifetimeLeftMillis) {
        if (!enabled || fetched.isEmpty()) {
            return;
        }
        long deadline = deadline(idleMillis, lifetimeLeftMillis);
        long fresh = ticker.read() + maxTtlNanos;
        cache.asMap().computeIfPresent(sessionId, (k, e) -> {
            if (e.generation == generation && currentEpoch.getAsInt() == epoch) {
                return e.withFetched(fetched, deadline, fresh, epoch);
            }
            fillsRefused.add(fetched.size());
            return e;
        });
    }

    /** The master answered for the session (a touch): the entry may live until the new deadline. */
    public void extend(String sessionId, long idleMillis, long lifetimeLeftMillis) {
        if (enabled) {
            long deadline = deadline(idleMillis, lifetimeLeftMillis);
            cache.asMap().computeIfPresent(sessionId, (k, e) -> e.withDeadline(deadline));
        }
    }

    private long deadline(long idleMillis, long lifetimeLeftMillis) {
        long ttl = Math.min(maxTtlNanos, Math.min(idleMillis, lifetimeLeftMillis) * 1_000_000L);
        return ticker.read() + ttl;
    }

    /** An entry that holds no section yet (a new incarnation): kept no longer than the longest TTL. */
    private SessionEntry newEntry(int epoch) {
        long id = generations.incrementAndGet();
        return new SessionEntry(id, id, ticker.read() + maxTtlNanos, epoch);
    }

    /** What {@link #startWrite} tells a write: the entry incarnation that counts it, and whether to ask for wholes. */
    public record WriteStart(long incarnation, boolean wantsWhole) {
    }

    private static final WriteStart UNCACHED_WRITE = new WriteStart(0, false);

    /**
     * A write of these sections starts: fills of reads that began before it will be refused. In the same single
     * look-up of the session's entry, tells whether the write should ask its master for the sections whole: the cache
     * is on, and some are not cached in this lease epoch, so the deltas alone cannot make them (a section the write
     * creates, version 1, can be).
     *
     * @return the incarnation for {@link #writeAcknowledged} and {@link #writeFailed}, and whether to ask for wholes
     */
    public WriteStart startWrite(String sessionId, int epoch, List<String> names) {
        if (!enabled) {
            return UNCACHED_WRITE;
        }
        boolean[] whole = new boolean[1];
        long incarnation = cache.asMap().compute(sessionId, (k, e) -> {
            whole[0] = needsWhole(e, epoch, names);
            return (e == null ? newEntry(epoch) : e).withWriteStarted(generations.incrementAndGet());
        }).incarnation;
        return new WriteStart(incarnation, whole[0]);
    }

    /** {@link #startWrite}'s incarnation alone. */
    long writeStarted(String sessionId, int epoch) {
        return startWrite(sessionId, epoch, List.of()).incarnation();
    }

    /** {@link #startWrite}'s other answer, without starting a write. */
    boolean wantsWhole(String sessionId, List<String> names, int epoch) {
        if (!enabled) {
            return false;
        }
        return needsWhole(cache.getIfPresent(sessionId), epoch, names);
    }

    /** Whether an entry (null: none) lacks some of {@code names} in this lease epoch. */
    private static boolean needsWhole(SessionEntry e, int epoch, List<String> names) {
        return e == null || e.epoch != epoch || !e.holdsAll(names);
    }

    /**
     * A write was acknowledged with these new versions (one per delta) and session times: merge it in, if it was
     * counted in this incarnation of the entry ({@code incarnation}, from {@link #writeStarted}), sent in the lease
     * epoch the entry is of, and that epoch still runs; otherwise drop what it named. Either way each version becomes
     * its section's floor: it is acknowledged, so nothing older may be cached from now on, and the master does not
     * tell this sidecar of its own writes.
     */
    public void writeAcknowledged(String sessionId, long incarnation, List<SectionDelta> deltas, long[] versions,
                                  int epoch, IntSupplier currentEpoch, long idleMillis, long lifetimeLeftMillis) {
        writeAcknowledged(sessionId, incarnation, deltas, versions, List.of(), epoch, currentEpoch, idleMillis,
                lifetimeLeftMillis);
    }

    /**
     * {@link #writeAcknowledged(String, long, List, long[], int, IntSupplier, long, long)} with the sections the master
     * sent whole with its answer ({@code whole}: written sections at their new versions, PROTOCOL.md 3.2), cached as
     * they are, also where this cache did not hold them before (write-allocate).
     */
    public void writeAcknowledged(String sessionId, long incarnation, List<SectionDelta> deltas, long[] versions,
                                  List<EncodedSection> whole, int epoch, IntSupplier currentEpoch, long idleMillis,
                                  long lifetimeLeftMillis) {
        if (enabled) {
            long deadline = deadline(idleMillis, lifetimeLeftMillis);
            long fresh = ticker.read() + maxTtlNanos;
            cache.asMap().computeIfPresent(sessionId, (k, e) -> {
                boolean counted = e.incarnation == incarnation;
                if (counted && e.epoch == epoch && currentEpoch.getAsInt() == epoch) {
                    return e.withWrite(deltas, versions, whole, generations.incrementAndGet(), deadline, fresh);
                }
                List<String> names = deltas.stream().map(SectionDelta::section).toList();
                return e.withWriteFailed(names, generations.incrementAndGet(), counted, MissCause.WRITE_NOT_KEPT)
                        .withFloors(names, versions);
            });
        }
    }

    /**
     * An invalidation from the session's master: copies older than the versions given go, and are never cached
     * again; no sections means the session is gone. Returns how many cached sections were dropped.
     */
    public int invalidate(String sessionId, List<String> sections, long[] versions) {
        if (!enabled) {
            return 0;
        }
        if (sections.isEmpty()) {
            SessionEntry gone = cache.asMap().remove(sessionId);
            return gone == null ? 0 : gone.sections().size();
        }
        int[] dropped = new int[1];
        cache.asMap().computeIfPresent(sessionId, (k, e) -> {
            SessionEntry next = e.withInvalidation(sections, versions, generations.incrementAndGet());
            dropped[0] = e.sections().size() - next.sections().size();
            return next;
        });
        return dropped[0];
    }

    /**
     * A write failed or its outcome is unknown: the sections it named may be stale here, drop them.
     *
     * @param incarnation what {@link #writeStarted} returned for it
     */
    public void writeFailed(String sessionId, long incarnation, List<String> sections) {
        writeFailed(sessionId, incarnation, sections, false);
    }

    /**
     * {@link #writeFailed(String, long, List)}; {@code acknowledged}: the write was applied, but its answer cannot be
     * merged here (the session moved to another master group meanwhile).
     */
    public void writeFailed(String sessionId, long incarnation, List<String> sections, boolean acknowledged) {
        if (enabled) {
            MissCause cause = acknowledged ? MissCause.WRITE_NOT_KEPT : MissCause.WRITE_FAILED;
            cache.asMap().computeIfPresent(sessionId, (k, e) -> e.withWriteFailed(sections, generations.incrementAndGet(),
                    e.incarnation == incarnation, cause));
        }
    }

    public void evict(String sessionId) {
        cache.invalidate(sessionId);
    }

    public void evictAll() {
        cache.invalidateAll();
    }

    /** The entry of a session, without counting as a use (for operators). */
    public SessionEntry peek(String sessionId) {
        return cache.policy().getIfPresentQuietly(sessionId);
    }

    public boolean contains(String sessionId) {
        return peek(sessionId) != null;
    }

    public long entries() {
        return cache.estimatedSize();
    }

    /** Bytes the cached entries stand for. */
    public long weightedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long evictedBySize() {
        return evictedBySize.sum();
    }

    public long expired() {
        return expired.sum();
    }

    /** Sections a master sent for a miss that were not cached: a write or an invalidation of the session came between. */
    public long fillsRefused() {
        return fillsRefused.sum();
    }

    /** Sections asked for and not served from the cache, by why ({@link MissCause#key}); the sum is every such section. */
    public Map<String, Long> sectionMisses() {
        return byCause(sectionMisses);
    }

    /**
     * Reads not served wholly from the cache, by why: the cause of the first section missing (a read the lease or the
     * session's entry refused counts under that); the sum is every read that went to a master.
     */
    public Map<String, Long> readMisses() {
        return byCause(readMisses);
    }

    /** Reads that missed for {@code cause} ({@link #readMisses()} without the map). */
    public long readMisses(MissCause cause) {
        return readMisses[cause.ordinal()].sum();
    }

    /** Sections that missed for {@code cause} ({@link #sectionMisses()} without the map). */
    public long sectionMisses(MissCause cause) {
        return sectionMisses[cause.ordinal()].sum();
    }

    private static Map<String, Long> byCause(LongAdder[] counts) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (MissCause c : MissCause.values()) {
            m.put(c.key(), counts[c.ordinal()].sum());
        }
        return m;
    }

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[MissCause.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Runs pending maintenance (evictions, expiries) now; for tests and the admin endpoint. */
    public void cleanUp() {
        cache.cleanUp();
    }
}
