package io.sessionmesh.wire.transport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one binary body, already bounded by its header. Every length and count is checked against its limit
 * and against the bytes left before anything is allocated, so the work and memory spent on a message are at
 * most proportional to its size. One instance per message; not thread-safe.
 *
 * <p>Why one class of this size: it is the whole grammar of PROTOCOL.md 2.1 (every message type, sections, deltas,
 * names, varints, the trailer), and every part shares one position, one set of limits and one error location
 * (section and entry index, byte offset). Split by message type, each part would have to carry and re-check that
 * state, and the checks that keep a hostile body bounded are safest written once.
 */
final class BinaryReader {
    /** Fewest bytes a name can take: a one-byte length and one byte. */
    private static final int MIN_NAME = 2;
    /** Fewest bytes an attribute can take: a name and an empty value's length. */
    private static final int MIN_ATTRIBUTE = MIN_NAME + 1;
    /** Name lists up to this size are checked for duplicates by scanning rather than hashing. */
    private static final int SCAN_LIMIT = 8;

    private final byte[] b;
    private final int base;
    private final int end;
    private final int type;
    private final TransportLimits limits;
    private int pos;
    /** Whether {@link #b} is the caller's to give away: a decoded write may keep it rather than copy it. */
    private boolean owned;
    /** Where we are, for error messages: index of the section and of the attribute or name in it. */
    private int section = -1;
    private int entry = -1;

    /**
     * @param base offset of the message (header included) in {@code b}, for error offsets
     * @param bodyStart the first body byte
     * @param end one past the last body byte
     */
    BinaryReader(byte[] b, int base, int bodyStart, int end, int type, TransportLimits limits) {
        this.b = b;
        this.base = base;
        this.pos = bodyStart;
        this.end = end;
        this.type = type;
        this.limits = limits;
    }

    /** The input array is handed over: a result may keep it rather than copy it (the caller will not reuse it). */
    BinaryReader owned() {
        owned = true;
        return this;
    }

    /**
     * @param principalFlag whether the header has {@link BinaryTransportCodec#FLAG_PRINCIPAL} (CREATE_REQUEST only)
     * @param idFlag whether the header has {@link BinaryTransportCodec#FLAG_ID} (CREATE_REQUEST only)
     */
    TransportMessage readBody(boolean principalFlag, boolean idFlag) {
        switch (type) {
            case MessageTypes.READ_REQUEST:
                return ReadRequest.trusted(readSessionId(), readNames(SECTIONS, true, limits.maxSectionsPerMessage(), null));
            case MessageTypes.READ_RESULT:
                return readReadResult();
            case MessageTypes.WRITE_REQUEST:
                return readWriteRequest();
            case MessageTypes.WRITE_RESULT:
                return readWriteResult();
            case MessageTypes.CREATE_REQUEST:
                long idle = readTimeout("idle timeout");
                String principal = principalFlag ? readPrincipal(false) : null;
                return new CreateRequest(idle, principal, idFlag ? readRequestedId("requested session id") : null);
            case MessageTypes.SESSION_CREATED:
                return new SessionCreated(readSessionId(), readVersion("idle timeout"), readVersion("max lifetime"));
            case MessageTypes.SESSION_PRINCIPAL:
                return new SessionPrincipal(readSessionId(), readPrincipal(true));
            case MessageTypes.RENAME_REQUEST:
                return readRenameRequest();
            case MessageTypes.PRINCIPAL_SESSIONS:
                return readPrincipalSessions();
            default:
                return readError();
        }
    }

    /**
     * A principal: a string of 1..{@value TransportLimits#MAX_PRINCIPAL_BYTES} bytes of UTF-8 without control
     * characters; with {@code orNone}, length 0 is none (null). One encoding each: none has only the one form.
     * Messages never repeat the principal.
     */
    private String readPrincipal(boolean orNone) {
        int len = readLength("principal length", TransportLimits.MAX_PRINCIPAL_BYTES);
        if (len == 0) {
            if (orNone) {
                return null;
            }
            throw bad(pos - 1, "principal", "empty (the flag says there is one)");
        }
        int check = Utf8.check(b, pos, len, true);
        if (check >= 0) {
            throw bad(check, "principal", "invalid UTF-8 or control character");
        }
        String principal = Utf8.decode(b, pos, len, check == Utf8.ASCII);
        pos += len;
        return principal;
    }

    /** newId (length 0: keep the id) | idleTimeoutSeconds (0: keep it); not both kept. */
    private RenameRequest readRenameRequest() {
        int at = pos;
        String newId = null;
        if (pos < end && b[pos] == 0) {
            pos++; // length 0: keep the id
        } else {
            newId = readRequestedId("new session id");
        }
        long idle = readTimeout("idle timeout");
        if (newId == null && idle == 0) {
            throw bad(at, "body", "neither a new id nor an idle timeout (a rename needs one or both)");
        }
        return new RenameRequest(newId, idle);
    }

    /** principal | flags: u8 (COMPLETE, no other bit) | n: varint | n x sessionId, none twice. */
    private PrincipalSessions readPrincipalSessions() {
        String principal = readPrincipal(false);
        if (pos >= end) {
            throw truncated(pos, "flags");
        }
        int flags = b[pos] & 0xFF;
        if ((flags & ~PrincipalSessions.FLAG_COMPLETE) != 0) {
            throw bad(pos, "flags", "0x" + hex(b[pos]) + " has bits other than COMPLETE (0x01)");
        }
        pos++;
        int n = readCount("session id count", TransportLimits.MAX_PRINCIPAL_SESSION_IDS, MIN_NAME);
        List<String> ids = new ArrayList<>(n);
        Set<String> seen = new HashSet<>(n * 2);
        for (entry = 0; entry < n; entry++) {
            int at = pos;
            String id = readSessionId();
            if (!seen.add(id)) {
                throw bad(at, "session id", "listed twice");
            }
            ids.add(id);
        }
        entry = -1;
        return new PrincipalSessions(principal, ids, (flags & PrincipalSessions.FLAG_COMPLETE) != 0);
    }

    /** A session id an application chose: the id rules and at least {@value TransportLimits#MIN_REQUESTED_ID_CHARS} chars. */
    private String readRequestedId(String what) {
        int at = pos;
        String id = readSessionId();
        if (id.length() < TransportLimits.MIN_REQUESTED_ID_CHARS) {
            throw bad(at, what, id.length() + " chars; an id the application chooses must have at least "
                    + TransportLimits.MIN_REQUESTED_ID_CHARS);
        }
        return id;
    }

    /** Bytes of the body not read by {@link #readBody}. */
    int remaining() {
        return end - pos;
    }

    int offset() {
        return pos - base;
    }

    private ReadResult readReadResult() {
        String sessionId = readSessionId();
        int n = readCount("section count", limits.maxSectionsPerMessage(), MIN_NAME + 2);
        List<SectionData> sections = new ArrayList<>(n);
        Set<String> seen = n > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(n)) : null;
        for (int i = 0; i < n; i++) {
            section = i;
            entry = -1;
            int at = pos;
            String name = readSectionName("section name", "section name length");
            if (seen != null ? !seen.add(name) : containsSection(sections, name)) {
                throw bad(at, "section name", "duplicate section " + Utf8.quote(name));
            }
            long version = readVersion("version");
            Map<String, byte[]> attributes = readAttributes(ATTRIBUTES);
            sections.add(SectionData.trusted(name, version, attributes));
        }
        return ReadResult.trusted(sessionId, Collections.unmodifiableList(sections));
    }

    /** A READ_RESULT body, checked as {@link #readReadResult} checks it, with the sections kept as bytes. */
    EncodedReadResult readEncodedReadResult() {
        String sessionId = readSessionId();
        int n = readCount("section count", limits.maxSectionsPerMessage(), MIN_NAME + 2);
        List<EncodedSection> sections = new ArrayList<>(n);
        Set<String> seen = new HashSet<>(ModelSupport.capacity(n));
        for (int i = 0; i < n; i++) {
            section = i;
            entry = -1;
            int at = pos;
            String name = readSectionName("section name", "section name length");
            if (!seen.add(name)) {
                throw bad(at, "section name", "duplicate section " + Utf8.quote(name));
            }
            long version = readVersion("version");
            int m = readCount("attribute count", limits.maxAttributesPerSection(), MIN_ATTRIBUTE);
            int attributesAt = pos - at;
            int valueBytes = skipAttributes(m);
            byte[] bytes = java.util.Arrays.copyOfRange(b, at, pos);
            sections.add(EncodedSection.trusted(name, version, bytes, attributesAt, m, valueBytes));
        }
        return new EncodedReadResult(sessionId, Collections.unmodifiableList(sections));
    }

    /** Checks {@code n} attributes (names, lengths, no duplicates) without copying values; returns their bytes. */
    private int skipAttributes(int n) {
        int maxValue = limits.maxAttributeValueBytes();
        int values = 0;
        Set<String> seen = n > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(n)) : null;
        String[] small = seen == null ? new String[n] : null;
        for (int i = 0; i < n; i++) {
            entry = i;
            int at = pos;
            String name = readName("attribute name", "attribute name length");
            boolean duplicate;
            if (seen != null) {
                duplicate = !seen.add(name);
            } else {
                duplicate = false;
                for (int j = 0; j < i; j++) {
                    duplicate |= small[j].equals(name);
                }
                small[i] = name;
            }
            if (duplicate) {
                throw bad(at, "attribute name", "duplicate attribute " + Utf8.quote(name));
            }
            int len = readLength("attribute value length", maxValue);
            pos += len;
            values += len;
        }
        entry = -1;
        return values;
    }

    private static boolean containsSection(List<SectionData> sections, String name) {
        for (SectionData s : sections) {
            if (s.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A WRITE_REQUEST, kept in its wire form ({@link EncodedWrite}): every field checked as the model's constructors
     * check it, in the order it is read, with the same errors; no map, no copy of a value, no string per attribute
     * name. The body is copied once (the caller may reuse its array), unless {@link #owned}.
     */
    private WriteRequest readWriteRequest() {
        int bodyStart = pos;
        int shift = owned ? 0 : bodyStart; // positions are kept relative to the array the result holds
        String sessionId = readSessionId();
        int n = readCount("delta count", limits.maxSectionsPerMessage(), MIN_NAME + 3);
        String[] names = new String[n];
        long[] ifVersions = new long[n];
        int[] index = EncodedWrite.newIndex(n);
        Set<String> seen = n > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(n)) : null;
        for (int i = 0; i < n; i++) {
            section = i;
            entry = -1;
            int at = pos;
            String name = readSectionName("section name", "section name length");
            int nameAt = at;
            boolean duplicate = false;
            if (seen != null) {
                duplicate = !seen.add(name);
            } else {
                for (int j = 0; j < i; j++) {
                    duplicate |= names[j].equals(name);
                }
            }
            if (duplicate) {
                throw bad(at, "section name", "two deltas of section " + Utf8.quote(name));
            }
            at = pos;
            long ifVersion = readVarint64("ifVersion") - 1; // 0 = none; 2^63 encodes Long.MAX_VALUE
            if (ifVersion < SectionDelta.NO_VERSION) {
                throw bad(at, "ifVersion", "encoded value " + Long.toUnsignedString(ifVersion + 1)
                        + " is above 2^63 (ifVersion + 1 must fit a signed long + 1)");
            }
            names[i] = name;
            ifVersions[i] = ifVersion;
            int setAt = pos;
            int m = readCount("set attribute count", limits.maxAttributesPerSection(), MIN_ATTRIBUTE);
            int firstSet = pos;
            Set<String> setNames = m > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(m)) : null;
            int maxValue = readSetAttributes(m, firstSet, setNames);
            int removeAt = pos;
            int r = readRemovedNames(m, firstSet, setNames);
            EncodedWrite.index(index, i, nameAt - shift, setAt - shift, m, maxValue, removeAt - shift, r);
        }
        byte[] body = owned ? b : java.util.Arrays.copyOfRange(b, bodyStart, end);
        return WriteRequest.trusted(new EncodedWrite(sessionId, bodyStart - shift, body, names, ifVersions, index));
    }

    /** A delta's {@code m} set attributes, names distinct; returns the largest value's size. */
    private int readSetAttributes(int m, int firstSet, Set<String> seen) {
        int maxValue = limits.maxAttributeValueBytes();
        int largest = 0;
        for (int i = 0; i < m; i++) {
            entry = i;
            int at = pos;
            int nameAt = readNameBytes("set attribute name", "set attribute name length");
            int nameLen = pos - nameAt;
            int len = readLength("set attribute value length", maxValue);
            pos += len;
            largest = Math.max(largest, len);
            boolean duplicate;
            if (seen != null) {
                duplicate = !seen.add(Utf8.decode(b, nameAt, nameLen, false));
            } else {
                duplicate = findName(firstSet, i, true, nameAt, nameLen) >= 0;
            }
            if (duplicate) {
                throw bad(at, "set attribute name", "duplicate attribute " + Utf8.quote(Utf8.decode(b, nameAt, nameLen, false)));
            }
        }
        entry = -1;
        return largest;
    }

    /** A delta's removed names: distinct, and none of the {@code m} set at {@code firstSet} ({@code setNames} if m is large). */
    private int readRemovedNames(int m, int firstSet, Set<String> setNames) {
        int r = readCount("removed attribute count", limits.maxAttributesPerSection(), MIN_NAME);
        if (r == 0) {
            return 0;
        }
        int firstRemove = pos;
        Set<String> seen = r > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(r)) : null;
        for (int i = 0; i < r; i++) {
            entry = i;
            int at = pos;
            int nameAt = readNameBytes("removed attribute name", "removed attribute name length");
            int nameLen = pos - nameAt;
            String name = seen != null || setNames != null ? Utf8.decode(b, nameAt, nameLen, false) : null;
            if (seen != null ? !seen.add(name) : findName(firstRemove, i, false, nameAt, nameLen) >= 0) {
                throw bad(at, "removed attribute name", "duplicate name " + Utf8.quote(Utf8.decode(b, nameAt, nameLen, false)));
            }
            if (setNames != null ? setNames.contains(name) : findName(firstSet, m, true, nameAt, nameLen) >= 0) {
                throw bad(at, "removed attribute name", "attribute " + Utf8.quote(Utf8.decode(b, nameAt, nameLen, false))
                        + " is both set and removed");
            }
        }
        entry = -1;
        return r;
    }

    /**
     * The index among the {@code count} checked entries at {@code from} (attributes with values, or bare names) of the
     * one whose name is the bytes at {@code nameAt}, or -1. Equal UTF-8 is equal text: both were checked.
     */
    private int findName(int from, int count, boolean withValues, int nameAt, int nameLen) {
        int p = from;
        for (int j = 0; j < count; j++) {
            int len = EncodedWrite.readVarint(b, p);
            int at = p + BinaryWriter.varintSize(len);
            if (len == nameLen && java.util.Arrays.equals(b, at, at + len, b, nameAt, nameAt + nameLen)) {
                return j;
            }
            p = at + len;
            if (withValues) {
                int valueLen = EncodedWrite.readVarint(b, p);
                p += BinaryWriter.varintSize(valueLen) + valueLen;
            }
        }
        return -1;
    }

    /** A name checked as {@link #readName} checks it, left as bytes: returns where they start ({@link #pos} is after them). */
    private int readNameBytes(String what, String whatLength) {
        int len = readLength(whatLength, limits.maxNameBytes());
        if (len == 0) {
            throw bad(pos - 1, what, "empty");
        }
        int check = Utf8.check(b, pos, len, true);
        if (check >= 0) {
            throw bad(check, what, "invalid UTF-8 or control character, byte 0x" + hex(b[check]));
        }
        int at = pos;
        pos += len;
        return at;
    }

    private WriteResult readWriteResult() {
        String sessionId = readSessionId();
        int n = readCount("section count", limits.maxSectionsPerMessage(), MIN_NAME + 1);
        Map<String, Long> versions = new LinkedHashMap<>(ModelSupport.capacity(n));
        for (int i = 0; i < n; i++) {
            section = i;
            int at = pos;
            String name = readSectionName("section name", "section name length");
            if (versions.put(name, readVersion("version")) != null) {
                throw bad(at, "section name", "duplicate section " + Utf8.quote(name));
            }
        }
        return WriteResult.trusted(sessionId, Collections.unmodifiableMap(versions));
    }

    private ErrorMessage readError() {
        if (pos >= end) {
            throw truncated(pos, "status");
        }
        int status = b[pos] & 0xFF;
        if (status == Status.OK) {
            throw bad(pos, "status", "an error cannot carry status 0 (OK)");
        }
        pos++;
        int len = readLength("message length", limits.maxErrorMessageBytes());
        int check = Utf8.check(b, pos, len, false);
        if (check >= 0) {
            throw bad(check, "message", "invalid UTF-8 byte 0x" + hex(b[check]));
        }
        String message = Utf8.decode(b, pos, len, check == Utf8.ASCII);
        pos += len;
        return new ErrorMessage(status, message);
    }

    /**
     * The names an error gives the parts of a list: made once, not concatenated for every entry of every message read.
     */
    private record Labels(String count, String name, String nameLength, String valueLength) {
        Labels(String what) {
            this(what + " count", what + " name", what + " name length", what + " value length");
        }
    }

    private static final Labels SECTIONS = new Labels("section");
    private static final Labels ATTRIBUTES = new Labels("attribute");

    private Map<String, byte[]> readAttributes(Labels what) {
        int n = readCount(what.count(), limits.maxAttributesPerSection(), MIN_ATTRIBUTE);
        if (n == 0) {
            return Collections.emptyMap();
        }
        Map<String, byte[]> attributes = new LinkedHashMap<>(ModelSupport.capacity(n));
        int maxValue = limits.maxAttributeValueBytes();
        for (int i = 0; i < n; i++) {
            entry = i;
            int at = pos;
            String name = readName(what.name(), what.nameLength());
            int len = readLength(what.valueLength(), maxValue);
            byte[] value = new byte[len];
            System.arraycopy(b, pos, value, 0, len);
            pos += len;
            if (attributes.put(name, value) != null) {
                throw bad(at, what.name(), "duplicate attribute " + Utf8.quote(name));
            }
        }
        entry = -1;
        return Collections.unmodifiableMap(attributes);
    }

    /** Distinct names; with {@code set}, also none of its keys (a name may not be both set and removed). */
    private List<String> readNames(Labels what, boolean sectionNames, int max, Map<String, byte[]> set) {
        int n = readCount(what.count(), max, MIN_NAME);
        if (n == 0) {
            return Collections.emptyList();
        }
        List<String> names = new ArrayList<>(n);
        Set<String> seen = n > SCAN_LIMIT ? new HashSet<>(ModelSupport.capacity(n)) : null;
        for (int i = 0; i < n; i++) {
            if (sectionNames) {
                section = i;
            } else {
                entry = i;
            }
            int at = pos;
            String name = sectionNames ? readSectionName(what.name(), what.nameLength()) : readName(what.name(), what.nameLength());
            if (seen != null ? !seen.add(name) : names.contains(name)) {
                throw bad(at, what.name(), "duplicate name " + Utf8.quote(name));
            }
            if (set != null && set.containsKey(name)) {
                throw bad(at, what.name(), "attribute " + Utf8.quote(name) + " is both set and removed");
            }
            names.add(name);
        }
        entry = -1;
        return Collections.unmodifiableList(names);
    }

    private String readSessionId() {
        int len = readLength("session id length", limits.maxSessionIdBytes());
        if (len == 0) {
            throw bad(pos - 1, "session id", "empty");
        }
        for (int i = pos; i < pos + len; i++) {
            if (!TransportLimits.isSessionIdChar(b[i])) {
                throw bad(i, "session id", "byte 0x" + hex(b[i]) + " is not one of A-Z a-z 0-9 _ -");
            }
        }
        String id = Utf8.decode(b, pos, len, true);
        pos += len;
        return id;
    }

    private String readName(String what, String whatLength) {
        return readName(what, whatLength, false);
    }

    /** A section name: {@link #readName(String, String, boolean)} through the {@link SectionNameCache}. */
    private String readSectionName(String what, String whatLength) {
        return readName(what, whatLength, true);
    }

    /**
     * A name: not empty, well-formed UTF-8 without control characters. With {@code cached}, a name in the
     * {@link SectionNameCache} is that instance, neither checked nor decoded again (its bytes are a name that passed),
     * and an ASCII name decoded here takes its slot (the master's name pool offers its own instance when it makes a
     * section).
     */
    private String readName(String what, String whatLength, boolean cached) {
        int len = readLength(whatLength, limits.maxNameBytes());
        if (len == 0) {
            throw bad(pos - 1, what, "empty");
        }
        String name = cached ? SectionNameCache.find(b, pos, len) : null;
        if (name == null) {
            int check = Utf8.check(b, pos, len, true);
            if (check >= 0) {
                throw bad(check, what, "invalid UTF-8 or control character, byte 0x" + hex(b[check]));
            }
            name = Utf8.decode(b, pos, len, check == Utf8.ASCII);
            if (cached && check == Utf8.ASCII) {
                SectionNameCache.put(name);
            }
        }
        pos += len;
        return name;
    }

    private long readTimeout(String what) {
        int at = pos;
        long v = readVarint64(what);
        if (v < 0 || v > CreateRequest.MAX_IDLE_TIMEOUT_SECONDS) {
            throw bad(at, what, Long.toUnsignedString(v) + " s is outside 0.." + CreateRequest.MAX_IDLE_TIMEOUT_SECONDS + " s");
        }
        return v;
    }

    private long readVersion(String what) {
        int at = pos;
        long v = readVarint64(what);
        if (v < 0) {
            throw bad(at, what, Long.toUnsignedString(v) + " is above Long.MAX_VALUE");
        }
        return v;
    }

    /** A length in 0..max that fits in the bytes left. */
    private int readLength(String what, int max) {
        int at = pos;
        int len = readVarint32(what);
        if (len > max) {
            throw new MalformedMessageException(Status.TOO_LARGE, where(at, what) + len + " is above the limit of " + max);
        }
        if (len > end - pos) {
            throw bad(at, what, len + " bytes declared but " + (end - pos) + " are left (truncated?)");
        }
        return len;
    }

    /** A count in 0..max whose entries, at {@code minBytes} each, fit in the bytes left. */
    private int readCount(String what, int max, int minBytes) {
        int at = pos;
        int n = readVarint32(what);
        if (n > max) {
            throw new MalformedMessageException(Status.TOO_LARGE, where(at, what) + n + " is above the limit of " + max);
        }
        if ((long) n * minBytes > end - pos) {
            throw bad(at, what, n + " entries need at least " + (long) n * minBytes + " bytes but " + (end - pos) + " are left");
        }
        return n;
    }

    /** Unsigned LEB128 in 0..Integer.MAX_VALUE, shortest form only. */
    private int readVarint32(String what) {
        int at = pos;
        if (pos >= end) {
            throw truncated(at, what);
        }
        int c = b[pos++];
        if (c >= 0) {
            return c;
        }
        int v = c & 0x7F;
        for (int shift = 7; ; shift += 7) {
            if (pos >= end) {
                throw truncated(at, what);
            }
            c = b[pos++];
            if (shift == 28 && (c & 0xFF) > 0x07) {
                throw new MalformedMessageException(c < 0 ? Status.BAD_REQUEST : Status.TOO_LARGE,
                        where(at, what) + (c < 0 ? "varint longer than 5 bytes" : "value above 2^31 - 1"));
            }
            v |= (c & 0x7F) << shift;
            if (c >= 0) {
                if (c == 0) {
                    throw bad(at, what, "varint not in its shortest form");
                }
                return v;
            }
        }
    }

    /** Unsigned LEB128, 64 bits (the result may be negative as a signed long), shortest form only. */
    private long readVarint64(String what) {
        int at = pos;
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            if (pos >= end) {
                throw truncated(at, what);
            }
            int c = b[pos++];
            if (shift == 63 && (c & 0xFF) > 0x01) {
                throw bad(at, what, c < 0 ? "varint longer than 10 bytes" : "value above 2^64 - 1");
            }
            v |= (long) (c & 0x7F) << shift;
            if (c >= 0) {
                if (c == 0 && shift > 0) {
                    throw bad(at, what, "varint not in its shortest form");
                }
                return v;
            }
        }
    }

    private MalformedMessageException truncated(int at, String what) {
        return bad(at, what, "message ends " + (end - at) + " bytes after this field starts (truncated?)");
    }

    private MalformedMessageException bad(int at, String what, String problem) {
        return new MalformedMessageException(Status.BAD_REQUEST, where(at, what) + problem);
    }

    /** "READ_RESULT section 2 attribute 5 value length at offset 123: " */
    private String where(int at, String what) {
        StringBuilder sb = new StringBuilder(MessageTypes.name(type));
        if (section >= 0) {
            sb.append(" section ").append(section);
        }
        if (entry >= 0) {
            sb.append(" entry ").append(entry);
        }
        return sb.append(' ').append(what).append(" at offset ").append(at - base).append(": ").toString();
    }

    private static String hex(byte v) {
        return String.format("%02X", v & 0xFF);
    }
}
