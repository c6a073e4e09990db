package io.sessionmesh.wire.io;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The io-transport setting, and real echo round trips on each transport over TCP and a Unix domain socket. */
class IoTransportTest {
    @TempDir
    Path dir;

    @Test
    void theSettingChoosesTheTransport_andAutoTakesEpollOnLinux() {
        assertTrue(IoTransport.epollAvailable(), "this build runs on Linux x86_64, where the native library loads: "
                + IoTransport.epollUnavailabilityCause());
        assertSame(IoTransport.NIO, IoTransport.choose("nio"));
        assertSame(IoTransport.EPOLL, IoTransport.choose("epoll"));
        assertSame(IoTransport.EPOLL, IoTransport.choose("auto"));
        assertEquals("epoll (auto)", IoTransport.describe("auto", IoTransport.EPOLL));
        assertEquals("nio", IoTransport.describe("nio", IoTransport.NIO));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IoTransport.choose("kqueue"));
        assertEquals("io-transport must be one of [auto, epoll, nio], not kqueue", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(IoTransport.class)
    void aLoopGroupKnowsItsTransport_andAClientOnItEchoesOverTcp(IoTransport transport) throws Exception {
        EventLoopGroup loops = transport.eventLoops(1, "io-test");
        try {
            assertSame(transport, IoTransport.of(loops));
            Channel server = new ServerBootstrap().group(loops).channel(transport.serverChannel()).childHandler(new Echo())
                    .bind("127.0.0.1", 0).sync().channel();
            Answer answer = new Answer();
            Channel client = new Bootstrap().group(loops).channel(IoTransport.socketChannelFor(loops))
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(answer);
                        }
                    })
                    .connect(server.localAddress()).sync().channel();
            client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.US_ASCII)).sync();
            assertEquals("ping", answer.await());
            client.close().sync();
            server.close().sync();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @ParameterizedTest
    @EnumSource(IoTransport.class)
    void aDomainSocketServerAnswersAJdkClient(IoTransport transport) throws Exception {
        EventLoopGroup loops = transport.eventLoops(1, "io-test");
        Path socket = dir.resolve(transport.word() + ".sock");
        try {
            Channel server = new ServerBootstrap().group(loops).channel(transport.serverDomainSocketChannel())
                    .childHandler(new Echo()).bind(transport.domainSocketAddress(socket)).sync().channel();
            assertEquals(transport == IoTransport.EPOLL ? new DomainSocketAddress(socket.toFile()) : UnixDomainSocketAddress.of(socket),
                    server.localAddress());
            try (SocketChannel jdk = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                jdk.write(ByteBuffer.wrap("pong".getBytes(StandardCharsets.US_ASCII)));
                ByteBuffer in = ByteBuffer.allocate(4);
                while (in.hasRemaining() && jdk.read(in) >= 0) {
                    // an echo of 4 bytes may come in pieces
                }
                assertEquals("pong", new String(in.array(), StandardCharsets.US_ASCII));
            }
            server.close().sync();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void aGroupMadeElsewhereIsNio() throws Exception {
        EventLoopGroup plain = new io.netty.channel.DefaultEventLoopGroup(1);
        try {
            assertSame(IoTransport.NIO, IoTransport.of(plain));
            assertSame(NioSocketChannel.class, IoTransport.socketChannelFor(plain));
        } finally {
            plain.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    private static final class Echo extends ChannelInitializer<Channel> {
        @Override
        protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ctx.writeAndFlush(msg);
                }
            });
        }
    }

    private static final class Answer extends ChannelInboundHandlerAdapter {
        private final java.util.concurrent.CompletableFuture<String> text = new java.util.concurrent.CompletableFuture<>();
        private final StringBuilder received = new StringBuilder();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            received.append(b.toString(StandardCharsets.US_ASCII));
            b.release();
            if (received.length() >= 4) { // the echo of 4 bytes may come in pieces
                text.complete(received.toString());
            }
        }

        String await() throws Exception {
            return text.get(10, TimeUnit.SECONDS);
        }
    }
}
