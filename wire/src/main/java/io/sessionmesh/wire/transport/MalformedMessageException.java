package io.sessionmesh.wire.transport;

/**
 * A transport message cannot be decoded, or breaks a limit when encoded. Carries the {@link Status} code a
 * server sends back to the peer: {@link Status#BAD_REQUEST} (malformed), {@link Status#TOO_LARGE} (a length,
 * a count or the message above its limit) or {@link Status#UNSUPPORTED_VERSION} (unknown format version,
 * message type or must-understand flag). The message names the field and the offending value and, for the
 * binary form, the byte offset from the start of the message. It never contains a session id or a value.
 */
public class MalformedMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public MalformedMessageException(int status, String message) {
        super(message);
        this.status = status;
    }

    public MalformedMessageException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The {@link Status} code to answer with. */
    public int status() {
        return status;
    }

    @Override
    public String toString() {
        return getClass().getName() + " [" + Status.name(status) + "]: " + getMessage();
    }
}
