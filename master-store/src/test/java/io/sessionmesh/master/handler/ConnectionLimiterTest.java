package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One limiter shared by every connection: the one over the limit gets an UNAVAILABLE frame that says why, and is closed. */
class ConnectionLimiterTest {
    @Test
    void connectionOverTheLimit_isAnsweredAndClosed_andAClosedOneFreesItsPlace() {
        ServerCounters counters = new ServerCounters();
        ConnectionLimiter limiter = new ConnectionLimiter(1, counters);
        EmbeddedChannel first = new EmbeddedChannel(limiter);
        assertTrue(first.isActive());
        EmbeddedChannel second = new EmbeddedChannel(limiter);
        ByteBuf refusal = second.readOutbound();
        assertEquals(FrameHeader.MAGIC, refusal.getInt(0));
        assertEquals(Status.UNAVAILABLE, refusal.getUnsignedByte(7));
        assertEquals(0, refusal.getInt(8), "request id 0: it answers no request");
        String text = refusal.toString(FrameHeader.BYTES, refusal.readableBytes() - FrameHeader.BYTES, StandardCharsets.UTF_8);
        assertEquals("the master accepts at most 1 connections; try another or later", text);
        refusal.release();
        assertFalse(second.isActive());
        assertEquals(1, counters.connectionsRefused.sum());
        first.close();
        assertEquals(0, counters.connections.get());
        EmbeddedChannel third = new EmbeddedChannel(limiter);
        assertTrue(third.isActive());
        assertEquals(2, counters.connectionsAccepted.sum());
    }
}
