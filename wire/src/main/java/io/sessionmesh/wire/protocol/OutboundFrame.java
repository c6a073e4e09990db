package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.BinaryTransportCodec;

import io.netty.buffer.ByteBuf;

/**
 * A frame on its way out, in typed form: its header fields and a body that writes itself. {@link FrameEncoder} turns
 * it into bytes. Requests (client), answers (master), pushes and push confirmations all are frames of this kind.
 */
public interface OutboundFrame {
    int opcode();

    /** {@link FrameHeader#FLAG_RESPONSE} on answers and push confirmations, {@link FrameHeader#FLAG_PUSH} on pushes. */
    int flags();

    /** 0 in requests and pushes; a {@link io.sessionmesh.wire.transport.Status} code in answers. */
    int status();

    int requestId();

    /** Bytes of the body; transport-message bodies are sized by {@code codec}. */
    int bodySize(BinaryTransportCodec codec);

    /** Writes exactly {@link #bodySize} bytes at {@code out}'s writer index, which has room for them. */
    void writeBody(ByteBuf out, BinaryTransportCodec codec);

    /**
     * {@link #writeBody(ByteBuf, BinaryTransportCodec)} when {@code bodySize} is what {@link #bodySize} just returned:
     * a frame whose body is costly to size uses it instead of sizing again ({@link FrameEncoder} calls this one).
     */
    default void writeBody(ByteBuf out, BinaryTransportCodec codec, int bodySize) {
        writeBody(out, codec);
    }

    /** Whether this is an answer to a request (which flow control counts until it is on the socket). */
    default boolean isAnswer() {
        return (flags() & FrameHeader.FLAG_RESPONSE) != 0 && opcode() != Opcodes.INVALIDATE;
    }
}
