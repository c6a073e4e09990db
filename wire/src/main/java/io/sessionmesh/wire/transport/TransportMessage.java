package io.sessionmesh.wire.transport;

/**
 * One transport message: what {@link BinaryTransportCodec} and {@link JsonTransportCodec} encode and decode.
 * Every implementation is immutable and compares {@code byte[]} values by content.
 *
 * <p>Byte values are not copied, neither when a message is built nor when it is decoded or read: the hot
 * path carries megabytes of them. Whoever hands a {@code byte[]} to a message, or gets one from it, must
 * not modify it afterwards.
 */
public sealed interface TransportMessage permits ReadRequest, ReadResult, WriteRequest, WriteResult, ErrorMessage,
        CreateRequest, SessionCreated, SessionPrincipal, RenameRequest, PrincipalSessions {
    /** The {@link MessageTypes} constant of this message. */
    int type();
}
