package io.sessionmesh.master.server;

import io.sessionmesh.master.config.MasterConfig;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.protocol.Invalidation;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.SectionDelta;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A holder that keeps pinging but never confirms an invalidation loses its lease: once the write it was told of stops
 * waiting for it (its lease at the push ran out), its control connection's PINGs grant it nothing more, so it cannot
 * go on serving the copy it was told is old under a renewed lease. A new control connection (REGISTER with a higher
 * sequence: the sidecar's new lease epoch, which serves nothing cached before) gets a lease again. An in-process
 * master (lease 400 ms), real TCP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HolderLeaseIT {
    static final long LEASE_MS = 400;

    @Test
    void aHolderThatPingsButNeverConfirms_losesItsLease_untilItRegistersAgain() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (MasterServer master = MasterServer.start(MasterConfig.of(Map.of("port", "0", "lease", LEASE_MS + "ms")))) {
            BlockingQueue<Invalidation> pushes = new LinkedBlockingQueue<>();
            UUID holder = UUID.randomUUID();
            try (MasterConnection silent = MasterConnection.connect(group, master.address(), MasterConnectionOptions.DEFAULT,
                    (c, pushId, invalidation) -> pushes.add(invalidation)).get(5, TimeUnit.SECONDS);
                 MasterConnection writer = MasterConnection.connect(group, master.address(), MasterConnectionOptions.DEFAULT,
                         null).get(5, TimeUnit.SECONDS)) {
                assertEquals(LEASE_MS, silent.register(holder, true, 1).get(5, TimeUnit.SECONDS).leaseMillis());
                String id = writer.create(null).get(5, TimeUnit.SECONDS).sessionId();
                silent.read(new ReadRequest(id, List.of("cart"))).get(5, TimeUnit.SECONDS);
                assertTrue(silent.ping(new byte[] {1}).get(5, TimeUnit.SECONDS).granted(), "a lease before the write");

                CompletableFuture<WriteResult> w = writer.write(new WriteRequest(id, List.of(new SectionDelta("cart",
                        Map.of("k", "2".getBytes(StandardCharsets.UTF_8)), List.of())))).thenApply(a -> a.result());
                assertNotNull(pushes.poll(5, TimeUnit.SECONDS), "the holder was told");
                // it keeps pinging as a live sidecar does, and never confirms
                while (!w.isDone()) {
                    silent.ping(new byte[] {2}).get(5, TimeUnit.SECONDS);
                    Thread.sleep(LEASE_MS / 8);
                }
                assertEquals(1L, w.get(5, TimeUnit.SECONDS).versions().get("cart"), "the write went on at the lease");
                for (int i = 0; i < 3; i++) {
                    assertFalse(silent.ping(new byte[] {3}).get(5, TimeUnit.SECONDS).granted(), "a holder that never "
                            + "confirmed an invalidation had its lease renewed, and may go on serving the old copy");
                    Thread.sleep(LEASE_MS / 4);
                }
            }
            try (MasterConnection again = MasterConnection.connect(group, master.address(), MasterConnectionOptions.DEFAULT,
                    (c, pushId, invalidation) -> { }).get(5, TimeUnit.SECONDS)) {
                again.register(holder, true, 2).get(5, TimeUnit.SECONDS);
                assertTrue(again.ping(new byte[] {4}).get(5, TimeUnit.SECONDS).granted(),
                        "a new control connection, a new epoch: a lease again");
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
