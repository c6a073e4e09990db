package io.sessionmesh.master.coherence;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FenceTest {
    @Test
    void armedWithNothingToWaitFor_isDone_andRunsLateListenersAtOnce() {
        Fence f = new Fence();
        assertFalse(f.isDone());
        f.arm();
        assertTrue(f.isDone());
        AtomicInteger ran = new AtomicInteger();
        f.whenDone(ran::incrementAndGet);
        assertEquals(1, ran.get());
    }

    @Test
    void waitsForEveryHolder_andForThePreviousFence() {
        Fence previous = new Fence();
        previous.expect();
        previous.arm();
        Fence f = new Fence();
        f.after(previous);
        f.expect();
        f.expect();
        f.arm();
        AtomicInteger ran = new AtomicInteger();
        f.whenDone(ran::incrementAndGet);
        f.confirmed();
        f.leaseRanOut();
        assertFalse(f.isDone(), "the previous write is not acknowledged yet");
        previous.confirmed();
        assertTrue(f.isDone());
        assertEquals(1, ran.get());
        assertEquals(1, f.confirmations());
        assertEquals(1, f.leaseExpiries());
    }
}
