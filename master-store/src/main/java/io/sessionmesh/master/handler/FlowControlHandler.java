package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.FrameEncoder;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.OutboundFrame;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flow control of one connection; nothing here affects other connections. An answer counts as in flight from when
 * it is made (written by a handler, fenced or not) until it is on the socket ({@link FrameEncoder} tells, through
 * {@link FrameEncoder.Listener}).
 *
 * <ul>
 *   <li>At {@code maxInFlight} the connection stops reading (TCP pushes back on the client) and reads again once half
 *   are out; a request already read past the limit is answered UNAVAILABLE at once (as is a frame that would have
 *   been answered with an error of its own).</li>
 *   <li>When the socket will not take more (the client does not read), reading stops too, until it is writable.</li>
 *   <li>Answers queued beyond {@code maxOutboundBytes} (a client that sends and never reads) close the connection,
 *   checked as each answer passes to the encoder.</li>
 *   <li>Once the server drains for shutdown, no connection starts reading again.</li>
 * </ul>
 */
public final class FlowControlHandler extends ChannelDuplexHandler implements FrameEncoder.Listener {
    private static final Logger log = LoggerFactory.getLogger(FlowControlHandler.class);

    private final int maxInFlight;
    private final long maxOutboundBytes;
    private final ServerCounters counters;
    private ChannelHandlerContext ctx;
    /** Answers made and not yet on the socket. */
    private int inFlight;

    public FlowControlHandler(int maxInFlight, long maxOutboundBytes, ServerCounters counters) {
        this.maxInFlight = maxInFlight;
        this.maxOutboundBytes = maxOutboundBytes;
        this.counters = counters;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (full()) {
            // A request read past the limit, or a frame that would be answered with its own error: UNAVAILABLE.
            if (msg instanceof Received r) {
                refuse(ctx, r.request().opcode(), r.requestId());
                return;
            }
            if (msg instanceof Rejected r && !r.fatal()) {
                refuse(ctx, r.answer().opcode(), r.answer().requestId());
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void refuse(ChannelHandlerContext ctx, int opcode, int requestId) {
        counters.inFlightRefused.increment();
        made();
        ctx.write(new MasterAnswer.Error(opcode, requestId, Status.UNAVAILABLE, "more than " + maxInFlight
                + " requests in flight on this connection; wait for answers"), ctx.voidPromise());
        checkOutbound(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof FencedAnswer || msg instanceof DeferredAnswer || msg instanceof OutboundFrame f && f.isAnswer()) {
            made();
        }
        ctx.write(msg, promise);
        checkOutbound(ctx);
    }

    /**
     * After each answer passes to the encoder (which writes a batch every 16 KiB and a large answer at once): a client
     * that does not read its answers is cut off as soon as they pass {@code maxOutboundBytes}, not at the end of the
     * read, by when up to {@code maxInFlight} answers could have queued.
     */
    void checkOutbound(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (outbound != null && outbound.totalPendingWriteBytes() > maxOutboundBytes && ctx.channel().isOpen()) {
            counters.slowConsumerClosed.increment();
            log.warn("closing {}: {} bytes of answers queued and not read (limit {})", ctx.channel().remoteAddress(),
                    outbound.totalPendingWriteBytes(), maxOutboundBytes);
            ctx.close();
        }
    }

    /** An answer was made: in flight from now. On the loop. */
    void made() {
        if (++inFlight >= maxInFlight && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Answers are on the socket (or their write failed): they leave flight. On the event loop. */
    @Override
    public void answersWritten(int answers) {
        inFlight -= answers;
        if (inFlight <= maxInFlight / 2 && ctx.channel().isActive() && ctx.channel().isWritable()
                && !ctx.channel().config().isAutoRead() && !counters.draining()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** After the encoder wrote and flushed this read's answers: a client that does not read them is cut off. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        checkOutbound(ctx);
        if (ctx.channel().isOpen()) {
            ctx.fireChannelReadComplete();
        }
    }

    /** An answer could not be encoded; the encoder sent an error answer in its place: counted as the old handler did. */
    @Override
    public void answerFailed(OutboundFrame answer, RuntimeException cause) {
        if (cause instanceof MalformedMessageException) {
            counters.errors.increment();
        } else {
            counters.internalErrors.increment();
            log.error("{} answer could not be encoded on {}", Opcodes.name(answer.opcode()), ctx.channel(), cause);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        boolean writable = ctx.channel().isWritable();
        if (!writable) {
            ctx.flush();
        }
        ctx.channel().config().setAutoRead(writable && inFlight < maxInFlight && !counters.draining());
        super.channelWritabilityChanged(ctx);
    }

    /** Whether a request read now would be refused: {@code maxInFlight} answers are made and not yet on the socket. */
    boolean full() {
        return inFlight >= maxInFlight;
    }

    /** Answers made and not yet on the socket (for tests). */
    int inFlight() {
        return inFlight;
    }
}
