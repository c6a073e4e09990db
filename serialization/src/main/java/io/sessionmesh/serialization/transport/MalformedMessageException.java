package io.sessionmesh.serialization.transport;

/**
 * A transport message could not be decoded (or a model value was invalid): the status says how to
 * answer the peer ({@link Status#BAD_REQUEST}, {@link Status#TOO_LARGE} or
 * {@link Status#UNSUPPORTED_VERSION}), the message names the field and the offending value or offset.
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

    static MalformedMessageException badRequest(String message) {
        return new MalformedMessageException(Status.BAD_REQUEST, message);
    }

    static MalformedMessageException tooLarge(String message) {
        return new MalformedMessageException(Status.TOO_LARGE, message);
    }
}
