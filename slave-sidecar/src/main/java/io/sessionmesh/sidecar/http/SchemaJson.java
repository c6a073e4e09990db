package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The JSON form of a schema (PROTOCOL.md 4): {@code {"uid": "hex", "schema": "base64"}}. Reading takes only the
 * schema's bytes (the uid in the path is the one that counts); any other field, or bad JSON or base64, is 400.
 */
final class SchemaJson {
    private SchemaJson() {
    }

    /** The JSON answer of {@code GET /v1/schemas/{uid}}. */
    static byte[] write(long uid, byte[] schema) {
        return ("{\"uid\":\"" + Long.toHexString(uid) + "\",\"schema\":\"" + Base64.getEncoder().encodeToString(schema)
                + "\"}").getBytes(StandardCharsets.US_ASCII);
    }

    /** The schema's bytes from the JSON body of {@code PUT /v1/schemas/{uid}}. */
    static byte[] readSchema(byte[] json) {
        try (JsonParser p = new JsonFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "schema JSON: expected an object");
            }
            byte[] schema = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("schema")) {
                    schema = Base64.getDecoder().decode(p.getText());
                } else if (!field.equals("uid")) {
                    throw new MalformedMessageException(Status.BAD_REQUEST, "schema JSON: unknown field \"" + field + "\"");
                }
            }
            if (schema == null) {
                throw new MalformedMessageException(Status.BAD_REQUEST, "schema JSON: \"schema\" is missing");
            }
            return schema;
        } catch (IOException | IllegalArgumentException e) {
            throw new MalformedMessageException(Status.BAD_REQUEST, "schema JSON: " + e.getMessage());
        }
    }
}
