package io.sessionmesh.master.handler;

import io.sessionmesh.master.coherence.Fence;
import io.sessionmesh.master.store.SessionStore;
import io.sessionmesh.wire.protocol.Frame;
import io.sessionmesh.wire.protocol.FrameHeader;
import io.sessionmesh.wire.protocol.MasterAnswer;
import io.sessionmesh.wire.protocol.MasterRequest;
import io.sessionmesh.wire.protocol.Opcodes;
import io.sessionmesh.wire.protocol.OutboundFrame;
import io.sessionmesh.wire.protocol.SessionTimes;
import io.sessionmesh.wire.protocol.WriteBodyLender;
import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.EncodedWrite;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The usual WRITE, handled where its frame arrives: decoded from the loop's {@link WriteBodyLender} array, applied to
 * the store and answered with a WRITE_RESULT copied from the request's own bytes (its session id and section names,
 * then the new versions), in one call. It goes through none of the handlers a request otherwise passes on its way to
 * {@link DataHandler} ({@link RequestDecoder}, {@link PushHandler}, {@link FlowControlHandler},
 * {@link RegistrationHandler}): on the write benchmark they and the objects between them were about a tenth of the
 * master's work (benchmarks/RESULTS.md, 12.18).
 *
 * <p>The same outcome as the way through those handlers, answer for answer and byte for byte:
 * <ul>
 *   <li>Only a WRITE request with no frame flag is taken here. Everything else passes on unchanged, and so does a WRITE
 *   that flow control would refuse ({@link FlowControlHandler#full()}), that asks for whole sections, whose body is
 *   not lent (over {@link WriteBodyLender#MAX_LENT_BYTES}) or does not decode (the request decoder decodes it again and
 *   names what is wrong).</li>
 *   <li>The usual answer (no other cache to tell first) goes straight to the encoder, and flow control counts it
 *   ({@link FlowControlHandler#made}, {@link FlowControlHandler#checkOutbound}). An answer that must wait for a fence,
 *   and an error, are written from the data handler's place in the pipeline, so that they pass flow control and the
 *   pushes handler, which holds a fenced one back (it is then a {@link MasterAnswer.Write} that owns its strings: the
 *   array goes back before the fence is done).</li>
 *   <li>The registration is the connection's: a registered cache's write makes it the holder of what it wrote.</li>
 *   <li>A store error is answered with its status, as {@link DataHandler} answers it.</li>
 *   <li>The writes of one read are applied at one reading of the store's clock, taken at its first write (again after
 *   {@link #MAX_WRITES_PER_CLOCK_READING} writes), where the data handler reads it for each: the same millisecond but
 *   for a read that spans one.</li>
 * </ul>
 * Only in a master on its own: a replica's writes wait for the group's log, which outlives this call
 * ({@link GroupDataHandler}).
 */
public final class WriteLane extends ChannelInboundHandlerAdapter {
    private final SessionStore store;
    private final ConnectionRegistration registration;
    private final FlowControlHandler flow;
    private final ServerCounters counters;
    private final BinaryTransportCodec codec;
    /**
     * The most writes one clock reading serves: the writes of one read share the reading taken at its first write, and
     * a read that brings more reads the clock again. A write's time is then at most the time the writes before it in
     * its read took (tens of microseconds for a batch of 16; the store's clock counts milliseconds); a session's last
     * use never goes back for it.
     */
    public static final int MAX_WRITES_PER_CLOCK_READING = 64;
    /** The store's clock as read at the current read's first write: valid while {@link #writesLeftOnReading} > 0. */
    private long clockReading;
    /** Writes {@link #clockReading} may still serve; 0: read the clock at the next write. */
    private int writesLeftOnReading;
    /** The data handler's context: answers written from it pass flow control, the pushes handler and the encoder. */
    private ChannelHandlerContext answers;

    public WriteLane(SessionStore store, ConnectionRegistration registration, FlowControlHandler flow,
                     ServerCounters counters, BinaryTransportCodec codec) {
        this.store = store;
        this.registration = registration;
        this.flow = flow;
        this.counters = counters;
        this.codec = codec;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame frame) || frame.opcode() != Opcodes.WRITE || frame.flags() != 0 || flow.full()) {
            ctx.fireChannelRead(msg);
            return;
        }
        ChannelHandlerContext out = answers(ctx);
        if (out == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        WriteBodyLender lender = WriteBodyLender.current();
        MasterRequest.Write write;
        try {
            write = lender.decode(frame, codec);
        } catch (RuntimeException e) {
            write = null; // the request decoder decodes it again, and answers what is wrong with it
        } catch (Error e) {
            frame.release();
            throw e;
        }
        if (write == null) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            try {
                answer(ctx, out, frame.requestId(), write);
            } finally {
                lender.giveBack(write);
            }
        } finally {
            frame.release();
        }
    }

    /** Applies {@code write} and answers it, while its array is still lent. */
    private void answer(ChannelHandlerContext ctx, ChannelHandlerContext out, int id, MasterRequest.Write write) {
        counters.requests.increment();
        SessionStore.Written written;
        try {
            written = store.write(write.message(), registration.holderBit(), registration.invalidator(), clockReading());
        } catch (RuntimeException e) {
            // through flow control and the pushes handler, as the data handler answers it
            out.write(DataHandler.errorAnswer(counters, Opcodes.WRITE, id, e), out.voidPromise());
            return;
        }
        Fence fence = written.fence();
        if (fence == null || fence.isDone()) {
            // the usual answer: straight to the encoder, which encodes it now, before the array goes back
            flow.made();
            ctx.write(new Answer(id, written.write(), written.versions(), written.times()), ctx.voidPromise());
            flow.checkOutbound(ctx);
        } else {
            // held back by the pushes handler until the fence is done, long after the array went back: it owns its strings
            out.write(new FencedAnswer(new MasterAnswer.Write(id, written.result(), written.times()), fence),
                    out.voidPromise());
        }
    }

    /**
     * The store's time for a write of this read: read once for the read's first {@link #MAX_WRITES_PER_CLOCK_READING}
     * writes (a clock reading was 2% of the master's event loop on the write benchmark, one a write).
     */
    private long clockReading() {
        if (writesLeftOnReading == 0) {
            clockReading = store.now();
            writesLeftOnReading = MAX_WRITES_PER_CLOCK_READING;
        }
        writesLeftOnReading--;
        return clockReading;
    }

    /** The read is over: the next one reads the clock again. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writesLeftOnReading = 0;
        ctx.fireChannelReadComplete();
    }

    /** A read that failed may end without {@link #channelReadComplete}: the next one reads the clock again all the same. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        writesLeftOnReading = 0;
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        writesLeftOnReading = 0;
        ctx.fireChannelInactive();
    }

    /** The data handler's context, or null when this pipeline has none (then every request passes on). */
    private ChannelHandlerContext answers(ChannelHandlerContext ctx) {
        ChannelHandlerContext found = answers;
        if (found == null || found.isRemoved()) {
            answers = found = ctx.pipeline().context(DataHandler.class);
        }
        return found;
    }

    /**
     * A WRITE's answer, encoded from the request's bytes ({@link BinaryTransportCodec#encodeWriteResult}): the same
     * bytes as a {@link MasterAnswer.Write} without whole sections. Usable only while the request's array is lent: the
     * encoder encodes it within the lane's write, and a use after the array went back throws rather than reading
     * another request's bytes.
     */
    record Answer(int requestId, EncodedWrite write, long[] versions, SessionTimes times) implements OutboundFrame {
        @Override
        public int opcode() {
            return Opcodes.WRITE;
        }

        @Override
        public int flags() {
            return FrameHeader.FLAG_RESPONSE;
        }

        @Override
        public int status() {
            return Status.OK;
        }

        @Override
        public int bodySize(BinaryTransportCodec codec) {
            return codec.writeResultSize(write, versions) + SessionTimes.BYTES;
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec) {
            writeBody(out, codec, bodySize(codec));
        }

        @Override
        public void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
            int result = bodySize - SessionTimes.BYTES;
            // the buffer's own reusable view (a batch is one buffer), not a new one for 40 bytes
            java.nio.ByteBuffer view = out.nioBufferCount() == 1 ? out.internalNioBuffer(out.writerIndex(), result)
                    : out.nioBuffer(out.writerIndex(), result);
            codec.encodeWriteResult(write, versions, result, view);
            out.writerIndex(out.writerIndex() + result);
            times.writeTo(out);
        }
    }
}
