package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;

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
 * passes {@value #BATCH_BYTES} bytes, and at the end of each read ({@code channelReadComplete}, then a flush), so a
 * handler answers with {@code ctx.write} and never flushes itself. A frame of {@value #LARGE_FRAME} bytes or more goes
 * in a buffer of its own, after the batch before it, instead of being copied into the batch. Buffers are direct: a
 * heap buffer would be copied into a direct one on its way to the socket.
 *
 * <p>Promises: a frame written with a void promise costs nothing more; the real promises of a batch's frames complete
 * together when the batch's write does. A {@link Listener} learns how many answers each completed write carried (the
 * master's flow control counts answers until they are on the socket).
 *
 * @see "PROTOCOL.md, section 3"
 */
public final class FrameEncoder extends ChannelDuplexHandler {
    /** Frames are gathered into a buffer of about this size before it is written. */
    public static final int BATCH_BYTES = 16 << 10;
    /** A frame at least this large is written in a buffer of its own, not copied into the batch. */
    public static final int LARGE_FRAME = 8 << 10;

    /** Told, on the event loop, when a write of answers has completed (on the socket, or failed). */
    @FunctionalInterface
    public interface Listener {
        void answersWritten(int answers);
    }

    private final BinaryTransportCodec codec;
    private final Listener listener;
    private ByteBuf batch;
    private int batchAnswers;
    /** The real promises of the frames in the batch (void ones are not kept). */
    private List<ChannelPromise> promises;

    /** @param listener told of written answers; null when nobody counts them */
    public FrameEncoder(BinaryTransportCodec codec, Listener listener) {
        this.codec = codec;
        this.listener = listener;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof OutboundFrame frame)) {
            writeBatch(ctx);
            ctx.write(msg, promise);
            return;
        }
        int size;
        try {
            size = frame.bodySize(codec);
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            return;
        }
        int answers = frame.isAnswer() ? 1 : 0;
        if (FrameHeader.BYTES + size >= LARGE_FRAME) {
            writeBatch(ctx);
            ByteBuf own = ctx.alloc().directBuffer(FrameHeader.BYTES + size);
            if (append(own, frame, size, promise)) {
                writeOut(ctx, own, answers, promise.isVoid() ? null : List.of(promise));
            } else {
                own.release();
            }
            return;
        }
        if (batch == null) {
            batch = ctx.alloc().directBuffer(BATCH_BYTES);
        }
        if (!append(batch, frame, size, promise)) {
            return;
        }
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

    /** Header and body at the writer index; on a body that fails to encode, nothing is left behind and false. */
    private boolean append(ByteBuf out, OutboundFrame frame, int size, ChannelPromise promise) {
        int start = out.writerIndex();
        try {
            out.ensureWritable(FrameHeader.BYTES + size);
            FrameHeader.write(out, frame.opcode(), frame.flags(), frame.status(), frame.requestId(), size);
            frame.writeBody(out, codec);
            if (out.writerIndex() - start != FrameHeader.BYTES + size) {
                throw new IllegalStateException(Opcodes.name(frame.opcode()) + " wrote " + (out.writerIndex() - start
                        - FrameHeader.BYTES) + " body bytes, not the " + size + " it announced");
            }
            return true;
        } catch (RuntimeException e) {
            out.writerIndex(start);
            promise.tryFailure(e);
            return false;
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeBatch(ctx);
        ctx.flush();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        writeBatch(ctx);
        ctx.flush();
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
