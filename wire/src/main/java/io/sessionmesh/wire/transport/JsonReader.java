package io.sessionmesh.wire.transport;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one JSON document of a known message type with Jackson's streaming parser. Fields may come in any
 * order; unknown and duplicate fields are refused; counts are checked as entries arrive, before the next
 * one is read. One instance per document; not thread-safe.
 *
 * <p>Why one class of this size: it is the JSON form of every message (PROTOCOL.md 2.6), and every part shares the
 * parser's position, the limits and where an error is (section and entry), which its messages name. Like
 * {@link BinaryReader}, it keeps the bounds checks in one place rather than one copy per message type.
 */
final class JsonReader {
    private final JsonParser p;
    private final TransportLimits limits;
    private final int type;
    private final String urlSessionId;
    private final int[] base64Error = new int[1];
    /** Where we are, for error messages. */
    private String section;
    private String entry;

    JsonReader(JsonParser p, TransportLimits limits, int type, String urlSessionId) {
        this.p = p;
        this.limits = limits;
        this.type = type;
        this.urlSessionId = urlSessionId;
    }

    TransportMessage read() throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw bad("document", "expected an object, got " + p.currentToken());
        }
        TransportMessage m = switch (type) {
            case MessageTypes.ERROR -> readError();
            case MessageTypes.CREATE_REQUEST -> readCreateRequest();
            case MessageTypes.SESSION_CREATED -> readSessionCreated();
            case MessageTypes.SESSION_PRINCIPAL -> readSessionPrincipal();
            case MessageTypes.RENAME_REQUEST -> readRenameRequest();
            case MessageTypes.PRINCIPAL_SESSIONS -> readPrincipalSessions();
            default -> readSessionMessage();
        };
        JsonToken after = p.nextToken();
        if (after != null) {
            throw bad("document", "content after the end of the object: " + after);
        }
        return m;
    }

    private ErrorMessage readError() throws IOException {
        int status = -1;
        String message = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("error")) {
                checkOnce(status == -1, field);
                String name = string(field);
                status = Status.code(name);
                if (status <= Status.OK) {
                    throw bad(field, "unknown or non-error status " + Utf8.quote(name));
                }
            } else if (field.equals("message")) {
                checkOnce(message == null, field);
                message = string(field);
                int bytes = Utf8.textLength(message);
                if (bytes < 0) {
                    throw bad(field, "unpaired surrogate at index " + (-bytes - 1));
                }
                if (bytes > limits.maxErrorMessageBytes()) {
                    throw tooLarge(field, bytes + " bytes of UTF-8 is above the limit of " + limits.maxErrorMessageBytes());
                }
            } else {
                throw unknownField(field);
            }
        }
        if (status == -1) {
            throw bad("error", "missing");
        }
        return new ErrorMessage(status, message == null ? "" : message);
    }

    private CreateRequest readCreateRequest() throws IOException {
        long idle = -1;
        boolean principalSeen = false;
        String principal = null;
        boolean idSeen = false;
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("idleTimeoutSeconds")) {
                checkOnce(idle == -1, field);
                idle = timeout(field);
            } else if (field.equals("principal")) {
                checkOnce(!principalSeen, field);
                principalSeen = true;
                principal = principal(field);
            } else if (field.equals("id")) {
                checkOnce(!idSeen, field);
                idSeen = true;
                id = requestedId(field);
            } else {
                throw unknownField(field);
            }
        }
        if (principal == null && id == null) {
            return idle <= 0 ? CreateRequest.DEFAULT : new CreateRequest(idle);
        }
        return new CreateRequest(Math.max(idle, 0), principal, id);
    }

    /** {"newId": ..., "idleTimeoutSeconds": ...}: either may be left out or null (kept), not both. */
    private RenameRequest readRenameRequest() throws IOException {
        long idle = -1;
        boolean idSeen = false;
        String newId = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("idleTimeoutSeconds")) {
                checkOnce(idle == -1, field);
                idle = timeout(field);
            } else if (field.equals("newId")) {
                checkOnce(!idSeen, field);
                idSeen = true;
                newId = requestedId(field);
            } else {
                throw unknownField(field);
            }
        }
        if (newId == null && idle <= 0) {
            throw bad("document", "neither newId nor idleTimeoutSeconds (a rename needs one or both)");
        }
        return new RenameRequest(newId, Math.max(idle, 0));
    }

    /** {"principal": ..., "sessions": [...], "complete": ...}: every field required, no id twice. */
    private PrincipalSessions readPrincipalSessions() throws IOException {
        String principal = null;
        List<String> ids = null;
        Boolean complete = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "principal" -> {
                    checkOnce(principal == null, field);
                    principal = principal(field);
                    if (principal == null) {
                        throw bad(field, "null (a list of sessions is of a principal)");
                    }
                }
                case "sessions" -> {
                    checkOnce(ids == null, field);
                    ids = sessionIds(field);
                }
                case "complete" -> {
                    checkOnce(complete == null, field);
                    JsonToken t = p.currentToken();
                    if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                        throw bad(field, "expected a boolean, got " + describe(t));
                    }
                    complete = t == JsonToken.VALUE_TRUE;
                }
                default -> throw unknownField(field);
            }
        }
        if (principal == null || ids == null || complete == null) {
            throw bad(principal == null ? "principal" : ids == null ? "sessions" : "complete", "missing");
        }
        return new PrincipalSessions(principal, ids, complete);
    }

    /** An array of session ids, none twice, at most MAX_PRINCIPAL_SESSION_IDS; errors never repeat an id. */
    private List<String> sessionIds(String field) throws IOException {
        expect(JsonToken.START_ARRAY, field);
        List<String> ids = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (ids.size() == TransportLimits.MAX_PRINCIPAL_SESSION_IDS) {
                throw tooLarge(field, "more than " + TransportLimits.MAX_PRINCIPAL_SESSION_IDS + " session ids");
            }
            String id = sessionId();
            if (!seen.add(id)) {
                throw bad(field, "a session id is listed twice");
            }
            ids.add(id);
        }
        return ids;
    }

    /** A session id an application chose (TransportLimits.checkRequestedSessionId), or null for JSON null; never repeated. */
    private String requestedId(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        String id = string(field);
        if (id.length() > limits.maxSessionIdBytes()) {
            throw tooLarge(field, id.length() + " chars is above the limit of " + limits.maxSessionIdBytes());
        }
        try {
            return TransportLimits.checkRequestedSessionId(id);
        } catch (IllegalArgumentException e) {
            throw bad(field, e.getMessage());
        }
    }

    /** {"id": ..., "principal": ...}: the id may be left out under a URL's; the principal left out or null is none. */
    private SessionPrincipal readSessionPrincipal() throws IOException {
        String id = null;
        boolean principalSeen = false;
        String principal = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("id")) {
                checkOnce(id == null, field);
                id = sessionId();
            } else if (field.equals("principal")) {
                checkOnce(!principalSeen, field);
                principalSeen = true;
                principal = principal(field);
            } else {
                throw unknownField(field);
            }
        }
        id = idOrUrl(id);
        return new SessionPrincipal(id, principal);
    }

    /**
     * The session id of a body under a URL that names one: the URL's (a body's own id must be the same), or the body's
     * where the URL names none (then it is required).
     */
    private String idOrUrl(String id) {
        if (urlSessionId != null) {
            if (id != null && !id.equals(urlSessionId)) {
                throw bad("id", "names another session than the URL"); // neither id is repeated: they are secrets
            }
            return urlSessionId;
        }
        if (id == null) {
            throw bad("id", "missing");
        }
        return id;
    }

    /** A principal (TransportLimits.checkPrincipal's rules), or null for JSON null; the message never repeats it. */
    private String principal(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        String principal = string(field);
        int bytes = Utf8.nameLength(principal);
        if (bytes > TransportLimits.MAX_PRINCIPAL_BYTES) {
            throw tooLarge(field, bytes + " bytes of UTF-8 is above the limit of " + TransportLimits.MAX_PRINCIPAL_BYTES);
        }
        try {
            return TransportLimits.checkPrincipal(principal);
        } catch (IllegalArgumentException e) {
            throw bad(field, e.getMessage());
        }
    }

    private SessionCreated readSessionCreated() throws IOException {
        String id = null;
        long idle = -1;
        long life = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "id" -> {
                    checkOnce(id == null, field);
                    id = sessionId();
                }
                case "idleTimeoutSeconds" -> {
                    checkOnce(idle == -1, field);
                    idle = version(field);
                }
                case "maxLifetimeSeconds" -> {
                    checkOnce(life == -1, field);
                    life = version(field);
                }
                default -> throw unknownField(field);
            }
        }
        if (id == null || idle == -1 || life == -1) {
            throw bad(id == null ? "id" : idle == -1 ? "idleTimeoutSeconds" : "maxLifetimeSeconds", "missing");
        }
        return new SessionCreated(id, idle, life);
    }

    private long timeout(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return 0;
        }
        long v = version(field);
        if (v > CreateRequest.MAX_IDLE_TIMEOUT_SECONDS) {
            throw bad(field, v + " s is above the limit of " + CreateRequest.MAX_IDLE_TIMEOUT_SECONDS + " s");
        }
        return v;
    }

    private TransportMessage readSessionMessage() throws IOException {
        String id = null;
        Object body = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("id")) {
                checkOnce(id == null, field);
                id = sessionId();
            } else if (field.equals("sections")) {
                checkOnce(body == null, field);
                body = sections();
            } else {
                throw unknownField(field);
            }
        }
        section = null;
        entry = null;
        if (body == null) {
            throw bad("sections", "missing");
        }
        id = idOrUrl(id);
        return build(id, body);
    }

    @SuppressWarnings("unchecked")
    private TransportMessage build(String id, Object body) {
        switch (type) {
            case MessageTypes.READ_REQUEST:
                return ReadRequest.trusted(id, (List<String>) body);
            case MessageTypes.READ_RESULT:
                return ReadResult.trusted(id, (List<SectionData>) body);
            case MessageTypes.WRITE_REQUEST:
                return WriteRequest.trusted(id, (List<SectionDelta>) body);
            default:
                return WriteResult.trusted(id, (Map<String, Long>) body);
        }
    }

    private Object sections() throws IOException {
        if (type == MessageTypes.READ_REQUEST) {
            return names("sections", true, limits.maxSectionsPerMessage(), null);
        }
        expect(JsonToken.START_OBJECT, "sections");
        List<SectionData> read = type == MessageTypes.READ_RESULT ? new ArrayList<>() : null;
        List<SectionDelta> deltas = type == MessageTypes.WRITE_REQUEST ? new ArrayList<>() : null;
        Map<String, Long> versions = type == MessageTypes.WRITE_RESULT ? new LinkedHashMap<>() : null;
        Set<String> seen = new HashSet<>();
        int n = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = name(p.currentName(), "section name");
            section = name;
            if (++n > limits.maxSectionsPerMessage()) {
                throw tooLarge("sections", "more than the limit of " + limits.maxSectionsPerMessage());
            }
            if (!seen.add(name)) {
                throw bad("sections", "duplicate section " + Utf8.quote(name));
            }
            p.nextToken();
            expect(JsonToken.START_OBJECT, "section");
            if (read != null) {
                read.add(sectionData(name));
            } else if (deltas != null) {
                deltas.add(delta(name));
            } else {
                versions.put(name, writeResultSection());
            }
            entry = null;
        }
        section = null;
        return read != null ? Collections.unmodifiableList(read)
                : deltas != null ? Collections.unmodifiableList(deltas) : Collections.unmodifiableMap(versions);
    }

    private SectionData sectionData(String name) throws IOException {
        long version = -1;
        Map<String, byte[]> attributes = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("version")) {
                checkOnce(version == -1, field);
                version = version(field);
            } else if (field.equals("attributes")) {
                checkOnce(attributes == null, field);
                attributes = attributes(field);
            } else {
                throw unknownField(field);
            }
        }
        if (version == -1) {
            throw bad("version", "missing");
        }
        return SectionData.trusted(name, version, attributes == null ? Collections.emptyMap() : attributes);
    }

    private SectionDelta delta(String name) throws IOException {
        long ifVersion = SectionDelta.NO_VERSION;
        boolean seenIfVersion = false;
        Map<String, byte[]> set = null;
        List<String> remove = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("ifVersion")) {
                checkOnce(!seenIfVersion, field);
                seenIfVersion = true;
                ifVersion = p.currentToken() == JsonToken.VALUE_NULL ? SectionDelta.NO_VERSION : version(field);
            } else if (field.equals("set")) {
                checkOnce(set == null, field);
                set = attributes(field);
            } else if (field.equals("remove")) {
                checkOnce(remove == null, field);
                remove = names(field, false, limits.maxAttributesPerSection(), set);
            } else {
                throw unknownField(field);
            }
        }
        if (set == null) {
            set = Collections.emptyMap();
        } else if (remove != null) {
            for (String r : remove) { // "remove" came first
                if (set.containsKey(r)) {
                    entry = r;
                    throw bad("remove", "attribute " + Utf8.quote(r) + " is both set and removed");
                }
            }
        }
        return SectionDelta.trusted(name, ifVersion, set, remove == null ? Collections.emptyList() : remove);
    }

    private Long writeResultSection() throws IOException {
        long version = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (!field.equals("version")) {
                throw unknownField(field);
            }
            checkOnce(version == -1, field);
            version = version(field);
        }
        if (version == -1) {
            throw bad("version", "missing");
        }
        return version;
    }

    private Map<String, byte[]> attributes(String field) throws IOException {
        expect(JsonToken.START_OBJECT, field);
        Map<String, byte[]> attributes = new LinkedHashMap<>();
        int max = limits.maxAttributesPerSection();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = name(p.currentName(), "attribute name");
            entry = name;
            if (attributes.size() == max) {
                throw tooLarge(field, "more than the limit of " + max + " attributes");
            }
            p.nextToken();
            if (attributes.put(name, value(field)) != null) {
                throw bad(field, "duplicate attribute " + Utf8.quote(name));
            }
        }
        entry = null;
        return Collections.unmodifiableMap(attributes);
    }

    private byte[] value(String field) throws IOException {
        expect(JsonToken.VALUE_STRING, field);
        char[] c = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        int pad = Base64Codec.padding(c, off, len);
        if (pad < 0) {
            throw bad(field, "base64 of " + len + " chars: not a multiple of 4 (standard base64 with padding)");
        }
        long size = Base64Codec.decodedLength(len, pad);
        if (size > limits.maxAttributeValueBytes()) {
            throw tooLarge(field, "value of " + size + " bytes is above the limit of " + limits.maxAttributeValueBytes());
        }
        byte[] value = Base64Codec.decode(c, off, len, pad, base64Error);
        if (value == null) {
            int i = base64Error[0];
            throw bad(field, "bad base64 char U+" + String.format("%04X", (int) c[off + i]) + " at index " + i
                    + " of the value (standard alphabet, padding only at the end, unused bits zero)");
        }
        return value;
    }

    /** Distinct names; with {@code set}, none of its keys. */
    private List<String> names(String field, boolean sectionNames, int max, Map<String, byte[]> set) throws IOException {
        expect(JsonToken.START_ARRAY, field);
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (names.size() == max) {
                throw tooLarge(field, "more than the limit of " + max + " names");
            }
            String name = name(string(field), sectionNames ? "section name" : "attribute name");
            if (!seen.add(name)) {
                throw bad(field, "duplicate name " + Utf8.quote(name));
            }
            if (set != null && set.containsKey(name)) {
                throw bad(field, "attribute " + Utf8.quote(name) + " is both set and removed");
            }
            names.add(name);
        }
        return Collections.unmodifiableList(names);
    }

    private String name(String name, String what) {
        int bytes = Utf8.nameLength(name);
        if (bytes < 0) {
            throw bad(what, Utf8.quote(name) + " has a control character or an unpaired surrogate at index " + (-bytes - 1));
        }
        if (bytes == 0) {
            throw bad(what, "empty");
        }
        if (bytes > limits.maxNameBytes()) {
            throw tooLarge(what, Utf8.quote(name) + " is " + bytes + " bytes of UTF-8, above the limit of " + limits.maxNameBytes());
        }
        return name;
    }

    private String sessionId() throws IOException {
        String id = string("id");
        if (id.isEmpty()) {
            throw bad("id", "empty");
        }
        if (id.length() > limits.maxSessionIdBytes()) {
            throw tooLarge("id", id.length() + " chars is above the limit of " + limits.maxSessionIdBytes());
        }
        int badChar = TransportLimits.badSessionIdChar(id);
        if (badChar >= 0) {
            throw bad("id", "char U+" + String.format("%04X", (int) id.charAt(badChar)) + " at index " + badChar
                    + " is not one of A-Z a-z 0-9 _ -");
        }
        return id;
    }

    private long version(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw bad(field, "expected a non-negative integer, got " + t);
        }
        JsonParser.NumberType nt = p.getNumberType();
        if (nt != JsonParser.NumberType.INT && nt != JsonParser.NumberType.LONG) {
            throw bad(field, "integer out of range 0.." + Long.MAX_VALUE);
        }
        long v = p.getLongValue();
        if (v < 0) {
            throw bad(field, v + " is negative");
        }
        return v;
    }

    private String string(String field) throws IOException {
        expect(JsonToken.VALUE_STRING, field);
        return p.getText();
    }

    private void expect(JsonToken expected, String field) {
        JsonToken t = p.currentToken();
        if (t != expected) {
            throw bad(field, "expected " + describe(expected) + ", got " + describe(t));
        }
    }

    private static String describe(JsonToken t) {
        if (t == null) {
            return "the end of the input";
        }
        switch (t) {
            case START_OBJECT:
                return "an object";
            case START_ARRAY:
                return "an array";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return t.toString();
        }
    }

    private void checkOnce(boolean first, String field) {
        if (!first) {
            throw bad(field, "duplicate field");
        }
    }

    private MalformedMessageException unknownField(String field) {
        return bad(Utf8.quote(field), "unknown field (fields of this version only; see PROTOCOL.md)");
    }

    private MalformedMessageException bad(String field, String problem) {
        return new MalformedMessageException(Status.BAD_REQUEST, where(field) + problem);
    }

    private MalformedMessageException tooLarge(String field, String problem) {
        return new MalformedMessageException(Status.TOO_LARGE, where(field) + problem);
    }

    /** "WRITE_REQUEST sections."a".set."k" at byte 123: " */
    private String where(String field) {
        StringBuilder sb = new StringBuilder(MessageTypes.name(type)).append(" JSON ");
        if (section != null) {
            sb.append("section ").append(Utf8.quote(section)).append(' ');
        }
        if (entry != null) {
            sb.append("attribute ").append(Utf8.quote(entry)).append(' ');
        }
        return sb.append(field).append(" at byte ").append(p.currentLocation().getByteOffset()).append(": ").toString();
    }
}
