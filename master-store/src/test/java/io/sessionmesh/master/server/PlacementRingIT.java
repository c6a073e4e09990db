package io.sessionmesh.master.server;

import io.sessionmesh.master.placement.Placements;
import io.sessionmesh.testing.ServerProcess;
import io.sessionmesh.wire.client.MasterConnection;
import io.sessionmesh.wire.client.MasterConnectionOptions;
import io.sessionmesh.wire.client.MasterException;
import io.sessionmesh.wire.placement.Placement;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A CREATE whose placement ring is large and new is not built on an I/O thread (issue 16): a master with one I/O thread
 * goes on answering other connections while the ring (4 million tokens, about a second to build) is built, and a
 * flood of new placements is refused UNAVAILABLE instead of queueing builds without bound.
 */
class PlacementRingIT {
    /** 64 masters at 65,535 virtual nodes: 4,194,240 tokens, under Placement.MAX_TOKENS. */
    static final int MASTERS = 64;

    static ServerProcess master;
    static final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());

    @BeforeAll
    static void start() throws Exception {
        master = MasterServerIT.startMaster("--io-threads", "1");
    }

    @AfterAll
    static void stop() throws Exception {
        master.stop();
        group.shutdownGracefully().sync();
    }

    /**
     * A connection whose requests wait up to {@link #RING_BUILD_TIMEOUT}: a ring of these placements takes seconds to
     * build on a busy machine, and these tests check what is answered, not how fast.
     */
    static MasterConnection connect() {
        return MasterConnection.connect(group, new InetSocketAddress("127.0.0.1", master.port()),
                MasterConnectionOptions.builder().requestTimeout(RING_BUILD_TIMEOUT).build(), null).join();
    }

    private static final java.time.Duration RING_BUILD_TIMEOUT = java.time.Duration.ofSeconds(60);

    /** A placement of {@link #MASTERS} masters; {@code cluster} makes its names (and so its ring) differ. */
    static Placement huge(String cluster, int self) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < MASTERS; i++) {
            names.add(cluster + "-m" + i + ":7400");
        }
        return new Placement(names, Placement.MAX_VNODES, self);
    }

    @Test
    void aNewLargeRing_isBuiltOffTheIoThread_whileOtherConnectionsAreAnswered() {
        Placement placement = huge("a", 5);
        try (MasterConnection creator = connect(); MasterConnection other = connect()) {
            other.stats().join(); // both connections up
            AtomicLong order = new AtomicLong();
            long[] done = new long[2];
            CompletableFuture<MasterAnswer.Created> created = creator.create(null, placement)
                    .whenComplete((a, e) -> done[0] = order.incrementAndGet());
            CompletableFuture<String> stats = other.stats().whenComplete((a, e) -> done[1] = order.incrementAndGet());
            String sessionId = created.join().sessionId();
            stats.join();
            assertTrue(done[1] < done[0], "STATS on another connection was answered after the CREATE that builds a "
                    + "4-million-token ring: the ring was built on the master's only I/O thread");
            assertEquals(5, placement.ring().indexFor(sessionId), "the id falls on the sender's part of the ring");
            // built once: the next CREATE with it is answered from the kept ring
            assertEquals(5, placement.ring().indexFor(creator.create(null, placement).join().sessionId()));
        }
    }

    @Test
    void moreNewPlacementsThanMayWait_areRefusedUnavailable() {
        try (MasterConnection c = connect()) {
            List<CompletableFuture<MasterAnswer.Created>> creates = new ArrayList<>();
            int sent = Placements.MAX_PENDING_BUILDS + 3;
            for (int i = 0; i < sent; i++) {
                creates.add(c.create(null, huge("flood" + i, 0)));
            }
            int unavailable = 0;
            int created = 0;
            for (CompletableFuture<MasterAnswer.Created> f : creates) {
                try {
                    f.join();
                    created++;
                } catch (CompletionException e) {
                    MasterException m = assertInstanceOf(MasterException.class, e.getCause());
                    assertEquals(Status.UNAVAILABLE, m.status(), m.getMessage());
                    assertTrue(m.getMessage().contains("try the CREATE again"), m.getMessage());
                    unavailable++;
                }
            }
            assertEquals(sent, created + unavailable);
            assertTrue(unavailable >= 1 && created >= 1, created + " created, " + unavailable + " refused: at most "
                    + Placements.MAX_PENDING_BUILDS + " new placements may wait for their ring at once");
            // the connection and the master are fine after the refusals
            assertTrue(c.stats().join().contains("{"));
        }
    }
}
