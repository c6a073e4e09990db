package io.sessionmesh.integration.consistency;

import io.sessionmesh.integration.consistency.History.Read;
import io.sessionmesh.integration.consistency.History.Write;
import io.sessionmesh.integration.consistency.HistoryChecker.Verdict;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker on histories made by hand: it must pass the correct ones and catch each kind of violation. */
class HistoryCheckerTest {
    static final long A = History.ABSENT;

    /** A write of attributes by mask on session 0, section 0 (two sections of two attributes). */
    static Write write(long id, int mask, long invoked, long completed, long version) {
        return new Write(id, 0, 0, 0, 0, mask, invoked, completed, version);
    }

    /** A read of section 0 of session 0: its version and the two attributes' write ids. */
    static Read read(long version, long a0, long a1, long invoked, long completed) {
        return new Read(1, 1, 0, new int[] {0}, new long[] {version}, new long[] {a0, a1}, invoked, completed);
    }

    static Verdict check(List<Write> writes, List<Read> reads, List<Read> finals) {
        return HistoryChecker.check(writes, reads, finals, 2, 2);
    }

    @Test
    void aSequentialHistory_passes() {
        List<Write> ws = List.of(write(1, 0b11, 0, 10, 1), write(2, 0b01, 20, 30, 2));
        Verdict v = check(ws, List.of(read(0, A, A, -5, -1), read(1, 1, 1, 11, 15), read(2, 2, 1, 31, 40)),
                List.of(read(2, 2, 1, 100, 110)));
        assertTrue(v.passed(), v.examples().toString());
        assertEquals(4, v.reads() + v.finalReads());
    }

    @Test
    void aReadOlderThanAWriteAcknowledgedBeforeItBegan_isStale() {
        List<Write> ws = List.of(write(1, 0b11, 0, 10, 1), write(2, 0b01, 20, 30, 2));
        Verdict v = check(ws, List.of(read(1, 1, 1, 31, 40)), List.of());
        assertEquals(1, v.staleReads(), v.examples().toString());
        assertFalse(v.passed());
    }

    @Test
    void aReadConcurrentWithAWrite_mayReturnEitherValue() {
        List<Write> ws = List.of(write(1, 0b11, 0, 10, 1), write(2, 0b01, 20, 30, 2));
        Verdict v = check(ws, List.of(read(1, 1, 1, 25, 35), read(2, 2, 1, 21, 29)), List.of());
        assertTrue(v.passed(), v.examples().toString());
    }

    @Test
    void anAttributeMissingAfterItsWriteWasAcknowledged_isStale() {
        Verdict v = check(List.of(write(1, 0b10, 0, 10, 1)), List.of(read(1, A, A, 20, 30)), List.of());
        assertEquals(1, v.staleReads(), v.examples().toString());
    }

    @Test
    void anOldValueUnderTheNewVersion_isStale_orBad() {
        List<Write> ws = List.of(write(1, 0b01, 0, 10, 1), write(2, 0b01, 20, 30, 2));
        // version 2 claimed, but attribute 0 still holds write 1: stale (write 2 was done before the read began)
        assertEquals(1, check(ws, List.of(read(2, 1, A, 40, 50)), List.of()).staleReads());
        // the same during write 2: not stale by real time, but no version explains it
        Verdict during = check(ws, List.of(read(2, 1, A, 25, 35)), List.of());
        assertEquals(0, during.staleReads());
        assertEquals(1, during.badValues(), during.examples().toString());
    }

    @Test
    void aValueNewerThanItsVersion_orFromTheFuture_orFromElsewhere_isBad() {
        List<Write> ws = List.of(write(1, 0b01, 0, 10, 1), write(2, 0b01, 20, 30, 2),
                new Write(3, 0, 0, 0, 1, 0b01, 0, 10, 1));
        assertEquals(1, check(ws, List.of(read(1, 2, A, 25, 35)), List.of()).badValues());
        assertEquals(1, check(ws, List.of(read(2, 2, A, 11, 15)), List.of()).badValues());
        assertEquals(1, check(ws, List.of(read(2, 3, A, 40, 50)), List.of()).badValues(), "section 1's write in section 0");
        assertEquals(1, check(ws, List.of(read(2, 99, A, 40, 50)), List.of()).badValues(), "a value no one wrote");
    }

    @Test
    void aFailedWrite_mayOrMayNotBeApplied() {
        List<Write> ws = List.of(write(1, 0b01, 0, 10, 1), write(2, 0b01, 20, 30, History.UNKNOWN));
        assertTrue(check(ws, List.of(read(2, 2, A, 40, 50)), List.of(read(2, 2, A, 60, 70))).passed());
        assertTrue(check(ws, List.of(read(1, 1, A, 40, 50)), List.of(read(1, 1, A, 60, 70))).passed());
    }

    @Test
    void aFinalStateWithoutAnAcknowledgedWrite_isALostWrite() {
        List<Write> ws = List.of(write(1, 0b01, 0, 10, 1), write(2, 0b11, 20, 30, 2));
        Verdict lost = check(ws, List.of(), List.of(read(1, 1, A, 20, 25)));
        assertEquals(2, lost.lostWrites(), lost.examples().toString());
        Verdict kept = check(ws, List.of(), List.of(read(2, 2, 2, 40, 45)));
        assertTrue(kept.passed(), kept.examples().toString());
    }

    @Test
    void twoAcknowledgedWritesWithOneVersion_areALostWrite() {
        List<Write> ws = List.of(write(1, 0b01, 0, 10, 1), write(2, 0b10, 5, 12, 1));
        assertEquals(1, check(ws, List.of(), List.of()).lostWrites());
    }
}
