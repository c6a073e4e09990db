package io.sessionmesh.wire.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.ReferenceCounted;

/**
 * One decoded frame: its header fields and its body. The body is a retained slice of the read buffer: whoever
 * takes a frame out of the pipeline releases it.
 */
public final class Frame extends AbstractReferenceCounted {
    private final int opcode;
    private final int flags;
    private final int status;
    private final int requestId;
    private final ByteBuf body;

    public Frame(int opcode, int flags, int status, int requestId, ByteBuf body) {
        this.opcode = opcode;
        this.flags = flags;
        this.status = status;
        this.requestId = requestId;
        this.body = body;
    }

    public int opcode() {
        return opcode;
    }

    public int flags() {
        return flags;
    }

    public int status() {
        return status;
    }

    public int requestId() {
        return requestId;
    }

    public ByteBuf body() {
        return body;
    }

    public boolean isResponse() {
        return (flags & FrameHeader.FLAG_RESPONSE) != 0;
    }

    public boolean isPush() {
        return (flags & FrameHeader.FLAG_PUSH) != 0;
    }

    @Override
    protected void deallocate() {
        body.release();
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        body.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "Frame[" + Opcodes.name(opcode) + ", id " + Integer.toUnsignedString(requestId) + ", flags 0x"
                + Integer.toHexString(flags) + ", status " + status + ", " + body.readableBytes() + " body bytes]";
    }
}
