package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link OutboundFrame}s as bytes, the typed encoder beside {@link FrameDecoder}. Frames are gathered into one
 * batch buffer until a flush (as Redis fills a reply buffer): a pipelined batch of requests is answered with one
 * buffer, one write and one syscall, not one buffer, promise and iovec per frame. A batch is also written when it
 * passes {@value #BATCH_BYTES} bytes, and, when {@code flushAtEndOfRead} (the master), at the end of each read
 * ({@code channelReadComplete}, then a flush), so a handler answering requests writes with {@code ctx.write} and lets
 * the read's end flush; what is written outside a read (a push, an answer that waited) is flushed by its writer. A
 * frame of {@value #LARGE_FRAME} bytes or more goes in a buffer of its own, after the batch before it, instead of
 * being copied into the batch. Buffers are direct: a heap buffer would be copied into a direct one on its way to the
 * socket.
 *
 * <p>Promises: a frame written with a void promise costs nothing more; the real promises of a batch's frames complete
 * together when the batch's write does. A {@link Listener} learns how many answers each completed write carried (the
 * master's flow control counts answers until they are on the socket).
 *
 * <p>An answer that cannot be encoded (a READ result over the transport limits, say) is not dropped: it is answered
 * with an error frame in its place, TOO_LARGE or BAD_REQUEST for a message the codec refuses, INTERNAL otherwise,
 * and the {@link Listener} is told. Any other frame that cannot be encoded fails its promise.
 *
 * @see "PROTOCOL.md, section 3"
 */
public final class FrameEncoder extends ChannelDuplexHandler {
    /** Frames are gathered into a buffer of about this size before it is written. */
    public static final int BATCH_BYTES = 16 << 10;
    /** A frame at least this large is written in a buffer of its own, not copied into the batch. */
    public static final int LARGE_FRAME = 8 << 10;

    /** Told, on the event loop, what became of the answers written. */
    public interface Listener {
        /** A write of {@code answers} answers has completed (on the socket, or failed). */
        void answersWritten(int answers);

        /** An answer could not be encoded and was replaced by an error answer naming why. */
        void answerFailed(OutboundFrame answer, RuntimeException cause);
    }

    private final BinaryTransportCodec codec;
    private final Listener listener;
    private final boolean flushAtEndOfRead;
    private ByteBuf batch;
    private int batchAnswers;
    /** The real promises of the frames in the batch (void ones are not kept). */
    private List<ChannelPromise> promises;

    /**
     * @param listener told of written and failed answers; null when nobody counts them
     * @param flushAtEndOfRead whether to write and flush what was written during a read once the read is done (a
     *     server answering pipelined requests); without it only {@code flush()} does (a client batching requests)
     */
    public FrameEncoder(BinaryTransportCodec codec, Listener listener, boolean flushAtEndOfRead) {
        this.codec = codec;
        this.listener = listener;
        this.flushAtEndOfRead = flushAtEndOfRead;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof OutboundFrame frame)) {
            writeBatch(ctx);
            ctx.write(msg, promise);
            return;
        }
        try {
            put(ctx, frame, promise);
        } catch (RuntimeException e) {
            if (!frame.isAnswer()) {
                promise.tryFailure(e);
                return;
            }
            put(ctx, failed(frame, e), promise); // an error answer always encodes
        }
    }

    /** Encodes a frame into the batch, or into a buffer of its own when large; on failure nothing is left behind. */
    private void put(ChannelHandlerContext ctx, OutboundFrame frame, ChannelPromise promise) {
        int size = frame.bodySize(codec);
        int answers = frame.isAnswer() ? 1 : 0;
        if (FrameHeader.BYTES + size >= LARGE_FRAME) {
            writeBatch(ctx);
            ByteBuf own = ctx.alloc().directBuffer(FrameHeader.BYTES + size);
            try {
                append(own, frame, size);
            } catch (RuntimeException e) {
                own.release();
                throw e;
            }
            writeOut(ctx, own, answers, promise.isVoid() ? null : List.of(promise));
            return;
        }
        if (batch == null) {
            batch = ctx.alloc().directBuffer(BATCH_BYTES);
        }
        append(batch, frame, size);
        batchAnswers += answers;
        if (!promise.isVoid()) {
            if (promises == null) {
                promises = new ArrayList<>(4);
            }
            promises.add(promise);
        }
        if (batch.readableBytes() >= BATCH_BYTES) {
            writeBatch(ctx);
        }
    }

    /** Header and body at the writer index; a body that fails to encode leaves nothing behind and rethrows. */
    private void append(ByteBuf out, OutboundFrame frame, int size) {
        int start = out.writerIndex();
        try {
            out.ensureWritable(FrameHeader.BYTES + size);
            FrameHeader.write(out, frame.opcode(), frame.flags(), frame.status(), frame.requestId(), size);
            frame.writeBody(out, codec, size);
            if (out.writerIndex() - start != FrameHeader.BYTES + size) {
                throw new IllegalStateException(Opcodes.name(frame.opcode()) + " wrote " + (out.writerIndex() - start
                        - FrameHeader.BYTES) + " body bytes, not the " + size + " it announced");
            }
        } catch (RuntimeException e) {
            out.writerIndex(start);
            throw e;
        }
    }

    /** The error answer that takes the place of an answer that could not be encoded. */
    private OutboundFrame failed(OutboundFrame answer, RuntimeException cause) {
        if (listener != null) {
            listener.answerFailed(answer, cause);
        }
        int status = cause instanceof MalformedMessageException m ? m.status() : Status.INTERNAL;
        return new MasterAnswer.Error(answer.opcode(), answer.requestId(), status, Opcodes.name(answer.opcode())
                + (status == Status.INTERNAL ? " failed: " + cause : ": " + cause.getMessage()));
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeBatch(ctx);
        ctx.flush();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (flushAtEndOfRead) {
            writeBatch(ctx);
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    /** Writes the batch (not flushed). */
    private void writeBatch(ChannelHandlerContext ctx) {
        ByteBuf out = batch;
        if (out == null) {
            return;
        }
        batch = null;
        int answers = batchAnswers;
        batchAnswers = 0;
        List<ChannelPromise> waiting = promises;
        promises = null;
        if (!out.isReadable()) {
            out.release();
            return;
        }
        writeOut(ctx, out, answers, waiting);
    }

    private void writeOut(ChannelHandlerContext ctx, ByteBuf out, int answers, List<ChannelPromise> waiting) {
        if (waiting == null && (listener == null || answers == 0)) {
            ctx.write(out, ctx.voidPromise());
            return;
        }
        ctx.write(out).addListener((ChannelFuture f) -> {
            if (waiting != null) {
                for (ChannelPromise p : waiting) {
                    if (f.isSuccess()) {
                        p.trySuccess();
                    } else {
                        p.tryFailure(f.cause());
                    }
                }
            }
            if (listener != null && answers > 0) {
                listener.answersWritten(answers);
            }
        });
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        if (promises != null) {
            IllegalStateException gone = new IllegalStateException("the frame encoder was removed before a flush");
            promises.forEach(p -> p.tryFailure(gone));
            promises = null;
        }
    }
}
