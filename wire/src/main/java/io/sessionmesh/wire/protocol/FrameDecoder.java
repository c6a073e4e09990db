package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Splits a byte stream into {@link Frame}s, as an explicit state machine: header, body, skip, broken. Every
 * length is checked against {@code maxBodyBytes} before a byte of the body is buffered.
 *
 * <ul>
 *   <li>A body over the limit, or a must-understand flag this peer does not know: an {@link InvalidFrame}
 *   with the frame's request id, then the body is skipped as it arrives (never buffered) and decoding goes on:
 *   the connection stays usable.</li>
 *   <li>A wrong magic or version: the stream cannot be framed any more. A fatal {@link InvalidFrame}, then
 *   every further byte is dropped; the handler answers and closes.</li>
 * </ul>
 *
 * @see "PROTOCOL.md, section 3"
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private enum State { HEADER, BODY, SKIP, BROKEN }

    private final int maxBodyBytes;
    private State state = State.HEADER;
    private int opcode;
    private int flags;
    private int status;
    private int requestId;
    private long remaining;

    /** @param maxBodyBytes the largest body accepted; a larger one is answered TOO_LARGE and skipped */
    public FrameDecoder(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (true) {
            switch (state) {
                case HEADER -> {
                    if (in.readableBytes() < FrameHeader.BYTES) {
                        return;
                    }
                    readHeader(in, out);
                }
                case BODY -> {
                    if (in.readableBytes() < remaining) {
                        return;
                    }
                    out.add(new Frame(opcode, flags, status, requestId, in.readRetainedSlice((int) remaining)));
                    state = State.HEADER;
                }
                case SKIP -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    in.skipBytes(n);
                    remaining -= n;
                    if (remaining > 0) {
                        return;
                    }
                    state = State.HEADER;
                }
                case BROKEN -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
    }

    private void readHeader(ByteBuf in, List<Object> out) {
        int at = in.readerIndex();
        int magic = in.getInt(at);
        int version = in.getUnsignedByte(at + FrameHeader.VERSION_OFFSET);
        opcode = in.getUnsignedByte(at + FrameHeader.OPCODE_OFFSET);
        flags = in.getUnsignedByte(at + FrameHeader.FLAGS_OFFSET);
        status = in.getUnsignedByte(at + FrameHeader.STATUS_OFFSET);
        requestId = in.getInt(at + FrameHeader.REQUEST_ID_OFFSET);
        remaining = in.getUnsignedInt(at + FrameHeader.LENGTH_OFFSET);
        in.skipBytes(FrameHeader.BYTES);
        if (magic != FrameHeader.MAGIC) {
            state = State.BROKEN;
            out.add(new InvalidFrame(0, 0, Status.BAD_REQUEST, String.format(
                    "magic 0x%08X is not 0x%08X (\"SMMF\"): not a SessionMesh master frame; closing", magic, FrameHeader.MAGIC), true));
        } else if (version != FrameHeader.VERSION) {
            state = State.BROKEN;
            out.add(new InvalidFrame(requestId, opcode, Status.UNSUPPORTED_VERSION, "frame version " + version
                    + " is not supported; this peer speaks version " + FrameHeader.VERSION + "; closing", true));
        } else if (remaining > maxBodyBytes) {
            state = State.SKIP;
            out.add(new InvalidFrame(requestId, opcode, Status.TOO_LARGE, "frame body of " + remaining
                    + " bytes is above the limit of " + maxBodyBytes + "; skipped", false));
        } else if ((flags & FrameHeader.MUST_UNDERSTAND_FLAGS & ~(FrameHeader.FLAG_RESPONSE | FrameHeader.FLAG_PUSH
                | (opcode == Opcodes.CREATE ? FrameHeader.FLAG_REQUESTED_ID : 0)
                | (opcode == Opcodes.WRITE ? FrameHeader.FLAG_WRITE_ID : 0))) != 0) {
            state = State.SKIP;
            out.add(new InvalidFrame(requestId, opcode, Status.UNSUPPORTED_VERSION, String.format(
                    "must-understand flags 0x%02X are unknown to this peer; skipped", flags & FrameHeader.MUST_UNDERSTAND_FLAGS), false));
        } else {
            state = State.BODY;
        }
    }
}
