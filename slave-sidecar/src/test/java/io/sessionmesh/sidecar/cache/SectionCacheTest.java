package io.sessionmesh.sidecar.cache;

import io.sessionmesh.serialization.transport.EncodedSection;
import io.sessionmesh.serialization.transport.SectionData;
import io.sessionmesh.serialization.transport.SectionDelta;

import com.github.benmanes.caffeine.cache.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SectionCacheTest {
    static final long IDLE_MS = 300_000;
    static final long LIFE_MS = 3_600_000;
    final AtomicLong now = new AtomicLong(1_000_000_000L);
    final Ticker ticker = now::get;

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
        SectionCache.Lookup miss = c.lookup("s1", List.of("a", "b"));
        assertEquals(List.of("a", "b"), miss.missing());
        c.fill("s1", miss.generation(), List.of(section("a", 3, "k", 10), section("b", 0, "k", 1)), IDLE_MS, LIFE_MS);
        SectionCache.Lookup hit = c.lookup("s1", List.of("b", "a"));
        assertTrue(hit.missing().isEmpty());
        assertEquals(3, hit.found()[1].version());
        SectionCache.Lookup partial = c.lookup("s1", List.of("a", "c"));
        assertEquals(List.of("c"), partial.missing());
        assertEquals("a", partial.found()[0].name());
    }

    @Test
    void fill_afterAWriteStarted_isRefused() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a"));
        c.writeStarted("s1");
        c.fill("s1", miss.generation(), List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), c.lookup("s1", List.of("a")).missing(), "a read older than a write filled the cache");
    }

    @Test
    void writeAcknowledged_mergesOneVersionBehind_dropsFurtherBehind() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a", "b"));
        c.fill("s1", miss.generation(), List.of(section("a", 4, "k", 1), section("b", 4, "k", 1)), IDLE_MS, LIFE_MS);
        c.writeStarted("s1");
        c.writeAcknowledged("s1", List.of(set("a", "k", (byte) 7), set("b", "k", (byte) 8)), new long[] {5, 7}, IDLE_MS, LIFE_MS);
        SectionCache.Lookup after = c.lookup("s1", List.of("a", "b"));
        assertEquals(5, after.found()[0].version());
        assertArrayEquals(new byte[] {7}, after.found()[0].attribute("k"));
        assertNull(after.found()[1], "b was at 4, the write made 7: it missed writes and must be dropped");
    }

    @Test
    void newSection_isCachedOnlyWhenNoOtherWriteIsInFlight() {
        SectionCache c = cache(1 << 20);
        c.writeStarted("s1");
        c.writeAcknowledged("s1", List.of(set("a", "k", (byte) 1)), new long[] {1}, IDLE_MS, LIFE_MS);
        assertTrue(c.lookup("s1", List.of("a")).missing().isEmpty());

        c.writeStarted("s2");
        c.writeStarted("s2"); // two writes in flight: the second may already have made version 2
        c.writeAcknowledged("s2", List.of(set("a", "k", (byte) 1)), new long[] {1}, IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), c.lookup("s2", List.of("a")).missing());
    }

    @Test
    void writeFailed_dropsTheSectionsItNamed() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a", "b"));
        c.fill("s1", miss.generation(), List.of(section("a", 1, "k", 1), section("b", 1, "k", 1)), IDLE_MS, LIFE_MS);
        c.writeStarted("s1");
        c.writeFailed("s1", List.of("a"));
        assertEquals(List.of("a"), c.lookup("s1", List.of("a", "b")).missing());
    }

    @Test
    void boundedByBytes_evictsSessionsBeyondTheBound() {
        SectionCache c = cache(100_000);
        for (int i = 0; i < 100; i++) {
            String id = "s" + i;
            SectionCache.Lookup miss = c.lookup(id, List.of("a"));
            c.fill(id, miss.generation(), List.of(section("a", 1, "k", 10_000)), IDLE_MS, LIFE_MS);
        }
        c.cleanUp();
        assertTrue(c.weightedBytes() <= 100_000, "weighted " + c.weightedBytes());
        assertTrue(c.entries() <= 10, "entries " + c.entries());
        assertTrue(c.evictedBySize() >= 90, "evicted " + c.evictedBySize());
    }

    @Test
    void entry_expiresWithTheSessionsIdleTimeout_unlessTheMasterExtendsIt() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a"));
        c.fill("s1", miss.generation(), List.of(section("a", 1, "k", 1)), 10_000, LIFE_MS);
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertTrue(c.lookup("s1", List.of("a")).missing().isEmpty(), "reads do not extend");
        c.extend("s1", 10_000, LIFE_MS); // a forwarded touch's answer
        now.addAndGet(Duration.ofSeconds(6).toNanos());
        assertTrue(c.lookup("s1", List.of("a")).missing().isEmpty(), "the touch's answer extended the entry");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertEquals(List.of("a"), c.lookup("s1", List.of("a")).missing(), "the entry outlived its session");
    }

    @Test
    void entry_neverOutlivesTheSessionsLifetime() {
        SectionCache c = cache(1 << 20);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a"));
        c.fill("s1", miss.generation(), List.of(section("a", 1, "k", 1)), IDLE_MS, 2_000);
        now.addAndGet(Duration.ofSeconds(3).toNanos());
        assertEquals(List.of("a"), c.lookup("s1", List.of("a")).missing());
    }

    @Test
    void zeroBytes_cachesNothing() {
        SectionCache c = cache(0);
        SectionCache.Lookup miss = c.lookup("s1", List.of("a"));
        c.fill("s1", miss.generation(), List.of(section("a", 1, "k", 1)), IDLE_MS, LIFE_MS);
        assertEquals(List.of("a"), c.lookup("s1", List.of("a")).missing());
        assertEquals(0, c.entries());
    }
}
