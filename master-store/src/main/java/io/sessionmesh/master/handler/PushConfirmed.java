package io.sessionmesh.master.handler;

/**
 * A holder's confirmation of push {@code pushId} (an answer frame with the INVALIDATE opcode), as {@link RequestDecoder}
 * passes it to {@link PushHandler}; {@code flags} as they came, for the message when it is refused.
 */
public record PushConfirmed(int pushId, int flags) {
}
