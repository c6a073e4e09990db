package io.sessionmesh.wire.protocol;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import io.netty.buffer.ByteBuf;

import java.util.UUID;

/**
 * REGISTER (PROTOCOL.md 3.7): a cache in front of the master (a sidecar) names itself on a connection, so that
 * the master tracks what it reads there and tells it when that changes. One of its connections to a master is its
 * control connection: invalidations are pushed there, and the answers to its REGISTER and PINGs there grant its
 * lease.
 *
 * <p>A holder numbers its control connections: a control REGISTER whose sequence is not above that of the holder's
 * current control connection is refused. Bytes of a connection the holder already gave up can reach the master late
 * (from a proxy's buffer, or a retransmission): without the sequence, such a REGISTER would take the pushes away
 * from the connection the holder actually listens on, while that connection's grants keep the holder's lease valid.
 *
 * <pre>
 * request: | holder id: 16 bytes (a UUID, most significant half first) | flags: u8 (0x01 CONTROL) |
 *          | control sequence: u32 (1, 2, ... per control connection; 0 on other connections) |
 * answer:  | lease ms: u32 | slot: u8 (0..62 its own, 63 shared) |
 * </pre>
 */
public final class Registration {
    /** Bytes of a REGISTER body. */
    public static final int REQUEST_BYTES = 21;
    /** Bytes of a REGISTER answer. */
    public static final int ANSWER_BYTES = 5;
    /** Flag: this is the holder's control connection. */
    public static final int FLAG_CONTROL = 0x01;

    private Registration() {
    }

    /** A REGISTER request body. */
    public static ByteBuf writeRequest(ByteBuf out, UUID holder, boolean control, long sequence) {
        return out.writeLong(holder.getMostSignificantBits()).writeLong(holder.getLeastSignificantBits())
                .writeByte(control ? FLAG_CONTROL : 0).writeInt((int) sequence);
    }

    /** What a REGISTER asks; {@code sequence} is unsigned (0..2^32-1). */
    public record Request(UUID holder, boolean control, long sequence) {
    }

    /**
     * Reads a REGISTER body; BAD_REQUEST if it is not 21 bytes, sets an unknown flag, or is a control REGISTER with
     * sequence 0.
     */
    public static Request readRequest(ByteBuf body) {
        if (body.readableBytes() != REQUEST_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "body of " + body.readableBytes()
                    + " bytes: expected a 16-byte holder id, a flags byte and a 4-byte control sequence");
        }
        int at = body.readerIndex();
        int flags = body.getUnsignedByte(at + 16);
        if ((flags & ~FLAG_CONTROL) != 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "unknown flags 0x" + Integer.toHexString(flags));
        }
        boolean control = (flags & FLAG_CONTROL) != 0;
        long sequence = body.getUnsignedInt(at + 17);
        if (control && sequence == 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "a control REGISTER needs a sequence above 0");
        }
        return new Request(new UUID(body.getLong(at), body.getLong(at + 8)), control, sequence);
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
