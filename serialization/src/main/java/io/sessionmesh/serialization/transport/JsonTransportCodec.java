package io.sessionmesh.serialization.transport;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON form of transport messages, for humans, curl and non-Java callers: the same model as
 * {@link BinaryTransportCodec}, byte values as standard base64. Shapes (PROTOCOL.md and the OpenAPI
 * document of the REST API):
 * <pre>
 * ReadRequest   {"id": "s1", "sections": ["a", "b"]}
 * ReadResult    {"id": "s1", "sections": {"a": {"version": 3, "attributes": {"k": "AAE="}}}}
 * WriteRequest  {"id": "s1", "sections": {"a": {"ifVersion": 3, "set": {"k": "AAE="}, "remove": ["k2"]}}}
 * WriteResult   {"id": "s1", "sections": {"a": {"version": 4}}}
 * ErrorMessage  {"error": "CONFLICT", "message": "..."}
 * </pre>
 * In requests to the REST API the session id is in the URL, so "id" may be left out there and given to
 * the decoder instead. Unknown fields are refused (a misspelt "ifversion" must not be silently ignored).
 * Jackson's streaming API, with its read constraints set from the {@link TransportLimits}. Thread-safe.
 */
public final class JsonTransportCodec {
    private final TransportLimits limits;
    private final JsonFactory factory;

    public JsonTransportCodec(TransportLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        long base64Chars = (limits.maxValueBytes() + 2L) / 3 * 4;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(8)
                        .maxStringLength((int) Math.min(Integer.MAX_VALUE, Math.max(base64Chars, 4096) + 16))
                        .maxNameLength(TransportLimits.MAX_NAME_BYTES * 4)
                        .maxDocumentLength(limits.maxMessageBytes())
                        .build())
                .build();
    }

    /** A codec with {@link TransportLimits#DEFAULT}. */
    public JsonTransportCodec() {
        this(TransportLimits.DEFAULT);
    }

    // ------------------------------------------------------------------ encoding

    /** Encodes any model message as UTF-8 JSON. */
    public byte[] encode(Object message) {
        MessageTypes.of(message);
        try (ByteArrayBuilder out = new ByteArrayBuilder(estimate(message)); JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            if (message instanceof ErrorMessage) {
                ErrorMessage e = (ErrorMessage) message;
                g.writeStringField("error", Status.name(e.status()));
                g.writeStringField("message", e.message());
            } else if (message instanceof ReadRequest) {
                ReadRequest r = (ReadRequest) message;
                g.writeStringField("id", r.sessionId());
                g.writeArrayFieldStart("sections");
                for (String name : r.sections()) {
                    g.writeString(name);
                }
                g.writeEndArray();
            } else {
                writeSections(message, g);
            }
            g.writeEndObject();
            g.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeSections(Object message, JsonGenerator g) throws IOException {
        if (message instanceof ReadResult) {
            ReadResult r = (ReadResult) message;
            g.writeStringField("id", r.sessionId());
            g.writeObjectFieldStart("sections");
            for (SectionData s : r.sections()) {
                g.writeObjectFieldStart(s.name());
                g.writeNumberField("version", s.version());
                g.writeFieldName("attributes");
                writeValues(s.attributes(), g);
                g.writeEndObject();
            }
            g.writeEndObject();
        } else if (message instanceof WriteRequest) {
            WriteRequest r = (WriteRequest) message;
            g.writeStringField("id", r.sessionId());
            g.writeObjectFieldStart("sections");
            for (SectionDelta d : r.deltas()) {
                g.writeObjectFieldStart(d.section());
                if (d.hasIfVersion()) {
                    g.writeNumberField("ifVersion", d.ifVersion());
                }
                g.writeFieldName("set");
                writeValues(d.set(), g);
                g.writeArrayFieldStart("remove");
                for (String name : d.remove()) {
                    g.writeString(name);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndObject();
        } else {
            WriteResult r = (WriteResult) message;
            g.writeStringField("id", r.sessionId());
            g.writeObjectFieldStart("sections");
            for (Map.Entry<String, Long> e : r.versions().entrySet()) {
                g.writeObjectFieldStart(e.getKey());
                g.writeNumberField("version", e.getValue());
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    private static void writeValues(Map<String, byte[]> values, JsonGenerator g) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            g.writeFieldName(e.getKey());
            g.writeBinary(Base64Variants.MIME_NO_LINEFEEDS, e.getValue(), 0, e.getValue().length);
        }
        g.writeEndObject();
    }

    private static int estimate(Object message) {
        int size = 128;
        if (message instanceof ReadResult) {
            for (SectionData s : ((ReadResult) message).sections()) {
                for (byte[] v : s.attributes().values()) {
                    size += v.length * 4 / 3 + 40;
                }
            }
        } else if (message instanceof WriteRequest) {
            for (SectionDelta d : ((WriteRequest) message).deltas()) {
                for (byte[] v : d.set().values()) {
                    size += v.length * 4 / 3 + 40;
                }
            }
        }
        return Math.min(size, 1 << 20);
    }

    // ------------------------------------------------------------------ decoding

    public ReadRequest decodeReadRequest(byte[] json) {
        return parse(json, p -> {
            String id = null;
            List<String> sections = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "id":
                        id = text(p, "id");
                        break;
                    case "sections":
                        sections = names(p, "sections", limits.maxSections());
                        break;
                    default:
                        throw unknownField(field, "read request");
                }
            }
            return new ReadRequest(required(id, "id"), required(sections, "sections"));
        });
    }

    public ReadResult decodeReadResult(byte[] json) {
        return parse(json, p -> {
            String id = null;
            List<SectionData> sections = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "id":
                        id = text(p, "id");
                        break;
                    case "sections":
                        sections = readSections(p);
                        break;
                    default:
                        throw unknownField(field, "read result");
                }
            }
            return new ReadResult(required(id, "id"), required(sections, "sections"));
        });
    }

    /** Decodes a write request whose JSON carries its own "id". */
    public WriteRequest decodeWriteRequest(byte[] json) {
        return decodeWriteRequest(json, null);
    }

    /**
     * Decodes a write request for the session named in the URL; an "id" in the JSON, if any, must agree.
     *
     * @param sessionId the session id from the URL, or {@code null} to require one in the JSON
     */
    public WriteRequest decodeWriteRequest(byte[] json, String sessionId) {
        return parse(json, p -> {
            String id = null;
            List<SectionDelta> deltas = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "id":
                        id = text(p, "id");
                        break;
                    case "sections":
                        deltas = readDeltas(p);
                        break;
                    default:
                        throw unknownField(field, "write request");
                }
            }
            if (sessionId != null && id != null && !sessionId.equals(id)) {
                throw MalformedMessageException.badRequest("the body names session " + Names.describe(id)
                        + " but the request is for " + Names.describe(sessionId));
            }
            return new WriteRequest(required(id != null ? id : sessionId, "id"), required(deltas, "sections"));
        });
    }

    public WriteResult decodeWriteResult(byte[] json) {
        return parse(json, p -> {
            String id = null;
            Map<String, Long> versions = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "id":
                        id = text(p, "id");
                        break;
                    case "sections":
                        versions = readVersions(p);
                        break;
                    default:
                        throw unknownField(field, "write result");
                }
            }
            return new WriteResult(required(id, "id"), required(versions, "sections"));
        });
    }

    public ErrorMessage decodeError(byte[] json) {
        return parse(json, p -> {
            String error = null;
            String message = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "error":
                        error = text(p, "error");
                        break;
                    case "message":
                        message = text(p, "message");
                        break;
                    default:
                        throw unknownField(field, "error");
                }
            }
            int status = Status.fromName(required(error, "error"));
            if (status <= Status.OK) {
                throw MalformedMessageException.badRequest("unknown error code " + Names.describe(error));
            }
            return new ErrorMessage(status, message);
        });
    }

    private List<SectionData> readSections(JsonParser p) throws IOException {
        expect(p, JsonToken.START_OBJECT, "sections");
        List<SectionData> sections = new ArrayList<>();
        while (nextField(p)) {
            String name = p.currentName();
            if (sections.size() >= limits.maxSections()) {
                throw MalformedMessageException.tooLarge("more than " + limits.maxSections() + " sections");
            }
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "section " + Names.describe(name));
            long version = -1;
            Map<String, byte[]> attributes = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "version":
                        version = number(p, "version of section " + Names.describe(name));
                        break;
                    case "attributes":
                        attributes = readValues(p, "attributes of section " + Names.describe(name));
                        break;
                    default:
                        throw unknownField(field, "section " + Names.describe(name));
                }
            }
            if (version < 0) {
                throw MalformedMessageException.badRequest("section " + Names.describe(name) + " has no version");
            }
            sections.add(new SectionData(name, version, attributes == null ? Map.of() : attributes));
        }
        return sections;
    }

    private List<SectionDelta> readDeltas(JsonParser p) throws IOException {
        expect(p, JsonToken.START_OBJECT, "sections");
        List<SectionDelta> deltas = new ArrayList<>();
        while (nextField(p)) {
            String name = p.currentName();
            if (deltas.size() >= limits.maxSections()) {
                throw MalformedMessageException.tooLarge("more than " + limits.maxSections() + " sections");
            }
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "section " + Names.describe(name));
            long ifVersion = SectionDelta.NO_VERSION;
            Map<String, byte[]> set = Map.of();
            List<String> remove = List.of();
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "ifVersion":
                        ifVersion = p.currentToken() == JsonToken.VALUE_NULL ? SectionDelta.NO_VERSION
                                : number(p, "ifVersion of section " + Names.describe(name));
                        break;
                    case "set":
                        set = readValues(p, "set of section " + Names.describe(name));
                        break;
                    case "remove":
                        remove = names(p, "remove of section " + Names.describe(name), limits.maxAttributes());
                        break;
                    default:
                        throw unknownField(field, "section " + Names.describe(name));
                }
            }
            if (set.size() + remove.size() > limits.maxAttributes()) {
                throw MalformedMessageException.tooLarge("section " + Names.describe(name) + " changes "
                        + (set.size() + remove.size()) + " attributes, over the limit of " + limits.maxAttributes());
            }
            deltas.add(new SectionDelta(name, ifVersion, set, remove));
        }
        return deltas;
    }

    private Map<String, Long> readVersions(JsonParser p) throws IOException {
        expect(p, JsonToken.START_OBJECT, "sections");
        Map<String, Long> versions = new LinkedHashMap<>();
        while (nextField(p)) {
            String name = p.currentName();
            if (versions.size() >= limits.maxSections()) {
                throw MalformedMessageException.tooLarge("more than " + limits.maxSections() + " sections");
            }
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "section " + Names.describe(name));
            Long version = null;
            while (nextField(p)) {
                String field = p.currentName();
                p.nextToken();
                if (!field.equals("version")) {
                    throw unknownField(field, "section " + Names.describe(name));
                }
                version = number(p, "version of section " + Names.describe(name));
            }
            if (versions.put(name, required(version, "version of section " + Names.describe(name))) != null) {
                throw MalformedMessageException.badRequest("section " + Names.describe(name) + " appears twice");
            }
        }
        return versions;
    }

    private Map<String, byte[]> readValues(JsonParser p, String what) throws IOException {
        expect(p, JsonToken.START_OBJECT, what);
        Map<String, byte[]> values = new LinkedHashMap<>();
        while (nextField(p)) {
            String name = p.currentName();
            if (values.size() >= limits.maxAttributes()) {
                throw MalformedMessageException.tooLarge(what + " has more than " + limits.maxAttributes() + " attributes");
            }
            expect(p, p.nextToken(), JsonToken.VALUE_STRING, "value of attribute " + Names.describe(name));
            if ((long) p.getTextLength() * 3 / 4 > limits.maxValueBytes() + 2) {
                throw MalformedMessageException.tooLarge("value of attribute " + Names.describe(name) + " is over the limit of "
                        + limits.maxValueBytes() + " bytes");
            }
            byte[] value;
            try {
                value = p.getBinaryValue(Base64Variants.MIME_NO_LINEFEEDS);
            } catch (IOException | IllegalArgumentException e) {
                throw MalformedMessageException.badRequest("value of attribute " + Names.describe(name)
                        + " is not valid base64: " + e.getMessage());
            }
            if (value.length > limits.maxValueBytes()) {
                throw MalformedMessageException.tooLarge("value of attribute " + Names.describe(name) + " has " + value.length
                        + " bytes, over the limit of " + limits.maxValueBytes());
            }
            if (values.put(name, value) != null) {
                throw MalformedMessageException.badRequest("attribute " + Names.describe(name) + " appears twice in " + what);
            }
        }
        return values;
    }

    private static List<String> names(JsonParser p, String what, int max) throws IOException {
        expect(p, JsonToken.START_ARRAY, what);
        List<String> names = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (names.size() >= max) {
                throw MalformedMessageException.tooLarge(what + " has more than " + max + " names");
            }
            expect(p, t, JsonToken.VALUE_STRING, "name in " + what);
            names.add(p.getText());
        }
        return names;
    }

    // ------------------------------------------------------------------ parsing helpers

    @FunctionalInterface
    private interface Body<T> {
        T read(JsonParser p) throws IOException;
    }

    private <T> T parse(byte[] json, Body<T> body) {
        Objects.requireNonNull(json, "json");
        if (json.length > limits.maxMessageBytes()) {
            throw MalformedMessageException.tooLarge("JSON body of " + json.length + " bytes is over the limit of "
                    + limits.maxMessageBytes());
        }
        try (JsonParser p = factory.createParser(json)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "the message");
            T result = body.read(p);
            if (p.nextToken() != null) {
                throw MalformedMessageException.badRequest("unexpected content after the JSON object at "
                        + p.currentLocation().getByteOffset());
            }
            return result;
        } catch (MalformedMessageException e) {
            throw e;
        } catch (StreamConstraintsException e) {
            throw MalformedMessageException.tooLarge("JSON over a limit: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw MalformedMessageException.badRequest("malformed JSON: " + e.getMessage().split("\n")[0]);
        }
    }

    private static boolean nextField(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.END_OBJECT) {
            return false;
        }
        if (t != JsonToken.FIELD_NAME) {
            throw MalformedMessageException.badRequest("expected a field name but found " + t + " at byte "
                    + p.currentLocation().getByteOffset());
        }
        return true;
    }

    private static void expect(JsonParser p, JsonToken expected, String what) {
        expect(p, p.currentToken(), expected, what);
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken expected, String what) {
        if (actual != expected) {
            throw MalformedMessageException.badRequest(what + " must be " + describe(expected) + " but is "
                    + (actual == null ? "missing" : describe(actual)) + " at byte " + p.currentLocation().getByteOffset());
        }
    }

    private static String describe(JsonToken t) {
        switch (t) {
            case START_OBJECT:
                return "an object";
            case START_ARRAY:
                return "an array";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
                return "an integer";
            default:
                return t.asString() != null ? "'" + t.asString() + "'" : t.name().toLowerCase();
        }
    }

    private static String text(JsonParser p, String what) throws IOException {
        expect(p, JsonToken.VALUE_STRING, what);
        return p.getText();
    }

    private static long number(JsonParser p, String what) throws IOException {
        expect(p, JsonToken.VALUE_NUMBER_INT, what);
        if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
            throw MalformedMessageException.badRequest(what + " is out of range: " + p.getText());
        }
        long v = p.getLongValue();
        if (v < 0) {
            throw MalformedMessageException.badRequest(what + " must not be negative: " + v);
        }
        return v;
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw MalformedMessageException.badRequest("missing field \"" + field + "\"");
        }
        return value;
    }

    private static MalformedMessageException unknownField(String field, String where) {
        return MalformedMessageException.badRequest("unknown field " + Names.describe(field) + " in " + where);
    }
}
