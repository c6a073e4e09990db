package io.sessionmesh.sidecar;

import io.sessionmesh.sidecar.config.SidecarConfig;
import io.sessionmesh.sidecar.master.Lease;
import io.sessionmesh.testing.Await;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameDecoder;
import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedReadResult;
import io.sessionmesh.wire.transport.EncodedSection;
import io.sessionmesh.wire.transport.SectionData;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;
import io.sessionmesh.wire.transport.WriteResult;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two writes of one new section through one sidecar, answered by the master in the other order than it applied them
 * (they travel on different connections, or the master's loops run them unevenly): the answer of the later write
 * (version 2) reaches the sidecar, and its client, first; the earlier one (version 1) after. The sidecar must not then
 * cache version 1, which its own client already saw overwritten: the stale read ConsistencyIT caught under CPU load
 * (sidecar 0, session 0, section 0, "version 1 after version 2 had been acknowledged").
 *
 * <p>The master here is a script on the real frame codec: it answers REGISTER (a long lease), PING, TOUCH and READ at
 * once, and holds each WRITE until the test answers it.
 */
class OwnWritesAnsweredOutOfOrderIT {
    static final SessionTimes TIMES = new SessionTimes(300_000, 3_600_000);

    /** A WRITE the scripted master holds until the test answers it with a version. */
    record HeldWrite(ChannelHandlerContext ctx, int requestId, WriteRequest request) {
        void answer(long version) {
            ctx.channel().eventLoop().execute(() -> ctx.writeAndFlush(new MasterAnswer.Write(requestId,
                    WriteResult.of(request, new long[] {version}), TIMES)));
        }
    }

    static final class ScriptedMaster implements AutoCloseable {
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        final BinaryTransportCodec codec = new BinaryTransportCodec();
        final BlockingQueue<HeldWrite> writes = new LinkedBlockingQueue<>();
        final AtomicInteger reads = new AtomicInteger();
        /** What every READ gets. */
        volatile EncodedReadResult state;
        final Channel server;

        ScriptedMaster() throws InterruptedException {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new FrameDecoder(1 << 20), new FrameEncoder(codec, null, true), new Script());
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
        }

        int port() {
            return ((java.net.InetSocketAddress) server.localAddress()).getPort();
        }

        final class Script extends ChannelInboundHandlerAdapter {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Frame frame = (Frame) msg;
                try {
                    int id = frame.requestId();
                    MasterRequest<?> request = MasterRequest.decode(frame, codec);
                    if (request instanceof MasterRequest.Register) {
                        ctx.writeAndFlush(new MasterAnswer.Registered(id, 60_000, 0));
                    } else if (request instanceof MasterRequest.Ping p) {
                        ctx.writeAndFlush(new MasterAnswer.Pong(id, 60_000, p.payload()));
                    } else if (request instanceof MasterRequest.Touch) {
                        ctx.writeAndFlush(new MasterAnswer.Touched(id, TIMES));
                    } else if (request instanceof MasterRequest.Read) {
                        reads.incrementAndGet();
                        ctx.writeAndFlush(new MasterAnswer.Read(id, state, TIMES));
                    } else if (request instanceof MasterRequest.Write w) {
                        writes.add(new HeldWrite(ctx, id, w.message()));
                    } else {
                        ctx.writeAndFlush(new MasterAnswer.Error(request.opcode(), id, Status.BAD_REQUEST, "not scripted"));
                    }
                } finally {
                    frame.release();
                }
            }
        }

        @Override
        public void close() {
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    static HttpRequest patch(int port, String session, String json) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/sessions/" + session))
                .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString(json)).build();
    }

    static void awaitLease(SidecarServer sidecar) {
        Lease lease = sidecar.service().router().pools().get(0).lease();
        Await.until("the sidecar's lease with the scripted master", Duration.ofSeconds(10),
                () -> lease.isValid(System.nanoTime()));
    }

    @Test
    void laterWriteAnsweredFirst_theEarlierWritesVersionIsNotCached() throws Exception {
        try (ScriptedMaster master = new ScriptedMaster();
             SidecarServer sidecar = SidecarServer.start(SidecarConfig.of(Map.of("masters", "127.0.0.1:" + master.port(),
                     "port", "0", "admin-port", "0", "vnodes", "16", "heartbeat-interval", "10m")))) {
            awaitLease(sidecar);
            int port = sidecar.address().getPort();
            HttpClient http = HttpClient.newHttpClient();

            // Two clients of this sidecar write the section "cart" of a new session; the master applies the first as
            // version 1, the second as version 2.
            CompletableFuture<HttpResponse<String>> first = http.sendAsync(patch(port, "s1",
                    "{\"sections\":{\"cart\":{\"set\":{\"a\":\"AQ==\"}}}}"), HttpResponse.BodyHandlers.ofString());
            HeldWrite w1 = master.writes.poll(10, TimeUnit.SECONDS);
            assertNotNull(w1, "the first write never reached the master");
            CompletableFuture<HttpResponse<String>> second = http.sendAsync(patch(port, "s1",
                    "{\"sections\":{\"cart\":{\"set\":{\"a\":\"Ag==\"}}}}"), HttpResponse.BodyHandlers.ofString());
            HeldWrite w2 = master.writes.poll(10, TimeUnit.SECONDS);
            assertNotNull(w2, "the second write never reached the master");
            master.state = new EncodedReadResult("s1", List.of(EncodedSection.of(new SectionData("cart", 2,
                    Map.of("a", new byte[] {2})))));

            // The later write's answer comes first: its client is told version 2...
            w2.answer(2);
            HttpResponse<String> acknowledged = second.get(10, TimeUnit.SECONDS);
            assertEquals(200, acknowledged.statusCode(), acknowledged.body());
            assertTrue(acknowledged.body().contains("\"version\":2"), acknowledged.body());
            // ...then the earlier write's answer, version 1.
            w1.answer(1);
            HttpResponse<String> late = first.get(10, TimeUnit.SECONDS);
            assertEquals(200, late.statusCode(), late.body());
            assertTrue(late.body().contains("\"version\":1"), late.body());

            // A read that begins now must see version 2 (or later), from the cache or the master.
            HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/v1/sessions/s1?sections=cart")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, read.statusCode(), read.body());
            assertTrue(read.body().contains("\"version\":2"), "a read after version 2 was acknowledged got "
                    + read.body() + " (reads that reached the master: " + master.reads.get() + ")");
        }
    }
}
