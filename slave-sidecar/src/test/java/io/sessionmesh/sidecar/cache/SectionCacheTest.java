package io.sessionmesh.sidecar.cache;

import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;

import com.github.benmanes.caffeine.cache.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SectionCacheTest {
    static final long IDLE_MS = 300_000;
    static final long LIFE_MS = 3_600_000;
    final AtomicLong now = new AtomicLong(1_000_000_000L);
    final Ticker ticker = now::get;
    /** The lease epoch of the session's master, as the sidecar's Lease would give it. */
    final AtomicInteger epoch = new AtomicInteger(1);

    SectionCache.Lookup lookup(SectionCache c, String id, List<String> names) {
        return c.lookup(id, names, epoch.get(), true);
    }

    SectionCache cache(long bytes) {
        return new SectionCache(bytes, Duration.ofMinutes(5), ticker);
    }

    static EncodedSection section(String name, long version, String key, int size) {
        return EncodedSection.of(new SectionData(name, version, Map.of(key, new byte[size])));
    }

    static SectionDelta set(String section, String key, byte... value) {
        return new SectionDelta(section, Map.of(key, value), List.of());
    }

    @Test
    void missThenFill_thenHit() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a", "b"));
        assertEquals(List.of("a", "b"), miss.missing());
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 3, "k", 10), section("b", 0, "k", 1)), IDLE_MS, LIFE_MS);
        SectionCache.Lookup hit = lookup(c, "s1", List.of("b", "a"));
        assertTrue(hit.missing().isEmpty());
        assertEquals(3, hit.found()[1].version());
        SectionCache.Lookup partial = lookup(c, "s1", List.of("a", "c"));
        assertEquals(List.of("c"), partial.missing());
        assertEquals("a", partial.found()[0].name());
    }

    @Test
    void fill_afterAWriteStarted_isRefused() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.writeStarted("s1", epoch.get());
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "a read older than a write filled the cache");
    }

    @Test
    void writeAcknowledged_mergesOneVersionBehind_dropsFurtherBehind() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a", "b"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 4, "k", 1), section("b", 4, "k", 1)), IDLE_MS, LIFE_MS);
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 7), set("b", "k", (byte) 8)), new long[] {5, 7}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        SectionCache.Lookup after = lookup(c, "s1", List.of("a", "b"));
        assertEquals(5, after.found()[0].version());
        assertArrayEquals(new byte[] {7}, after.found()[0].attribute("k"));
        assertNull(after.found()[1], "b was at 4, the write made 7: it missed writes and must be dropped");
    }

    @Test
    void newSection_isCachedOnlyWhenNoOtherWriteIsInFlight() {
        SectionCache c = cache(1 << 20);
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 1)), new long[] {1}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertTrue(lookup(c, "s1", List.of("a")).missing().isEmpty());

        long first = c.writeStarted("s2", epoch.get());
        c.writeStarted("s2", epoch.get()); // two writes in flight: the second may already have made version 2
        c.writeAcknowledged("s2", first, List.of(set("a", "k", (byte) 1)), new long[] {1}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s2", List.of("a")).missing());
    }

    @Test
    void ownWritesAnsweredOutOfOrder_theEarlierVersionIsNotCached() {
        // Two writes of a new section through this sidecar: the master applies them as versions 1 and 2, but the answers
        // come back the other way round (two connections, two loops on the master). Version 2's client has its answer
        // when version 1's arrives: caching version 1 then serves a read older than an acknowledged write.
        SectionCache c = cache(1 << 20);
        long first = c.writeStarted("s1", epoch.get());
        long second = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", second, List.of(set("a", "k", (byte) 2)), new long[] {2}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        c.writeAcknowledged("s1", first, List.of(set("a", "k", (byte) 1)), new long[] {1}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "version 1 cached after version 2 was acknowledged");
        assertEquals(2, c.peek("s1").floor("a"), "an acknowledged version is a floor, as an announced one is");
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 2, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(2, lookup(c, "s1", List.of("a")).found()[0].version(), "the floor keeps current copies");
    }

    @Test
    void ownWritesAnsweredOutOfOrder_ofACachedSection_dropIt() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 4, "k", 1)), IDLE_MS, LIFE_MS);
        long first = c.writeStarted("s1", epoch.get());
        long second = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", second, List.of(set("a", "k", (byte) 6)), new long[] {6}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        c.writeAcknowledged("s1", first, List.of(set("a", "k", (byte) 5)), new long[] {5}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "version 5 cached after version 6 was acknowledged");
    }

    @Test
    void ownWritesAnsweredOutOfOrder_acrossAnEviction_theEarlierVersionIsNotCached() {
        SectionCache c = cache(1 << 20);
        long first = c.writeStarted("s1", epoch.get());
        long second = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", second, List.of(set("a", "k", (byte) 2)), new long[] {2}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        c.evict("s1"); // by size, by an operator...
        lookup(c, "s1", List.of("b")); // ...and made again, empty, by a read of another section
        c.writeAcknowledged("s1", first, List.of(set("a", "k", (byte) 1)), new long[] {1}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "version 1 cached after version 2 was acknowledged");
    }

    @Test
    void writeFailed_dropsTheSectionsItNamed() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a", "b"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1), section("b", 1, "k", 1)), IDLE_MS, LIFE_MS);
        long w = c.writeStarted("s1", epoch.get());
        c.writeFailed("s1", w, List.of("a"));
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a", "b")).missing());
    }

    @Test
    void boundedByBytes_evictsSessionsBeyondTheBound() {
        SectionCache c = cache(100_000);
        for (int i = 0; i < 100; i++) {
            String id = "s" + i;
            SectionCache.Lookup miss = lookup(c, id, List.of("a"));
            c.fill(id, miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 10_000)), IDLE_MS, LIFE_MS);
        }
        c.cleanUp();
        assertTrue(c.weightedBytes() <= 100_000, "weighted " + c.weightedBytes());
        assertTrue(c.entries() <= 10, "entries " + c.entries());
        assertTrue(c.evictedBySize() >= 90, "evicted " + c.evictedBySize());
    }

    @Test
    void entry_expiresWithTheSessionsIdleTimeout_unlessTheMasterExtendsIt() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), 10_000, LIFE_MS);
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertTrue(lookup(c, "s1", List.of("a")).missing().isEmpty(), "reads do not extend");
        c.extend("s1", 10_000, LIFE_MS); // a forwarded touch's answer
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertTrue(lookup(c, "s1", List.of("a")).missing().isEmpty(), "the touch's answer extended the entry");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "the entry outlived its session");
    }

    @Test
    void entry_neverOutlivesTheSessionsLifetime() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, 2_000);
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());
    }

    @Test
    void zeroBytes_cachesNothing() {
        SectionCache c = cache(0);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());
        assertEquals(0, c.entries());
    }

    // ---- coherence: invalidations, floors, lease epochs ----

    @Test
    void invalidation_dropsOlderCopies_keepsOnesAlreadyAtTheVersion() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a", "b"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 3, "k", 1), section("b", 5, "k", 1)),
                IDLE_MS, LIFE_MS);
        assertEquals(1, c.invalidate("s1", List.of("a", "b"), new long[] {4, 5}));
        SectionCache.Lookup after = lookup(c, "s1", List.of("a", "b"));
        assertEquals(List.of("a"), after.missing(), "a was at 3, the master at 4: dropped; b already at 5: kept");
        assertEquals(5, after.found()[1].version());
    }

    @Test
    void invalidation_refusesAFillInFlight_andAnyLateCopyBelowItsVersion() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        // the master answered the read with version 1, then another sidecar wrote version 2; the push came first
        c.invalidate("s1", List.of("a"), new long[] {2});
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "the fill from before the write was cached");
        // a later read whose answer is still version 1 (impossible from the master, but a floor holds whatever comes)
        SectionCache.Lookup again = lookup(c, "s1", List.of("a"));
        c.fill("s1", again.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "a copy below the floor was cached");
        SectionCache.Lookup fresh = lookup(c, "s1", List.of("a"));
        c.fill("s1", fresh.generation(), epoch.get(), epoch::get, List.of(section("a", 2, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(2, lookup(c, "s1", List.of("a")).found()[0].version());
    }

    @Test
    void invalidation_beforeOwnWritesAnswer_keepsTheAnswerOut() {
        SectionCache c = cache(1 << 20);
        long w = c.writeStarted("s1", epoch.get());
        // this sidecar's write made version 1, another's made version 2 and its push arrived before our answer
        c.invalidate("s1", List.of("a"), new long[] {2});
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 1)), new long[] {1}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());
    }

    @Test
    void invalidation_ofAGoneSession_evictsIt() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(1, c.invalidate("s1", List.of(), new long[0]));
        assertFalse(c.contains("s1"));
        assertEquals(0, c.invalidate("nobody", List.of("a"), new long[] {1}), "an unknown session is no error");
    }

    @Test
    void anotherEpoch_servesNothingCachedBefore_butStaleReadsMayPeek() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertTrue(c.lookup("s1", List.of("a"), epoch.get(), true).missing().isEmpty());
        assertEquals(List.of("a"), c.lookup("s1", List.of("a"), epoch.get(), false).missing(), "served without a lease");
        epoch.incrementAndGet(); // the control connection was lost
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing(), "served from a past epoch");
        assertNotNull(c.peekAll("s1", List.of("a")));
        assertNull(c.peekAll("s1", List.of("a", "b")), "a stale read needs every section");
    }

    @Test
    void fillOrWriteAnswer_fromAnEpochThatEnded_isNotCached() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        int then = epoch.get();
        epoch.incrementAndGet();
        c.fill("s1", miss.generation(), then, epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());

        SectionCache.Lookup now1 = lookup(c, "s2", List.of("a"));
        c.fill("s2", now1.generation(), epoch.get(), epoch::get, List.of(section("a", 4, "k", 1)), IDLE_MS, LIFE_MS);
        int writeEpoch = epoch.get();
        long w = c.writeStarted("s2", writeEpoch);
        epoch.incrementAndGet();
        c.writeAcknowledged("s2", w, List.of(set("a", "k", (byte) 1)), new long[] {5}, writeEpoch, epoch::get, IDLE_MS, LIFE_MS);
        assertNull(c.peekAll("s2", List.of("a")), "a write answered across epochs must drop, not merge");
    }

    static EncodedSection whole(String name, long version, String key, byte... value) {
        return EncodedSection.of(new SectionData(name, version, Map.of(key, value)));
    }

    @Test
    void writeAcknowledged_withWholeSection_cachesASectionItNeverHeld_thenHits() {
        SectionCache c = cache(1 << 20);
        assertTrue(c.wantsWhole("s1", List.of("a"), epoch.get()), "nothing cached: the write must ask for a whole");
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 7)), new long[] {9}, List.of(whole("a", 9, "k", (byte) 7)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        SectionCache.Lookup after = lookup(c, "s1", List.of("a"));
        assertTrue(after.missing().isEmpty(), "write-allocate: the written version was not kept");
        assertEquals(9, after.found()[0].version());
        assertFalse(c.wantsWhole("s1", List.of("a"), epoch.get()), "a held section needs no whole copy");
        assertTrue(c.wantsWhole("s1", List.of("a"), epoch.get() + 1), "a copy of another epoch does not count");
    }

    @Test
    void startWrite_tellsWhetherToAskForWholes_inTheSameLookUpThatCountsTheWrite() {
        SectionCache c = cache(1 << 20);
        SectionCache.WriteStart first = c.startWrite("s1", epoch.get(), List.of("a"));
        assertTrue(first.wantsWhole(), "nothing cached: the write must ask for a whole");
        c.writeAcknowledged("s1", first.incarnation(), List.of(set("a", "k", (byte) 7)), new long[] {9},
                List.of(whole("a", 9, "k", (byte) 7)), epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        SectionCache.WriteStart second = c.startWrite("s1", epoch.get(), List.of("a"));
        assertFalse(second.wantsWhole(), "a held section needs no whole copy");
        assertEquals(first.incarnation(), second.incarnation(), "the same entry counts both writes");
        assertTrue(c.startWrite("s1", epoch.get(), List.of("a", "b")).wantsWhole(), "b is not held");
        assertTrue(c.startWrite("s1", epoch.get() + 1, List.of("a")).wantsWhole(), "a copy of another epoch does not count");
        SectionCache off = cache(0);
        assertEquals(new SectionCache.WriteStart(0, false), off.startWrite("s1", epoch.get(), List.of("a")),
                "a cache that is off asks for nothing");
    }

    @Test
    void writeAcknowledged_withWholeSection_replacesACopyFurtherBehind() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 2, "k", 1)), IDLE_MS, LIFE_MS);
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 7)), new long[] {5}, List.of(whole("a", 5, "k", (byte) 7)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(5, lookup(c, "s1", List.of("a")).found()[0].version());
    }

    @Test
    void writeAcknowledged_wholeSectionOfAnotherVersion_isIgnored() {
        SectionCache c = cache(1 << 20);
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 7)), new long[] {9}, List.of(whole("a", 8, "k", (byte) 7)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());
        assertEquals(1L, c.readMisses().get("write_not_kept"));
    }

    @Test
    void ownWritesAnsweredOutOfOrder_theEarlierWholeSectionIsNotCached() {
        SectionCache c = cache(1 << 20);
        long w1 = c.writeStarted("s1", epoch.get());
        long w2 = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w2, List.of(set("a", "k", (byte) 2)), new long[] {6}, List.of(whole("a", 6, "k", (byte) 2)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        c.writeAcknowledged("s1", w1, List.of(set("a", "k", (byte) 1)), new long[] {5}, List.of(whole("a", 5, "k", (byte) 1)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        SectionCache.Lookup after = lookup(c, "s1", List.of("a"));
        assertEquals(6, after.found()[0].version(), "the earlier answer put its older version back");
    }

    @Test
    void invalidation_beforeOwnWritesAnswer_keepsTheWholeSectionOut() {
        SectionCache c = cache(1 << 20);
        long w = c.writeStarted("s1", epoch.get());
        c.invalidate("s1", List.of("a"), new long[] {10});
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 7)), new long[] {9}, List.of(whole("a", 9, "k", (byte) 7)),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), lookup(c, "s1", List.of("a")).missing());
    }

    @Test
    void login_newSectionsOfOneWrite_areCached_andTheFirstReadHits() {
        SectionCache c = cache(1 << 20);
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("a", "k", (byte) 1), set("b", "k", (byte) 2)), new long[] {1, 1}, List.of(),
                epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        assertTrue(lookup(c, "s1", List.of("b", "a")).missing().isEmpty());
    }

    @Test
    void misses_areCountedByCause() {
        SectionCache c = cache(1 << 20);
        lookup(c, "s1", List.of("a", "b")); // first use here
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        lookup(c, "s1", List.of("a", "b")); // b: never cached in this entry
        c.invalidate("s1", List.of("a"), new long[] {2});
        lookup(c, "s1", List.of("a"));
        long w = c.writeStarted("s1", epoch.get());
        c.writeAcknowledged("s1", w, List.of(set("b", "k", (byte) 1)), new long[] {4}, epoch.get(), epoch::get, IDLE_MS, LIFE_MS);
        lookup(c, "s1", List.of("b"));
        w = c.writeStarted("s1", epoch.get());
        c.writeFailed("s1", w, List.of("c"));
        lookup(c, "s1", List.of("c"));
        c.lookup("s1", List.of("a"), epoch.get(), false);
        c.lookup("s1", List.of("a"), epoch.get() + 1, true);
        now.addAndGet(Duration.ofMinutes(6).toNanos());
        c.cleanUp();
        lookup(c, "s1", List.of("a"));
        assertEquals(Map.of("new_session", 1L, "new_section", 2L, "invalidated", 1L, "write_not_kept", 1L,
                "write_failed", 1L, "lease", 1L, "epoch", 1L, "expired", 1L), nonZero(c.readMisses()));
        assertEquals(2L, c.sectionMisses().get("new_session"));
    }

    @Test
    void fillRefused_isCounted() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = lookup(c, "s1", List.of("a", "b"));
        c.writeStarted("s1", epoch.get());
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("a", 1, "k", 1), section("b", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(2, c.fillsRefused());
    }

    @Test
    void notHeld_namesTheCandidatesTheEntryLacks_notThoseAsked_atMostMax() {
        SectionCache c = cache(1 << 20);
        List<String> candidates = List.of("a", "b", "c", "d");
        assertEquals(List.of("b", "c"), c.notHeld("s1", candidates, List.of("a"), epoch.get(), 2), "no entry: any");
        SectionCache.Lookup miss = lookup(c, "s1", List.of("b"));
        c.fill("s1", miss.generation(), epoch.get(), epoch::get, List.of(section("b", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("c", "d"), c.notHeld("s1", candidates, List.of("a"), epoch.get(), 8));
        assertEquals(List.of("b", "c", "d"), c.notHeld("s1", candidates, List.of("a"), epoch.get() + 1, 8),
                "what another epoch cached does not count");
        assertEquals(List.of(), c.notHeld("s1", candidates, List.of("a"), epoch.get(), 0));
    }

    static Map<String, Long> nonZero(Map<String, Long> m) {
        Map<String, Long> out = new java.util.HashMap<>(m);
        out.values().removeIf(v -> v == 0);
        return out;
    }
}
