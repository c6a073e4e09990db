package io.sessionmesh.wire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * A session's idle timeout and the time left before its maximum lifetime ends, as the master saw them when it
 * answered (PROTOCOL.md 3.2): the last 8 bytes of every READ and WRITE answer and the whole of a TOUCH answer. A
 * cache must not keep a session longer than its master does.
 *
 * @param idleTimeoutMillis uint32 on the wire (saturated); 0 when the session is gone
 * @param lifetimeLeftMillis uint32 on the wire (saturated)
 */
public record SessionTimes(long idleTimeoutMillis, long lifetimeLeftMillis) {
    /** Bytes on the wire. */
    public static final int BYTES = 8;
    /** What is sent for a session that is gone by the time the answer is made. */
    public static final SessionTimes NONE = new SessionTimes(0, 0);

    /** Writes both times, each uint32, saturated. */
    public void writeTo(ByteBuf out) {
        out.writeInt((int) Math.min(idleTimeoutMillis, 0xFFFF_FFFFL));
        out.writeInt((int) Math.min(lifetimeLeftMillis, 0xFFFF_FFFFL));
    }

    /** The times at the end of {@code body}, or null when the body is too short to hold them. */
    public static SessionTimes readLast(ByteBuf body) {
        int n = body.readableBytes();
        if (n < BYTES) {
            return null;
        }
        int at = body.readerIndex() + n - BYTES;
        return new SessionTimes(body.getUnsignedInt(at), body.getUnsignedInt(at + 4));
    }

    /** {@code body} without the times at its end (the transport message of a READ or WRITE answer). */
    public static ByteBuf withoutTimes(ByteBuf body) {
        return body.readableBytes() < BYTES ? body : body.slice(body.readerIndex(), body.readableBytes() - BYTES);
    }
}
