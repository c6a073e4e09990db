package io.sessionmesh.master.handler;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Idle connections close on the channel's clock; reading keeps a connection open. */
class IdleCloserTest {
    private final ServerCounters counters = new ServerCounters();

    @Test
    void nothingReadForTheTimeout_closesAndCounts() {
        EmbeddedChannel ch = new EmbeddedChannel(new IdleCloser(100, counters));
        ch.advanceTimeBy(60, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertTrue(ch.isActive());
        ch.advanceTimeBy(60, TimeUnit.MILLISECONDS);
        ch.runScheduledPendingTasks();
        assertFalse(ch.isActive());
        assertEquals(1, counters.idleClosed.sum());
    }

    @Test
    void reads_keepItOpen() {
        EmbeddedChannel ch = new EmbeddedChannel(new IdleCloser(100, counters));
        for (int i = 0; i < 5; i++) {
            ch.advanceTimeBy(60, TimeUnit.MILLISECONDS);
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
            ch.runScheduledPendingTasks();
            ((io.netty.buffer.ByteBuf) ch.readInbound()).release();
        }
        assertTrue(ch.isActive());
        assertEquals(0, counters.idleClosed.sum());
    }
}
