package io.sessionmesh.wire.transport.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sessionmesh.wire.transport.BinaryTransportCodec;
import io.sessionmesh.wire.transport.JsonTransportCodec;
import io.sessionmesh.wire.transport.MalformedMessageException;
import io.sessionmesh.wire.transport.MessageTypes;
import io.sessionmesh.wire.transport.ReadRequest;
import io.sessionmesh.wire.transport.Status;
import io.sessionmesh.wire.transport.WriteRequest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * How a version-1 reader meets messages from writers that come later (PROTOCOL.md, versioning rules):
 * appended fields behind the trailer flag are skipped, anything that changes meaning is refused with
 * UNSUPPORTED_VERSION, never misread.
 */
class TransportEvolutionTest {
    private static final int FLAGS = 6;
    private static final int BODY_LENGTH = 7;
    private final BinaryTransportCodec v1 = new BinaryTransportCodec();
    private final ReadRequest request = new ReadRequest("s1", List.of("cart"));

    /** What a later writer sends: the v1 message, the trailer flag, and bytes appended to the body. */
    private byte[] withAppendedFields(byte[] v1Message, byte... appended) {
        byte[] b = Arrays.copyOf(v1Message, v1Message.length + appended.length);
        System.arraycopy(appended, 0, b, v1Message.length, appended.length);
        b[FLAGS] |= BinaryTransportCodec.FLAG_TRAILER;
        b[BODY_LENGTH + 3] += appended.length; // small bodies: the low byte is enough
        return b;
    }

    @Test
    void decode_fieldsAppendedBehindTheTrailerFlag_skipped() {
        byte[] later = withAppendedFields(v1.encode(request), (byte) 0x01, (byte) 0x02, (byte) 0x99);
        assertEquals(request, v1.decode(later));
    }

    @Test
    void decode_fieldsAppendedWithoutTheFlag_badRequest() {
        byte[] later = withAppendedFields(v1.encode(request), (byte) 0x01);
        later[FLAGS] = 0;
        assertEquals(Status.BAD_REQUEST, assertThrows(MalformedMessageException.class, () -> v1.decode(later)).status());
    }

    @Test
    void decode_newerFormatVersion_unsupportedVersion() {
        byte[] v2 = v1.encode(request);
        v2[4] = 2;
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> v1.decode(v2)).status());
    }

    @Test
    void decode_newMessageTypeOrMustUnderstandFlag_unsupportedVersion() {
        byte[] newType = v1.encode(request);
        newType[5] = (byte) (MessageTypes.PRINCIPAL_SESSIONS + 1);
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> v1.decode(newType)).status());
        byte[] newFlag = v1.encode(request);
        newFlag[FLAGS] = 0x04;
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> v1.decode(newFlag)).status());
    }

    @Test
    void decode_principalFlagOnAReadRequest_unsupportedVersion() {
        byte[] b = v1.encode(request);
        b[FLAGS] = (byte) BinaryTransportCodec.FLAG_PRINCIPAL; // defined for CREATE_REQUEST only
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> v1.decode(b)).status());
    }

    @Test
    void decode_idFlagOnAReadRequest_unsupportedVersion() {
        byte[] b = v1.encode(request);
        b[FLAGS] = (byte) BinaryTransportCodec.FLAG_ID; // defined for CREATE_REQUEST only
        assertEquals(Status.UNSUPPORTED_VERSION, assertThrows(MalformedMessageException.class, () -> v1.decode(b)).status());
    }

    @Test
    void decode_newIgnorableFlag_accepted() {
        byte[] b = v1.encode(request);
        b[FLAGS] = 0x40;
        assertEquals(request, v1.decode(b));
    }

    @Test
    void decodeJson_fieldAddedByALaterVersion_refusedRatherThanIgnored() {
        byte[] later = "{\"id\":\"s1\",\"sections\":{\"a\":{\"set\":{},\"ttl\":30}}}".getBytes(StandardCharsets.UTF_8);
        MalformedMessageException e = assertThrows(MalformedMessageException.class,
                () -> new JsonTransportCodec().decode(later, WriteRequest.class));
        assertEquals(Status.BAD_REQUEST, e.status());
    }
}
