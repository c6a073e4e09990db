package io.sessionmesh.master.handler;

import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.InvalidFrame;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frames to typed messages, after {@link io.sessionmesh.wire.protocol.FrameDecoder}: a request frame becomes a
 * {@link Received} (its {@link MasterRequest}); a holder's confirmation of a push becomes a {@link PushConfirmed}; a
 * frame whose header or body is wrong becomes a {@link Rejected} that names the problem (BAD_REQUEST, TOO_LARGE,
 * UNSUPPORTED_VERSION; INTERNAL for a decoding bug, logged), answered in its turn. Every frame is released here.
 */
public final class RequestDecoder extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(RequestDecoder.class);

    private final BinaryTransportCodec codec;
    private final ServerCounters counters;

    /** A decoder that gives every request its own copy of its body. */
    public RequestDecoder(BinaryTransportCodec codec, ServerCounters counters) {
        this.codec = codec;
        this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof InvalidFrame invalid) {
            counters.invalidFrames.increment();
            ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(invalid.opcode(), invalid.requestId(), invalid.status(),
                    invalid.message()), invalid.fatal()));
            return;
        }
        if (!(msg instanceof Frame frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (frame.isResponse()) {
                if (frame.opcode() == Opcodes.INVALIDATE) {
                    ctx.fireChannelRead(new PushConfirmed(frame.requestId(), frame.flags()));
                } else {
                    counters.requests.increment();
                    counters.errors.increment();
                    ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(frame.opcode(), frame.requestId(),
                            Status.BAD_REQUEST, Opcodes.name(frame.opcode()) + ": a client sent an answer frame (flags 0x"
                            + Integer.toHexString(frame.flags()) + ")"), false));
                }
                return;
            }
            counters.requests.increment();
            MasterRequest<?> request;
            try {
                request = MasterRequest.decode(frame, codec);
            } catch (MalformedMessageException e) {
                counters.errors.increment();
                ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(frame.opcode(), frame.requestId(), e.status(),
                        Opcodes.name(frame.opcode()) + ": " + e.getMessage()), false));
                return;
            } catch (RuntimeException e) {
                counters.internalErrors.increment();
                log.error("{} request could not be decoded on {}", Opcodes.name(frame.opcode()), ctx.channel(), e);
                ctx.fireChannelRead(new Rejected(new MasterAnswer.Error(frame.opcode(), frame.requestId(), Status.INTERNAL,
                        Opcodes.name(frame.opcode()) + " failed: " + e), false));
                return;
            }
            ctx.fireChannelRead(new Received(frame.requestId(), request));
        } finally {
            frame.release();
        }
    }
}
