package io.sessionmesh.sidecar.master;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.master.server.MasterServer;
import io.sessionmesh.testing.Await;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A pool with {@code dataLoops} (the sidecar's REST loops): one data connection on each
 * of those loops, the control connection on the pool's own group, and a request made on a REST loop is sent and
 * answered on that loop's connection, so no thread is crossed.
 */
class MasterPoolLoopsIT {
    @Test
    void requestOnARestLoop_goesOnThatLoopsConnection_andIsAnsweredThere() throws Exception {
        EventLoopGroup masterLoops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup restLoops = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0")))) {
            MasterPool.Options options = new MasterPool.Options(MasterConnectionOptions.DEFAULT, Duration.ofMillis(100),
                    Duration.ofSeconds(1), Duration.ofSeconds(1), UUID.randomUUID(), Duration.ofMillis(200), restLoops);
            MasterPool pool = new MasterPool(new InetSocketAddress("127.0.0.1", master.address().getPort()), options,
                    masterLoops, null);
            pool.start();
            try {
                Await.until("the control and both data connections", Duration.ofSeconds(10),
                        () -> master.stats().get("connections") == 3);
                for (EventExecutor e : restLoops) {
                    Await.until("the data connection of " + e + " registered", Duration.ofSeconds(10),
                            () -> e.submit(() -> pool.connection() != null && pool.connection().eventLoop() == e).get());
                }
                Set<EventLoop> seen = new HashSet<>();
                for (EventExecutor e : restLoops) {
                    EventLoop loop = (EventLoop) e;
                    List<Object> where = new ArrayList<>();
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    loop.execute(() -> {
                        MasterConnection c = pool.connection();
                        where.add(c.eventLoop());
                        pool.call(conn -> conn.ping(new byte[] {'t'})).whenComplete((pong, error) -> {
                            where.add(loop.inEventLoop());
                            if (error != null) {
                                done.completeExceptionally(error);
                            } else {
                                done.complete(null);
                            }
                        });
                    });
                    done.get(10, TimeUnit.SECONDS);
                    assertSame(loop, where.get(0), "the connection taken on a REST loop is that loop's");
                    assertEquals(true, where.get(1), "the answer is handled on the loop that sent the request");
                    seen.add(loop);
                }
                assertEquals(2, seen.size());
                MasterConnection fromElsewhere = pool.connection();
                assertNotSame(null, fromElsewhere, "a thread of no REST loop still gets a connection");
            } finally {
                pool.close();
            }
        } finally {
            restLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            masterLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
