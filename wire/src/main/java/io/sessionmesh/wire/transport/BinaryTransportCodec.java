package io.sessionmesh.wire.transport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * The binary form of transport messages: the hot path between client, sidecar and master. No JSON, no
 * base64: a fixed 11-byte header, then fields prefixed by unsigned varints, values as raw bytes.
 *
 * <pre>
 *  0        4         5        6        7                 11
 *  +--------+---------+--------+--------+-----------------+----------------------+
 *  | magic  | version | type   | flags  | body length     | body                 |
 *  | "SMTM" | 1       | 1..10  | flags  | uint32, BE      | (body length bytes)  |
 *  +--------+---------+--------+--------+-----------------+----------------------+
 * </pre>
 *
 * The bodies, the flags and the versioning rules are in PROTOCOL.md. Decoding checks the header, then every
 * length and count against {@link TransportLimits} and against the bytes left before allocating; anything
 * malformed becomes a {@link MalformedMessageException} with the {@link Status} to answer, never another
 * exception, a hang or a wrong value. Decoded values are copies: the input buffer may be reused at once (but see
 * {@link #decodeOwned}).
 * Encoding sizes the message first (checking the same limits) and writes
 * it with one allocation (none when writing into a caller's buffer). Thread-safe.
 *
 * @see "PROTOCOL.md, section Transport messages (serialization module)"
 */
public final class BinaryTransportCodec {
    /** "SMTM", SessionMesh Transport Message, big-endian at offset 0. */
    public static final int MAGIC = 0x534D544D;
    /** The format version this codec writes and reads; another one is {@link Status#UNSUPPORTED_VERSION}. */
    public static final int VERSION = 1;
    /** Magic, version, type, flags, body length. */
    public static final int HEADER_BYTES = 11;
    /**
     * Flag: the body continues after the fields of this version with data a reader of this version skips.
     * Without it, bytes after the last field are {@link Status#BAD_REQUEST}.
     */
    public static final int FLAG_TRAILER = 0x10;
    /** Flags a reader must understand: an unknown one is {@link Status#UNSUPPORTED_VERSION}. */
    public static final int MUST_UNDERSTAND_FLAGS = 0x0F;
    /**
     * Must-understand flag, CREATE_REQUEST only: the body ends with the session's principal (a string of 1..256 bytes).
     * Must-understand rather than a trailer because a reader that skipped it would make a session with no principal,
     * which "log out everywhere" would then miss (PROTOCOL.md 2.5). On any other type it is UNSUPPORTED_VERSION.
     */
    public static final int FLAG_PRINCIPAL = 0x01;
    /**
     * Must-understand flag, CREATE_REQUEST only: the body ends with the session id the application chose (after the
     * principal, if any). Must-understand because a reader that skipped it would make a session under another id than
     * the one the application already uses (PROTOCOL.md 2.5). On any other type it is UNSUPPORTED_VERSION.
     */
    public static final int FLAG_ID = 0x02;

    private static final int VERSION_OFFSET = 4;
    private static final int TYPE_OFFSET = 5;
    private static final int FLAGS_OFFSET = 6;
    private static final int LENGTH_OFFSET = 7;

    private final TransportLimits limits;

    /** A codec with {@link TransportLimits#DEFAULT}. */
    public BinaryTransportCodec() {
        this(TransportLimits.DEFAULT);
    }

    public BinaryTransportCodec(TransportLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    public TransportLimits limits() {
        return limits;
    }

    // ---- encoding ----

    /** The encoded size of {@code message}, header included; checks the limits as {@link #encode} does. */
    public int encodedSize(TransportMessage message) {
        return HEADER_BYTES + BinaryWriter.bodySize(message, limits);
    }

    /**
     * Encodes a message.
     *
     * @throws MalformedMessageException ({@link Status#TOO_LARGE}) if it breaks a limit
     */
    public byte[] encode(TransportMessage message) {
        int size = encodedSize(message);
        byte[] b = new byte[size];
        encode(message, size, b, 0);
        return b;
    }

    /**
     * Encodes a message into {@code dst} at its position, which advances past it.
     *
     * @return the number of bytes written
     * @throws BufferOverflowException if it does not fit; nothing is written
     * @throws MalformedMessageException ({@link Status#TOO_LARGE}) if it breaks a limit
     */
    public int encode(TransportMessage message, ByteBuffer dst) {
        int size = encodedSize(message);
        if (dst.remaining() < size) {
            throw new BufferOverflowException();
        }
        if (dst.hasArray()) {
            encode(message, size, dst.array(), dst.arrayOffset() + dst.position());
            dst.position(dst.position() + size);
        } else {
            byte[] b = new byte[size];
            encode(message, size, b, 0);
            dst.put(b);
        }
        return size;
    }

    /**
     * Encodes a message into {@code dst} at {@code off}, given its {@link #encodedSize} (which has checked the limits):
     * the one-pass form for a caller that sized the message already (a frame's body is sized before it is written).
     */
    public void encode(TransportMessage message, int encodedSize, byte[] dst, int off) {
        if (encodedSize < HEADER_BYTES || off < 0 || off > dst.length - encodedSize) {
            throw new IndexOutOfBoundsException(encodedSize + " bytes at " + off + " of " + dst.length);
        }
        putInt(dst, off, MAGIC);
        dst[off + VERSION_OFFSET] = VERSION;
        dst[off + TYPE_OFFSET] = (byte) message.type();
        dst[off + FLAGS_OFFSET] = (byte) BinaryWriter.flags(message);
        putInt(dst, off + LENGTH_OFFSET, encodedSize - HEADER_BYTES);
        int end = BinaryWriter.writeBody(message, dst, off + HEADER_BYTES);
        if (end != off + encodedSize) {
            throw new IllegalArgumentException("a message of " + (end - off) + " bytes given as " + encodedSize);
        }
    }

    /** Encodes a message onto a stream (one write call). */
    public void encode(TransportMessage message, OutputStream out) throws IOException {
        out.write(encode(message));
    }

    // ---- READ_RESULT with sections in wire form (stores and caches) ----

    /** The encoded size of a READ_RESULT of encoded sections, header included; checks the limits. */
    public int readResultSize(String sessionId, List<EncodedSection> sections) {
        return HEADER_BYTES + readResultBodySize(sessionId, sections);
    }

    private int readResultBodySize(String sessionId, List<EncodedSection> sections) {
        if (sections.size() > limits.maxSectionsPerMessage()) {
            throw new MalformedMessageException(Status.TOO_LARGE, "cannot encode: " + sections.size()
                    + " sections is above the limit of " + limits.maxSectionsPerMessage());
        }
        if (sessionId.length() > limits.maxSessionIdBytes()) {
            throw new MalformedMessageException(Status.TOO_LARGE, "cannot encode: session id of " + sessionId.length()
                    + " bytes is above the limit of " + limits.maxSessionIdBytes());
        }
        long size = BinaryWriter.varintSize(sessionId.length()) + sessionId.length() + BinaryWriter.varintSize(sections.size());
        for (EncodedSection s : sections) {
            size += s.encodedSize();
        }
        if (size > limits.maxMessageBytes() - HEADER_BYTES) {
            throw new MalformedMessageException(Status.TOO_LARGE, "cannot encode: READ_RESULT of " + (size + HEADER_BYTES)
                    + " bytes is above the limit of " + limits.maxMessageBytes());
        }
        return (int) size;
    }

    /**
     * Writes a READ_RESULT of encoded sections into {@code dst} at its position (which advances): a copy of each
     * section's bytes, nothing re-encoded. Same bytes as {@link #encode} of {@link EncodedReadResult#toReadResult()}.
     *
     * @return the number of bytes written
     * @throws BufferOverflowException if it does not fit; nothing is written
     */
    public int encodeReadResult(String sessionId, List<EncodedSection> sections, ByteBuffer dst) {
        TransportLimits.checkSessionId(sessionId);
        int body = readResultBodySize(sessionId, sections);
        int size = HEADER_BYTES + body;
        if (dst.remaining() < size) {
            throw new BufferOverflowException();
        }
        // Header, session id and count: at most 11 + 2 + 128 + 2 bytes, built in a small array.
        byte[] head = new byte[HEADER_BYTES + 2 * 5 + sessionId.length()];
        putInt(head, 0, MAGIC);
        head[VERSION_OFFSET] = VERSION;
        head[TYPE_OFFSET] = MessageTypes.READ_RESULT;
        head[FLAGS_OFFSET] = 0;
        putInt(head, LENGTH_OFFSET, body);
        int pos = BinaryWriter.writeVarint(sessionId.length(), head, HEADER_BYTES);
        for (int i = 0; i < sessionId.length(); i++) {
            head[pos++] = (byte) sessionId.charAt(i);
        }
        pos = BinaryWriter.writeVarint(sections.size(), head, pos);
        int start = dst.position();
        dst.put(head, 0, pos);
        for (EncodedSection s : sections) {
            s.writeTo(dst);
        }
        assert dst.position() - start == size : "sized " + size + ", wrote " + (dst.position() - start);
        return size;
    }

    /** A READ_RESULT of encoded sections as a new array. */
    public byte[] encodeReadResult(EncodedReadResult result) {
        byte[] b = new byte[readResultSize(result.sessionId(), result.sections())];
        encodeReadResult(result.sessionId(), result.sections(), ByteBuffer.wrap(b));
        return b;
    }

    /**
     * Decodes a READ_RESULT that is exactly {@code length} bytes at {@code offset}, keeping each section in its
     * wire form. Checks everything {@link #decode} checks (and fails the same way); copies each section once.
     */
    public EncodedReadResult decodeEncodedReadResult(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        if (length < HEADER_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "message of " + length + " bytes is shorter than the "
                    + HEADER_BYTES + "-byte header");
        }
        int body = checkHeader(data, offset);
        int type = data[offset + TYPE_OFFSET];
        if (type != MessageTypes.READ_RESULT) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "message type " + MessageTypes.name(type)
                    + " at offset " + TYPE_OFFSET + ", expected READ_RESULT");
        }
        if (body != length - HEADER_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "body length " + body + " at offset " + LENGTH_OFFSET
                    + " but " + (length - HEADER_BYTES) + " bytes follow the header");
        }
        BinaryReader reader = new BinaryReader(data, offset, offset + HEADER_BYTES, offset + length, type, limits);
        EncodedReadResult result = reader.readEncodedReadResult();
        if (reader.remaining() != 0 && (data[offset + FLAGS_OFFSET] & FLAG_TRAILER) == 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "READ_RESULT: " + reader.remaining()
                    + " bytes after the last field at offset " + reader.offset() + ", and no trailer flag");
        }
        return result;
    }

    // ---- framing ----

    /**
     * The total length of the message that starts at {@code buf}'s position, from its header, for a stream
     * framer; -1 if fewer than {@value #HEADER_BYTES} bytes are there. The buffer is not moved.
     *
     * @throws MalformedMessageException if the header is bad or declares more than the message limit
     */
    public int frameLength(ByteBuffer buf) {
        if (buf.remaining() < HEADER_BYTES) {
            return -1;
        }
        if (buf.hasArray()) {
            return HEADER_BYTES + checkHeader(buf.array(), buf.arrayOffset() + buf.position());
        }
        byte[] header = new byte[HEADER_BYTES];
        buf.get(buf.position(), header);
        return HEADER_BYTES + checkHeader(header, 0);
    }

    // ---- decoding ----

    /** Decodes one message that fills the whole array. */
    public TransportMessage decode(byte[] data) {
        return decode(data, 0, data.length, 0);
    }

    /** Decodes one message that is exactly {@code length} bytes at {@code offset}. */
    public TransportMessage decode(byte[] data, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, data.length);
        return decode(data, offset, length, 0);
    }

    /**
     * Decodes one message that is exactly the buffer's remaining bytes; on success the position moves to the
     * limit, on failure it stays. A direct buffer is copied to the heap once.
     */
    public TransportMessage decode(ByteBuffer data) {
        return decode(data, 0);
    }

    /** Decodes one message that fills the whole array and must be of the given class. */
    public <T extends TransportMessage> T decode(byte[] data, Class<T> type) {
        return type.cast(decode(data, 0, data.length, MessageTypes.of(type)));
    }

    /**
     * As {@link #decode(byte[], Class)}, for an array the caller hands over and will not touch again: the result may
     * keep it instead of a copy (a decoded {@link WriteRequest} keeps its body as its {@link EncodedWrite}).
     */
    public <T extends TransportMessage> T decodeOwned(byte[] data, Class<T> type) {
        return type.cast(decode(data, 0, data.length, MessageTypes.of(type), OWNED));
    }

    /** As {@link #decode(ByteBuffer)}, for a message that must be of the given class. */
    public <T extends TransportMessage> T decode(ByteBuffer data, Class<T> type) {
        return type.cast(decode(data, MessageTypes.of(type)));
    }

    private TransportMessage decode(ByteBuffer data, int expectedType) {
        int n = data.remaining();
        TransportMessage m;
        if (data.hasArray()) {
            m = decode(data.array(), data.arrayOffset() + data.position(), n, expectedType);
        } else {
            if (n > limits.maxMessageBytes()) {
                throw new MalformedMessageException(Status.TOO_LARGE, "message of " + n + " bytes is above the limit of "
                        + limits.maxMessageBytes());
            }
            byte[] copy = new byte[n];
            data.get(data.position(), copy);
            m = decode(copy, 0, n, expectedType);
        }
        data.position(data.limit());
        return m;
    }

    private TransportMessage decode(byte[] b, int off, int len, int expectedType) {
        return decode(b, off, len, expectedType, COPIED);
    }

    /** How {@link #decode(byte[], int, int, int, int)} may keep its input: copied, or owned (handed over). */
    private static final int COPIED = 0;
    private static final int OWNED = 1;

    private TransportMessage decode(byte[] b, int off, int len, int expectedType, int holding) {
        if (len < HEADER_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "message of " + len + " bytes is shorter than the "
                    + HEADER_BYTES + "-byte header");
        }
        int body = checkHeader(b, off);
        int type = b[off + TYPE_OFFSET];
        if (expectedType != 0 && type != expectedType) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "message type " + MessageTypes.name(type)
                    + " at offset " + TYPE_OFFSET + ", expected " + MessageTypes.name(expectedType));
        }
        if (body != len - HEADER_BYTES) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "body length " + body + " at offset " + LENGTH_OFFSET
                    + (body > len - HEADER_BYTES ? " but only " + (len - HEADER_BYTES) + " bytes follow the header (truncated?)"
                            : " but " + (len - HEADER_BYTES - body) + " bytes follow the message (trailing garbage)"));
        }
        BinaryReader reader = new BinaryReader(b, off, off + HEADER_BYTES, off + len, type, limits);
        if (holding == OWNED) {
            reader.owned();
        }
        TransportMessage m = reader.readBody((b[off + FLAGS_OFFSET] & FLAG_PRINCIPAL) != 0, (b[off + FLAGS_OFFSET] & FLAG_ID) != 0);
        if (reader.remaining() != 0 && (b[off + FLAGS_OFFSET] & FLAG_TRAILER) == 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, MessageTypes.name(type) + ": " + reader.remaining()
                    + " bytes after the last field at offset " + reader.offset() + ", and no trailer flag");
        }
        return m;
    }

    /** Checks magic, version, type and flags; returns the body length, within the message limit. */
    private int checkHeader(byte[] b, int off) {
        int magic = getInt(b, off);
        if (magic != MAGIC) {
            throw new MalformedMessageException(Status.BAD_REQUEST, String.format(
                    "magic 0x%08X at offset 0, expected 0x%08X (\"SMTM\"): not a SessionMesh transport message", magic, MAGIC));
        }
        int version = b[off + VERSION_OFFSET] & 0xFF;
        if (version != VERSION) {
            throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "format version " + version + " at offset "
                    + VERSION_OFFSET + "; this peer reads version " + VERSION);
        }
        int type = b[off + TYPE_OFFSET] & 0xFF;
        if (!MessageTypes.isKnown(type)) {
            throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "message type " + type + " at offset "
                    + TYPE_OFFSET + " is unknown to this peer (format version " + VERSION + ")");
        }
        int flags = b[off + FLAGS_OFFSET] & 0xFF;
        int unknown = flags & MUST_UNDERSTAND_FLAGS & ~(type == MessageTypes.CREATE_REQUEST ? FLAG_PRINCIPAL | FLAG_ID : 0);
        if (unknown != 0) {
            throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, String.format(
                    "must-understand flags 0x%02X at offset %d are unknown to this peer on %s", unknown, FLAGS_OFFSET,
                    MessageTypes.name(type)));
        }
        long body = getInt(b, off + LENGTH_OFFSET) & 0xFFFFFFFFL;
        if (body > limits.maxMessageBytes() - HEADER_BYTES) {
            throw new MalformedMessageException(Status.TOO_LARGE, "body length " + body + " at offset " + LENGTH_OFFSET
                    + " is above the limit of " + (limits.maxMessageBytes() - HEADER_BYTES) + " (message limit "
                    + limits.maxMessageBytes() + ")");
        }
        return (int) body;
    }

    private static int getInt(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    private static void putInt(ByteBuffer dst, int v) {
        dst.put((byte) (v >>> 24)).put((byte) (v >>> 16)).put((byte) (v >>> 8)).put((byte) v);
    }

    private static void putInt(byte[] b, int i, int v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }
}
