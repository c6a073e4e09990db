package io.sessionmesh.master.store;

import io.sessionmesh.master.coherence.Invalidator;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.ReadResult;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionStoreTest {
    private final ManualTicker ticker = new ManualTicker();
    private final SessionStore store = new SessionStore(StoreLimits.builder().maxStoreBytes(1 << 30).build(), ticker);

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static SectionDelta set(String section, String... kv) {
        Map<String, byte[]> set = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            set.put(kv[i], bytes(kv[i + 1]));
        }
        return new SectionDelta(section, set, List.of());
    }

    static SectionDelta remove(String section, String... names) {
        return new SectionDelta(section, Map.of(), List.of(names));
    }

    WriteResult write(String id, SectionDelta... deltas) {
        return store.write(new WriteRequest(id, List.of(deltas)));
    }

    SectionData read(String id, String section) {
        return store.read(new ReadRequest(id, List.of(section))).toReadResult().sections().get(0);
    }

    static String text(SectionData s, String attribute) {
        byte[] v = s.attributes().get(attribute);
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    @Test
    void read_sectionNeverWritten_isEmptyAtVersionZero() {
        String id = store.create().id();
        SectionData s = read(id, "cart");
        assertEquals(0, s.version());
        assertTrue(s.attributes().isEmpty());
    }

    @Test
    void write_sectionNamedByAnotherInstanceThanTheStoresOwn_isStillThatSection() {
        String id = store.create().id();
        assertEquals(Map.of("fallback-cart", 1L), write(id, set("fallback-cart", "a", "1")).versions());
        // A model request's names reach the store as they are: another instance than the one its section holds.
        String other = new String("fallback-cart".toCharArray());
        assertEquals(Map.of("fallback-cart", 2L), write(id, set(other, "b", "2")).versions());
        SectionData s = read(id, new String("fallback-cart".toCharArray()));
        assertEquals(2, s.version());
        assertEquals("1", text(s, "a"));
        assertEquals("2", text(s, "b"));
    }

    @Test
    void write_delta_setsAndRemovesAndBumpsVersion() {
        String id = store.create().id();
        assertEquals(Map.of("cart", 1L), write(id, set("cart", "a", "1", "b", "2")).versions());
        assertEquals(Map.of("cart", 2L), write(id, set("cart", "a", "10", "c", "3")).versions());
        write(id, remove("cart", "b", "missing"));
        SectionData s = read(id, "cart");
        assertEquals(3, s.version());
        assertEquals("10", text(s, "a"));
        assertEquals("3", text(s, "c"));
        assertEquals(null, text(s, "b"));
        assertEquals(List.of("a", "c"), new ArrayList<>(s.attributes().keySet()));
    }

    /**
     * A write applied at an older clock reading than the session's last use (a reading another event loop passed
     * meanwhile) leaves the last use where it was: it never goes back, and neither does the deadline.
     */
    @Test
    void write_atAnOlderReadingThanTheLastUse_leavesTheLastUseWhereItWas() {
        String id = store.create().id();
        long reading = store.now();
        ticker.advance(java.time.Duration.ofSeconds(5));
        write(id, set("cart", "a", "1")); // at the ticker's time, 5 s after the reading
        long lastUse = store.describe(id).lastAccess();
        WriteRequest late = new WriteRequest(id, List.of(set("cart", "a", "2")));
        assertEquals(2L, store.write(late, 0, Invalidator.NONE, reading).versions()[0], "applied at the older reading");
        assertEquals(lastUse, store.describe(id).lastAccess(), "the last use did not go back");
        assertEquals("2", text(read(id, "cart"), "a"));
    }

    /** New sections among known ones in one write: each lands once, in the deltas' order after the known ones. */
    @Test
    void write_newSectionsBetweenKnownOnes_eachAddedOnce_inTheDeltasOrder() {
        String id = store.create().id();
        write(id, set("a", "k", "1"));
        write(id, set("b", "k", "1"));
        SessionStore.Written w = store.write(new WriteRequest(id, List.of(set("c", "k", "1"), set("a", "k", "2"),
                set("d", "k", "1"), set("b", "k", "2"), set("e", "k", "1"))), 0, Invalidator.NONE);
        assertEquals(List.of("a", "b", "c", "d", "e"), Arrays.stream(w.after()).map(EncodedSection::name).toList());
        assertEquals(List.of(2L, 2L, 1L, 1L, 1L), Arrays.stream(w.after()).map(EncodedSection::version).toList());
        assertEquals(Map.of("c", 1L, "a", 2L, "d", 1L, "b", 2L, "e", 1L), w.result().versions());
        write(id, set("b", "k", "3")); // a write of a known section alone: the same sections, one changed
        assertEquals("3", text(read(id, "b"), "k"));
        assertEquals("2", text(read(id, "a"), "k"));
        assertEquals(1, read(id, "e").version());
        // the room grown at the first new section is exactly what the deltas after it can add
        w = store.write(new WriteRequest(id, List.of(set("a", "k", "3"), set("f", "k", "1"), set("g", "k", "1"))), 0,
                Invalidator.NONE);
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), Arrays.stream(w.after()).map(EncodedSection::name).toList());
        w = store.write(new WriteRequest(id, List.of(set("b", "k", "4"), set("c", "k", "2"), set("h", "k", "1"))), 0,
                Invalidator.NONE);
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g", "h"), Arrays.stream(w.after()).map(EncodedSection::name).toList());
        assertEquals(Map.of("b", 4L, "c", 2L, "h", 1L), w.result().versions());
    }

    @Test
    void write_removingEveryAttribute_keepsTheVersionGoing() {
        String id = store.create().id();
        write(id, set("s", "a", "1"));
        write(id, remove("s", "a"));
        SectionData s = read(id, "s");
        assertEquals(2, s.version());
        assertTrue(s.attributes().isEmpty());
        assertEquals(3, write(id, set("s", "a", "2")).versions().get("s"));
    }

    @Test
    void write_ifVersionMismatchInOneDelta_conflictsAndAppliesNothing() {
        String id = store.create().id();
        write(id, set("a", "x", "1"), set("b", "y", "1"));
        StoreException e = assertThrows(StoreException.class, () -> write(id,
                new SectionDelta("a", 1, Map.of("x", bytes("2")), List.of()),
                new SectionDelta("b", 7, Map.of("y", bytes("2")), List.of())));
        assertEquals(Status.CONFLICT, e.status());
        assertTrue(e.getMessage().contains("\"b\" is at version 1, not 7"), e.getMessage());
        assertEquals("1", text(read(id, "a"), "x"));
        assertEquals(1, read(id, "a").version());
        assertEquals(1, read(id, "b").version());
    }

    @Test
    void write_ifVersionZero_createsOnlyIfAbsent() {
        String id = store.create().id();
        write(id, new SectionDelta("s", 0, Map.of("k", bytes("v")), List.of()));
        StoreException e = assertThrows(StoreException.class,
                () -> write(id, new SectionDelta("s", 0, Map.of("k", bytes("w")), List.of())));
        assertEquals(Status.CONFLICT, e.status());
    }

    @Test
    void write_severalSections_allVisibleTogetherToAConcurrentReader() throws Exception {
        String id = store.create().id();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> writer = pool.submit(() -> {
                for (int i = 1; i <= 2000; i++) {
                    write(id, set("a", "n", Integer.toString(i)), set("b", "n", Integer.toString(i)));
                }
            });
            Future<?> reader = pool.submit(() -> {
                while (!writer.isDone()) {
                    ReadResult r = store.read(new ReadRequest(id, List.of("a", "b"))).toReadResult();
                    SectionData a = r.sections().get(0);
                    SectionData b = r.sections().get(1);
                    assertEquals(a.version(), b.version(), "a torn write was seen");
                    assertEquals(text(a, "n"), text(b, "n"));
                }
            });
            writer.get();
            reader.get();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(2000, read(id, "a").version());
    }

    @Test
    void write_concurrentWritersOfDifferentAttributesOfOneSection_loseNothing() throws Exception {
        String id = store.create().id();
        int threads = 4;
        int perThread = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    write(id, set("shared", "t" + me + "-" + i, "v"));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        SectionData s = read(id, "shared");
        assertEquals(threads * perThread, s.attributes().size());
        assertEquals(threads * perThread, s.version());
    }

    @Test
    void idleTimeout_expiresUnusedSession_andReadsExtendIt() {
        String id = store.create().id();
        String idle = store.create().id();
        for (int i = 0; i < 10; i++) {
            ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.dividedBy(2));
            read(id, "s");
        }
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read(idle, "s")).status());
        assertEquals(0, read(id, "s").version());
        assertEquals(1, store.stats().get("expiries"));
    }

    @Test
    void aReplicasStore_answersAnExpiredSessionNotFound_butOnlyTheLogRemovesIt() {
        store.removeOnlyThroughTheLog();
        String id = store.create().id();
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.plusSeconds(1));
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read(id, "s")).status());
        assertEquals(1, store.sessionCount(), "a read removed a session the other replicas still hold");
        assertEquals(1, store.expire(List.of(id), ticker.millis()));
        assertEquals(0, store.sessionCount());
    }

    /**
     * A replica's own last access misses the reads its leader served, so a change in the log (proposed by a leader that
     * found the session live) applies to every session the log has not removed, expired by the replica's clock or not.
     */
    @Test
    void aReplicasStore_appliesTheLogsChanges_toASessionExpiredByItsOwnClock() {
        store.removeOnlyThroughTheLog();
        String id = store.create().id();
        write(id, set("s", "k", "1"));
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.plusSeconds(1)); // the leader saw it read meanwhile
        long now = ticker.millis();

        store.write(new WriteRequest(id, List.of(set("s", "k", "2"))), 0, io.sessionmesh.master.coherence.Invalidator.NONE, now);
        assertEquals("2", text(read(id, "s"), "k"));
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.plusSeconds(1));
        store.touch(id, ticker.millis());
        store.setPrincipal(id, "alice", ticker.millis());
        assertEquals("alice", store.describe(id).principal());
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.plusSeconds(1));
        assertEquals(1, store.logout("alice", 0, io.sessionmesh.master.coherence.Invalidator.NONE, ticker.millis()).sessions());
        assertEquals(0, store.sessionCount());
    }

    /**
     * A replica's EXPIRE judges by the last use the log saw, which every replica agrees on: the leader's reads (which it
     * alone served) neither keep a session there nor make replicas disagree.
     */
    @Test
    void aReplicasExpire_judgesByTheLogsLastUse_notByReads() {
        store.removeOnlyThroughTheLog();
        String read = store.create().id();
        String written = store.create().id();
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.minusSeconds(1));
        read(read, "s"); // a read served here, as a leader does: not in the log
        store.touch(written, ticker.millis()); // a touch in the log
        ticker.advance(java.time.Duration.ofSeconds(2));

        assertEquals(1, store.expire(List.of(read, written), ticker.millis()));
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read(read, "s")).status());
        assertEquals(0, read(written, "s").version(), "a session the log used since is kept");
    }

    @Test
    void touch_extendsIdleTime_withoutChangingAnyVersion() {
        String id = store.create().id();
        write(id, set("s", "k", "v"));
        for (int i = 0; i < 5; i++) {
            ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT.minusSeconds(1));
            store.touch(id);
        }
        assertEquals(1, read(id, "s").version());
    }

    @Test
    void perSessionIdleTimeout_isHonoured() {
        String shortLived = store.create(java.time.Duration.ofSeconds(10)).id();
        String normal = store.create().id();
        ticker.advance(java.time.Duration.ofSeconds(11));
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> store.touch(shortLived)).status());
        store.touch(normal);
    }

    @Test
    void maxLifetime_endsASessionInUse() {
        SessionStore s = new SessionStore(StoreLimits.builder().maxLifetime(java.time.Duration.ofMinutes(10)).build(), ticker);
        String id = s.create().id();
        for (int i = 0; i < 9; i++) {
            ticker.advance(java.time.Duration.ofMinutes(1));
            s.touch(id);
        }
        ticker.advance(java.time.Duration.ofMinutes(1));
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> s.touch(id)).status());
    }

    @Test
    void expiredSession_answersNotFoundEverywhere() {
        String id = store.create().id();
        write(id, set("s", "k", "v"));
        ticker.advance(StoreLimits.DEFAULT_IDLE_TIMEOUT);
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read(id, "s")).status());
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> write(id, set("s", "k", "w"))).status());
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> store.touch(id)).status());
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> store.delete(id)).status());
        assertEquals(1, store.stats().get("expiries"));
        assertEquals(0, store.storeBytes());
    }

    @Test
    void createDeleteLoop_doesNotFillTheExpiryWheel() {
        // Deleted sessions used to stay in the wheel until their deadline (up to max-idle-timeout, 24 h): a client
        // that creates and deletes in a loop grew the heap without any limit counting it.
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            kept.add(store.create(java.time.Duration.ofHours(1)).id());
        }
        int loops = 5 * SessionStore.PURGE_MIN_ENTRIES;
        int most = 0;
        for (int i = 0; i < loops; i++) {
            store.delete(store.create(java.time.Duration.ofHours(1)).id());
            if (i % 1_000 == 999) {
                ticker.advance(java.time.Duration.ofSeconds(1));
                store.expireDue(); // the server's sweep, every second
                most = Math.max(most, store.wheelEntries());
            }
        }
        assertEquals(1_000, store.sessionCount());
        assertTrue(most <= kept.size() + SessionStore.PURGE_MIN_ENTRIES + 1_000,
                "the expiry wheel held " + most + " entries for 1,000 live sessions after " + loops + " creates and deletes");
        assertTrue(store.stats().get("expiry_wheel_purges") >= 4, store.stats().toString());
        for (String id : kept) {
            store.touch(id); // the live ones are all still there, and still expire on time
        }
        ticker.advance(java.time.Duration.ofHours(2));
        assertEquals(1_000, store.expireDue());
    }

    @Test
    void expireDue_removesExpiredSessionsInTheBackground_andCountsThem() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(store.create().id());
            write(ids.get(i), set("s", "k", "v"));
        }
        ticker.advance(java.time.Duration.ofMinutes(4));
        for (int i = 0; i < 50; i++) {
            store.touch(ids.get(i));
        }
        ticker.advance(java.time.Duration.ofMinutes(2));
        assertEquals(50, store.expireDue());
        assertEquals(50, store.sessionCount());
        assertEquals(50, store.stats().get("expiries"));
        ticker.advance(java.time.Duration.ofMinutes(4));
        assertEquals(50, store.expireDue());
        assertEquals(0, store.sessionCount());
        assertEquals(0, store.storeBytes());
    }

    @Test
    void delete_removesAtOnce_andSecondDeleteIsNotFound() {
        String id = store.create().id();
        write(id, set("s", "k", "v"));
        store.delete(id);
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read(id, "s")).status());
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> store.delete(id)).status());
        assertEquals(0, store.storeBytes());
    }

    @Test
    void unknownSession_isNotFound() {
        assertEquals(Status.NOT_FOUND, assertThrows(StoreException.class, () -> read("nope", "s")).status());
    }

    @Test
    void sessionIds_are22UrlSafeCharactersAndUnique() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = store.create().id();
            assertTrue(id.matches("[A-Za-z0-9_-]{22}"), id);
            assertTrue(seen.add(id));
        }
    }

    @Test
    void limits_overLimitIsTooLarge_andNothingIsApplied() {
        SessionStore s = new SessionStore(StoreLimits.builder().maxAttributeBytes(100).maxSectionBytes(300)
                .maxSessionBytes(700).maxSectionsPerSession(3).maxAttributesPerSection(4).build(), ticker);
        String id = s.create().id();
        s.write(new WriteRequest(id, List.of(set("a", "k", "v"))));
        byte[] big = new byte[101];
        assertTooLarge(s, id, "above the limit of 100", new SectionDelta("b", Map.of("k", big), List.of()));
        assertTooLarge(s, id, "section \"a\" would be", new SectionDelta("a", Map.of("x", new byte[100], "y", new byte[100],
                "z", new byte[100]), List.of()));
        assertTooLarge(s, id, "would hold 5 attributes", set("a", "1", "", "2", "", "3", "", "4", ""));
        assertTooLarge(s, id, "would hold 4 sections", set("b", "k", "v"), set("c", "k", "v"), set("d", "k", "v"));
        s.write(new WriteRequest(id, List.of(new SectionDelta("b", Map.of("x", new byte[90], "y", new byte[90]), List.of()),
                new SectionDelta("c", Map.of("x", new byte[90], "y", new byte[90]), List.of()))));
        assertTooLarge(s, id, "the session would be", new SectionDelta("a", Map.of("x", new byte[90], "y", new byte[90],
                "z", new byte[90]), List.of()), new SectionDelta("b", Map.of("z", new byte[90]), List.of()),
                new SectionDelta("c", Map.of("z", new byte[90]), List.of()));
        SectionData a = s.read(new ReadRequest(id, List.of("a"))).toReadResult().sections().get(0);
        assertEquals(1, a.version());
        assertEquals(Set.of("k"), a.attributes().keySet());
        assertEquals(1, s.read(new ReadRequest(id, List.of("b"))).sections().get(0).version());
    }

    private static void assertTooLarge(SessionStore s, String id, String message, SectionDelta... deltas) {
        StoreException e = assertThrows(StoreException.class, () -> s.write(new WriteRequest(id, List.of(deltas))));
        assertEquals(Status.TOO_LARGE, e.status(), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void storeFull_isUnavailable_andFreedBytesCanBeReused() {
        // 2 sessions (512), the shared name "s" (90), a's section (80 + 908): 1,590 of 2,000
        SessionStore s = new SessionStore(StoreLimits.builder().maxStoreBytes(2000).build(), ticker);
        String a = s.create().id();
        String b = s.create().id();
        s.write(new WriteRequest(a, List.of(new SectionDelta("s", Map.of("k", new byte[900]), List.of()))));
        StoreException e = assertThrows(StoreException.class,
                () -> s.write(new WriteRequest(b, List.of(new SectionDelta("s", Map.of("k", new byte[600]), List.of())))));
        assertEquals(Status.UNAVAILABLE, e.status());
        s.delete(a);
        s.write(new WriteRequest(b, List.of(new SectionDelta("s", Map.of("k", new byte[600]), List.of()))));
        // The section in wire form: name "s" (2), version (1), count (1), "k" (2), length (2), value (600).
        assertEquals(608, s.storeBytes());
    }

    @Test
    void maxSessions_refusesCreateWhenFull() {
        SessionStore s = new SessionStore(StoreLimits.builder().maxSessions(2).build(), ticker);
        s.create();
        s.create();
        assertEquals(Status.UNAVAILABLE, assertThrows(StoreException.class, s::create).status());
    }

    @Test
    void idleTimeoutOutOfRange_isBadRequest() {
        assertEquals(Status.BAD_REQUEST, assertThrows(StoreException.class,
                () -> store.create(java.time.Duration.ofDays(2))).status());
    }

    @Test
    void values_areStoredAsGiven_andNamesShared() {
        String a = store.create().id();
        String b = store.create().id();
        byte[] v = {1, 2, 3};
        write(a, new SectionDelta("clientInfo", Map.of("name", v), List.of()));
        write(b, new SectionDelta("clientInfo", Map.of("name", new byte[] {4}), List.of()));
        assertArrayEquals(v, read(a, "clientInfo").attributes().get("name"));
        assertEquals(1, store.stats().get("names_shared"));
        assertFalse(store.stats().isEmpty());
    }
}
