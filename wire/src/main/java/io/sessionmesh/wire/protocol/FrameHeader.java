package io.sessionmesh.wire.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The 16-byte header of every master frame, requests, answers and pushes alike.
 *
 * <pre>
 *  0          4         5        6       7        8             12            16
 *  +----------+---------+--------+-------+--------+-------------+-------------+------------------+
 *  | magic    | version | opcode | flags | status | request id  | body length | body             |
 *  | "SMMF"   | 1       |        |       |        | uint32, BE  | uint32, BE  | (length bytes)   |
 *  +----------+---------+--------+-------+--------+-------------+-------------+------------------+
 * </pre>
 *
 * Flags: {@link #FLAG_RESPONSE} on every answer; {@link #FLAG_REQUESTED_ID} (CREATE) and {@link #FLAG_WRITE_ID} (WRITE)
 * share one bit; the low nibble is must-understand (an unknown bit is
 * UNSUPPORTED_VERSION), the high nibble ignorable. Status: 0 in requests; in answers a code of
 * {@link io.sessionmesh.wire.transport.Status}, and when it is not OK the body is a UTF-8 message.
 *
 * @see "PROTOCOL.md, section 3"
 */
public final class FrameHeader {
    /** "SMMF", SessionMesh Master Frame. */
    public static final int MAGIC = 0x534D4D46;
    /** The frame format version this peer reads and writes. */
    public static final int VERSION = 1;
    /** Bytes of the header. */
    public static final int BYTES = 16;
    /** Set on every answer to a request. */
    public static final int FLAG_RESPONSE = 0x01;
    /** Set on a frame the master sends unasked (an INVALIDATE), with a push id of its own in the request id field. */
    public static final int FLAG_PUSH = 0x02;
    /**
     * On a WRITE request, ignorable: answer with the whole sections the write made, at their new versions, where a
     * version is above 1 (PROTOCOL.md 3.2, the writer's own copy in 3.7). A master that does not know it answers as
     * without it.
     */
    public static final int FLAG_WHOLE_SECTIONS = 0x10;
    /**
     * On a CREATE request, must-understand: the body starts with the id the session must have (PROTOCOL.md 3.2). A
     * must-understand bit, not an ignorable one: a master that skipped it would make the session under an id of its own
     * while the application goes on using the one it chose. On any other opcode it is UNSUPPORTED_VERSION.
     */
    public static final int FLAG_REQUESTED_ID = 0x04;
    /**
     * On a WRITE request, must-understand: the body starts with the write's {@link WriteId} (16 bytes), which the master
     * remembers with the write's versions, so that the same write sent again is applied once (PROTOCOL.md 3.12). The
     * same bit as {@link #FLAG_REQUESTED_ID}, whose meaning is CREATE's only: on each opcode the bit says "the body starts
     * with an id". Must-understand: a master that skipped it would apply a retried write twice; one that does not know it
     * answers UNSUPPORTED_VERSION, and the sender sends the write without it.
     */
    public static final int FLAG_WRITE_ID = 0x04;
    /** Flags a reader must understand. */
    public static final int MUST_UNDERSTAND_FLAGS = 0x0F;
    /** The most a PING body may carry. */
    public static final int MAX_PING_BYTES = 256;
    /** The most an error message may carry, in UTF-8 bytes. */
    public static final int MAX_ERROR_MESSAGE_BYTES = 4096;

    static final int VERSION_OFFSET = 4;
    static final int OPCODE_OFFSET = 5;
    static final int FLAGS_OFFSET = 6;
    /** Where a header's status byte sits (PROTOCOL.md 3.1): what a client that only counts answers reads. */
    public static final int STATUS_OFFSET = 7;
    static final int REQUEST_ID_OFFSET = 8;
    public static final int LENGTH_OFFSET = 12;

    private FrameHeader() {
    }

    /** Writes a header at the writer index. */
    public static void write(ByteBuf out, int opcode, int flags, int status, int requestId, int bodyLength) {
        // Two 8-byte writes, big-endian as the fields are: one capacity check each, not seven.
        int kind = (VERSION & 0xFF) << 24 | (opcode & 0xFF) << 16 | (flags & 0xFF) << 8 | (status & 0xFF);
        out.writeLong((long) MAGIC << 32 | (kind & 0xFFFF_FFFFL));
        out.writeLong((long) requestId << 32 | (bodyLength & 0xFFFF_FFFFL));
    }
}
