package io.sessionmesh.sidecar.http;

import io.sessionmesh.sidecar.cache.SectionCache;
import io.sessionmesh.sidecar.master.MasterPool;
import io.sessionmesh.sidecar.master.MasterRouter;
import io.sessionmesh.sidecar.metrics.SidecarMetrics;
import io.sessionmesh.sidecar.service.SidecarService;
import io.sessionmesh.wire.client.MasterConnectionOptions;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A SidecarService whose one master (127.0.0.1:1) is never connected to: its router is never started, so no
 * connection is attempted and no event loop runs (the data loops' one is never started: Netty starts a loop's thread at
 * its first task). For the handlers that only read local state.
 */
final class OfflineService {
    private OfflineService() {
    }

    static SidecarService of(SectionCache cache) {
        MasterPool.Options options = new MasterPool.Options(MasterConnectionOptions.DEFAULT, Duration.ofMillis(100),
                Duration.ofSeconds(1), Duration.ofSeconds(1), UUID.randomUUID(), Duration.ofMillis(200),
                new io.netty.channel.DefaultEventLoopGroup(1));
        MasterRouter router = MasterRouter.of(List.of(new InetSocketAddress("127.0.0.1", 1)), 16, options, null, null);
        return new SidecarService(router, cache, new SidecarMetrics(), 16, Duration.ZERO);
    }
}
