package io.sessionmesh.wire.transport;

import java.util.List;
import java.util.Map;

/**
 * The binary body writer: one pass to size the message (and check every limit), one pass to write it into
 * an array of exactly that size. Stateless.
 */
final class BinaryWriter {
    private BinaryWriter() {
    }

    // ---- sizing: checks every limit, so that writing cannot fail ----

    /** The body size in bytes; throws {@link Status#TOO_LARGE} if the message breaks a limit. */
    static int bodySize(TransportMessage m, TransportLimits limits) {
        long size;
        if (m instanceof ReadResult r) {
            size = sessionIdSize(r.sessionId(), limits) + countSize(r.sections().size(), limits.maxSectionsPerMessage(), "sections");
            for (SectionData s : r.sections()) {
                size += nameSize(s.name(), limits) + varintSize(s.version()) + attributesSize(s.attributes(), limits);
            }
        } else if (m instanceof WriteRequest w) {
            size = sessionIdSize(w.sessionId(), limits) + countSize(w.deltas().size(), limits.maxSectionsPerMessage(), "deltas");
            for (SectionDelta d : w.deltas()) {
                size += nameSize(d.section(), limits) + varintSize(d.ifVersion() + 1) + attributesSize(d.set(), limits)
                        + namesSize(d.remove(), limits.maxAttributesPerSection(), "removed attributes", limits);
            }
        } else if (m instanceof ReadRequest r) {
            size = sessionIdSize(r.sessionId(), limits)
                    + namesSize(r.sectionNames(), limits.maxSectionsPerMessage(), "section names", limits);
        } else if (m instanceof WriteResult w) {
            size = sessionIdSize(w.sessionId(), limits) + countSize(w.sectionCount(), limits.maxSectionsPerMessage(), "sections");
            String[] names = w.namesOrNull();
            if (names != null) {
                long[] versions = w.versionsOrNull();
                for (int i = 0; i < names.length; i++) {
                    size += nameSize(names[i], limits) + varintSize(versions[i]);
                }
            } else {
                for (Map.Entry<String, Long> e : w.versions().entrySet()) {
                    size += nameSize(e.getKey(), limits) + varintSize(e.getValue());
                }
            }
        } else if (m instanceof CreateRequest c) {
            size = varintSize(c.idleTimeoutSeconds()) + (c.principalOrNull() == null ? 0 : principalSize(c.principalOrNull()))
                    + (c.sessionIdOrNull() == null ? 0 : sessionIdSize(c.sessionIdOrNull(), limits));
        } else if (m instanceof RenameRequest r) {
            size = (r.newIdOrNull() == null ? 1 : sessionIdSize(r.newIdOrNull(), limits)) + varintSize(r.idleTimeoutSeconds());
        } else if (m instanceof PrincipalSessions p) {
            size = principalSize(p.principal()) + 1
                    + countSize(p.sessionIds().size(), TransportLimits.MAX_PRINCIPAL_SESSION_IDS, "session ids");
            for (String id : p.sessionIds()) {
                size += sessionIdSize(id, limits);
            }
        } else if (m instanceof SessionCreated c) {
            size = sessionIdSize(c.sessionId(), limits) + varintSize(c.idleTimeoutSeconds()) + varintSize(c.maxLifetimeSeconds());
        } else if (m instanceof SessionPrincipal p) {
            size = sessionIdSize(p.sessionId(), limits) + (p.principalOrNull() == null ? 1 : principalSize(p.principalOrNull()));
        } else {
            ErrorMessage e = (ErrorMessage) m;
            int len = Utf8.textLength(e.message());
            if (len > limits.maxErrorMessageBytes()) {
                throw tooLarge("error message of " + len + " bytes is above the limit of " + limits.maxErrorMessageBytes());
            }
            size = 1 + varintSize(len) + len;
        }
        long max = (long) limits.maxMessageBytes() - BinaryTransportCodec.HEADER_BYTES;
        if (size > max) {
            throw tooLarge(MessageTypes.name(m.type()) + " of " + (size + BinaryTransportCodec.HEADER_BYTES)
                    + " bytes is above the limit of " + limits.maxMessageBytes());
        }
        return (int) size;
    }

    /**
     * The header flags of {@code m}: on a CREATE_REQUEST, {@link BinaryTransportCodec#FLAG_PRINCIPAL} with a principal and
     * {@link BinaryTransportCodec#FLAG_ID} with a requested id.
     */
    static int flags(TransportMessage m) {
        if (!(m instanceof CreateRequest c)) {
            return 0;
        }
        return (c.principalOrNull() != null ? BinaryTransportCodec.FLAG_PRINCIPAL : 0)
                | (c.sessionIdOrNull() != null ? BinaryTransportCodec.FLAG_ID : 0);
    }

    private static int principalSize(String principal) {
        int len = Utf8.textLength(principal); // the model has checked it: 1..256 bytes
        return varintSize(len) + len;
    }

    private static long attributesSize(Map<String, byte[]> attributes, TransportLimits limits) {
        long size = countSize(attributes.size(), limits.maxAttributesPerSection(), "attributes");
        int maxValue = limits.maxAttributeValueBytes();
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            int len = e.getValue().length;
            if (len > maxValue) {
                throw tooLarge("value of attribute " + Utf8.quote(e.getKey()) + " is " + len + " bytes, above the limit of " + maxValue);
            }
            size += nameSize(e.getKey(), limits) + varintSize(len) + len;
        }
        return size;
    }

    private static long namesSize(List<String> names, int max, String what, TransportLimits limits) {
        long size = countSize(names.size(), max, what);
        for (String name : names) {
            size += nameSize(name, limits);
        }
        return size;
    }

    private static int countSize(int count, int max, String what) {
        if (count > max) {
            throw tooLarge(count + " " + what + " is above the limit of " + max);
        }
        return varintSize(count);
    }

    private static int nameSize(String name, TransportLimits limits) {
        int len = Utf8.textLength(name); // the model has checked the name rules
        if (len > limits.maxNameBytes()) {
            throw tooLarge("name " + Utf8.quote(name) + " of " + len + " bytes is above the limit of " + limits.maxNameBytes());
        }
        return varintSize(len) + len;
    }

    private static int sessionIdSize(String sessionId, TransportLimits limits) {
        int len = sessionId.length(); // ASCII
        if (len > limits.maxSessionIdBytes()) {
            throw tooLarge("session id of " + len + " bytes is above the limit of " + limits.maxSessionIdBytes());
        }
        return varintSize(len) + len;
    }

    /** Bytes of a string field: its UTF-8 length as a varint, then the bytes (the model has checked the text). */
    static int stringSize(String s) {
        int len = Utf8.textLength(s);
        return varintSize(len) + len;
    }

    static int varintSize(long v) {
        // Unsigned: 1 byte per 7 bits, at least 1.
        return v == 0 ? 1 : (63 - Long.numberOfLeadingZeros(v)) / 7 + 1;
    }

    private static MalformedMessageException tooLarge(String problem) {
        return new MalformedMessageException(Status.TOO_LARGE, "cannot encode: " + problem);
    }

    // ---- writing: sizes and limits were checked by bodySize ----

    /** Writes the body of {@code m} at {@code pos}; returns the position after it. */
    static int writeBody(TransportMessage m, byte[] b, int pos) {
        if (m instanceof ReadResult r) {
            pos = writeAscii(r.sessionId(), b, pos);
            pos = writeVarint(r.sections().size(), b, pos);
            for (SectionData s : r.sections()) {
                pos = writeString(s.name(), b, pos);
                pos = writeVarint(s.version(), b, pos);
                pos = writeAttributes(s.attributes(), b, pos);
            }
        } else if (m instanceof WriteRequest w) {
            pos = writeAscii(w.sessionId(), b, pos);
            pos = writeVarint(w.deltas().size(), b, pos);
            for (SectionDelta d : w.deltas()) {
                pos = writeString(d.section(), b, pos);
                pos = writeVarint(d.ifVersion() + 1, b, pos); // NO_VERSION (-1) -> 0
                pos = writeAttributes(d.set(), b, pos);
                pos = writeNames(d.remove(), b, pos);
            }
        } else if (m instanceof ReadRequest r) {
            pos = writeAscii(r.sessionId(), b, pos);
            pos = writeNames(r.sectionNames(), b, pos);
        } else if (m instanceof WriteResult w) {
            pos = writeAscii(w.sessionId(), b, pos);
            pos = writeVarint(w.sectionCount(), b, pos);
            String[] names = w.namesOrNull();
            if (names != null) {
                long[] versions = w.versionsOrNull();
                for (int i = 0; i < names.length; i++) {
                    pos = writeString(names[i], b, pos);
                    pos = writeVarint(versions[i], b, pos);
                }
            } else {
                for (Map.Entry<String, Long> e : w.versions().entrySet()) {
                    pos = writeString(e.getKey(), b, pos);
                    pos = writeVarint(e.getValue(), b, pos);
                }
            }
        } else if (m instanceof CreateRequest c) {
            pos = writeVarint(c.idleTimeoutSeconds(), b, pos);
            if (c.principalOrNull() != null) {
                pos = writeString(c.principalOrNull(), b, pos); // flagged FLAG_PRINCIPAL in the header
            }
            if (c.sessionIdOrNull() != null) {
                pos = writeAscii(c.sessionIdOrNull(), b, pos); // flagged FLAG_ID in the header
            }
        } else if (m instanceof RenameRequest r) {
            if (r.newIdOrNull() == null) {
                b[pos++] = 0; // length 0: keep the id
            } else {
                pos = writeAscii(r.newIdOrNull(), b, pos);
            }
            pos = writeVarint(r.idleTimeoutSeconds(), b, pos);
        } else if (m instanceof PrincipalSessions p) {
            pos = writeString(p.principal(), b, pos);
            b[pos++] = (byte) (p.complete() ? PrincipalSessions.FLAG_COMPLETE : 0);
            pos = writeVarint(p.sessionIds().size(), b, pos);
            for (String id : p.sessionIds()) {
                pos = writeAscii(id, b, pos);
            }
        } else if (m instanceof SessionCreated c) {
            pos = writeAscii(c.sessionId(), b, pos);
            pos = writeVarint(c.idleTimeoutSeconds(), b, pos);
            pos = writeVarint(c.maxLifetimeSeconds(), b, pos);
        } else if (m instanceof SessionPrincipal p) {
            pos = writeAscii(p.sessionId(), b, pos);
            if (p.principalOrNull() == null) {
                b[pos++] = 0; // length 0: none
            } else {
                pos = writeString(p.principalOrNull(), b, pos);
            }
        } else {
            ErrorMessage e = (ErrorMessage) m;
            b[pos++] = (byte) e.status();
            pos = writeString(e.message(), b, pos);
        }
        return pos;
    }

    private static int writeAttributes(Map<String, byte[]> attributes, byte[] b, int pos) {
        pos = writeVarint(attributes.size(), b, pos);
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            pos = writeString(e.getKey(), b, pos);
            byte[] v = e.getValue();
            pos = writeVarint(v.length, b, pos);
            System.arraycopy(v, 0, b, pos, v.length);
            pos += v.length;
        }
        return pos;
    }

    private static int writeNames(List<String> names, byte[] b, int pos) {
        pos = writeVarint(names.size(), b, pos);
        for (String name : names) {
            pos = writeString(name, b, pos);
        }
        return pos;
    }

    private static int writeAscii(String s, byte[] b, int pos) {
        int n = s.length(); // a session id: at most 128 ASCII chars
        pos = writeVarint(n, b, pos);
        for (int i = 0; i < n; i++) {
            b[pos++] = (byte) s.charAt(i);
        }
        return pos;
    }

    private static int writeString(String s, byte[] b, int pos) {
        if (s.length() <= 42) {
            // At most 126 bytes of UTF-8: a one-byte length, filled in after the bytes, saves a sizing pass.
            int end = Utf8.encode(s, b, pos + 1);
            b[pos] = (byte) (end - pos - 1);
            return end;
        }
        pos = writeVarint(Utf8.textLength(s), b, pos);
        return Utf8.encode(s, b, pos);
    }

    /** Unsigned LEB128, shortest form. */
    static int writeVarint(long v, byte[] b, int pos) {
        while ((v & ~0x7FL) != 0) {
            b[pos++] = (byte) (v | 0x80);
            v >>>= 7;
        }
        b[pos++] = (byte) v;
        return pos;
    }

    /** {@link #writeVarint(long, byte[], int)} at {@code dst}'s position, which advances past it. */
    static void putVarint(long v, java.nio.ByteBuffer dst) {
        while ((v & ~0x7FL) != 0) {
            dst.put((byte) (v | 0x80));
            v >>>= 7;
        }
        dst.put((byte) v);
    }
}
