package io.sessionmesh.master.protocol;

import io.sessionmesh.serialization.transport.MalformedMessageException;
import io.sessionmesh.serialization.transport.Status;

import io.netty.buffer.ByteBuf;

import java.util.UUID;

/**
 * REGISTER (PROTOCOL.md 3.7): a cache in front of the master (a sidecar) names itself on a connection, so that
 * the master tracks what it reads there and tells it when that changes. One of its connections to a master is its
 * control connection: invalidations are pushed there, and the answers to its REGISTER and PINGs there grant its
 * lease.
 *
 * <pre>
 * request: | holder id: 16 bytes (a UUID, most significant half first) | flags: u8 (0x01 CONTROL) |
 * answer:  | lease ms: u32 | slot: u8 (0..62 its own, 63 shared) |
 * </pre>
 */
public final class Registration {
    /** Bytes of a REGISTER body. */
    public static final int REQUEST_BYTES = 17;
    /** Bytes of a REGISTER answer. */
    public static final int ANSWER_BYTES = 5;
    /** Flag: this is the holder's control connection. */
    public static final int FLAG_CONTROL = 0x01;

    private Registration() {
    }

    /** A REGISTER request body. */
    public static ByteBuf writeRequest(ByteBuf out, UUID holder, boolean control) {
        return out.writeLong(holder.getMostSignificantBits()).writeLong(holder.getLeastSignificantBits())
                .writeByte(control ? FLAG_CONTROL : 0);
    }

    /** What a REGISTER asks. */
    public record Request(UUID holder, boolean control) {
    }

    /** Reads a REGISTER body; BAD_REQUEST if it is not 17 bytes or sets an unknown flag. */
    public static Request readRequest(ByteBuf body) {
        if (body.readableBytes() != REQUEST_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "body of " + body.readableBytes()
                    + " bytes: expected a 16-byte holder id and a flags byte");
        }
        int at = body.readerIndex();
        int flags = body.getUnsignedByte(at + 16);
        if ((flags & ~FLAG_CONTROL) != 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "unknown flags 0x" + Integer.toHexString(flags));
        }
        return new Request(new UUID(body.getLong(at), body.getLong(at + 8)), (flags & FLAG_CONTROL) != 0);
    }

    /** What the master answered. */
    public record Answer(long leaseMillis, int slot) {
    }

    /** Reads a REGISTER answer (later versions may add bytes at the end). */
    public static Answer readAnswer(ByteBuf body) {
        if (body.readableBytes() < ANSWER_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "REGISTER answer of " + body.readableBytes() + " bytes");
        }
        return new Answer(body.getUnsignedInt(body.readerIndex()), body.getUnsignedByte(body.readerIndex() + 4));
    }
}
