package io.sessionmesh.serialization.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The binary form of transport messages: no JSON, no base64. Layout in PROTOCOL.md, "Transport messages":
 *
 * <pre>
 * +----------------+---------+--------+-------------------+------------------------------+
 * | magic 0x534D   | version | type   | body length       | body                         |
 * | 2 bytes ("SM") | 1 byte  | 1 byte | 4 bytes, unsigned | body length bytes            |
 * +----------------+---------+--------+-------------------+------------------------------+
 * </pre>
 * Integers in the header are big-endian; in the body, counts, lengths and versions are unsigned LEB128
 * varints, strings are a varint byte length and UTF-8, values a varint length and the bytes. Decoding
 * checks every length against its {@link TransportLimits} limit and against the bytes left before it
 * allocates, and turns anything malformed into a {@link MalformedMessageException}. Thread-safe.
 */
public final class BinaryTransportCodec {
    /** "SM". */
    public static final int MAGIC = 0x534D;
    /** The format version this codec writes and reads. */
    public static final int VERSION = 1;
    /** Bytes of the header. */
    public static final int HEADER_BYTES = 8;

    private final TransportLimits limits;

    public BinaryTransportCodec(TransportLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** A codec with {@link TransportLimits#DEFAULT}. */
    public BinaryTransportCodec() {
        this(TransportLimits.DEFAULT);
    }

    public TransportLimits limits() {
        return limits;
    }

    // ------------------------------------------------------------------ encoding

    /** Encodes any model message ({@link ReadRequest}, {@link ReadResult}, ...). */
    public byte[] encode(Object message) {
        int type = MessageTypes.of(message);
        int body = bodySize(message);
        if (HEADER_BYTES + (long) body > limits.maxMessageBytes()) {
            throw MalformedMessageException.tooLarge("message of " + (HEADER_BYTES + (long) body) + " bytes is over the limit of "
                    + limits.maxMessageBytes());
        }
        BinaryWriter w = new BinaryWriter(HEADER_BYTES + body);
        w.u16(MAGIC);
        w.u8(VERSION);
        w.u8(type);
        w.i32(body);
        writeBody(message, w);
        return w.array();
    }

    private static int bodySize(Object message) {
        if (message instanceof ReadResult) {
            ReadResult r = (ReadResult) message;
            int size = BinaryWriter.stringSize(r.sessionId()) + BinaryWriter.varintSize(r.sections().size());
            for (SectionData s : r.sections()) {
                size += BinaryWriter.stringSize(s.name()) + BinaryWriter.varintSize(s.version()) + attributesSize(s.attributes());
            }
            return size;
        } else if (message instanceof WriteRequest) {
            WriteRequest r = (WriteRequest) message;
            int size = BinaryWriter.stringSize(r.sessionId()) + BinaryWriter.varintSize(r.deltas().size());
            for (SectionDelta d : r.deltas()) {
                size += BinaryWriter.stringSize(d.section()) + BinaryWriter.varintSize(d.ifVersion() + 1)
                        + attributesSize(d.set()) + BinaryWriter.varintSize(d.remove().size());
                for (String name : d.remove()) {
                    size += BinaryWriter.stringSize(name);
                }
            }
            return size;
        } else if (message instanceof ReadRequest) {
            ReadRequest r = (ReadRequest) message;
            int size = BinaryWriter.stringSize(r.sessionId()) + BinaryWriter.varintSize(r.sections().size());
            for (String name : r.sections()) {
                size += BinaryWriter.stringSize(name);
            }
            return size;
        } else if (message instanceof WriteResult) {
            WriteResult r = (WriteResult) message;
            int size = BinaryWriter.stringSize(r.sessionId()) + BinaryWriter.varintSize(r.versions().size());
            for (Map.Entry<String, Long> e : r.versions().entrySet()) {
                size += BinaryWriter.stringSize(e.getKey()) + BinaryWriter.varintSize(e.getValue());
            }
            return size;
        } else {
            ErrorMessage e = (ErrorMessage) message;
            return BinaryWriter.varintSize(e.status()) + BinaryWriter.stringSize(e.message());
        }
    }

    private static int attributesSize(Map<String, byte[]> attributes) {
        int size = BinaryWriter.varintSize(attributes.size());
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            size += BinaryWriter.stringSize(e.getKey()) + BinaryWriter.bytesSize(e.getValue());
        }
        return size;
    }

    private static void writeBody(Object message, BinaryWriter w) {
        if (message instanceof ReadResult) {
            ReadResult r = (ReadResult) message;
            w.string(r.sessionId());
            w.varint(r.sections().size());
            for (SectionData s : r.sections()) {
                w.string(s.name());
                w.varint(s.version());
                writeAttributes(s.attributes(), w);
            }
        } else if (message instanceof WriteRequest) {
            WriteRequest r = (WriteRequest) message;
            w.string(r.sessionId());
            w.varint(r.deltas().size());
            for (SectionDelta d : r.deltas()) {
                w.string(d.section());
                w.varint(d.ifVersion() + 1);
                writeAttributes(d.set(), w);
                w.varint(d.remove().size());
                for (String name : d.remove()) {
                    w.string(name);
                }
            }
        } else if (message instanceof ReadRequest) {
            ReadRequest r = (ReadRequest) message;
            w.string(r.sessionId());
            w.varint(r.sections().size());
            for (String name : r.sections()) {
                w.string(name);
            }
        } else if (message instanceof WriteResult) {
            WriteResult r = (WriteResult) message;
            w.string(r.sessionId());
            w.varint(r.versions().size());
            for (Map.Entry<String, Long> e : r.versions().entrySet()) {
                w.string(e.getKey());
                w.varint(e.getValue());
            }
        } else {
            ErrorMessage e = (ErrorMessage) message;
            w.varint(e.status());
            w.string(e.message());
        }
    }

    private static void writeAttributes(Map<String, byte[]> attributes, BinaryWriter w) {
        w.varint(attributes.size());
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            w.string(e.getKey());
            w.bytes(e.getValue());
        }
    }

    // ------------------------------------------------------------------ decoding

    /** Decodes a whole array holding one message; returns the model object of the header's type. */
    public Object decode(byte[] message) {
        return decode(message, 0, message.length);
    }

    /** Decodes one message held in {@code bytes[offset, offset + length)}. */
    public Object decode(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        BinaryReader r = new BinaryReader(bytes, offset, length);
        int type = readHeader(r, length);
        try {
            Object message;
            switch (type) {
                case MessageTypes.READ_REQUEST:
                    message = readReadRequest(r);
                    break;
                case MessageTypes.READ_RESULT:
                    message = readReadResult(r);
                    break;
                case MessageTypes.WRITE_REQUEST:
                    message = readWriteRequest(r);
                    break;
                case MessageTypes.WRITE_RESULT:
                    message = readWriteResult(r);
                    break;
                case MessageTypes.ERROR:
                    message = readError(r);
                    break;
                default:
                    throw MalformedMessageException.badRequest("unknown message type " + type);
            }
            if (r.remaining() != 0) {
                throw MalformedMessageException.badRequest(r.remaining() + " bytes left over after the message body at offset "
                        + r.offset());
            }
            return message;
        } catch (MalformedMessageException e) {
            throw e;
        } catch (RuntimeException e) {
            // The model's own checks (names, duplicates) surface as MalformedMessageException already;
            // anything else is a decoder bug, still reported as a bad message rather than escaping.
            throw new MalformedMessageException(Status.BAD_REQUEST, "malformed message: " + e, e);
        }
    }

    /** Decodes a message that must be of the given type. */
    public <T> T decode(byte[] message, Class<T> type) {
        Object decoded = decode(message);
        if (!type.isInstance(decoded)) {
            throw MalformedMessageException.badRequest("expected a " + type.getSimpleName() + " but the message is a "
                    + decoded.getClass().getSimpleName());
        }
        return type.cast(decoded);
    }

    /** Reads and checks the header of a message of {@code available} bytes; returns the message type. */
    private int readHeader(BinaryReader r, int available) {
        if (available < HEADER_BYTES) {
            throw MalformedMessageException.badRequest("message of " + available + " bytes is shorter than the "
                    + HEADER_BYTES + "-byte header");
        }
        int magic = r.u16("magic");
        if (magic != MAGIC) {
            throw MalformedMessageException.badRequest(String.format("wrong magic 0x%04X, expected 0x%04X", magic, MAGIC));
        }
        int version = r.u8("version");
        if (version != VERSION) {
            throw new MalformedMessageException(Status.UNSUPPORTED_VERSION, "format version " + version
                    + " is not supported; this peer speaks version " + VERSION);
        }
        int type = r.u8("type");
        long bodyLength = r.i32("body length") & 0xffffffffL;
        if (HEADER_BYTES + bodyLength > limits.maxMessageBytes()) {
            throw MalformedMessageException.tooLarge("message declares a body of " + bodyLength + " bytes, over the limit of "
                    + (limits.maxMessageBytes() - HEADER_BYTES));
        }
        if (bodyLength != r.remaining()) {
            throw MalformedMessageException.badRequest("message declares a body of " + bodyLength + " bytes but "
                    + r.remaining() + " follow the header");
        }
        return type;
    }

    private ReadRequest readReadRequest(BinaryReader r) {
        String id = r.string("session id", TransportLimits.MAX_SESSION_ID_BYTES);
        int n = r.items("section count", limits.maxSections(), 2);
        List<String> sections = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sections.add(r.string("section name", TransportLimits.MAX_NAME_BYTES));
        }
        return new ReadRequest(id, sections);
    }

    private ReadResult readReadResult(BinaryReader r) {
        String id = r.string("session id", TransportLimits.MAX_SESSION_ID_BYTES);
        int n = r.items("section count", limits.maxSections(), 4);
        List<SectionData> sections = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = r.string("section name", TransportLimits.MAX_NAME_BYTES);
            long version = r.varint("section version");
            sections.add(new SectionData(name, version, readAttributes(r, name)));
        }
        return new ReadResult(id, sections);
    }

    private WriteRequest readWriteRequest(BinaryReader r) {
        String id = r.string("session id", TransportLimits.MAX_SESSION_ID_BYTES);
        int n = r.items("delta count", limits.maxSections(), 5);
        List<SectionDelta> deltas = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String section = r.string("section name", TransportLimits.MAX_NAME_BYTES);
            long ifVersion = r.varint("ifVersion") - 1;
            Map<String, byte[]> set = readAttributes(r, section);
            int removes = r.items("remove count", limits.maxAttributes() - set.size(), 2);
            List<String> remove = new ArrayList<>(removes);
            for (int j = 0; j < removes; j++) {
                remove.add(r.string("removed attribute name", TransportLimits.MAX_NAME_BYTES));
            }
            deltas.add(new SectionDelta(section, ifVersion, set, remove));
        }
        return new WriteRequest(id, deltas);
    }

    private WriteResult readWriteResult(BinaryReader r) {
        String id = r.string("session id", TransportLimits.MAX_SESSION_ID_BYTES);
        int n = r.items("section count", limits.maxSections(), 3);
        Map<String, Long> versions = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String name = r.string("section name", TransportLimits.MAX_NAME_BYTES);
            if (versions.put(name, r.varint("section version")) != null) {
                throw MalformedMessageException.badRequest("section " + Names.describe(name) + " appears twice");
            }
        }
        return new WriteResult(id, versions);
    }

    private static ErrorMessage readError(BinaryReader r) {
        int at = r.offset();
        long status = r.varint("status");
        if (status < 1 || status > 255) {
            throw MalformedMessageException.badRequest("error status " + status + " at offset " + at + " is not 1..255");
        }
        return new ErrorMessage((int) status, r.string("error message", TransportLimits.MAX_ERROR_MESSAGE_BYTES));
    }

    private Map<String, byte[]> readAttributes(BinaryReader r, String section) {
        int n = r.items("attribute count", limits.maxAttributes(), 3);
        Map<String, byte[]> attributes = new LinkedHashMap<>(Math.max(4, n * 4 / 3 + 1));
        for (int i = 0; i < n; i++) {
            String name = r.string("attribute name", TransportLimits.MAX_NAME_BYTES);
            byte[] value = r.bytes("attribute value", limits.maxValueBytes());
            if (attributes.put(name, value) != null) {
                throw MalformedMessageException.badRequest("attribute " + Names.describe(name) + " appears twice in section "
                        + Names.describe(section));
            }
        }
        return attributes;
    }
}
