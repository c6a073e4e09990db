package io.sessionmesh.wire.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The byte counter first in a master connection's pipeline: both ways, over every connection that shares it. */
class LinkTrafficTest {
    @Test
    void bytesBothWays_areCounted_acrossConnections_andPassedOnUntouched() {
        LinkTraffic traffic = new LinkTraffic();
        EmbeddedChannel a = new EmbeddedChannel(traffic.handler());
        EmbeddedChannel b = new EmbeddedChannel(traffic.handler());
        a.writeInbound(Unpooled.wrappedBuffer(new byte[100]));
        b.writeInbound(Unpooled.wrappedBuffer(new byte[20]));
        a.writeOutbound(Unpooled.wrappedBuffer(new byte[7]));
        assertEquals(120, traffic.received());
        assertEquals(7, traffic.sent());
        ByteBuf in = a.readInbound();
        assertEquals(100, in.readableBytes());
        in.release();
        ByteBuf out = a.readOutbound();
        assertEquals(7, out.readableBytes());
        out.release();
        ((ByteBuf) b.readInbound()).release();
    }
}
