package io.sessionmesh.wire.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes on the wire between a client of the masters and the masters, both ways, over every connection that shares
 * it (frames as sent and received, headers included; TCP/IP overhead not). The sidecar reports them in its admin
 * stats; benchmarks divide them by requests.
 */
public final class LinkTraffic {
    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();

    /** Bytes written to masters. */
    public long sent() {
        return sent.sum();
    }

    /** Bytes read from masters. */
    public long received() {
        return received.sum();
    }

    /** The pipeline handler that counts; first in the pipeline, so it sees the bytes before any decoding. */
    ChannelHandler handler() {
        return new Counter();
    }

    @ChannelHandler.Sharable
    private final class Counter extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf b) {
                received.add(b.readableBytes());
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf b) {
                sent.add(b.readableBytes());
            }
            ctx.write(msg, promise);
        }
    }
}
