package io.sessionmesh.wire.transport;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON form of transport messages, for humans, curl and non-Java callers: the same model as
 * {@link BinaryTransportCodec}, byte values as standard base64 with padding. The shapes are fixed by the
 * REST API:
 *
 * <pre>
 * ReadRequest   {"id": "s1", "sections": ["a", "b"]}
 * ReadResult    {"id": "s1", "sections": {"a": {"version": 3, "attributes": {"k": "AQI="}}}}
 * WriteRequest  {"id": "s1", "sections": {"a": {"ifVersion": 3, "set": {"k": "CQ=="}, "remove": ["k2"]}}}
 * WriteResult   {"id": "s1", "sections": {"a": {"version": 4}}}
 * ErrorMessage  {"error": "CONFLICT", "message": "a is at 5"}
 * CreateRequest {"idleTimeoutSeconds": 600, "principal": "alice", "id": "..."}   (or {}: the default; no id: the master's)
 * RenameRequest {"newId": "...", "idleTimeoutSeconds": 600}  (either may be left out: kept; not both)
 * SessionCreated {"id": "s1", "idleTimeoutSeconds": 600, "maxLifetimeSeconds": 43200}
 * PrincipalSessions {"principal": "alice", "sessions": ["s1", "s2"], "complete": true}   (every field required)
 * </pre>
 *
 * The encoder always writes "id", so that a document stands alone; in REST requests the session id is in
 * the URL, and {@link #decode(byte[], Class, String)} takes it from there when the body has none (a body
 * that names another session is refused). On decoding, fields may come in any order; "attributes", "set",
 * "remove" and "ifVersion" may be left out (empty, no condition; "ifVersion": null is no condition too);
 * unknown fields are refused, because a silently ignored field (a misspelt "ifversion") would change what a
 * write means.
 *
 * <p>Jackson's streaming API. Input is bounded three times before a value is allocated: the document by
 * {@link TransportLimits#maxMessageBytes()}, Jackson's {@link StreamReadConstraints} (nesting, string, name
 * and number lengths) derived from the limits, and every count, name and value by the limits themselves.
 * The bytes must be UTF-8 (checked strictly first: Jackson accepts overlong forms and would detect UTF-16).
 * Thread-safe.
 *
 * @see "PROTOCOL.md, section Transport messages (serialization module): JSON form"
 */
public final class JsonTransportCodec {
    /** Objects nest 4 deep at most (document, sections, section, attributes); a little room, no more. */
    private static final int MAX_NESTING_DEPTH = 6;
    /** Digits of a long, a sign and some room. */
    private static final int MAX_NUMBER_LENGTH = 24;

    private final TransportLimits limits;
    private final JsonFactory factory;

    /** A codec with {@link TransportLimits#DEFAULT}. */
    public JsonTransportCodec() {
        this(TransportLimits.DEFAULT);
    }

    public JsonTransportCodec(TransportLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        long base64Chars = ((long) limits.maxAttributeValueBytes() + 2) / 3 * 4;
        // Strings are names, ids, base64 values and error messages; Jackson counts chars.
        long maxString = Math.max(base64Chars, Math.max(limits.maxErrorMessageBytes(), TransportLimits.MAX_NAME_BYTES));
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxStringLength((int) Math.min(Integer.MAX_VALUE, maxString + 4))
                        // Jackson measures names in whole 4-byte quads; the exact check is ours.
                        .maxNameLength(2 * TransportLimits.MAX_NAME_BYTES)
                        .maxNumberLength(MAX_NUMBER_LENGTH)
                        .maxDocumentLength(limits.maxMessageBytes())
                        .build())
                // Attribute names come from callers: keep them out of the JVM's string pool.
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .build();
    }

    public TransportLimits limits() {
        return limits;
    }

    // ---- encoding ----

    /**
     * Encodes a message as UTF-8 JSON.
     *
     * @throws MalformedMessageException ({@link Status#TOO_LARGE}) if it breaks a limit
     */
    public byte[] encode(TransportMessage message) {
        // The binary sizing pass checks every count, name and value limit, allocation-free; the JSON form is
        // at least as large, so it also gives a floor for the buffer.
        int binary = BinaryTransportCodec.HEADER_BYTES + BinaryWriter.bodySize(message, limits);
        int estimate = (int) Math.min(limits.maxMessageBytes(), binary + binary / 3 + 64L);
        ByteArrayBuilder out = new ByteArrayBuilder(estimate);
        try (JsonGenerator g = factory.createGenerator(out)) {
            write(message, g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory", e); // cannot happen
        }
        if (out.size() > limits.maxMessageBytes()) {
            throw new MalformedMessageException(Status.TOO_LARGE, "cannot encode: " + MessageTypes.name(message.type())
                    + " of " + out.size() + " bytes of JSON is above the limit of " + limits.maxMessageBytes());
        }
        return out.toByteArray();
    }

    /** Encodes a message onto a stream (one write call). */
    public void encode(TransportMessage message, OutputStream out) throws IOException {
        out.write(encode(message));
    }

    private static void write(TransportMessage m, JsonGenerator g) throws IOException {
        g.writeStartObject();
        if (m instanceof ErrorMessage e) {
            g.writeStringField("error", Status.name(e.status()));
            g.writeStringField("message", e.message());
        } else if (m instanceof CreateRequest c) {
            g.writeNumberField("idleTimeoutSeconds", c.idleTimeoutSeconds());
            if (c.principalOrNull() != null) {
                g.writeStringField("principal", c.principalOrNull());
            }
            if (c.sessionIdOrNull() != null) {
                g.writeStringField("id", c.sessionIdOrNull());
            }
        } else if (m instanceof RenameRequest r) {
            if (r.newIdOrNull() != null) {
                g.writeStringField("newId", r.newIdOrNull());
            }
            if (r.idleTimeoutSeconds() != 0) {
                g.writeNumberField("idleTimeoutSeconds", r.idleTimeoutSeconds());
            }
        } else if (m instanceof PrincipalSessions ps) {
            g.writeStringField("principal", ps.principal());
            g.writeArrayFieldStart("sessions");
            for (String id : ps.sessionIds()) {
                g.writeString(id);
            }
            g.writeEndArray();
            g.writeBooleanField("complete", ps.complete());
        } else if (m instanceof SessionPrincipal sp) {
            g.writeStringField("id", sp.sessionId());
            if (sp.principalOrNull() != null) {
                g.writeStringField("principal", sp.principalOrNull());
            }
        } else if (m instanceof SessionCreated c) {
            g.writeStringField("id", c.sessionId());
            g.writeNumberField("idleTimeoutSeconds", c.idleTimeoutSeconds());
            g.writeNumberField("maxLifetimeSeconds", c.maxLifetimeSeconds());
        } else if (m instanceof ReadRequest r) {
            g.writeStringField("id", r.sessionId());
            g.writeArrayFieldStart("sections");
            for (String name : r.sectionNames()) {
                g.writeString(name);
            }
            g.writeEndArray();
        } else if (m instanceof ReadResult r) {
            g.writeStringField("id", r.sessionId());
            g.writeObjectFieldStart("sections");
            for (SectionData s : r.sections()) {
                g.writeObjectFieldStart(s.name());
                g.writeNumberField("version", s.version());
                writeAttributes("attributes", s.attributes(), g);
                g.writeEndObject();
            }
            g.writeEndObject();
        } else if (m instanceof WriteRequest w) {
            g.writeStringField("id", w.sessionId());
            g.writeObjectFieldStart("sections");
            for (SectionDelta d : w.deltas()) {
                g.writeObjectFieldStart(d.section());
                if (d.hasIfVersion()) {
                    g.writeNumberField("ifVersion", d.ifVersion());
                }
                writeAttributes("set", d.set(), g);
                writeNames("remove", d.remove(), g);
                g.writeEndObject();
            }
            g.writeEndObject();
        } else {
            WriteResult w = (WriteResult) m;
            g.writeStringField("id", w.sessionId());
            g.writeObjectFieldStart("sections");
            for (Map.Entry<String, Long> e : w.versions().entrySet()) {
                g.writeObjectFieldStart(e.getKey());
                g.writeNumberField("version", e.getValue());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeAttributes(String field, Map<String, byte[]> attributes, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, byte[]> e : attributes.entrySet()) {
            g.writeFieldName(e.getKey());
            byte[] v = e.getValue();
            g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, v, 0, v.length); // standard alphabet, padded
        }
        g.writeEndObject();
    }

    private static void writeNames(String field, List<String> names, JsonGenerator g) throws IOException {
        g.writeArrayFieldStart(field);
        for (String name : names) {
            g.writeString(name);
        }
        g.writeEndArray();
    }

    // ---- decoding ----

    /**
     * Decodes a document of the given message class, which must carry its "id" (if it has one).
     *
     * @throws MalformedMessageException for anything malformed or over a limit
     */
    public <T extends TransportMessage> T decode(byte[] json, Class<T> type) {
        return decode(json, 0, json.length, type, null);
    }

    /**
     * Decodes a REST request body: the session id comes from the URL; the body may leave "id" out, and must
     * not name another session. {@code urlSessionId} is checked like any input (BAD_REQUEST if invalid).
     */
    public <T extends TransportMessage> T decode(byte[] json, Class<T> type, String urlSessionId) {
        return decode(json, 0, json.length, type, Objects.requireNonNull(urlSessionId, "urlSessionId"));
    }

    /** As {@link #decode(byte[], Class, String)} for {@code length} bytes at {@code offset}; a null id means "id" is required. */
    public <T extends TransportMessage> T decode(byte[] json, int offset, int length, Class<T> type, String urlSessionId) {
        Objects.checkFromIndexSize(offset, length, json.length);
        int messageType = MessageTypes.of(type);
        if (messageType == 0) {
            throw new IllegalArgumentException("the JSON form needs a concrete message class (its shapes overlap), not " + type);
        }
        if (urlSessionId != null) {
            checkUrlSessionId(urlSessionId);
        }
        if (length > limits.maxMessageBytes()) {
            throw new MalformedMessageException(Status.TOO_LARGE, MessageTypes.name(messageType) + " JSON of " + length
                    + " bytes is above the limit of " + limits.maxMessageBytes());
        }
        int bad = Utf8.checkJson(json, offset, length);
        if (bad >= 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, String.format(
                    "%s JSON at byte %d: invalid UTF-8 or raw control byte 0x%02X", MessageTypes.name(messageType),
                    bad - offset, json[bad] & 0xFF));
        }
        try (JsonParser p = factory.createParser(json, offset, length)) {
            return type.cast(new JsonReader(p, limits, messageType, urlSessionId).read());
        } catch (StreamConstraintsException e) {
            throw new MalformedMessageException(Status.TOO_LARGE, MessageTypes.name(messageType) + " JSON: "
                    + e.getOriginalMessage() + location(e), e);
        } catch (JsonEOFException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, MessageTypes.name(messageType) + " JSON truncated: "
                    + e.getOriginalMessage() + location(e), e);
        } catch (JsonProcessingException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, MessageTypes.name(messageType) + " JSON: "
                    + e.getOriginalMessage() + location(e), e);
        } catch (IOException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, MessageTypes.name(messageType) + " JSON: " + e, e);
        } catch (IllegalStateException e) {
            // Jackson's symbol table refuses names crafted to collide (FAIL_ON_SYMBOL_HASH_OVERFLOW).
            throw new MalformedMessageException(Status.BAD_REQUEST, MessageTypes.name(messageType) + " JSON: "
                    + e.getMessage(), e);
        }
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " at byte " + e.getLocation().getByteOffset();
    }

    private void checkUrlSessionId(String id) {
        int bad = TransportLimits.badSessionIdChar(id);
        if (id.isEmpty() || id.length() > limits.maxSessionIdBytes() || bad >= 0) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "session id in the URL: " + (bad >= 0
                    ? "char U+" + String.format("%04X", (int) id.charAt(bad)) + " at index " + bad + " is not one of A-Z a-z 0-9 _ -"
                    : id.length() + " chars, must be 1.." + limits.maxSessionIdBytes()));
        }
    }

}
