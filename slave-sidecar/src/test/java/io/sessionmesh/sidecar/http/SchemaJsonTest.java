package io.sessionmesh.sidecar.http;

import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaJsonTest {
    @Test
    void write_uidAndSchema_isTheJsonForm() {
        assertEquals("{\"uid\":\"1a2b\",\"schema\":\"AQID\"}",
                new String(SchemaJson.write(0x1a2b, new byte[] {1, 2, 3}), StandardCharsets.US_ASCII));
    }

    @Test
    void readSchema_ofItsOwnForm_isTheBytes() {
        assertArrayEquals(new byte[] {1, 2, 3}, SchemaJson.readSchema(SchemaJson.write(-1L, new byte[] {1, 2, 3})));
        assertArrayEquals(new byte[] {9}, SchemaJson.readSchema("{\"schema\": \"CQ==\"}".getBytes(StandardCharsets.US_ASCII)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[1]                                 | expected an object",
        "{\"uid\": \"ff\"}                   | \"schema\" is missing",
        "{\"schema\": \"AQID\", \"x\": 1}    | unknown field \"x\"",
        "{\"schema\": \"!!\"}                | schema JSON: ",
        "{\"schema\":                        | schema JSON: ",
    })
    void readSchema_badDocument_isBadRequestNamingTheProblem(String json, String named) {
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> SchemaJson.readSchema(json.getBytes(StandardCharsets.UTF_8)));
        assertEquals(Status.BAD_REQUEST, e.status());
        assertTrue(e.getMessage().startsWith("schema JSON: ") && e.getMessage().contains(named), e.getMessage());
    }
}
