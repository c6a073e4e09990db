package io.sessionmesh.sidecar.master;

import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.placement.Placement;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ring of masters as a sidecar builds it from its settings (nothing is connected: start() is not called). */
class MasterRouterTest {
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

    @AfterEach
    void stop() {
        group.shutdownGracefully();
    }

    private MasterRouter router(List<InetSocketAddress> masters, int vnodes) {
        MasterPool.Options options = new MasterPool.Options(MasterConnectionOptions.DEFAULT, Duration.ofMillis(100),
                Duration.ofSeconds(1), Duration.ofSeconds(1), UUID.randomUUID(), Duration.ofMillis(200), group);
        return MasterRouter.of(masters, vnodes, options, group, null);
    }

    /** Several masters at the default vnodes: every CREATE carries a placement the protocol can encode. */
    @Test
    void severalMasters_atTheDefaultVnodes_getAPlacementEach() {
        int vnodes = SidecarConfig.of(Map.of("masters", "a:1,b:2,c:3")).vnodes();
        MasterRouter router = router(List.of(InetSocketAddress.createUnresolved("a", 1),
                InetSocketAddress.createUnresolved("b", 2), InetSocketAddress.createUnresolved("c", 3)), vnodes);
        for (int i = 0; i < 3; i++) {
            Placement p = router.placement(i);
            assertEquals(i, p.self());
            assertEquals(vnodes, p.vnodes());
            assertEquals(List.of("a:1", "b:2", "c:3"), p.names());
        }
        String id = "AAAAAAAAAAAAAAAAAAAAAA";
        assertEquals(router.ring().indexFor(id), router.placement(0).ring().indexFor(id),
                "the master builds the same ring from the placement as the sidecar routes by");
    }

    @Test
    void oneMaster_needsNoPlacement() {
        assertNull(router(List.of(InetSocketAddress.createUnresolved("a", 1)), 16).placement(0));
    }

    @Test
    void vnodesAboveWhatAPlacementCarries_areRefusedAtStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SidecarConfig.of(Map.of("vnodes", String.valueOf(Placement.MAX_VNODES + 1))));
        assertTrue(e.getMessage().contains("vnodes"), e.getMessage());
    }
}
