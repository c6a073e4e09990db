package io.sessionmesh.sidecar.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One {@link ConnectionLimiter} shared by the connections of a server, as SidecarHttpInitializer shares it. */
class ConnectionLimiterTest {
    final ConnectionLimiter limiter = new ConnectionLimiter(2);
    final List<String> active = new ArrayList<>();

    /** A connection through the limiter; the handler after it records the connections it saw become active. */
    EmbeddedChannel connect(String name) {
        return new EmbeddedChannel(limiter, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                active.add(name);
            }
        });
    }

    @Test
    void channelActive_overTheLimit_closesTheNewConnectionAtOnce() {
        EmbeddedChannel a = connect("a");
        EmbeddedChannel b = connect("b");
        EmbeddedChannel c = connect("c");
        assertTrue(a.isOpen() && b.isOpen());
        assertFalse(c.isOpen());
        assertEquals(List.of("a", "b"), active, "the refused connection reached the handlers after the limiter");
        assertEquals(2, limiter.open());
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void channelInactive_closedConnection_freesItsPlace() {
        EmbeddedChannel a = connect("a");
        EmbeddedChannel b = connect("b");
        a.close();
        assertEquals(1, limiter.open());
        EmbeddedChannel c = connect("c");
        assertTrue(c.isOpen());
        assertEquals(List.of("a", "b", "c"), active);
        b.finishAndReleaseAll();
        c.finishAndReleaseAll();
        assertEquals(0, limiter.open());
    }
}
